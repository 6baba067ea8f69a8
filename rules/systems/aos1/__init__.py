"""Warhammer: Age of Sigmar, 1st edition (`docs/rules/aos1.md`, Polish rules sheet).

The sheet defines the warscroll characteristics but contains no warscrolls and no points
(those came later, with the General's Handbook). Catalogue points (0 where unknown), the
warscroll profile below, and the sheet's army rules (`points.aos1`). Lists are sized by
models, not points (`points_sized=False`): no points limit is asked for or shown.
The exact attack sequence and battleshock are `rules.systems.aos1.combat`.
"""

from typing import Any

from points.aos1.composition import LIST_SETTINGS_SCHEMA, OPTION_KEYS, army_summary, validate
from points.catalogue.i18n import gettext_noop
from rules.systems.aos1.battlescribe import MAPPING as BATTLESCRIBE
from rules.systems.aos1.combat import (
    SITUATION_SCHEMA,
    attack,
    clear_caches,
    matrix_attack,
    prepare_situation,
    situation_errors,
    unit_wounds,
)
from rules.systems.aos1.compute_cost import estimate_cell_cost, estimate_cost
from rules.systems.aos1.play import PLAY
from rules.systems.aos1.reference_targets import REFERENCE_TARGETS
from rules.systems.catalogue_system import register_catalogue_system
from rules.systems.profile_fields import characteristic, dice_value, envelope, roll_target
from rules.systems.registry import CombatChance

#: Warscroll characteristics (docs/rules/aos1.md §1.1): headed as rosters abbreviate them ("Bv"), with
#: the warscroll's full names (`x-long`) where a heading is explained.
PROFILE: dict[str, Any] = {
    "move": characteristic("M", "Inches", maximum=30, nullable=False, long="Move"),
    "wounds": characteristic(
        "W", "Damage the model can take", minimum=1, maximum=50, nullable=False, long="Wounds"
    ),
    "save": roll_target("Sv", "Save roll target (4 is 4+)", long="Save"),
    # "-" (null): the warscroll gives no Bravery (a war machine), so it takes no battleshock test
    "bravery": characteristic("Bv", "Used in battleshock tests", minimum=1, maximum=10, long="Bravery"),
}

#: Weapon profile (docs/rules/aos1.md §1.2): missile or melee, to-hit and to-wound targets, Rend ≤ 0.
WEAPON: dict[str, Any] = {
    "type": {"title": "Type", "enum": ["missile", "melee"]},
    "range": {"title": "Range", "description": "Inches", "type": "integer", "minimum": 0, "maximum": 60},
    "attacks": dice_value("A", "Attacks with this weapon", long="Attacks"),
    "to_hit": roll_target("Hit", "Hit roll target (3 is 3+)", long="To Hit"),
    "to_wound": roll_target("Wnd", "Wound roll target (4 is 4+)", long="To Wound"),
    "rend": {"title": "Rend", "type": "integer", "minimum": -6, "maximum": 0},
    "damage": dice_value("D", "Damage per successful attack", long="Damage"),
}

#: Abilities the attack sequence reads (`rules.systems.aos1.combat`), imported from warscroll
#: text (`rules.systems.aos1.battlescribe.read_ability`): re-rolls and +1 modifiers of the
#: model's hit, wound or save rolls (limited to one `weapon` or to melee/shooting by `when`),
#: and a ward (each wound or mortal wound allocated to the model negated on `target`+).
_ROLL = {"enum": ["hit", "wound", "save"]}
_COMMON = {
    "weapon": {"type": "string", "minLength": 1, "maxLength": 120},
    "when": {"enum": ["melee", "shooting"]},
    "name": {"type": "string", "maxLength": 200},
}


def _kind(kind: str, required: list[str], **properties: Any) -> dict[str, Any]:
    return {
        "type": "object",
        "required": ["type", *required],
        "additionalProperties": False,
        "properties": {"type": {"const": kind}, **properties, **_COMMON},
    }


ABILITY: dict[str, Any] = {
    "oneOf": [
        _kind("reroll", ["roll", "which"], roll=_ROLL, which={"enum": ["ones", "failed"]}),
        _kind("modifier", ["roll", "value"], roll=_ROLL, value={"type": "integer", "minimum": -3,
                                                                 "maximum": 3}),
        _kind("ward", ["target"], target={"type": "integer", "minimum": 2, "maximum": 6}),
    ]
}
EXTRA: dict[str, Any] = {
    "abilities": {
        "title": "Abilities",
        "description": "Rules the estimate uses: re-rolls, +1 to hit, wound or save, a ward",
        "type": "array",
        "items": ABILITY,
    },
}

SYSTEM = register_catalogue_system(
    key="aos1",
    order=40,
    name=gettext_noop("Warhammer: Age of Sigmar, 1st edition"),
    source_language="pl",
    description=gettext_noop(
        "The four-page rules sheet in Polish: warscroll characteristics, the attack sequence, "
        "battleshock. It contains no warscrolls and no points."
    ),
    profile_schema=envelope(
        profile=PROFILE,
        weapon=WEAPON,
        weapon_columns=["type", "range", "attacks", "to_hit", "to_wound", "rend", "damage"],
        extra=EXTRA,
    ),
    validate=validate,
    structure_options=OPTION_KEYS,
    attack=attack,
    matrix_attack=matrix_attack,
    clear_caches=clear_caches,
    prepare_situation=prepare_situation,
    estimate_cost=estimate_cost,
    estimate_cell_cost=estimate_cell_cost,
    situation_schema=SITUATION_SCHEMA,
    situation_errors=situation_errors,
    reference_targets=REFERENCE_TARGETS,
    list_settings_schema=LIST_SETTINGS_SCHEMA,
    army_summary=army_summary,
    points_sized=False,
    battlescribe=BATTLESCRIBE,
    # Battleshock follows the enemy's attacks (§2.10): the chance comes from the gauntlet's
    # melee attacks on the unit (`combat.battleshock_holds` says what holding is).
    play=PLAY,
    combat_chances=(
        CombatChance(
            key="p_holds",
            side="attacked",
            label=gettext_noop("Holds"),
            sentence=gettext_noop(
                "Attacked by the gauntlet's melee units, %(unit)s holds %(percent)s of the time: "
                "models are left and none flee in battleshock."
            ),
        ),
    ),
    unit_wounds=unit_wounds,
)

#: This system's schema labels, help texts and enum values, marked for translation: schemas
#: are data, so `makemessages` finds their strings only here (`tests/rules/systems/test_profile_labels.py`).
LABELS = (
    # the list's own parameters (`list_settings_schema`)
    gettext_noop("Mortal Realm"),
    gettext_noop("Not chosen"),
    gettext_noop("Models agreed"),
    gettext_noop("The most models the army may field (0: no limit, as the sheet allows)"),
    gettext_noop("Aqshy, the Realm of Fire"),
    gettext_noop("Azyr, the Realm of Heavens"),
    gettext_noop("Chamon, the Realm of Metal"),
    gettext_noop("Ghur, the Realm of Beasts"),
    gettext_noop("Ghyran, the Realm of Life"),
    gettext_noop("Shyish, the Realm of Death"),
    gettext_noop("Ulgu, the Realm of Shadow"),
    gettext_noop("Abilities"),
    gettext_noop("Rules the estimate uses: re-rolls, +1 to hit, wound or save, a ward"),
    gettext_noop("hit"),
    gettext_noop("wound"),
    gettext_noop("save"),
    gettext_noop("ones"),
    gettext_noop("failed"),
    gettext_noop("melee"),
    gettext_noop("shooting"),
    gettext_noop("Bv"),
    gettext_noop("Hit"),
    gettext_noop("Wnd"),
    gettext_noop("Move"),
    gettext_noop("Inches"),
    gettext_noop("Damage the model can take"),
    gettext_noop("Save"),
    gettext_noop("Save roll target (4 is 4+)"),
    gettext_noop("Bravery"),
    gettext_noop("Used in battleshock tests"),
    gettext_noop("Attacks with this weapon"),
    gettext_noop("To Hit"),
    gettext_noop("Hit roll target (3 is 3+)"),
    gettext_noop("To Wound"),
    gettext_noop("Wound roll target (4 is 4+)"),
    gettext_noop("Rend"),
    gettext_noop("Damage per successful attack"),
)
