"""The Warhammer Fantasy profile (M WS BS S T W I A Ld, armour and ward saves), shared by the
WHFB 6th edition digest (`shared/spec/systems/000_whfb6.md` §2, §7, §12) and the Russian
house rules (`004_ru.md` §1.1–1.2), which use the same characteristics."""

from __future__ import annotations

from typing import Any

from rules.systems.profile_fields import characteristic, envelope, roll_target

#: Troop types of the Unit Strength table (000_whfb6.md §3.1, 004_ru.md §1.3).
TROOP_TYPES = (
    "infantry",
    "cavalry",
    "monstrous",
    "chariot",
    "war_machine",
    "monster",
    "ridden_monster",
    "swarm",
    "character",
)

PROFILE: dict[str, Any] = {
    "m": characteristic("M", "Movement in inches", maximum=20),
    "ws": characteristic("WS", "Weapon Skill"),
    "bs": characteristic("BS", "Ballistic Skill"),
    "s": characteristic("S", "Strength"),
    "t": characteristic("T", "Toughness"),
    "w": characteristic("W", "Wounds", maximum=20),
    "i": characteristic("I", "Initiative"),
    "a": characteristic("A", "Attacks"),
    "ld": characteristic("Ld", "Leadership"),
    "save": roll_target("Sv", "Armour save (4 is 4+), from armour, shield, mount and barding", minimum=1),
    "ward": roll_target("Ward", "Ward (special) save, never modified"),
}

#: A weapon: range 0 is a close-combat weapon; strength is a number, "user", or a bonus "+1".
WEAPON: dict[str, Any] = {
    "range": {
        "title": "Range",
        "description": "Inches; 0 is a close-combat weapon",
        "type": "integer",
        "minimum": 0,
        "maximum": 120,
    },
    "strength": {
        "title": "S",
        "description": 'A number, "user", or a bonus to the user\'s S ("+1")',
        "oneOf": [
            {"type": "integer", "minimum": 0, "maximum": 10},
            {"type": "string", "pattern": r"^(user|[+][1-9])$"},
        ],
    },
}

EXTRA: dict[str, Any] = {
    "character": {
        "title": "Character",
        "description": "A Lord, Hero or Wizard (000_whfb6.md §11)",
        "type": "boolean",
    },
    "troop_type": {"title": "Type", "description": "Unit Strength type", "enum": list(TROOP_TYPES)},
    "wizard_level": {
        "title": "Wizard",
        "description": "Wizard level (0: not a wizard)",
        "type": "integer",
        "minimum": 0,
        "maximum": 4,
    },
}


def fantasy_profile_schema() -> dict[str, Any]:
    """The JSON Schema of one Warhammer Fantasy model."""
    return envelope(profile=PROFILE, weapon=WEAPON, weapon_columns=["range", "strength"], extra=EXTRA)
