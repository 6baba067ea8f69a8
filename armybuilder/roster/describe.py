"""Short descriptions of a unit of a list, shared by the editor rows, rosters and text export.

They read only the envelope every system shares (`models[]` with `count`, `weapons[]`,
`rules[]`; `docs/unit-format.md`), so they work for every game system.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _

from armybuilder.lists.backends import rows as list_rows
from armybuilder.models import ListUnit
from rules.option_labels import option_label


def model_count(unit: Mapping[str, Any]) -> int:
    """How many models the unit has (the sum of each profile's `count`)."""
    return sum(int(model.get("count") or 0) for model in unit.get("models") or [])


def weapon_counts(unit: Mapping[str, Any]) -> list[tuple[str, int]]:
    """Each weapon name with how many models carry it, in the order they first appear."""
    counts: dict[str, int] = {}
    for model in unit.get("models") or []:
        for weapon in model.get("weapons") or []:
            name = str(weapon.get("name") or "")
            counts[name] = counts.get(name, 0) + int(model.get("count") or 0)
    return list(counts.items())


def counted(name: str, count: int) -> str:
    """`"4x Rifle"`, or just `"Rifle"` for one."""
    return f"{count}x {name}" if count != 1 else name


def weapon_summary(unit: Mapping[str, Any], shown: Callable[[str], str] = str) -> str:
    """`"4x Rifle, 4x Blade, Plasma Gun"`, each name as `shown` gives it (the reader's
    language: `ListUnit.option_text`)."""
    return ", ".join(counted(shown(name), count) for name, count in weapon_counts(unit))


def chosen_upgrades(list_unit: ListUnit, *, in_reader_language: bool = True) -> list[str]:
    """Labels of the options the player took, in menu order, with their counts: in the
    reader's language where the bundled faction translates them, or as the catalogue writes
    them (`in_reader_language=False`: the text export, which the text importer reads back).

    Options of one label are counted together, where they first appear: a unit of the roster
    engine offers each model's choices apart (six Marines, each with a Gun to choose), and its
    row reads "5x Boltgun, Plasma gun" as a bundled unit's does, not "Boltgun" five times.
    An option whose count cannot be changed (`included`: the Sergeant every squad has, what a
    chosen weapon pair holds) is no choice of the player's and is left out: a Necron Overlord
    read "Tachyon Arrow and Hyperphase Glaive, Tachyon Arrow, Hyperphase Glaive"."""
    counts: dict[str, int] = {}
    for option in list_unit.available_options:
        count = int(list_unit.chosen_options.get(option["key"], 0))
        if count and not included(option):
            written = str(option.get("label") or "")
            shown = list_unit.option_text(option_label(option)) if in_reader_language else written
            label = shown or option["key"]
            counts[label] = counts.get(label, 0) + count
    return [counted(label, count) for label, count in counts.items()]


def included(option: Mapping[str, Any]) -> bool:
    """Whether `option` is fixed content of its unit or of another option taken: it must have as
    many as it may have (`min_count` equal to `max_count`), so the player chose nothing."""
    return option.get("min_count") is not None and option.get("min_count") == option.get("max_count")


def configuration_line(units: Sequence[ListUnit], *, points: bool = True) -> str:
    """"(Configuration: Battle Size (Strike Force), Dynasty Choice [15 pts] (Dynasty: Starbound))"
    for a roster's configuration rows (`backends.rows.is_configuration`), each with its points
    where it costs any (`points`: the list counts points) and the options it has taken, with
    their counts; empty when the list has none. The text import reads it back
    (`lists.importers.text_configuration`), so the rows and what they cost come back."""
    rows = []
    for unit in list_rows.configuration(units):
        chosen = unit.chosen_options or {}
        options = unit.available_options or []
        taken = [
            counted(str(o.get("label", "")).strip(), int(chosen[o["key"]]))
            for o in options
            if chosen.get(o.get("key"))
        ]
        row = unit.name
        if points and unit.points:
            row += f" [{_('%(points)d pts') % {'points': unit.points}}]"
        rows.append(f"{row} ({', '.join(taken)})" if taken else row)
    # In brackets: a line the text importer passes over, as it does our "(Units hidden …)".
    return _("(Configuration: %(rows)s)") % {"rows": ", ".join(rows)} if rows else ""
