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
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

from points.opr import tables
from points.opr.ability_cost import ability_costs
from points.opr.breakdown import (
    AbilityCost,
    Breakdown,
    DefenceBreakdown,
    ModelBreakdown,
    MoraleBreakdown,
    ToughnessBreakdown,
    UnitCategory,
    WeaponCategory,
)
from points.opr.defence import defence
from points.opr.exact import product, times, total
from points.opr.morale import morale
from points.opr.toughness import ability_toughness, toughness
from points.opr.weapon_cost import WeaponLine, weapon_context, weapon_line, weapon_pricings
from points.unit import Model, Unit


def round_unit_total(exact: Fraction) -> int:
    """Decision (rounding), §1: half-up to a whole point, once per unit (never per model)."""
    return (exact + tables.ROUNDING_HALF).__floor__()


def classify(melee_total: Fraction, ranged_total: Fraction) -> tuple[UnitCategory, WeaponCategory]:
    """§5: a warrior unit if its melee weapons cost more, else a shooter; and the halved category."""
    if melee_total > ranged_total:
        return tables.WARRIOR, "ranged"
    return tables.SHOOTER, "melee"


@dataclass(slots=True)
class _PricedProfile:
    """Everything of one model profile's price that does not depend on the rest of its unit."""

    model: Model
    morale: MoraleBreakdown
    defence: DefenceBreakdown
    toughness: ToughnessBreakdown
    base_cost: Fraction
    abilities: tuple[AbilityCost, ...]
    ability_cost: Fraction
    #: Every priced weapon line before halving, in the model's order (an Assault weapon: 2 lines).
    lines: tuple[WeaponLine, ...]
    #: One model's melee / ranged weapon cost before halving, and their sum.
    melee_cost: Fraction
    ranged_cost: Fraction
    weapon_cost_before_halving: Fraction
    #: The same for all `count` models: what the unit's warrior/shooter classification adds up.
    melee_total: Fraction
    ranged_total: Fraction
    _by_halving: dict[str, ModelBreakdown] = field(default_factory=dict)

    def breakdown(self, halved_category: WeaponCategory) -> ModelBreakdown:
        """The profile's breakdown once the unit has decided which category is halved."""
        found = self._by_halving.get(halved_category)
        if found is None:
            found = self._by_halving[halved_category] = self._build(halved_category)
        return found

    def _build(self, halved_category: WeaponCategory) -> ModelBreakdown:
        model = self.model
        weapons = tuple(line.breakdown(line.category == halved_category) for line in self.lines)
        if halved_category == "melee":
            halved, kept = self.melee_cost, self.ranged_cost
        else:
            halved, kept = self.ranged_cost, self.melee_cost
        weapon_cost = total((product((halved, tables.CHEAPER_CATEGORY_FACTOR)), kept))
        model_cost = total((self.base_cost, weapon_cost, self.ability_cost))
        return ModelBreakdown(
            name=model.name,
            count=model.count,
            morale=self.morale,
            defence=self.defence,
            toughness=self.toughness,
            base_cost=self.base_cost,
            weapons=weapons,
            weapon_cost_before_halving=self.weapon_cost_before_halving,
            weapon_cost=weapon_cost,
            abilities=self.abilities,
            ability_cost=self.ability_cost,
            model_cost=model_cost,
            total=times(model_cost, model.count),
        )


@lru_cache(maxsize=2048)
def _priced_profile(model: Model) -> _PricedProfile:
    """Price one model profile up to the unit-wide steps (cached: profiles recur as lists are edited)."""
    names = frozenset(r.name for r in model.rules)
    morale_b = morale(model.quality, names)
    defence_b = defence(model.defence, names)
    toughness_b = toughness(model, names)
    base = product((tables.BASE_COST_FACTOR, morale_b.modifier, defence_b.modifier, toughness_b.modifier))
    abilities = ability_costs(model.rules, model.auras, model.orders, ability_toughness(model, toughness_b))
    context = weapon_context(model.quality, names)
    lines = tuple(
        weapon_line(weapon, context, as_melee)
        for weapon in model.weapons
        for as_melee in weapon_pricings(weapon)
    )
    melee_costs, ranged_costs = [], []
    for line in lines:
        (melee_costs if line.category == "melee" else ranged_costs).append(line.cost)
    melee, ranged = total(melee_costs), total(ranged_costs)
    return _PricedProfile(
        model=model,
        morale=morale_b,
        defence=defence_b,
        toughness=toughness_b,
        base_cost=base,
        abilities=abilities,
        ability_cost=total(a.cost for a in abilities),
        lines=lines,
        melee_cost=melee,
        ranged_cost=ranged,
        weapon_cost_before_halving=total((melee, ranged)),
        melee_total=times(melee, model.count),
        ranged_total=times(ranged, model.count),
    )


def price(unit: Unit) -> Breakdown:
    """Price a unit: the exact total, the rounded points and every term of the formula."""
    profiles = [_priced_profile(model) for model in unit.models]
    melee_total = total(p.melee_total for p in profiles)
    ranged_total = total(p.ranged_total for p in profiles)
    category, halved_category = classify(melee_total, ranged_total)
    models = tuple(p.breakdown(halved_category) for p in profiles)
    exact = total(m.total for m in models)
    return Breakdown(
        name=unit.name,
        exact=exact,
        points=round_unit_total(exact),
        category=category,
        melee_total=melee_total,
        ranged_total=ranged_total,
        halved_category=halved_category,
        models=models,
        model_count=unit.model_count,
        system=unit.system,
    )


def clear_profile_caches() -> None:
    """Forget per-profile results, keep the table lookups (a new unit in a warm process)."""
    _priced_profile.cache_clear()
    # weapon_module.weapon_factors stays: it is keyed by a weapon profile's stats, a table lookup


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
