"""The cost tables as whole numbers, made once when the engine is imported: what `price()` reads.

`price()` needs each lookup's value only, never its terms (the breakdown reads `tables` term by
term, in `morale.py`, `defence.py`, `toughness.py`, `weapon_cost.py`, when a reader asks for it).
Here every table of `tables` is turned into integers over one denominator (the seed's values are
decimals of two places; the interpolated lines have thirds and sixths: their denominator is the
lcm of their values' and slopes' denominators), so that a lookup never made before is a dict
lookup or a few integer operations: no Fraction, no `Term`, no cache to fill. The first unit a
process prices, with stats and rules no unit had, costs what a known one costs.

Building all of it takes a fraction of a millisecond at import (`build`). A test that flips a
decision of `tables` calls `points.opr.clear_caches()`, which builds them again from the flags.
`tests/points/opr/test_scaled_tables.py` checks every value against the Fraction functions.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from itertools import pairwise
from math import gcd, lcm

from points.opr import tables
from points.opr.exact import Ratio

#: Ranges and toughness values whose reduced value is listed (the common ones: a weapon's range
#: up to 48", a model's toughness up to 24); others are worked out on demand, a few integer
#: operations (the unit format allows up to 120" and toughness 100).
LISTED_RANGES = 48
LISTED_TOUGHNESS = 24


class Line:
    """A piecewise-linear table (`interpolation.interpolate`) in integers: `scaled(x)` is the
    value at `x` times `denominator`, exactly (the denominator makes every listed value and every
    segment's slope a whole number, so each step along a segment is one)."""

    __slots__ = ("_first", "_first_x", "_last", "_last_x", "_slope_above", "denominator", "listed")

    def __init__(self, points: Sequence[tuple[int, Fraction]], slope_above: Fraction) -> None:
        slopes = [(y1 - y0) / (x1 - x0) for (x0, y0), (x1, y1) in pairwise(points)]
        denominator = lcm(*(y.denominator for _, y in points), *(s.denominator for s in slopes),
                          slope_above.denominator)
        self.denominator = denominator
        self._first_x, self._first = points[0][0], _times(points[0][1], denominator)
        self._last_x, self._last = points[-1][0], _times(points[-1][1], denominator)
        self._slope_above = _times(slope_above, denominator)
        listed: dict[int, int] = {}
        for ((x0, y0), (x1, _y1)), slope in zip(pairwise(points), slopes, strict=True):
            start, step = _times(y0, denominator), _times(slope, denominator)
            for x in range(x0, x1):
                listed[x] = start + step * (x - x0)
        listed[self._last_x] = self._last
        #: x -> scaled value for every x from the first point to the last.
        self.listed = listed

    def scaled(self, x: int) -> int:
        """The value at `x` times `denominator`: below the first point the first value, above the
        last the line continued (`interpolation.interpolate`'s rule)."""
        found = self.listed.get(x)
        if found is not None:
            return found
        if x <= self._first_x:
            return self._first
        return self._last + self._slope_above * (x - self._last_x)

    def ratio(self, x: int) -> Ratio:
        """The value at `x` as a reduced Ratio."""
        n = self.scaled(x)
        common = gcd(n, self.denominator)
        return n // common, self.denominator // common


def _times(value: Fraction, denominator: int) -> int:
    """`value × denominator`, a whole number (`denominator` is a multiple of the value's)."""
    return value.numerator * (denominator // value.denominator)


def _reduced(n: int, d: int) -> Ratio:
    common = gcd(n, d)
    return n // common, d // common


def _scale(values: Sequence[Fraction]) -> int:
    """The least denominator that makes every value a whole number."""
    return lcm(1, *(v.denominator for v in values))


def _scaled_row(row: dict[int, Fraction], denominator: int) -> dict[int, int]:
    return {column: _times(value, denominator) for column, value in row.items()}


class Tables:
    """Every table `price()` reads, in integers (one instance, `TABLES`, rebuilt by `build()`)."""

    def __init__(self) -> None:
        # §2 morale: by (Quality, the model's morale rules), every Quality of the unit format
        from points.opr.morale import morale_multiplier

        self.morale_rules = frozenset(tables.MORALE_MULTIPLIER_RULES)
        subsets: list[frozenset[str]] = [frozenset()]
        for name in tables.MORALE_MULTIPLIER_RULES:
            subsets += [subset | {name} for subset in subsets]
        start, offset = tables.MORALE_START, tables.MORALE_QUALITY_OFFSET
        divisor = tables.MORALE_QUALITY_DIVISOR
        self.morale: dict[tuple[int, frozenset[str]], Ratio] = {}
        for subset in subsets:
            m = morale_multiplier(subset)[0]
            for quality in range(tables.QUALITY_RANGE[0], tables.QUALITY_RANGE[1] + 1):
                value = start - Fraction(quality - offset, divisor) * m
                self.morale[quality, subset] = (value.numerator, value.denominator)
        # §3 defence: the base and each row over one denominator
        rows = [v for row in tables.DEFENCE_ROWS.values() for v in row.values()]
        self.defence_denominator = _scale([*tables.DEFENCE_BASE.values(), *rows])
        self.defence_base = _scaled_row(tables.DEFENCE_BASE, self.defence_denominator)
        self.defence_rows = {name: _scaled_row(row, self.defence_denominator)
                             for name, row in tables.DEFENCE_ROWS.items()}
        self.defence_row_rules = frozenset(tables.DEFENCE_ROWS)
        # §4 toughness
        self.toughness = Line(tables.TOUGHNESS_POINTS, tables.TOUGHNESS_SLOPE_ABOVE_TABLE)
        self.toughness_ratios = {t: self.toughness.ratio(t) for t in range(1, LISTED_TOUGHNESS + 1)}
        # §5 range modifier (melee at 0) and the Cautious row
        from points.opr.interpolation import last_segment_slope

        points = tables.RANGE_MODIFIER_POINTS
        ranges = Line(points, last_segment_slope(points))
        self.range_line = ranges
        self.range_ratios = {r: ranges.ratio(r) for r in range(1, LISTED_RANGES + 1)}
        melee = tables.MELEE_RANGE_MODIFIER
        self.range_ratios[0] = (melee.numerator, melee.denominator)
        cautious = Line(tables.CAUTIOUS_POINTS, last_segment_slope(tables.CAUTIOUS_POINTS))
        # §5 hit chance: 7 − Q and the terms over one denominator with the Cautious row
        hit_denominator = lcm(_scale([*tables.HIT_CHANCE_TERMS.values(), tables.MELEE_CAUTIOUS]),
                              cautious.denominator)
        self.hit_denominator = hit_denominator
        self.hit_terms = tuple((rule, _times(term, hit_denominator))
                               for rule, term in tables.HIT_CHANCE_TERMS.items())
        self.hit_rules = frozenset(tables.HIT_CHANCE_TERMS) | {"Cautious"}
        self.cautious_melee = _times(tables.MELEE_CAUTIOUS, hit_denominator)
        self.cautious_factor = hit_denominator // cautious.denominator
        self.cautious = cautious
        # §5 AP: the base and each row over one denominator
        self.ap_denominator = _scale([*tables.AP_BASE.values(),
                                      *(v for row in tables.AP_ROWS.values() for v in row.values())])
        self.ap_base = _scaled_row(tables.AP_BASE, self.ap_denominator)
        self.ap_rows = tuple((name, _scaled_row(row, self.ap_denominator))
                             for name, row in tables.AP_ROWS.items())
        self.ap_rules = frozenset(tables.AP_ROWS) | {"Lock-On"}
        # §5 multipliers: Blast(X)/Deadly(X) lines, the weapon's and the model's factors
        self.x_lines = {rule: Line(points, last_segment_slope(points))
                        for rule, points in tables.X_MULTIPLIER_POINTS.items()}
        self.weapon_multipliers = {rule: (f.numerator, f.denominator)
                                   for rule, f in tables.WEAPON_MULTIPLIERS.items()}
        self.model_multipliers = tuple((rule, f.numerator, f.denominator)
                                       for rule, f in tables.MODEL_WEAPON_MULTIPLIERS.items())
        attack = tables.WEAPON_ATTACK_FACTOR
        self.attack_factor = (attack.numerator, attack.denominator)
        # §6 abilities: per toughness, flat and by X, over one denominator
        per_toughness = {name: row.per_toughness for name, row in tables.ABILITY_TABLE.items()
                         if row.per_toughness is not None}
        columns = {name: (row.aura, row.order) for name, row in tables.ABILITY_TABLE.items()}
        ability_values = [*per_toughness.values(), tables.HERO_COST, tables.FEAR_PER_X, tables.CASTER_PER_X,
                          *tables.FLAT_ABILITY_COSTS.values(), tables.TRANSPORT_DEFAULT_FACTOR,
                          *(f for _, f in tables.TRANSPORT_FACTORS),
                          *(v for pair in columns.values() for v in pair if v is not None),
                          *(aura * tables.AURA_LONG_RANGE_MULTIPLIER for aura, _ in columns.values()
                            if aura is not None)]
        d = self.ability_denominator = _scale(ability_values)
        self.per_toughness = {name: _times(value, d) for name, value in per_toughness.items()}
        self.flat = {name: _times(value, d) for name, value in tables.FLAT_ABILITY_COSTS.items()}
        self.flat["Hero"] = _times(tables.HERO_COST, d)
        self.by_x = {"Fear": _times(tables.FEAR_PER_X, d), "Caster": _times(tables.CASTER_PER_X, d)}
        #: The aura and order columns (the reader accepts only abilities these price).
        self.aura = {name: _times(aura, d) for name, (aura, _order) in columns.items() if aura is not None}
        self.long_aura = {name: _times(aura * tables.AURA_LONG_RANGE_MULTIPLIER, d)
                          for name, (aura, _order) in columns.items() if aura is not None}
        self.order = {name: _times(order, d) for name, (_aura, order) in columns.items() if order is not None}


def hit_ratio(quality: int, weapon_names: frozenset[str], model_rules: frozenset[str], ranged: bool,
              range_inches: int) -> tuple[int, int]:
    """`weapon_cost.hit_chance`'s value (§5) as (numerator, denominator), not reduced (`price()`
    reduces each weapon line's product once): 7 − Q plus each term that applies
    (Furious for melee only, Relentless for ranged only), plus Cautious's range-table term."""
    t = TABLES
    hit_rules = t.hit_rules
    if hit_rules.isdisjoint(weapon_names) and hit_rules.isdisjoint(model_rules):
        return tables.HIT_CHANCE_FACES - quality, 1
    d = t.hit_denominator
    n = (tables.HIT_CHANCE_FACES - quality) * d
    for rule, term in t.hit_terms:
        if rule in weapon_names or rule in model_rules:
            if ranged:
                if rule in tables.MELEE_ONLY_HIT_RULES:
                    continue
            elif rule in tables.RANGED_ONLY_HIT_RULES:
                continue
            n += term
    if "Cautious" in model_rules:
        if ranged and range_inches:
            n += t.cautious.scaled(range_inches) * t.cautious_factor
        else:
            n += t.cautious_melee
    return n, d


def ap_ratio(ap: int, weapon_names: frozenset[str]) -> tuple[int, int]:
    """`weapon_cost.ap_modifier`'s value (§5) as (numerator, denominator), not reduced: the AP's
    base plus each row the weapon has; Lock-On takes the No Cover row, once with No Cover
    (`tables.LOCK_ON_NO_COVER_ROW_ONCE`)."""
    t = TABLES
    n = t.ap_base[ap]
    if not t.ap_rules.isdisjoint(weapon_names):
        lock_on = "Lock-On" in weapon_names
        for rule, row in t.ap_rows:
            has = rule in weapon_names
            if has:
                n += row[ap]
            twice = not has or not tables.LOCK_ON_NO_COVER_ROW_ONCE
            if rule == tables.LOCK_ON_AP_ROW and lock_on and twice:
                n += row[ap]
    return n, t.ap_denominator


def defence_ratio(defence: int, names: frozenset[str]) -> tuple[int, int]:
    """`defence.defence`'s modifier (§3) as (numerator, denominator), not reduced: the base plus
    each row the model has."""
    t = TABLES
    n = t.defence_base[defence]
    for name, row in t.defence_rows.items():
        if name in names:
            n += row[defence]
    return n, t.defence_denominator


def toughness_ratio(priced_toughness: int) -> Ratio:
    """`toughness.toughness_modifier` (§4) of the toughness a model is priced with."""
    found = TABLES.toughness_ratios.get(priced_toughness)
    return found if found is not None else TABLES.toughness.ratio(priced_toughness)


def range_ratio(range_inches: int) -> Ratio:
    """`weapon_cost.range_modifier` (§5): 0 is melee."""
    found = TABLES.range_ratios.get(range_inches)
    return found if found is not None else TABLES.range_line.ratio(range_inches)


def weapon_factor(rules: Sequence[object], model_rules: frozenset[str]) -> Ratio:
    """2 × every multiplier of a weapon (§5, `weapon_cost.multipliers`): Blast(X), Deadly(X),
    Indirect, … in the order written, then the model's (Vengeance)."""
    t = TABLES
    n, d = t.attack_factor
    x_lines, multipliers = t.x_lines, t.weapon_multipliers
    for rule in rules:
        name, value = rule.name, rule.value  # type: ignore[attr-defined]
        if value is not None and name in x_lines:
            line = x_lines[name]
            n *= line.scaled(value)
            d *= line.denominator
        else:
            found = multipliers.get(name)
            if found is not None:
                n *= found[0]
                d *= found[1]
    for name, fn, fd in t.model_multipliers:
        if name in model_rules:
            n *= fn
            d *= fd
    return _reduced(n, d)


def ability_ratio(rules: Sequence[object], names: frozenset[str], toughness: int,
                  auras: Sequence[object] = (), orders: Sequence[object] = ()) -> Ratio:
    """`ability_cost.ability_costs`' total (§6): per toughness × the priced toughness, Fear(X)
    and Caster(X) by X, Transport(X) × its factor, flat prices; each aura's column (twice for a
    12" aura) and each order's."""
    from points.opr.ability_cost import transport_factor

    t = TABLES
    n = 0
    per_toughness, flat, by_x = t.per_toughness, t.flat, t.by_x
    for rule in rules:
        name = rule.name  # type: ignore[attr-defined]
        if name in tables.ABILITY_TABLE:
            found = per_toughness.get(name)
            if found is not None:
                n += found * toughness
        elif name == "Transport":
            value = rule.value  # type: ignore[attr-defined]
            if value is not None:
                n += _times(transport_factor(names)[0], t.ability_denominator) * value
        elif name in by_x:
            value = rule.value  # type: ignore[attr-defined]
            if value is not None:
                n += by_x[name] * value
        else:
            found = flat.get(name)
            if found is not None:
                n += found
    for aura in auras:
        long_range = aura.range >= tables.AURA_LONG_RANGE  # type: ignore[attr-defined]
        n += (t.long_aura if long_range else t.aura)[aura.grants]  # type: ignore[attr-defined]
    for order in orders:
        n += t.order[order.grants]  # type: ignore[attr-defined]
    return _reduced(n, t.ability_denominator)


TABLES = Tables()


def build() -> None:
    """Make the tables again from `tables` (a test flipped a decision)."""
    global TABLES
    TABLES = Tables()
