"""OPR units for the dice engine's tests, keyword-first and ten models by default:
`model(q=4, d=4, weapons=[weapon(attacks=2, rules_=["Rending"])])`; and fixed unit prices.

Rules and units are built by `tests.factories.opr_units` (one parser of "Blast(3)").
"""

from __future__ import annotations

from collections.abc import Sequence

from points.opr.unit import Model, Unit, Weapon
from rules.systems.opr.unit_prices import UnitPrices
from tests.factories.opr_units import rules, unit

__all__ = ["melee", "model", "priced", "prices_by_name", "rules", "unit", "weapon"]


def weapon(
    name: str = "Rifle", *, range: int = 24, attacks: int = 1, ap: int = 0, rules_: Sequence[str] = ()
):
    return Weapon(name, range, attacks, ap, rules(*rules_))


def melee(name: str = "Blade", *, attacks: int = 1, ap: int = 0, rules_: Sequence[str] = ()):
    return weapon(name, range=0, attacks=attacks, ap=ap, rules_=rules_)


def model(
    name: str = "Trooper",
    *,
    count: int = 10,
    q: int = 4,
    d: int = 4,
    t: int = 1,
    rules_: Sequence[str] = (),
    weapons: Sequence[Weapon] = (),
) -> Model:
    return Model(name, count, q, d, t, rules(*rules_), tuple(weapons))


def priced(points: float, *model_costs: float):
    """A pricing function that answers the same prices for any unit (tests set costs directly).

    A unit with another number of model profiles than costs given (the attacker, priced for
    the second stage's counter-attack) gets the first cost for each of its profiles.
    """

    def prices(unit_: Unit) -> UnitPrices:
        if len(unit_.models) == len(model_costs):
            return UnitPrices(points, tuple(model_costs))
        return UnitPrices(points, (model_costs[0],) * len(unit_.models))

    return prices


def prices_by_name(table: dict[str, UnitPrices]):
    """A pricing function that looks units up by name."""

    def prices(u: Unit) -> UnitPrices:
        return table[u.name]

    return prices
