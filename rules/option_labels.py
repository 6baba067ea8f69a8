"""An option's label as the reader reads it.

Most labels are the catalogue's own words (a bundled faction translates them in its
`translations`, `Faction.in_reader_language`; an imported one is the player's data, shown as
written). The BattleScribe importer writes one kind of label itself, an add-models option's
"Add Burna Boy (up to 14)": that one is our sentence, not the data's, so a Polish, Czech or
Russian reader must read it in their language. The importer keeps the English label (saved
lists, the text export and the text importer read it) and writes its parts in the option's
payload, `"label_parts": {"model": "Burna Boy", "per": 1, "up_to": 14}`; the label is made
again from them, through gettext, when it is shown. An option without the parts (every other
option, and units imported before the parts were written) shows its label as stored.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import ngettext

#: The payload key of a generated label's parts.
LABEL_PARTS = "label_parts"


def generated_label_parts(model: str, up_to: int, per: int = 1) -> dict[str, Any]:
    """The parts the importer writes for "Add `per` `model` (up to `up_to`)"."""
    return {"model": model, "per": per, "up_to": up_to}


def option_label(option: Mapping[str, Any]) -> str:
    """`option`'s label in the current language when the importer generated it (made from its
    parts), any other as stored: the callers then show that in the reader's language where a
    bundled faction translates it (`Faction.in_reader_language`), as before. Only imported
    factions have generated labels, and those translate no names."""
    written = str(option.get("label") or "")
    payload = option.get("payload")
    parts = payload.get(LABEL_PARTS) if isinstance(payload, Mapping) else None
    if option.get("kind") != "add_models" or not isinstance(parts, Mapping):
        return written
    try:
        name, per, up_to = str(parts["model"]), int(parts.get("per", 1)), int(parts["up_to"])
    except (KeyError, TypeError, ValueError):
        return written
    if not name:
        return written
    if per == 1:
        return ngettext("Add %(name)s (up to %(count)d)", "Add %(name)s (up to %(count)d)", up_to) % {
            "name": name,
            "count": up_to,
        }
    return ngettext(
        "Add %(per)d %(name)s (up to %(count)d)", "Add %(per)d %(name)s (up to %(count)d)", up_to
    ) % {"per": per, "name": name, "count": up_to}
