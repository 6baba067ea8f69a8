"""Warhammer 40,000, 9th edition (`docs/rules/wh40k9.md`, Czech core rules booklet).

Catalogue points (the booklet prints none: bundled units carry 0 and say so) plus the
Power Rating each price reports, the datasheet profile below, and the booklet's army rules
(`points.wh40k9.battle_size`). The attack sequence is exact (`estimate.attack`, §3–§5 and
the Morale phase §8.7); its situation is `situation.SITUATION_SCHEMA`. Model profiles and
weapons carry `keywords` and structured `abilities` (`abilities.py` documents every kind,
so catalogue authors can follow it); free text stays text.
"""

from typing import Any

from points.catalogue.i18n import gettext_noop
from points.wh40k9.battle_size import LIST_SETTINGS_SCHEMA, OPTION_KEYS, army_summary, validate
from points.wh40k9.detachments import DETACHMENT_KINDS, GROUP_KIND_TITLE, ROLE_FIELD
from points.wh40k9.power import power_extras
from rules.systems.catalogue_system import register_catalogue_system
from rules.systems.profile_fields import characteristic, dice_value, envelope, roll_target
from rules.systems.registry import CombatChance
from rules.systems.wh40k9.abilities import ABILITIES, KEYWORDS, WEAPON_ABILITIES
from rules.systems.wh40k9.battlescribe import MAPPING as BATTLESCRIBE
from rules.systems.wh40k9.estimate import attack, estimate_cost
from rules.systems.wh40k9.play import PLAY
from rules.systems.wh40k9.reference_targets import REFERENCE_TARGETS
from rules.systems.wh40k9.situation import SITUATION_SCHEMA, situation_errors

#: Datasheet characteristics (docs/rules/wh40k9.md §1.1 item 4).
PROFILE: dict[str, Any] = {
    "m": {
        "title": "M",
        "x-long": "Movement",
        "description": 'Move in inches; two values for AIRCRAFT ("20-50")',
        "oneOf": [
            {"type": "integer", "minimum": 0, "maximum": 100},
            {"type": "string", "pattern": r"^[0-9]+-[0-9]+$"},
            {"type": "null"},
        ],
    },
    "ws": roll_target("WS", "Weapon Skill (3 is 3+); null: cannot fight", long="Weapon Skill"),
    "bs": roll_target("BS", "Ballistic Skill (3 is 3+); null: cannot shoot", long="Ballistic Skill"),
    "s": characteristic("S", "Strength", minimum=1, maximum=20, long="Strength"),
    "t": characteristic("T", "Toughness", minimum=1, maximum=20, long="Toughness"),
    "w": characteristic("W", "Wounds", minimum=1, maximum=200, long="Wounds"),  # a Warlord Titan has 120
    "a": dice_value("A", "Attacks", long="Attacks"),
    "ld": characteristic("Ld", "Leadership", minimum=1, maximum=10, long="Leadership"),
    "sv": roll_target("Sv", "Save (3 is 3+)", long="Save"),
    "invuln": roll_target("Inv", "Invulnerable save, never modified by AP", long="Invulnerable save"),
}

_STRENGTH = {
    "title": "S",
    "x-long": "Strength",
    "description": 'A number, "User", or a change to the user\'s S ("+1", "x2")',
    "oneOf": [
        {"type": "integer", "minimum": 1, "maximum": 30},
        {"type": "string", "pattern": r"^(User|[+][1-9]|x[2-4])$"},
    ],
}
_SHOOTING = {
    "range": {
        "title": "Range",
        "description": "Inches; 0 is a melee weapon",
        "type": "integer",
        "minimum": 0,
        "maximum": 240,
    },
    "min_range": {
        "title": "Min",
        "x-long": "Minimum range",
        "description": "Minimum range in inches",
        "type": "integer",
        "minimum": 0,
    },
    "type": {
        "title": "Type",
        "description": "Melee, Assault N, Heavy N, Rapid Fire N, Grenade N, Pistol N",
        "type": "string",
        "pattern": r"^(Melee|(Assault|Heavy|Rapid Fire|Grenade|Pistol) [0-9]*(D3|D6|2D6)?)$",
    },
    "s": _STRENGTH,
    "ap": {"title": "AP", "x-long": "Armour piercing", "type": "integer", "minimum": -6, "maximum": 0},
    "d": dice_value("D", "Damage", long="Damage"),
    "abilities": WEAPON_ABILITIES,
}
#: Weapon profile (docs/rules/wh40k9.md §1.1 item 7); a weapon with several profiles lists them.
WEAPON: dict[str, Any] = {
    **_SHOOTING,
    "profile": {"title": "Profile used", "description": "The profile this weapon always uses (its name)",
                "type": "string"},
    "profiles": {
        "title": "Profiles",
        "description": "Choose one before selecting targets",
        "type": "array",
        "items": {
            "type": "object",
            "required": ["name", "range", "type", "s", "ap", "d"],
            "additionalProperties": False,
            "properties": {"name": {"type": "string"}, **_SHOOTING},
        },
    },
}
EXTRA: dict[str, Any] = {
    "keywords": KEYWORDS,
    "abilities": ABILITIES,
    "min_count": {
        "title": "Min",
        "description": "Smallest number of this model (the No. column)",
        "type": "integer",
        "minimum": 0,
    },
    "max_count": {
        "title": "Max",
        "description": "Largest number of this model (the No. column)",
        "type": "integer",
        "minimum": 1,
    },
}

#: Unit-level fields: the datasheet's Power Rating (`points.wh40k9.power`).
UNIT_FIELDS: dict[str, Any] = {
    "power_rating": {
        "title": "Power",
        "description": "The datasheet's Power Rating",
        "x-prefill": True,
        "type": "integer",
        "minimum": 0,
        # Titans exceed 100 (BSData/wh40k-9e: a Phantom Titan, a Warlord Titan).
        "maximum": 500,
    },
    "battlefield_role": ROLE_FIELD,
}

SYSTEM = register_catalogue_system(
    key="wh40k9",
    order=30,
    name=gettext_noop("Warhammer 40,000, 9th edition"),
    source_language="cs",
    description=gettext_noop(
        "The free core rules booklet in Czech: datasheets, the attack sequence, Power Level battle "
        "sizes. It contains two full datasheets and no points."
    ),
    profile_schema=envelope(
        profile=PROFILE,
        weapon=WEAPON,
        weapon_columns=["range", "type", "s", "ap", "d", "abilities"],
        extra=EXTRA,
        unit_fields=UNIT_FIELDS,
    ),
    validate=validate,
    structure_options=OPTION_KEYS,
    extras=power_extras,
    price_figures={"power": gettext_noop("Power")},
    roster_cost_figure="power",
    attack=attack,
    estimate_cost=estimate_cost,
    situation_schema=SITUATION_SCHEMA,
    situation_errors=situation_errors,
    reference_targets=REFERENCE_TARGETS,
    list_settings_schema=LIST_SETTINGS_SCHEMA,
    army_summary=army_summary,
    group_kinds=DETACHMENT_KINDS,
    group_kind_title=GROUP_KIND_TITLE,
    battlescribe=BATTLESCRIBE,
    # The Morale test follows the enemy's attacks: from the gauntlet's melee attacks on the unit.
    play=PLAY,
    combat_chances=(
        CombatChance(
            key="p_morale_failed",
            side="attacked",
            label=gettext_noop("Fails Morale"),
            sentence=gettext_noop(
                "Attacked in melee by the gauntlet's units, %(unit)s fails its Morale test "
                "%(percent)s of the time."
            ),
        ),
    ),
)

#: This system's schema labels, help texts and enum values, marked for translation: schemas
#: are data, so `makemessages` finds their strings only here (`tests/rules/systems/test_profile_labels.py`).
LABELS = (
    # the list's own parameters (`list_settings_schema`)
    gettext_noop("Battle size"),
    gettext_noop("Only War: half the combined Power Level of both armies"),
    gettext_noop("Combat Patrol (25 PL per army)"),
    gettext_noop("Incursion (50 PL per army)"),
    gettext_noop("Strike Force (100 PL per army)"),
    gettext_noop("Onslaught (150 PL per army)"),
    gettext_noop("Move in inches; two values for AIRCRAFT (\"20-50\")"),
    gettext_noop("Weapon Skill (3 is 3+); null: cannot fight"),
    gettext_noop("Ballistic Skill (3 is 3+); null: cannot shoot"),
    gettext_noop("Save (3 is 3+)"),
    gettext_noop("Invulnerable save, never modified by AP"),
    gettext_noop("Smallest number of this model (the No. column)"),
    gettext_noop("Largest number of this model (the No. column)"),
    gettext_noop("Inches; 0 is a melee weapon"),
    gettext_noop("Minimum range in inches"),
    gettext_noop("Melee, Assault N, Heavy N, Rapid Fire N, Grenade N, Pistol N"),
    gettext_noop("A number, \"User\", or a change to the user's S (\"+1\", \"x2\")"),
    gettext_noop("Abilities"),
    gettext_noop("Profiles"),
    gettext_noop("Choose one before selecting targets"),
    gettext_noop("Free text, or a list of rules as data and text"),
    gettext_noop("INFANTRY, VEHICLE, MONSTER, CHARACTER, ..."),
    gettext_noop("Keywords"),
    gettext_noop("Profile used"),
    gettext_noop("Rules as data (objects with a `type`: rules/systems/wh40k9/abilities.py) or free text"),
    gettext_noop("The datasheet's Power Rating"),
    gettext_noop("The profile this weapon always uses (its name)"),
    gettext_noop("Warhammer 40,000 situation"),
    gettext_noop("charged"),
    gettext_noop("failed"),
    gettext_noop("half_range"),
    gettext_noop("ones"),
    gettext_noop("shooting"),
    gettext_noop("stationary"),
    gettext_noop("wound"),
    gettext_noop("Minimum range"),
    gettext_noop("Invulnerable save"),
    gettext_noop("Save"),
)
