"""The Warhammer Fantasy profile (M WS BS S T W I A Ld, armour and ward saves), shared by the
WHFB 6th edition digest (`docs/rules/whfb6.md` §2, §7, §12) and the Russian
house rules (`docs/rules/ru_whfb.md` §1.1–1.2), which use the same characteristics.

Beyond the printed profile, a model may carry the kit the armour save is built from
(§7.1), regeneration, a mount's own attacks, and weapons with the structured special rules
of §8 and §12; `rules.systems.fantasy_combat` documents how the combat engine reads them."""

from __future__ import annotations

from typing import Any

from points.catalogue.i18n import gettext_noop
from rules.systems.profile_fields import characteristic, dice_value, envelope, roll_target

#: Troop types of the Unit Strength table (docs/rules/whfb6.md §3.1, docs/rules/ru_whfb.md §1.3).
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
    "m": characteristic("M", "Movement in inches", maximum=20, long="Movement"),
    "ws": characteristic("WS", "Weapon Skill", long="Weapon Skill"),
    "bs": characteristic("BS", "Ballistic Skill", long="Ballistic Skill"),
    "s": characteristic("S", "Strength", long="Strength"),
    "t": characteristic("T", "Toughness", long="Toughness"),
    "w": characteristic("W", "Wounds", maximum=20, long="Wounds"),
    "i": characteristic("I", "Initiative", long="Initiative"),
    "a": characteristic("A", "Attacks", long="Attacks"),
    "ld": characteristic("Ld", "Leadership", long="Leadership"),
    "save": roll_target("Sv", "Armour save (4 is 4+), from armour, shield, mount and barding", minimum=1,
                       long="Armour save"),
    "ward": roll_target("Ward", "Ward (special) save, never modified", long="Ward save"),
}

#: Weapon kinds of §12.1 (close combat) and §12.2–12.3 (missile), plus spells (magic missiles).
WEAPON_KINDS = (
    "hand_weapon",
    "great_weapon",
    "flail",
    "morning_star",
    "halberd",
    "spear",
    "cavalry_spear",
    "lance",
    "pistol",
    "missile",
    "thrown",
    "move_or_fire",
    "spell",
)

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
        "x-long": "Strength",
        "description": 'A number, "user", or a bonus to the user\'s S ("+1")',
        "oneOf": [
            {"type": "integer", "minimum": 0, "maximum": 10},
            {"type": "string", "pattern": r"^(user|[+][1-9])$"},
        ],
    },
    "kind": {
        "title": "Kind",
        "description": "Weapon type of §12 (its Strength bonus and rules)",
        "enum": list(WEAPON_KINDS),
    },
    "armour_piercing": {
        "title": "AP",
        "x-long": "Armour piercing",
        "description": "Armour piercing: −1 more per point to the save",
        "type": "integer",
        "minimum": 0,
        "maximum": 3,
    },
    "multiple_wounds": dice_value("Wounds", "Multiple Wounds per unsaved hit (D3, D6; excess lost)"),
    "shots": {
        "title": "Shots",
        "description": "Multiple shots (each at −1 to hit when more than 1)",
        "type": "integer",
        "minimum": 1,
        "maximum": 10,
    },
    "hits": dice_value("Hits", "A spell's automatic hits (D6)"),
    "no_armour_save": {"title": "No armour save", "type": "boolean"},
    "flaming": {"title": "Flaming", "type": "boolean"},
    "poisoned": {"title": "Poisoned", "type": "boolean"},
    "killing_blow": {"title": "Killing Blow", "type": "boolean"},
    "magic": {"title": "Magical", "type": "boolean"},
}

#: A cavalry mount's own attacks (§3.3, §6.4): it strikes with its own WS, S, I and A.
MOUNT: dict[str, Any] = {
    "title": "Mount",
    "type": "object",
    "required": ["name"],
    "additionalProperties": False,
    "properties": {
        "name": {"type": "string", "minLength": 1, "maxLength": 120},
        "ws": characteristic("WS", "Weapon Skill"),
        "s": characteristic("S", "Strength"),
        "i": characteristic("I", "Initiative"),
        "a": characteristic("A", "Attacks"),
        "rules": {"type": "array", "items": {"type": "string", "minLength": 1}},
    },
}

EXTRA: dict[str, Any] = {
    "character": {
        "title": "Character",
        "description": "A Lord, Hero or Wizard",
        "type": "boolean",
    },
    "troop_type": {"title": "Type", "description": "Unit Strength type", "enum": list(TROOP_TYPES)},
    "base": {
        "title": "Base",
        "description": "Base in mm, frontage × depth (25x50), for who fights; default by type",
        "type": "string",
        "pattern": r"^\s*[0-9]{1,3}\s*[x×]\s*[0-9]{1,3}\s*(mm)?\s*$",
    },
    "wizard_level": {
        "title": "Wizard",
        "description": "Wizard level (0: not a wizard)",
        "type": "integer",
        "minimum": 0,
        "maximum": 4,
    },
    "armour": {"title": "Armour", "description": "Worn armour (§7.1)", "enum": ["none", "light", "heavy"]},
    "shield": {
        "title": "Shield",
        "description": "+1 save; +1 more on foot with a hand weapon in combat",
        "type": "boolean",
    },
    "barding": {"title": "Barding", "description": "The mount's armour: +1 save", "type": "boolean"},
    "mounted": {
        "title": "Mounted",
        "description": "+1 save (default: cavalry or with a mount)",
        "type": "boolean",
    },
    "scaly_skin": roll_target("Scaly skin", "Natural armour X+, stacks with worn armour"),
    "regeneration": roll_target("Regen", "Regeneration X+ (4 in WHFB 6th)"),
    "unit_strength": {
        "title": "US",
        "description": "Unit Strength per model, overriding the troop type",
        "type": "integer",
        "minimum": 0,
        "maximum": 30,
    },
    "mount": MOUNT,
}


#: Unit-level fields: the army slot the composition rules count (`points.catalogue.fantasy_army`)
#: and the army book's unit size.
UNIT_FIELDS: dict[str, Any] = {
    "slot": {
        "title": "Slot",
        "description": "Army slot: Core, Special, Rare, Hero or Lord",
        "enum": ["core", "special", "rare", "hero", "lord"],
    },
    "min_models": {
        "title": "Min size",
        "description": "Fewest models (army book)",
        "type": "integer",
        "minimum": 1,
        "maximum": 1000,
    },
    "max_models": {
        "title": "Max size",
        "description": "Most models (army book)",
        "type": "integer",
        "minimum": 1,
        "maximum": 1000,
    },
}


def fantasy_profile_schema() -> dict[str, Any]:
    """The JSON Schema of one Warhammer Fantasy model (and its unit's slot and size)."""
    return envelope(
        profile=PROFILE,
        weapon=WEAPON,
        weapon_columns=["range", "strength"],
        extra=EXTRA,
        unit_fields=UNIT_FIELDS,
    )

#: This system's schema labels, help texts and enum values, marked for translation: schemas
#: are data, so `makemessages` finds their strings only here (`tests/rules/systems/test_profile_labels.py`).
LABELS = (
    gettext_noop("Base"),
    gettext_noop("Base in mm, frontage × depth (25x50), for who fights; default by type"),
    gettext_noop("Movement in inches"),
    gettext_noop("Weapon Skill"),
    gettext_noop("Ballistic Skill"),
    gettext_noop("Initiative"),
    gettext_noop("Armour save (4 is 4+), from armour, shield, mount and barding"),
    gettext_noop("Ward"),
    gettext_noop("Ward (special) save, never modified"),
    gettext_noop("Character"),
    gettext_noop("A Lord, Hero or Wizard"),
    gettext_noop("Unit Strength type"),
    gettext_noop("Wizard"),
    gettext_noop("Wizard level (0: not a wizard)"),
    gettext_noop("Inches; 0 is a close-combat weapon"),
    gettext_noop("A number, \"user\", or a bonus to the user's S (\"+1\")"),
    gettext_noop("infantry"),
    gettext_noop("cavalry"),
    gettext_noop("monstrous"),
    gettext_noop("chariot"),
    gettext_noop("war_machine"),
    gettext_noop("monster"),
    gettext_noop("ridden_monster"),
    gettext_noop("swarm"),
    gettext_noop("character"),
    gettext_noop("+1 save (default: cavalry or with a mount)"),
    gettext_noop("+1 save; +1 more on foot with a hand weapon in combat"),
    gettext_noop("A spell's automatic hits (D6)"),
    gettext_noop("Armour"),
    gettext_noop("Armour piercing: −1 more per point to the save"),
    gettext_noop("Army slot: Core, Special, Rare, Hero or Lord"),
    gettext_noop("Barding"),
    gettext_noop("Fewest models (army book)"),
    gettext_noop("Flaming"),
    gettext_noop("Killing Blow"),
    gettext_noop("Magical"),
    gettext_noop("Max size"),
    gettext_noop("Min size"),
    gettext_noop("Most models (army book)"),
    gettext_noop("Mount"),
    gettext_noop("Mounted"),
    gettext_noop("Multiple Wounds per unsaved hit (D3, D6; excess lost)"),
    gettext_noop("Multiple shots (each at −1 to hit when more than 1)"),
    gettext_noop("Natural armour X+, stacks with worn armour"),
    gettext_noop("No armour save"),
    gettext_noop("Poisoned"),
    gettext_noop("Regen"),
    gettext_noop("Regeneration X+ (4 in WHFB 6th)"),
    gettext_noop("Scaly skin"),
    gettext_noop("Shield"),
    gettext_noop("Shots"),
    gettext_noop("Slot"),
    gettext_noop("The mount's armour: +1 save"),
    gettext_noop("Unit Strength per model, overriding the troop type"),
    gettext_noop("Weapon type of §12 (its Strength bonus and rules)"),
    gettext_noop("Worn armour (§7.1)"),
    gettext_noop("cavalry_spear"),
    gettext_noop("core"),
    gettext_noop("flail"),
    gettext_noop("great_weapon"),
    gettext_noop("halberd"),
    gettext_noop("hand_weapon"),
    gettext_noop("heavy"),
    gettext_noop("hero"),
    gettext_noop("lance"),
    gettext_noop("light"),
    gettext_noop("lord"),
    gettext_noop("morning_star"),
    gettext_noop("move_or_fire"),
    gettext_noop("none"),
    gettext_noop("pistol"),
    gettext_noop("rare"),
    gettext_noop("spear"),
    gettext_noop("special"),
    gettext_noop("spell"),
    gettext_noop("thrown"),
    gettext_noop("Movement"),
    gettext_noop("Armour save"),
    gettext_noop("Ward save"),
    gettext_noop("Armour piercing"),
)
