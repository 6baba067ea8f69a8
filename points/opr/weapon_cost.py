"""The cost of one weapon for one model (docs/rules/opr-points.md §5), before and after halving.

    weapon cost = attacks × 2 × range modifier × hit chance × ability modifiers

Each factor is its own function named after the spec's table, each returns its value and
the terms it was made of, so the breakdown shows *why* a Great Axe costs 38.646. The
warrior/shooter halving is decided for the whole unit (see `unit_cost.py`); here a weapon
only knows whether it was halved.

The lookups are cached (`functools.lru_cache`): the same few ranges, AP values and rule sets
recur in every unit, and units are re-priced on every edit.

A weapon line keeps its lookups and its cost as an exact integer ratio; `price()` adds up the
costs, and the terms become a `WeaponBreakdown` only when a reader asks for them.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import gcd

from points.opr import tables
from points.opr.breakdown import Term, WeaponBreakdown, WeaponCategory
from points.opr.exact import Ratio, fraction, ratio, ratio_product, total
from points.opr.interpolation import interpolate, last_segment_slope
from points.opr.unit import Rule, Weapon

#: Model rules that change the cost of the model's weapons (§5).
WEAPON_RELEVANT_MODEL_RULES = frozenset(
    {"Furious", "Relentless", "Spearhead", "Cautious", "Good Shot", "Bad Shot"}
    | set(tables.MODEL_WEAPON_MULTIPLIERS)
)

_RANGE_SLOPE_ABOVE = last_segment_slope(tables.RANGE_MODIFIER_POINTS)
_CAUTIOUS_SLOPE_ABOVE = last_segment_slope(tables.CAUTIOUS_POINTS)
_HALF = ratio(tables.CHEAPER_CATEGORY_FACTOR)


@dataclass(frozen=True, slots=True)
class WeaponContext:
    """What a weapon's cost needs to know about the model carrying it."""

    quality: int
    model_rules: frozenset[str]


@lru_cache(maxsize=512)
def weapon_context(quality: int, model_rule_names: frozenset[str]) -> WeaponContext:
    """The context of a model: its Quality and only the model rules that touch weapon costs."""
    return WeaponContext(quality, model_rule_names & WEAPON_RELEVANT_MODEL_RULES)


@lru_cache(maxsize=256)
def range_modifier(range_inches: int) -> Fraction:
    """§5 range table. Decision (documented in `tables`): interpolate, 12" below, slope above."""
    if range_inches == 0:
        return tables.MELEE_RANGE_MODIFIER
    return interpolate(tables.RANGE_MODIFIER_POINTS, range_inches, _RANGE_SLOPE_ABOVE)


@lru_cache(maxsize=256)
def cautious_term(range_inches: int) -> Fraction:
    """§5 Cautious row of the range table, interpolated like the range modifier."""
    if range_inches == 0:
        return tables.MELEE_CAUTIOUS
    return interpolate(tables.CAUTIOUS_POINTS, range_inches, _CAUTIOUS_SLOPE_ABOVE)


def weapon_quality(
    model_quality: int, weapon_rules: frozenset[str], model_rules: frozenset[str], category: WeaponCategory
) -> tuple[int, str]:
    """The Q used in the hit chance and where it came from (§5).

    Reliable: Q = 2. Good Shot / Bad Shot: ranged weapons use Q 4 / 5. Decision (ours,
    `tables.RELIABLE_OVERRIDES_SHOT_SKILL`): the weapon's Reliable wins over the model's shot
    skill; switched off, a ranged weapon's Good/Bad Shot wins over Reliable.
    """
    reliable = "Reliable" in weapon_rules
    if reliable and tables.RELIABLE_OVERRIDES_SHOT_SKILL:
        return tables.RELIABLE_QUALITY, "Reliable"
    if category == "ranged":
        for rule, quality in tables.SHOT_SKILL_QUALITY.items():
            if rule in model_rules:
                return quality, rule
    if reliable:
        return tables.RELIABLE_QUALITY, "Reliable"
    return model_quality, "model"


@lru_cache(maxsize=1024)
def hit_chance(
    quality: int,
    weapon_rules: frozenset[str],
    model_rules: frozenset[str],
    category: WeaponCategory,
    range_inches: int,
) -> tuple[Fraction, tuple[Term, ...]]:
    """§5: hit chance = 7 − Q + one term per rule that applies (a count of faces).

    Decision (documented in `tables`): each rule adds its term once, so a
    Furious model's Lance weapon adds 0.65 twice. Furious counts for melee weapons only,
    Relentless for ranged weapons only; Cautious adds its range-table value.
    """
    terms = [Term("7 - Q", Fraction(tables.HIT_CHANCE_FACES - quality))]
    present = weapon_rules | model_rules
    for rule, term in tables.HIT_CHANCE_TERMS.items():
        if rule not in present:
            continue
        if category == "ranged" and rule in tables.MELEE_ONLY_HIT_RULES:
            continue
        if category == "melee" and rule in tables.RANGED_ONLY_HIT_RULES:
            continue
        terms.append(Term(rule, term))
    if "Cautious" in model_rules:
        terms.append(Term("Cautious", cautious_term(0 if category == "melee" else range_inches)))
    return total(t.value for t in terms), tuple(terms)


@lru_cache(maxsize=256)
def ap_modifier(ap: int, weapon_rules: frozenset[str]) -> tuple[Fraction, tuple[Term, ...]]:
    """§5 AP table: the base value of the weapon's AP plus each row it has (rows add).

    Lock-On takes the No Cover row; Decision (ours, `tables.LOCK_ON_NO_COVER_ROW_ONCE`): a
    weapon with both adds that row once; switched off, it adds the row twice.
    """
    terms = [Term(f"AP {ap}", tables.AP_BASE[ap])]
    for rule, row in tables.AP_ROWS.items():
        if rule in weapon_rules:
            terms.append(Term(rule, row[ap]))
        if rule == tables.LOCK_ON_AP_ROW and "Lock-On" in weapon_rules \
                and (rule not in weapon_rules or not tables.LOCK_ON_NO_COVER_ROW_ONCE):
            terms.append(Term(f"{rule} (Lock-On)", row[ap]))
    return total(t.value for t in terms), tuple(terms)


@lru_cache(maxsize=256)
def x_multiplier(rule: str, x: int) -> Fraction:
    """Blast(X)/Deadly(X) (§5). Decision (`tables.X_MULTIPLIER_POINTS`): X = 1 is ×1,
    other X interpolate linearly, above 6 at the 3→6 slope."""
    points = tables.X_MULTIPLIER_POINTS[rule]
    return interpolate(points, x, last_segment_slope(points))


@lru_cache(maxsize=1024)
def multipliers(weapon_rules: tuple[Rule, ...], model_rules: frozenset[str]) -> tuple[Term, ...]:
    """Every factor of a weapon's cost after the AP modifier (§5): its own rules in the order
    they are written (Blast(X), Deadly(X), Indirect, Lock-On, …), then the model's (Vengeance)."""
    terms: list[Term] = []
    for rule in weapon_rules:
        if rule.value is not None and rule.name in tables.X_MULTIPLIER_POINTS:
            terms.append(Term(str(rule), x_multiplier(rule.name, rule.value)))
        elif rule.name in tables.WEAPON_MULTIPLIERS:
            terms.append(Term(rule.name, tables.WEAPON_MULTIPLIERS[rule.name]))
    for rule_name, factor in tables.MODEL_WEAPON_MULTIPLIERS.items():
        if rule_name in model_rules:
            terms.append(Term(rule_name, factor))
    return tuple(terms)


@dataclass(frozen=True, slots=True)
class WeaponRules:
    """What a weapon's rules settle before its stats are known (§5), for a model with given rules."""

    names: frozenset[str]
    #: A ranged weapon with Assault is also priced as a melee weapon.
    assault: bool
    multipliers: tuple[Term, ...]
    #: 2 × Π multipliers: the factors of the weapon's cost that its stats do not change.
    factor: Ratio


@lru_cache(maxsize=1024)
def weapon_rules(rules: tuple[Rule, ...], model_rules: frozenset[str]) -> WeaponRules:
    """The rule lookups of a weapon, keyed by its rules and its model's weapon-relevant rules: shared
    by every weapon written with the same rules, whatever its range, attacks, AP or Quality."""
    terms = multipliers(rules, model_rules)
    factor = ratio_product([ratio(tables.WEAPON_ATTACK_FACTOR), *(ratio(term.value) for term in terms)])
    names = frozenset([r.name for r in rules])
    return WeaponRules(names, tables.ASSAULT_RULE in names, terms, factor)


@dataclass(slots=True)
class WeaponLine:
    """One priced weapon line of a model before the unit decides the halving: the weapon, whether
    it is an Assault weapon's melee copy, its table lookups and its cost for one model.

    `price()` only adds up the costs; the lookups are kept for `breakdown()`, when a reader asks
    for the terms. Not frozen, to be cheap to make; nothing changes it once made.
    """

    weapon: Weapon
    as_melee: bool
    category: WeaponCategory
    quality: int
    quality_source: str
    range_modifier: Fraction
    #: The hit chance and the AP modifier, each with its terms (as `hit_chance` and `ap_modifier` give them).
    hit: tuple[Fraction, tuple[Term, ...]]
    ap: tuple[Fraction, tuple[Term, ...]]
    multipliers: tuple[Term, ...]
    #: attacks × 2 × range modifier × hit chance × AP modifier × Π multipliers.
    cost: Ratio

    def breakdown(self, halved: bool) -> WeaponBreakdown:
        """The line as the breakdown shows it; `halved`: the unit's cheaper category costs half (§5)."""
        weapon = self.weapon
        cost = fraction(self.cost)
        return WeaponBreakdown(
            name=weapon.name,
            category=self.category,
            assault_copy=self.as_melee and weapon.range != 0,
            attacks=weapon.attacks,
            range=weapon.range,
            range_modifier=self.range_modifier,
            quality=self.quality,
            quality_source=self.quality_source,
            hit_chance=self.hit[0],
            hit_terms=self.hit[1],
            ap=weapon.ap,
            ap_modifier=self.ap[0],
            ap_terms=self.ap[1],
            multipliers=self.multipliers,
            cost_before_halving=cost,
            halved=halved,
            cost=fraction(ratio_product((self.cost, _HALF))) if halved else cost,
        )


#: A weapon line as `price()` keeps it until a breakdown is asked for: the `WeaponLine` fields in
#: order, as a plain tuple (a profile never seen makes one per line; a tuple is the cheapest).
_Looked = tuple[Fraction, tuple[Term, ...]]
LineData = tuple[Weapon, bool, WeaponCategory, int, str, Fraction, _Looked, _Looked, tuple[Term, ...], Ratio]


@lru_cache(maxsize=256)
def range_entry(range_inches: int) -> tuple[Fraction, int, int]:
    """`range_modifier` with its numerator and denominator (Fraction's are Python properties)."""
    value = range_modifier(range_inches)
    return value, value.numerator, value.denominator


@lru_cache(maxsize=1024)
def hit_entry(
    quality: int, weapon_rules: frozenset[str], model_rules: frozenset[str], category: WeaponCategory,
    range_inches: int,
) -> tuple[tuple[Fraction, tuple[Term, ...]], int, int]:
    """`hit_chance` with the value's numerator and denominator."""
    hit = hit_chance(quality, weapon_rules, model_rules, category, range_inches)
    return hit, hit[0].numerator, hit[0].denominator


@lru_cache(maxsize=256)
def ap_entry(ap: int, weapon_rules: frozenset[str]) -> tuple[tuple[Fraction, tuple[Term, ...]], int, int]:
    """`ap_modifier` with the value's numerator and denominator."""
    found = ap_modifier(ap, weapon_rules)
    return found, found[0].numerator, found[0].denominator


_SHOT_SKILL_RULES = frozenset(tables.SHOT_SKILL_QUALITY)


def line_data(weapon: Weapon, context: WeaponContext, as_melee: bool, rules: WeaponRules) -> LineData:
    """`weapon_line` as a plain tuple (the fields of `WeaponLine`, in order): what `price()` keeps.

    The factors are table lookups (cached: a table's value for a range, an AP, a Quality and rule
    set); their product is taken as integers and reduced once, so a weapon never seen before costs
    its lookups and a few multiplications. Nothing here is cached by the weapon's stats together:
    a new profile is as fast as a renamed copy of a known one.
    """
    weapon_range = weapon.range
    if as_melee or weapon_range == 0:
        category: WeaponCategory = "melee"
        range_value, range_n, range_d = range_entry(0)
    else:
        category = "ranged"
        range_value, range_n, range_d = range_entry(weapon_range)
    names, model_rules = rules.names, context.model_rules
    if "Reliable" in names or (category == "ranged" and not _SHOT_SKILL_RULES.isdisjoint(model_rules)):
        quality, quality_source = weapon_quality(context.quality, names, model_rules, category)
    else:
        quality, quality_source = context.quality, "model"
    hit, hit_n, hit_d = hit_entry(quality, names, model_rules, category, weapon_range)
    ap, ap_n, ap_d = ap_entry(weapon.ap, names)
    numerator, denominator = rules.factor
    numerator *= weapon.attacks * range_n * hit_n * ap_n
    denominator *= range_d * hit_d * ap_d
    common = gcd(numerator, denominator)
    return (weapon, as_melee, category, quality, quality_source, range_value, hit, ap, rules.multipliers,
            (numerator // common, denominator // common))


def weapon_line(
    weapon: Weapon, context: WeaponContext, as_melee: bool, rules: WeaponRules | None = None
) -> WeaponLine:
    """One weapon's cost for one model carrying it, before the warrior/shooter halving.

    `as_melee` prices a ranged Assault weapon's melee copy (§5: "also priced as a melee weapon").
    `rules`: the weapon's `weapon_rules`, if the caller has looked them up already.
    """
    if rules is None:
        rules = weapon_rules(weapon.rules, context.model_rules)
    return WeaponLine(*line_data(weapon, context, as_melee, rules))


def weapon_lines(weapon: Weapon, context: WeaponContext) -> tuple[WeaponLine, ...]:
    """Every line a weapon is priced as: once, or twice for a ranged Assault weapon (§5)."""
    rules = weapon_rules(weapon.rules, context.model_rules)
    if weapon.range and rules.assault:
        return (weapon_line(weapon, context, False, rules), weapon_line(weapon, context, True, rules))
    return (weapon_line(weapon, context, False, rules),)


def price_weapon(
    weapon: Weapon, context: WeaponContext, as_melee: bool = False, halved: bool = False
) -> WeaponBreakdown:
    """The breakdown of one weapon for one model (`halved` if its category is the unit's cheaper one)."""
    return weapon_line(weapon, context, as_melee).breakdown(halved)


def clear_caches() -> None:
    """Forget every cached lookup (used by the benchmark's cold-cache baseline and by tests)."""
    for cached in (
        weapon_context,
        range_modifier,
        cautious_term,
        hit_chance,
        ap_modifier,
        x_multiplier,
        multipliers,
        weapon_rules,
        range_entry,
        hit_entry,
        ap_entry,
    ):
        cached.cache_clear()
