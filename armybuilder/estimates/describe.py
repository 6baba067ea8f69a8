"""How an estimate is named to a person: its title and its situation in words.

Read from the job's inputs, so a page needs nothing but the row (the units' own names, the
lists' names, the situation's flags), and translated when shown.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from armybuilder.estimates.models import Estimate
from rules.systems.registry import get_system

#: Words for the yes/no fields of a situation that are true.
_FLAG_WORDS = {
    "charging": lambda: _("charging"),
    "attacker_moved": lambda: _("the attacker moved"),
    "defender_in_cover": lambda: _("the defender is in cover"),
    "defender_activated": lambda: _("the defender has activated"),
    "enemies_within_12": lambda: _("other enemies within 12″"),
}


def _name(side: Any, fallback: str) -> str:
    return str(side.get("name") or fallback) if isinstance(side, Mapping) else fallback


def estimate_title(*, kind: str, inputs: Mapping[str, Any] | None = None,
                   names: tuple[str | None, str | None] = (None, None)) -> str:
    """"Veterans attacking Infantry" or "Patrol against Horde": from the inputs, or from the
    two names a listing read from them (`selectors.estimates_of`)."""
    inputs = inputs or {}
    if kind == Estimate.Kind.LIST_VS_LIST:
        a = names[0] or _name(inputs.get("list_a"), _("list A"))
        b = names[1] or _name(inputs.get("list_b"), _("list B"))
        return _("%(a)s against %(b)s") % {"a": a, "b": b}
    attacker = names[0] or _name(inputs.get("attacker"), _("the attacker"))
    defender = names[1] or _name(inputs.get("defender"), _("the defender"))
    return _("%(attacker)s attacking %(defender)s") % {"attacker": attacker, "defender": defender}


def situation_text(situation: Mapping[str, Any] | None) -> str:
    """"Shooting at 12″, the defender is in cover" — every flag that is set, in words."""
    if not situation:
        return ""
    parts = []
    if situation.get("mode") == "melee":
        parts.append(_("melee"))
    else:
        inches = situation.get("range_inches")
        if isinstance(inches, int | float):
            parts.append(ngettext("shooting at %(inches)s″", "shooting at %(inches)s″", int(inches))
                         % {"inches": f"{inches:g}"})
        else:
            parts.append(_("shooting"))
    parts += [words() for flag, words in _FLAG_WORDS.items() if situation.get(flag)]
    text = ", ".join(parts)
    return text[:1].upper() + text[1:]


def system_name(key: str) -> str:
    """The registered system's name, or its key for a system no longer installed."""
    try:
        return get_system(key).name
    except KeyError:
        return key


def estimate_subtitle(*, estimate: Estimate) -> str:
    """What the question is about, in one line: the kind of estimate and its game system."""
    if estimate.kind == Estimate.Kind.LIST_VS_LIST:
        return _("Every unit of each list against every unit of the other · %(system)s") % {
            "system": system_name(estimate.system)}
    return _("Expected damage of one attack · %(system)s") % {"system": system_name(estimate.system)}
