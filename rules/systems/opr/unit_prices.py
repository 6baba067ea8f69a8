"""The two numbers the estimate needs from the points engine: model costs and unit points.

Kept apart so the dice mathematics can run with costs passed in (tests, benchmarks,
other systems' catalogue points) and so the points engine is priced once per unit.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from points.opr.unit import Unit


@dataclass(frozen=True, slots=True)
class UnitPrices:
    """`points`: the unit's rounded points; `model_costs[i]`: one model of `unit.models[i]`."""

    points: float
    model_costs: tuple[float, ...]


Pricing = Callable[[Unit], UnitPrices]


@lru_cache(maxsize=4096)
def points_engine_prices(unit: Unit) -> UnitPrices:
    """Prices from the OPR cost formula (`points.opr.price`, `docs/rules/opr-points.md`)."""
    from points.opr import price  # imported late: the points engine is a separate package

    breakdown = price(unit)
    return UnitPrices(
        points=float(breakdown.points),
        model_costs=tuple(float(model.model_cost) for model in breakdown.models),
    )
