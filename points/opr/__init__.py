"""The OPR-style points engine (`docs/rules/opr-points.md`): pure Python, exact arithmetic.

    from points.opr import price, validate
    price(unit).points        # 143 for the spec's Infantry example
    validate(army)            # [Violation(...), ...]

Where each part of the formula lives: `tables.py` (every table and Decision), `morale.py`,
`defence.py`, `toughness.py`, `weapon_cost.py`, `ability_cost.py`, `unit_cost.py` (the sum,
the warrior/shooter halving, the rounding), `breakdown.py` (the result, term by term),
`army_structure.py` (§7), `rule_names.py` and `old_opr.py` (names accepted on input);
`interpolation.py` and `exact.py` are the exact arithmetic underneath; `scaled_tables.py` holds the
same tables as integers, made at import, which `price()` reads for its totals.
"""

from points.opr.army_structure import (
    DEFAULT_OPTIONS,
    OPTION_KEYS,
    ArmyPrice,
    PricedEntry,
    Violation,
    price_army,
    validate,
)
from points.opr.breakdown import (
    AbilityCost,
    Breakdown,
    DefenceBreakdown,
    ModelBreakdown,
    MoraleBreakdown,
    Term,
    ToughnessBreakdown,
    WeaponBreakdown,
)
from points.opr.unit_cost import clear_caches, price, round_unit_total

__all__ = [
    "DEFAULT_OPTIONS",
    "OPTION_KEYS",
    "AbilityCost",
    "ArmyPrice",
    "Breakdown",
    "DefenceBreakdown",
    "ModelBreakdown",
    "MoraleBreakdown",
    "PricedEntry",
    "Term",
    "ToughnessBreakdown",
    "Violation",
    "WeaponBreakdown",
    "clear_caches",
    "price",
    "price_army",
    "round_unit_total",
    "validate",
]
