"""Typical Warhammer Fantasy enemies for "what does my unit do to a typical X?".

Written for this project in the unit format (`rules.systems.fantasy_combat` docstring); the
profiles are the classic ones of the troop types the digest describes (§3), not army-book
entries, and carry no points (the seeds print none).
"""

from __future__ import annotations

from typing import Any


def _unit(system: str, name: str, model: dict[str, Any]) -> dict[str, Any]:
    return {"format": 1, "system": system, "name": name, "models": [model]}


def reference_targets(system: str) -> dict[str, dict[str, Any]]:
    """Five targets: light infantry, armoured infantry, knights, ogre-sized, a monster."""
    base = {"m": 4, "ws": 3, "bs": 3, "s": 3, "t": 3, "w": 1, "i": 3, "a": 1, "ld": 7, "points": 0}
    return {
        "spearmen-20": _unit(
            system,
            "Spearmen (20, light armour, shield)",
            {
                **base,
                "name": "Spearman",
                "count": 20,
                "troop_type": "infantry",
                "armour": "light",
                "shield": True,
                "weapons": [{"name": "Spear", "range": 0, "strength": "user", "kind": "spear"}],
            },
        ),
        "orcs-20": _unit(
            system,
            "Orc Boyz (20, light armour, shield)",
            {
                **base,
                "name": "Orc",
                "count": 20,
                "t": 4,
                "i": 2,
                "troop_type": "infantry",
                "armour": "light",
                "shield": True,
                "weapons": [{"name": "Hand weapon", "range": 0, "strength": "user"}],
            },
        ),
        "knights-5": _unit(
            system,
            "Knights (5, heavy armour, shield, barding)",
            {
                **base,
                "name": "Knight",
                "count": 5,
                "ws": 4,
                "s": 3,
                "i": 3,
                "ld": 8,
                "troop_type": "cavalry",
                "armour": "heavy",
                "shield": True,
                "barding": True,
                "mount": {"name": "Warhorse", "ws": 3, "s": 3, "i": 3, "a": 1},
                "weapons": [{"name": "Lance", "range": 0, "strength": "user", "kind": "lance"}],
            },
        ),
        "ogres-4": _unit(
            system,
            "Ogres (4, light armour)",
            {
                **base,
                "name": "Ogre",
                "count": 4,
                "m": 6,
                "s": 4,
                "t": 4,
                "w": 3,
                "i": 2,
                "a": 3,
                "troop_type": "monstrous",
                "armour": "light",
                "rules": ["Fear"],
                "weapons": [{"name": "Hand weapon", "range": 0, "strength": "user"}],
            },
        ),
        "dragon-1": _unit(
            system,
            "Dragon (T6 W6, scaly skin 3+)",
            {
                **base,
                "name": "Dragon",
                "count": 1,
                "m": 6,
                "ws": 6,
                "s": 6,
                "t": 6,
                "w": 6,
                "i": 3,
                "a": 5,
                "ld": 8,
                "troop_type": "monster",
                "scaly_skin": 3,
                "rules": ["Terror", "Large Target"],
            },
        ),
    }
