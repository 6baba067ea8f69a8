"""The OPR-style system (`shared/spec/opr-points.md`) in the game-system registry.

Pricing and validation are the points engine's (`points.opr`), reading the unit format
(`points.unit_format`); the profile schema is the model part of the published unit schema,
so the registry and the parser cannot disagree about ranges. `attack` is the exact dice
engine of `opr-combat.md` (`rules.systems.opr.estimate`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from points.opr import price, validate
from points.opr.army_structure import GROUP_OPTIONS, OPTION_KEYS
from points.unit_format import parse_army, parse_unit, unit_schema
from rules.systems.opr.estimate import attack
from rules.systems.opr.reference_targets import REFERENCE_TARGETS
from rules.systems.registry import GameSystem, register

PROFILE_FIELDS = ("quality", "defence", "toughness")


def profile_schema() -> dict[str, Any]:
    """JSON Schema of one model's profile fields (Q and D 2–6, toughness ≥ 1), from unit.schema.json."""
    model = unit_schema()["$defs"]["model"]
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "OPR model profile",
        "type": "object",
        "required": [f for f in PROFILE_FIELDS if f in model["required"]],
        "properties": {f: dict(model["properties"][f]) for f in PROFILE_FIELDS},
    }


def price_unit_dict(unit: Mapping[str, Any]) -> dict[str, Any]:
    """Unit-format dict → JSON-ready breakdown. Raises `points.unit_format.UnitFormatError`."""
    return price(parse_unit(unit)).to_dict()


def validate_army_dict(army: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Army-list dict → violation dicts. Raises `points.unit_format.UnitFormatError`."""
    return [violation.to_dict() for violation in validate(parse_army(army))]


SYSTEM = register(
    GameSystem(
        key="opr",
        name="OPR-style (one-page rules, Polish seed)",
        source_language="pl",
        profile_schema=profile_schema(),
        price=price_unit_dict,
        validate=validate_army_dict,
        attack=attack,
        reference_targets=REFERENCE_TARGETS,
        description="Points from the seed's cost formula (morale × defence × toughness, weapons, abilities), "
        "exact and explained term by term; army-structure rules switchable per list.",
        structure_options=OPTION_KEYS,
        structure_option_groups=GROUP_OPTIONS,
    )
)
