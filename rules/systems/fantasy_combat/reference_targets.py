"""Typical Warhammer Fantasy enemies for "what does my unit do to a typical X?".

Written for this project in the unit format (`rules.systems.fantasy_combat` docstring); the
profiles are the classic ones of the troop types the digest describes (§3), not army-book
entries.

**Points are ours.** The seeds print no points, so each target carries this project's own
points a model (`POINTS`, also in its name), priced as the system prices its lists: the
catalogue points of a model, here those of the nearest model of the system's bundled sample
armies (`BUNDLED_PEERS`: the same kit at the same cost). Without them the gauntlet of a WHFB
list could only count models, and a 60-pt hero could not be compared with a 195-pt troll
(issue 43).
"""

from __future__ import annotations

from typing import Any

from points.catalogue.i18n import gettext_noop

#: Points a model of each target, per system. Spearmen, orcs and knights cost what the bundled
#: model of the same kit costs (`BUNDLED_PEERS`); an ogre and a dragon have no bundled peer and
#: sit on the same scale (the Mire Troll, S5 T4 W3 with regeneration, is 65; the Ash-Gorer,
#: T5 W5, 160).
POINTS: dict[str, dict[str, int]] = {
    "whfb6": {"spearmen-20": 6, "orcs-20": 7, "knights-5": 26, "ogres-4": 40, "dragon-1": 300},
    "ru_whfb": {"spearmen-20": 6, "orcs-20": 7, "knights-5": 27, "ogres-4": 40, "dragon-1": 300},
}

#: The bundled model whose points a target's model takes: target → (faction, unit, model).
BUNDLED_PEERS: dict[str, dict[str, tuple[str, str, str]]] = {
    "whfb6": {
        "spearmen-20": ("vellmark-freeholds", "freeholder-spearmen", "Spearman"),
        "knights-5": ("vellmark-freeholds", "knights-of-the-ashen-vow", "Ashen Knight"),
    },
    "ru_whfb": {
        "spearmen-20": ("wardens-of-kholm", "kholm-militia", "Militiaman"),
        "orcs-20": ("ashfang-horde", "ashkin-raiders", "Ashkin"),
        "knights-5": ("wardens-of-kholm", "boyar-druzhina", "Druzhinnik"),
    },
}


#: Every name `_named` composes, marked so `makemessages` finds them: a page shows a target by
#: its name in the reader's language (`armybuilder.estimates.sources.target_name`), while the
#: unit keeps its English name as data. A test checks that each composed name is listed here.
TRANSLATED_NAMES: tuple[str, ...] = (
    gettext_noop("Spearmen (20, light armour, shield; our 6 pts each)"),
    gettext_noop("Orc Boyz (20, light armour, shield; our 7 pts each)"),
    gettext_noop("Knights (5, heavy armour, shield, barding; our 26 pts each)"),
    gettext_noop("Knights (5, heavy armour, shield, barding; our 27 pts each)"),
    gettext_noop("Ogres (4, light armour; our 40 pts each)"),
    gettext_noop("Dragon (T6 W6, scaly skin 3+; our 300 pts)"),
)


def _unit(system: str, name: str, model: dict[str, Any]) -> dict[str, Any]:
    return {"format": 1, "system": system, "name": name, "models": [model]}


def _named(name: str, points: int, count: int) -> str:
    """"Spearmen (20, light armour, shield; our 6 pts each)": the name says whose points they are."""
    return f"{name[:-1]}; our {points} pts{' each' if count > 1 else ''})"


def reference_targets(system: str) -> dict[str, dict[str, Any]]:
    """Five targets: light infantry, armoured infantry, knights, ogre-sized, a monster; each
    model at its `POINTS` of `system`."""
    targets = _targets(system)
    for key, unit in targets.items():
        model = unit["models"][0]
        model["points"] = POINTS[system][key]
        unit["name"] = _named(unit["name"], model["points"], model["count"])
    return targets


def _targets(system: str) -> dict[str, dict[str, Any]]:
    base = {"m": 4, "ws": 3, "bs": 3, "s": 3, "t": 3, "w": 1, "i": 3, "a": 1, "ld": 7}
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
