"""Standard targets for OPR estimates: "what does my unit do to a typical ...?"

One of each body type the points spec names as typical in its toughness table
(`docs/rules/opr-points.md` §4): plain infantry, armoured elites, a monster, a light vehicle and a
battle tank. They are written for this project in the unit format and priced by the
points engine like any unit.
"""

from __future__ import annotations

from typing import Any

from points.catalogue.i18n import gettext_noop


def _unit(name: str, model: str, count: int, quality: int, defence: int, toughness: int,
          rules: list[str] | None = None) -> dict[str, Any]:
    return {
        "format": 1, "system": "opr", "name": name,
        "models": [{"name": model, "count": count, "quality": quality, "defence": defence,
                    "toughness": toughness, "rules": rules or [],
                    "weapons": [{"name": "Hand Weapon", "range": 0, "attacks": 1, "ap": 0, "rules": []}]}],
    }


REFERENCE_TARGETS: dict[str, dict[str, Any]] = {
    "infantry-10": _unit(gettext_noop("Infantry (10 × D5 T1)"), "Trooper", 10, 4, 5, 1),
    "elites-5": _unit(gettext_noop("Armoured elites (5 × D3 T2)"), "Elite", 5, 3, 3, 2),
    "bikes-3": _unit(gettext_noop("Bikers (3 × D4 T3)"), "Biker", 3, 4, 4, 3, ["Fast"]),
    "monster-1": _unit(gettext_noop("Monster (1 × D4 T9)"), "Monster", 1, 4, 4, 9, ["Fearless"]),
    "light-vehicle-1": _unit(gettext_noop("Light vehicle (1 × D3 T6)"), "Light Vehicle", 1, 4, 3, 6),
    "battle-tank-1": _unit(gettext_noop("Battle tank (1 × D2 T12)"), "Battle Tank", 1, 4, 2, 12),
}
