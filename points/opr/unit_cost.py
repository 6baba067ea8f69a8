"""The cost of a unit (opr-points.md §1): the answer to "why does this unit cost 143?".

    unit cost  = Σ model cost × count
    model cost = base cost + weapon cost + ability cost
    base cost  = 5 × morale modifier × defence modifier × toughness modifier

Two steps need the whole unit: the warrior/shooter classification (§5: the cheaper of the
unit's melee and ranged weapons, summed over all models, costs half) and the rounding
(§1: exact until the unit total, then half-up once).

Everything else depends on one model profile alone, so it is computed once per profile and
cached (`_priced_profile`): a list editor re-prices a unit after every change, and most of
its profiles (and most units of the list) did not change.

A unit never seen is priced from table lookups in integer arithmetic (`exact.Ratio`); its
breakdown, term by term, is built when first read (`Breakdown.models`): the totals are what
every caller needs, the forty-odd objects of the breakdown only some.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from numbers import Rational
from typing import NamedTuple

from points.opr import tables
from points.opr.ability_cost import ability_costs
from points.opr.breakdown import (
    AbilityCost,
    Breakdown,
    DefenceBreakdown,
    Deferred,
    ModelBreakdown,
    MoraleBreakdown,
    ToughnessBreakdown,
    UnitCategory,
    WeaponCategory,
)
from points.opr.defence import defence
from points.opr.exact import Ratio, fraction, ratio, ratio_product, ratio_times, ratio_total
from points.opr.morale import morale
from points.opr.toughness import ability_toughness, toughness
from points.opr.weapon_cost import WeaponLine, weapon_context, weapon_lines
from points.unit import Model, Unit

_HALF = ratio(tables.CHEAPER_CATEGORY_FACTOR)
_ROUNDING_HALF = ratio(tables.ROUNDING_HALF)


def round_unit_total(exact: Fraction) -> int:
    """Decision (rounding), §1: half-up to a whole point, once per unit (never per model)."""
    return _round_half_up(ratio(exact))


def _round_half_up(exact: Ratio) -> int:
    """`round_unit_total` of a Ratio: ⌊exact + ½⌋ in integers."""
    numerator, denominator = ratio_total((exact, _ROUNDING_HALF))
    return numerator // denominator


def classify(melee_total: Rational, ranged_total: Rational) -> tuple[UnitCategory, WeaponCategory]:
    """§5: a warrior unit if its melee weapons cost more, else a shooter; and the halved category."""
    if melee_total > ranged_total:
        return tables.WARRIOR, "ranged"
    return tables.SHOOTER, "melee"


def _weapon_cost(melee: Ratio, ranged: Ratio, halved_category: WeaponCategory) -> Ratio:
    """§5: the halved category's cost × 0.5 plus the other's."""
    halved, kept = (melee, ranged) if halved_category == "melee" else (ranged, melee)
    return ratio_total((ratio_product((halved, _HALF)), kept))


@dataclass(slots=True)
class _PricedProfile:
    """Everything of one model profile's price that does not depend on the rest of its unit.

    The costs are `Ratio`s, which `price()` adds up; `breakdown()` makes the Fractions and the
    breakdown objects, once per halved category, when a reader asks for the unit's `models`.
    """

    model: Model
    morale: MoraleBreakdown
    defence: DefenceBreakdown
    toughness: ToughnessBreakdown
    abilities: tuple[AbilityCost, ...]
    #: Every priced weapon line before halving, in the model's order (an Assault weapon: 2 lines).
    lines: tuple[WeaponLine, ...]
    base_cost: Ratio
    ability_cost: Ratio
    #: One model's melee / ranged weapon cost before halving.
    melee_cost: Ratio
    ranged_cost: Ratio
    #: The same for all `count` models, what the warrior/shooter classification adds up; and the
    #: base and ability costs of all `count` models.
    melee_total: Ratio
    ranged_total: Ratio
    fixed_total: Ratio
    _by_halving: dict[str, ModelBreakdown] = field(default_factory=dict)
    _totals_alone: _UnitTotals | None = None

    def totals_alone(self) -> _UnitTotals:
        """The totals of a unit of this profile alone (most heroes, vehicles and monsters), kept."""
        if self._totals_alone is None:
            self._totals_alone = _unit_totals([self])
        return self._totals_alone

    def breakdown(self, halved_category: WeaponCategory) -> ModelBreakdown:
        """The profile's breakdown once the unit has decided which category is halved."""
        found = self._by_halving.get(halved_category)
        if found is None:
            found = self._by_halving[halved_category] = self._build(halved_category)
        return found

    def _build(self, halved_category: WeaponCategory) -> ModelBreakdown:
        model = self.model
        weapon_cost = _weapon_cost(self.melee_cost, self.ranged_cost, halved_category)
        model_cost = ratio_total((self.base_cost, weapon_cost, self.ability_cost))
        model_cost_value = fraction(model_cost)
        return ModelBreakdown(
            name=model.name,
            count=model.count,
            morale=self.morale,
            defence=self.defence,
            toughness=self.toughness,
            base_cost=fraction(self.base_cost),
            weapons=tuple(line.breakdown(line.category == halved_category) for line in self.lines),
            weapon_cost_before_halving=fraction(ratio_total((self.melee_cost, self.ranged_cost))),
            weapon_cost=fraction(weapon_cost),
            abilities=self.abilities,
            ability_cost=fraction(self.ability_cost),
            model_cost=model_cost_value,
            total=model_cost_value if model.count == 1 else fraction(ratio_times(model_cost, model.count)),
        )


@lru_cache(maxsize=2048)
def _priced_profile(model: Model) -> _PricedProfile:
    """Price one model profile up to the unit-wide steps (cached: profiles recur as lists are edited)."""
    names = frozenset([r.name for r in model.rules])
    morale_b = morale(model.quality, names)
    defence_b = defence(model.defence, names)
    toughness_b = toughness(model, names)
    base = ratio_product(
        (
            ratio(tables.BASE_COST_FACTOR),
            ratio(morale_b.modifier),
            ratio(defence_b.modifier),
            ratio(toughness_b.modifier),
        )
    )
    abilities = ability_costs(model.rules, model.auras, model.orders, ability_toughness(model, toughness_b))
    ability_cost = ratio_total([ratio(a.cost) for a in abilities])
    context = weapon_context(model.quality, names)
    lines = tuple(line for weapon in model.weapons for line in weapon_lines(weapon, context))
    melee = ratio_total([line.cost for line in lines if line.category == "melee"])
    ranged = ratio_total([line.cost for line in lines if line.category == "ranged"])
    count = model.count
    return _PricedProfile(
        model=model,
        morale=morale_b,
        defence=defence_b,
        toughness=toughness_b,
        abilities=abilities,
        lines=lines,
        base_cost=base,
        ability_cost=ability_cost,
        melee_cost=melee,
        ranged_cost=ranged,
        melee_total=ratio_times(melee, count),
        ranged_total=ratio_times(ranged, count),
        fixed_total=ratio_times(ratio_total((base, ability_cost)), count),
    )


class _UnitTotals(NamedTuple):
    """What a unit's `Breakdown` says about the whole unit: the same for every unit of the same profiles."""

    exact: Fraction
    points: int
    category: UnitCategory
    melee_total: Fraction
    ranged_total: Fraction
    halved_category: WeaponCategory


def _unit_totals(profiles: list[_PricedProfile]) -> _UnitTotals:
    """The unit-wide steps: the warrior/shooter classification (§5) and the exact and rounded total.

    exact = Σ (base + ability cost) × count + the weapon cost of all models (the halved category's
    total × 0.5 plus the other's): Σ model totals (§1) regrouped, the same exact value.
    """
    melee = ratio_total([p.melee_total for p in profiles])
    ranged = ratio_total([p.ranged_total for p in profiles])
    # melee > ranged, compared as integers (denominators are positive)
    category, halved_category = classify(melee[0] * ranged[1], ranged[0] * melee[1])
    fixed = ratio_total([p.fixed_total for p in profiles])
    exact = ratio_total((fixed, _weapon_cost(melee, ranged, halved_category)))
    return _UnitTotals(
        fraction(exact), _round_half_up(exact), category, fraction(melee), fraction(ranged), halved_category
    )


def price(unit: Unit) -> Breakdown:
    """Price a unit: the exact total, the rounded points and every term of the formula.

    The breakdown of each model is built when `models` is first read.
    """
    profiles = [_priced_profile(model) for model in unit.models]
    totals = profiles[0].totals_alone() if len(profiles) == 1 else _unit_totals(profiles)
    halved_category = totals.halved_category
    return Breakdown(
        name=unit.name,
        exact=totals.exact,
        points=totals.points,
        category=totals.category,
        melee_total=totals.melee_total,
        ranged_total=totals.ranged_total,
        halved_category=halved_category,
        models=Deferred(lambda: tuple(p.breakdown(halved_category) for p in profiles)),
        model_count=unit.model_count,
        system=unit.system,
    )


def clear_profile_caches() -> None:
    """Forget per-profile results, keep the table lookups (a new unit in a warm process).

    Nothing is cached by a weapon's or a model's stats apart from the profile itself (`weapon_line`
    computes from the table lookups), so a renamed copy of a known profile is priced as a new one.
    """
    _priced_profile.cache_clear()


def clear_caches() -> None:
    """Forget every cached lookup of the engine (the benchmark's cold baseline, tests)."""
    from points.opr import ability_cost as ability_module
    from points.opr import defence as defence_module
    from points.opr import morale as morale_module
    from points.opr import toughness as toughness_module
    from points.opr import weapon_cost as weapon_module

    _priced_profile.cache_clear()
    morale_module.morale.cache_clear()
    defence_module.defence.cache_clear()
    toughness_module.clear_caches()
    ability_module.ability_costs.cache_clear()
    weapon_module.clear_caches()
