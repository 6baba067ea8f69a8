"""Typical Age of Sigmar targets, written for this project (the sheet has no warscrolls, §0)."""

from __future__ import annotations

from typing import Any

from points.catalogue.i18n import gettext_noop


def _unit(name: str, model: str, count: int, wounds: int, save: int | None, bravery: int) -> dict[str, Any]:
    return {
        "format": 1,
        "system": "aos1",
        "name": name,
        "models": [
            {
                "name": model,
                "count": count,
                "move": 5,
                "wounds": wounds,
                "save": save,
                "bravery": bravery,
                "points": 0,
                "weapons": [
                    {
                        "name": "Blade",
                        "type": "melee",
                        "range": 1,
                        "attacks": 1,
                        "to_hit": 4,
                        "to_wound": 4,
                        "rend": 0,
                        "damage": 1,
                    }
                ],
            }
        ],
    }


REFERENCE_TARGETS: dict[str, dict[str, Any]] = {
    "horde-20": _unit(gettext_noop("Horde (20 × W1, 6+ save, Bravery 5)"), "Warrior", 20, 1, 6, 5),
    "infantry-10": _unit(gettext_noop("Infantry (10 × W1, 4+ save, Bravery 6)"), "Soldier", 10, 1, 4, 6),
    "elites-5": _unit(gettext_noop("Elites (5 × W2, 3+ save, Bravery 7)"), "Elite", 5, 2, 3, 7),
    "brutes-3": _unit(gettext_noop("Brutes (3 × W4, 5+ save, Bravery 7)"), "Brute", 3, 4, 5, 7),
    "monster-1": _unit(gettext_noop("Monster (1 × W12, 4+ save, Bravery 8)"), "Monster", 1, 12, 4, 8),
}
