"""The cost of a unit (docs/rules/opr-points.md §1): the answer to "why does this unit cost 143?".

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

from dataclasses import dataclass, field, fields
from fractions import Fraction
from functools import lru_cache
from math import gcd, lcm
from numbers import Rational
from typing import Any, NamedTuple

from points.opr import scaled_tables, tables
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
from points.opr.scaled_tables import (
    ability_ratio,
    ap_ratio,
    defence_ratio,
    hit_ratio,
    range_ratio,
    toughness_ratio,
    weapon_factor,
)
from points.opr.toughness import _toughness, ability_toughness
from points.opr.unit import Aura, Model, Rule, Unit
from points.opr.weapon_cost import (
    WEAPON_RELEVANT_MODEL_RULES,
    LineData,
    WeaponLine,
    WeaponRules,
    line_data,
    weapon_context,
    weapon_quality,
    weapon_rules,
)

_HALF = ratio(tables.CHEAPER_CATEGORY_FACTOR)
_BASE_FACTOR = int(tables.BASE_COST_FACTOR)  # a whole number (checked below)
assert tables.BASE_COST_FACTOR.denominator == 1
_ROUNDING_HALF = ratio(tables.ROUNDING_HALF)


def round_unit_total(exact: Fraction) -> int:
    """Decision (rounding), §1: half-up to a whole point, once per unit (never per model)."""
    return _round_half_up(ratio(exact))


def _round_half_up(exact: Ratio) -> int:
    """`round_unit_total` of a Ratio: ⌊exact + ½⌋ in integers."""
    numerator, denominator = exact
    half_n, half_d = _ROUNDING_HALF
    return (numerator * half_d + half_n * denominator) // (denominator * half_d)


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
    #: Every priced weapon line before halving, in the model's order (an Assault weapon: 2 lines),
    #: as `line_data` tuples; `lines` makes them `WeaponLine`s when a breakdown is asked for.
    line_data: tuple[LineData, ...]
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
    _lines: tuple[WeaponLine, ...] | None = None

    @property
    def lines(self) -> tuple[WeaponLine, ...]:
        """The weapon lines, made once."""
        if self._lines is None:
            self._lines = tuple(WeaponLine(*data) for data in self.line_data)
        return self._lines

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


# Table lookups with the numerator and denominator of their value beside it (a Fraction's are
# Python properties, and a profile reads a dozen): keyed by a Quality, a Defence or a toughness
# and the model's rule names, the fixed vocabulary of the tables, never by a unit.


@lru_cache(maxsize=256)
def _morale_entry(quality: int, names: frozenset[str]) -> tuple[MoraleBreakdown, int, int]:
    found = morale(quality, names)
    return found, found.modifier.numerator, found.modifier.denominator


@lru_cache(maxsize=256)
def _defence_entry(defence_value: int, names: frozenset[str]) -> tuple[DefenceBreakdown, int, int]:
    found = defence(defence_value, names)
    return found, found.modifier.numerator, found.modifier.denominator


@lru_cache(maxsize=256)
def _toughness_entry(
    toughness_value: int, parts: tuple[tuple[str, int], ...]
) -> tuple[ToughnessBreakdown, int, int]:
    found = _toughness(toughness_value, parts)
    return found, found.modifier.numerator, found.modifier.denominator


#: Model rules that `ability_costs` prices (the others are priced in morale, defence or weapons).
_ABILITY_RULES = frozenset(
    {name for name, row in tables.ABILITY_TABLE.items() if row.per_toughness is not None}
    | {"Hero", "Transport", "Fear", "Caster"}
    | set(tables.FLAT_ABILITY_COSTS)
)
_NO_ABILITIES: tuple[tuple[AbilityCost, ...], Ratio] = ((), (0, 1))


@lru_cache(maxsize=1024)
def _ability_entry(
    rules: tuple[Rule, ...], auras: tuple[Aura, ...], orders: tuple[Aura, ...], toughness_value: int
) -> tuple[tuple[AbilityCost, ...], Ratio]:
    found = ability_costs(rules, auras, orders, toughness_value)
    return found, ratio_total([ratio(a.cost) for a in found])


def _compute_profile(model: Model) -> _PricedProfile:
    """Price one model profile up to the unit-wide steps."""
    rules = model.rules
    names = frozenset([r.name for r in rules])
    morale_b, morale_n, morale_d = _morale_entry(model.quality, names)
    defence_b, defence_n, defence_d = _defence_entry(model.defence, names)
    # as `toughness(model, names)` (a Massive model: its parts)
    parts = tuple([(p.name, p.toughness) for p in model.parts]) if model.parts and "Massive" in names else ()
    toughness_b, toughness_n, toughness_d = _toughness_entry(model.toughness, parts)
    numerator = _BASE_FACTOR * morale_n * defence_n * toughness_n
    denominator = morale_d * defence_d * toughness_d
    common = gcd(numerator, denominator)
    base = numerator // common, denominator // common
    auras, orders = model.auras, model.orders
    if auras or orders or not names.isdisjoint(_ABILITY_RULES):
        abilities, ability_cost = _ability_entry(rules, auras, orders, ability_toughness(model, toughness_b))
    else:
        abilities, ability_cost = _NO_ABILITIES
    context = weapon_context(model.quality, names)
    lines: list[LineData] = []
    melee_n, melee_d, ranged_n, ranged_d = 0, 1, 0, 1
    for weapon in model.weapons:
        found = weapon_rules(weapon.rules, context.model_rules)
        data = line_data(weapon, context, False, found)
        lines.append(data)
        n, d = data[9]
        if data[2] == "melee":
            if d == melee_d:
                melee_n += n
            elif n:
                common = lcm(melee_d, d)
                melee_n, melee_d = melee_n * (common // melee_d) + n * (common // d), common
        else:
            if d == ranged_d:
                ranged_n += n
            elif n:
                common = lcm(ranged_d, d)
                ranged_n, ranged_d = ranged_n * (common // ranged_d) + n * (common // d), common
            if found.assault:
                data = line_data(weapon, context, True, found)
                lines.append(data)
                n, d = data[9]
                if d == melee_d:
                    melee_n += n
                elif n:
                    common = lcm(melee_d, d)
                    melee_n, melee_d = melee_n * (common // melee_d) + n * (common // d), common
    common = gcd(melee_n, melee_d)
    melee = melee_n // common, melee_d // common
    common = gcd(ranged_n, ranged_d)
    ranged = ranged_n // common, ranged_d // common
    count = model.count
    if ability_cost[0]:
        fixed = ratio_times(ratio_total((base, ability_cost)), count)
    else:
        fixed = ratio_times(base, count)
    return _PricedProfile(
        model=model,
        morale=morale_b,
        defence=defence_b,
        toughness=toughness_b,
        abilities=abilities,
        line_data=tuple(lines),
        base_cost=base,
        ability_cost=ability_cost,
        melee_cost=melee,
        ranged_cost=ranged,
        melee_total=ratio_times(melee, count),
        ranged_total=ratio_times(ranged, count),
        fixed_total=fixed,
    )


#: Pricing a profile. Not cached by the profile: hashing a `Model` (its weapons and their rules,
#: each a dataclass hashed in Python) cost a third of pricing it afresh, so a profile is
#: always priced from the table lookups, which are cached.
_priced_profile = _compute_profile


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
    return _UnitTotals(*_totals(melee, ranged, ratio_total([p.fixed_total for p in profiles])))


def _totals(
    melee: Ratio, ranged: Ratio, fixed: Ratio
) -> tuple[Fraction, int, UnitCategory, Fraction, Fraction, WeaponCategory]:
    """`_unit_totals` from the unit's melee, ranged and fixed (base and abilities) totals, as a
    plain tuple in `_UnitTotals`' order."""
    melee_n, melee_d = melee
    ranged_n, ranged_d = ranged
    # melee > ranged, compared as integers (denominators are positive); the other category halved
    if melee_n * ranged_d > ranged_n * melee_d:
        category, halved_category = tables.WARRIOR, "ranged"
        kept_n, kept_d, halved_n, halved_d = melee_n, melee_d, ranged_n, ranged_d
    else:
        category, halved_category = tables.SHOOTER, "melee"
        kept_n, kept_d, halved_n, halved_d = ranged_n, ranged_d, melee_n, melee_d
    # exact = fixed + kept + halved × ½, over one denominator
    fixed_n, fixed_d = fixed
    half_n, half_d = _HALF
    halved_n *= half_n
    halved_d *= half_d
    denominator = lcm(fixed_d, kept_d, halved_d)
    numerator = (fixed_n * (denominator // fixed_d) + kept_n * (denominator // kept_d)
                 + halved_n * (denominator // halved_d))
    common = gcd(numerator, denominator)
    exact = numerator // common, denominator // common
    points = _round_half_up(exact)
    return fraction(exact), points, category, fraction(melee), fraction(ranged), halved_category


_BREAKDOWN_FIELDS = ("name", "exact", "points", "category", "melee_total", "ranged_total", "halved_category",
                     "models", "model_count", "system")
_new_object = object.__new__


_set_attribute = object.__setattr__


def _breakdown(values: dict[str, Any]) -> Breakdown:
    """`Breakdown(**values)`, filled as its frozen `__init__` would, without a `setattr` per field:
    a `Breakdown` keeps its fields in its `__dict__` (its `models` field reads a `Deferred` from
    there), so `values` becomes that `__dict__`."""
    made = _new_object(Breakdown)
    _set_attribute(made, "__dict__", values)
    return made


def _breakdown_by_init(values: dict[str, Any]) -> Breakdown:
    return Breakdown(**values)


if tuple(f.name for f in fields(Breakdown)) != _BREAKDOWN_FIELDS or hasattr(Breakdown, "__slots__") \
        or hasattr(Breakdown, "__post_init__"):
    _breakdown = _breakdown_by_init  # the class changed: use its own constructor


#: `weapon_rules` by the identity of a weapon's rules tuple and the model's weapon rules. The
#: reader gives every weapon written with the same rules the same tuple, and hashing that tuple
#: (its `Rule`s are dataclasses, hashed in Python) cost more than the rest of a weapon's lookups.
#: Each entry holds its tuple, so an id in the table is never reused by another object.
_RULES_BY_IDENTITY: dict[tuple[int, frozenset[str]], tuple[tuple[Rule, ...], WeaponRules]] = {}
_MAX_RULES_BY_IDENTITY = 4096


def _weapon_rules(rules: tuple[Rule, ...], model_rules: frozenset[str]) -> WeaponRules:
    """`weapon_rules(rules, model_rules)`, looked up by the tuple's identity first."""
    key = (id(rules), model_rules)
    known = _RULES_BY_IDENTITY.get(key)
    if known is not None and known[0] is rules:
        return known[1]
    found = weapon_rules(rules, model_rules)
    if len(_RULES_BY_IDENTITY) >= _MAX_RULES_BY_IDENTITY:
        _RULES_BY_IDENTITY.clear()
    _RULES_BY_IDENTITY[key] = (rules, found)
    return found


#: The lines a weapon is priced as (True: as melee), by [its range is 0][it has Assault] (§5:
#: a ranged Assault weapon is also priced as a melee weapon; Assault on a melee weapon is refused
#: by the reader, and would change nothing).
_LINES = {False: {False: (False,), True: (False, True)}, True: {False: (True,), True: (True,)}}
_SHOT_SKILLS = frozenset(tables.SHOT_SKILL_QUALITY)


_Factor = tuple[frozenset[str], bool, int, int]


def _rules_factor(rules: tuple[Rule, ...], model_rules: frozenset[str]) -> _Factor:
    """What `price()` needs of a weapon's rules for a model with given weapon rules: their names,
    whether Assault is among them, and 2 × Π multipliers as (numerator, denominator), from the
    integer tables (`scaled_tables`), kept by the identity of the rules tuple (see below)."""
    key = (id(rules), model_rules)
    known = _FACTORS_BY_IDENTITY.get(key)
    if known is not None and known[0] is rules:
        return known[1]
    names = frozenset([r.name for r in rules])
    found = (names, tables.ASSAULT_RULE in names, *weapon_factor(rules, model_rules))
    if len(_FACTORS_BY_IDENTITY) >= _MAX_RULES_BY_IDENTITY:
        _FACTORS_BY_IDENTITY.clear()
    _FACTORS_BY_IDENTITY[key] = (rules, found)
    return found


#: `_rules_factor` by the identity of a weapon's rules tuple and the model's weapon rules: the
#: reader gives every weapon written with the same rules the same tuple, and hashing that tuple
#: (its `Rule`s are dataclasses, hashed in Python) cost more than the rest of a weapon's lookups.
#: Each entry holds its tuple, so an id in the table is never reused by another object. A miss
#: costs a few integer products (no table is built on a miss).
_FACTORS_BY_IDENTITY: dict[tuple[int, frozenset[str]], tuple[tuple[Rule, ...], _Factor]] = {}


def price(unit: Unit) -> Breakdown:
    """Price a unit: the exact total, the rounded points and every term of the formula.

    The totals are computed here, straight from the integer tables (`scaled_tables`, made at
    import: a unit never seen, with stats and rules never seen, needs no table built and no
    Fraction); the breakdown of each model (`_compute_profile`, the same values kept term by
    term) is built when `models` is first read.
    """
    t = scaled_tables.TABLES
    morale_table, morale_rules, toughness_ratios = t.morale, t.morale_rules, t.toughness_ratios
    range_ratios = t.range_ratios
    # the usual case read inline: no rule of the model or the weapon touches a table's row
    defence_rules, defence_base = t.defence_row_rules, t.defence_base
    defence_denominator = t.defence_denominator
    ap_rules, ap_base, ap_denominator = t.ap_rules, t.ap_base, t.ap_denominator
    hit_rules, faces = t.hit_rules, tables.HIT_CHANCE_FACES
    fixed_n, fixed_d, melee_n, melee_d, ranged_n, ranged_d = 0, 1, 0, 1, 0, 1
    model_count = 0
    for model in unit.models:
        count = model.count
        model_count += count
        rules = model.rules
        names = frozenset([r.name for r in rules])
        quality = model.quality
        found_morale = morale_table.get((quality, names & morale_rules))
        if found_morale is None:  # a Quality the unit format refuses (a unit built in code)
            found_morale = _morale_entry(quality, names)[1:]
        morale_n, morale_d = found_morale
        if defence_rules.isdisjoint(names):
            defence_n, defence_d = defence_base[model.defence], defence_denominator
        else:
            defence_n, defence_d = defence_ratio(model.defence, names)
        priced_toughness = model.toughness
        if model.parts and "Massive" in names:
            priced_toughness = sum([p.toughness for p in model.parts])
        found_toughness = toughness_ratios.get(priced_toughness)
        toughness_n, toughness_d = found_toughness if found_toughness is not None \
            else toughness_ratio(priced_toughness)
        # Σ (base + abilities) × count
        n = _BASE_FACTOR * morale_n * defence_n * toughness_n * count
        d = morale_d * defence_d * toughness_d
        auras, orders = model.auras, model.orders
        if auras or orders or not names.isdisjoint(_ABILITY_RULES):
            priced_for = priced_toughness if tables.MASSIVE_TOUGHNESS_FOR_ABILITIES else model.toughness
            ability_n, ability_d = ability_ratio(rules, names, priced_for, auras, orders)
            if ability_n:
                n = n * ability_d + ability_n * count * d
                d *= ability_d
        if d == fixed_d:
            fixed_n += n
        else:
            common = lcm(fixed_d, d)
            fixed_n, fixed_d = fixed_n * (common // fixed_d) + n * (common // d), common
        # the weapons of all `count` models, by category (an Assault weapon: also as melee)
        model_rules = names & WEAPON_RELEVANT_MODEL_RULES if names else names
        shot_skill = not _SHOT_SKILLS.isdisjoint(model_rules)
        model_hit = not hit_rules.isdisjoint(model_rules)
        for weapon in model.weapons:
            attacks = weapon.attacks
            if not attacks:
                continue  # costs nothing
            rules = weapon.rules
            known = _FACTORS_BY_IDENTITY.get((id(rules), model_rules))
            found = known[1] if known is not None and known[0] is rules else _rules_factor(rules, model_rules)
            weapon_names, assault, factor_n, factor_d = found
            weapon_range = weapon.range
            if ap_rules.isdisjoint(weapon_names):
                ap_n, ap_d = ap_base[weapon.ap], ap_denominator
            else:
                ap_n, ap_d = ap_ratio(weapon.ap, weapon_names)
            weapon_hit = model_hit or not hit_rules.isdisjoint(weapon_names)
            weapon_n = factor_n * attacks * count * ap_n
            weapon_d = factor_d * ap_d
            for melee in _LINES[weapon_range == 0][assault]:
                if melee:
                    range_n, range_d = range_ratios[0]
                else:
                    found_range = range_ratios.get(weapon_range)
                    range_n, range_d = found_range if found_range is not None else range_ratio(weapon_range)
                line_quality = quality
                if "Reliable" in weapon_names or (shot_skill and not melee):
                    line_quality = weapon_quality(quality, weapon_names, model_rules,
                                                  "melee" if melee else "ranged")[0]
                if weapon_hit:
                    hit_n, hit_d = hit_ratio(line_quality, weapon_names, model_rules, not melee, weapon_range)
                else:
                    hit_n, hit_d = faces - line_quality, 1
                n = weapon_n * range_n * hit_n
                d = weapon_d * range_d * hit_d
                common = gcd(n, d)
                n //= common
                d //= common
                if melee:
                    if d == melee_d:
                        melee_n += n
                    else:
                        common = lcm(melee_d, d)
                        melee_n, melee_d = melee_n * (common // melee_d) + n * (common // d), common
                elif d == ranged_d:
                    ranged_n += n
                else:
                    common = lcm(ranged_d, d)
                    ranged_n, ranged_d = ranged_n * (common // ranged_d) + n * (common // d), common
    common = gcd(melee_n, melee_d)
    melee = melee_n // common, melee_d // common
    common = gcd(ranged_n, ranged_d)
    ranged = ranged_n // common, ranged_d // common
    common = gcd(fixed_n, fixed_d)
    exact, points, category, melee_total, ranged_total, halved_category = _totals(
        melee, ranged, (fixed_n // common, fixed_d // common))
    models = Deferred(lambda: tuple(_compute_profile(m).breakdown(halved_category) for m in unit.models))
    return _breakdown({
        "name": unit.name,
        "exact": exact,
        "points": points,
        "category": category,
        "melee_total": melee_total,
        "ranged_total": ranged_total,
        "halved_category": halved_category,
        "models": models,
        "model_count": model_count,
        "system": unit.system,
    })


def weapon_balance(unit: Unit) -> list[tuple[str, Ratio, Ratio]]:
    """Per model profile: (name, base cost, one model's weapon cost before halving), what
    army-structure rule 4 (§7) compares, without building the unit's breakdown."""
    found = []
    for model in unit.models:
        profile = _compute_profile(model)
        found.append((model.name, profile.base_cost, ratio_total((profile.melee_cost, profile.ranged_cost))))
    return found


def clear_profile_caches() -> None:
    """Forget per-profile results, keep the table lookups (a new unit in a warm process).

    Nothing is cached per profile any more (`_priced_profile`): kept so that callers (the
    benchmarks) can say what they clear; it forgets nothing.
    """


def forget_learned() -> None:
    """Forget what pricing units taught `price()` (the weapon factors kept by identity); the
    tables built at import stay (the reader's warm-up at import, `clear_caches`)."""
    _RULES_BY_IDENTITY.clear()
    _FACTORS_BY_IDENTITY.clear()


def clear_caches(*, rebuild_tables: bool = True) -> None:
    """Forget every cached lookup of the engine (the benchmark's cold baseline, tests).

    `rebuild_tables`: make the integer tables (`scaled_tables`) again from `tables`, for a test
    that flipped a decision; the benchmark's cold state keeps them, as a process that has just
    started has them (they are built from the code at import, never from an input)."""
    from points.opr import ability_cost as ability_module
    from points.opr import defence as defence_module
    from points.opr import morale as morale_module
    from points.opr import toughness as toughness_module
    from points.opr import weapon_cost as weapon_module

    forget_learned()
    if rebuild_tables:
        scaled_tables.build()
    for cached in (_morale_entry, _defence_entry, _toughness_entry, _ability_entry):
        cached.cache_clear()
    morale_module.morale.cache_clear()
    defence_module.defence.cache_clear()
    toughness_module.clear_caches()
    ability_module.ability_costs.cache_clear()
    weapon_module.clear_caches()
