"""The OPR-style system (`docs/rules/opr-points.md`) in the game-system registry.

Pricing and validation are the points engine's (`points.opr`), reading the unit format
(`rules.systems.opr.unit_format`); the profile schema is the model part of the published unit schema,
so the registry and the parser cannot disagree about ranges. `attack` is the exact dice
engine of `docs/rules/opr-combat.md` (`rules.systems.opr.estimate`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from points.catalogue.i18n import gettext_noop
from points.opr import price, validate
from points.opr.army_structure import GROUP_OPTIONS, OPTION_KEYS
from rules.systems.opr import army_forge
from rules.systems.opr.play import PLAY
from rules.systems.opr.reference_targets import REFERENCE_TARGETS
from rules.systems.opr.situation import SITUATION_SCHEMA, situation_errors
from rules.systems.opr.unit_format import parse_army, parse_unit, unit_schema
from rules.systems.opr.unit_format.document_price import price_document
from rules.systems.registry import CombatChance, GameSystem, register

PROFILE_FIELDS = ("quality", "defence", "toughness")
#: What the product shows of each profile field: the card heading (printed as in the seed, like
#: every system's abbreviations), its full name (translated), and whether it is a roll target
#: printed with its "+" (Q3+ is 3).
PROFILE_LABELS: dict[str, dict[str, Any]] = {
    "quality": {"title": "Q", "x-long": gettext_noop("Quality"), "format": "roll-target"},
    "defence": {"title": "D", "x-long": gettext_noop("Defence"), "format": "roll-target"},
    "toughness": {"title": "T", "x-long": gettext_noop("Toughness")},
}

#: Which section of the formula page (`opr/formula.html`) prices each designer input.
FORMULA_ANCHORS = {
    "quality": "morale",
    "defence": "defence",
    "toughness": "toughness",
    "range": "range",
    "attacks": "weapons",
    "ap": "ap",
}


def profile_schema() -> dict[str, Any]:
    """JSON Schema of one model's profile fields (Q and D 2–6, toughness ≥ 1), from unit.schema.json."""
    model = unit_schema()["$defs"]["model"]
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "OPR model profile",
        "type": "object",
        "required": [f for f in PROFILE_FIELDS if f in model["required"]],
        "properties": {f: {**model["properties"][f], **PROFILE_LABELS[f]} for f in PROFILE_FIELDS},
    }


def price_unit_dict(unit: Mapping[str, Any]) -> dict[str, Any]:
    """Unit-format dict → JSON-ready breakdown. Raises `points.shared_format.UnitFormatError`."""
    return price(parse_unit(unit)).to_dict()


def unit_points_of_dict(unit: Mapping[str, Any]) -> int:
    """Unit-format dict → its rounded points (`price_unit_dict(unit)["points"]`, without the breakdown):
    read and priced in one pass (`unit_format.document_price`)."""
    return price_document(unit)[0]


def validate_army_dict(army: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Army-list dict → violation dicts. Raises `points.shared_format.UnitFormatError`."""
    return [violation.to_dict() for violation in validate(parse_army(army))]


def attack(attacker: Any, defender: Any, situation: Any = None) -> dict[str, Any]:
    """The exact attack (`rules.systems.opr.estimate.attack`), imported on first use so that
    pricing and validating (commands, the builder) never load numpy and the dice engine."""
    from rules.systems.opr.estimate import attack as exact_attack

    return exact_attack(attacker, defender, situation)


def prepare_unit(unit: Mapping[str, Any]) -> Any:
    """A unit-format dict parsed once per job (`attack` takes the parsed unit as it is)."""
    return parse_unit(unit)


def prepare_situation(situation: Mapping[str, Any]) -> Any:
    """The job's situation dict read once (`attack` takes the `Situation` as it is)."""
    from rules.systems.opr.situation import Situation

    return Situation.from_dict(situation or {})


def estimate_cost(attacker: Mapping[str, Any], defender: Mapping[str, Any],
                  situation: Mapping[str, Any]) -> tuple[float, int]:
    """Predicted (seconds, bytes) of one `attack` (`rules.systems.opr.compute_cost`), imported
    on first use."""
    from rules.systems.opr.compute_cost import estimate_cost as predicted

    return predicted(attacker, defender, situation)


def estimate_cell_cost(attacker: Mapping[str, Any], defender: Mapping[str, Any],
                       situation: Mapping[str, Any]) -> tuple[float, int]:
    """Predicted (seconds, bytes) of one list job's cell (`rules.systems.opr.compute_cost`),
    imported on first use."""
    from rules.systems.opr.compute_cost import estimate_cell_cost as predicted

    return predicted(attacker, defender, situation)


def clear_caches() -> None:
    """Empty the engine's caches kept between matchups (wound tables, allocation spaces, parsed
    units, the points engine's lookups)."""
    from points.opr import clear_caches as clear_points_caches
    from rules.systems.opr import compute_cost
    from rules.systems.opr.combat import SPACES, WOUNDS_CACHE

    WOUNDS_CACHE.clear()
    SPACES.clear()
    compute_cost._parsed.cache_clear()
    clear_points_caches()


def item_gains(model: dict[str, Any], gives: Mapping[str, Any]) -> None:
    """An item's or mount's Tough(X) adds to the model's own (a hero's Tough(3) on a Tough(12)
    mount is 15); a model without Tough of its own (toughness 1) counts as having none, as Army
    Forge reads it (`docs/rules/opr-points.md` §4)."""
    tough = int(gives.get("toughness") or 0)
    if tough:
        own = int(model.get("toughness", 1) or 1)
        model["toughness"] = max(1, min(100, (own if own > 1 else 0) + tough))


SYSTEM = register(
    GameSystem(
        key="opr",
        order=10,
        breakdown_template="opr/_breakdown.html",
        formula_template="opr/formula.html",
        formula_anchors=FORMULA_ANCHORS,
        name=gettext_noop("OPR-style (one-page rules, Polish seed)"),
        source_language="pl",
        profile_schema=profile_schema(),
        price=price_unit_dict,
        points=unit_points_of_dict,
        validate=validate_army_dict,
        attack=attack,
        prepare_unit=prepare_unit,
        prepare_situation=prepare_situation,
        estimate_cost=estimate_cost,
        estimate_cell_cost=estimate_cell_cost,
        clear_caches=clear_caches,
        reference_targets=REFERENCE_TARGETS,
        situation_schema=SITUATION_SCHEMA,
        situation_errors=situation_errors,
        description=gettext_noop(
            "Points from the seed's cost formula (morale × defence × toughness, weapons, abilities), "
            "exact and explained term by term; army-structure rules switchable per list."
        ),
        structure_options=OPTION_KEYS,
        structure_option_groups=GROUP_OPTIONS,
        foreign_units={"army_forge": army_forge},
        item_gains=item_gains,
        # The melee's winner counts both sides' wounds: from the unit's own attacks.
        play=PLAY,
        combat_chances=(
            CombatChance(
                key="p_attacker_wins_melee",
                side="attacking",
                label=gettext_noop("Wins the melee"),
                sentence=gettext_noop(
                    "In melee with the gauntlet's units, %(unit)s wins %(percent)s of the time."
                ),
            ),
        ),
    )
)

#: This system's schema labels, help texts and enum values, marked for translation: schemas
#: are data, so `makemessages` finds their strings only here (`tests/rules/systems/test_profile_labels.py`).
LABELS = (
    gettext_noop("OPR model profile"),
    gettext_noop("Q: the d6 result a quality test needs (Q4+ is 4)."),
    gettext_noop("D: the d6 result a defence test needs."),
    gettext_noop("Wounds to kill one model; 1 when left out."),
    gettext_noop("OPR situation"),
    gettext_noop("Quality"),
    gettext_noop("Defence"),
)
