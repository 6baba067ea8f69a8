"""The cost of one weapon for one model (opr-points.md §5), before and after halving.

    weapon cost = attacks × 2 × range modifier × hit chance × ability modifiers

Each factor is its own function named after the spec's table, each returns its value and
the terms it was made of, so the breakdown shows *why* a Great Axe costs 38.646. The
warrior/shooter halving is decided for the whole unit (see `unit_cost.py`); here a weapon
only knows whether it was halved.

The lookups are cached (`functools.lru_cache`): the same few ranges, AP values and rule sets
recur in every unit, and units are re-priced on every edit.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from points.opr import tables
from points.opr.breakdown import Term, WeaponBreakdown, WeaponCategory
from points.opr.exact import product, total
from points.opr.interpolation import interpolate, last_segment_slope
from points.unit import Rule, Weapon

#: Model rules that change the cost of the model's weapons (§5).
WEAPON_RELEVANT_MODEL_RULES = frozenset(
    {"Furious", "Relentless", "Spearhead", "Cautious", "Good Shot", "Bad Shot"}
    | set(tables.MODEL_WEAPON_MULTIPLIERS)
)

_RANGE_SLOPE_ABOVE = last_segment_slope(tables.RANGE_MODIFIER_POINTS)
_CAUTIOUS_SLOPE_ABOVE = last_segment_slope(tables.CAUTIOUS_POINTS)


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
    """§5 range table. Decision (`tables.RANGES_INTERPOLATE`): interpolate, 12" below, slope above."""
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
    `tables.RELIABLE_OVERRIDES_SHOT_SKILL`): the weapon's Reliable wins over the model's shot skill.
    """
    if "Reliable" in weapon_rules:
        return tables.RELIABLE_QUALITY, "Reliable"
    if category == "ranged":
        for rule, quality in tables.SHOT_SKILL_QUALITY.items():
            if rule in model_rules:
                return quality, rule
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

    Decision (`tables.HIT_TERMS_ADD_ONCE_PER_RULE`): each rule adds its term once, so a
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
    weapon with both adds that row once.
    """
    terms = [Term(f"AP {ap}", tables.AP_BASE[ap])]
    for rule, row in tables.AP_ROWS.items():
        if rule in weapon_rules:
            terms.append(Term(rule, row[ap]))
        elif rule == tables.LOCK_ON_AP_ROW and "Lock-On" in weapon_rules:
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
class WeaponFactors:
    """Every factor of a weapon's cost except its attacks: what its profile's stats look up (§5)."""

    category: WeaponCategory
    quality: int
    quality_source: str
    range_modifier: Fraction
    hit_chance: Fraction
    hit_terms: tuple[Term, ...]
    ap_modifier: Fraction
    ap_terms: tuple[Term, ...]
    multipliers: tuple[Term, ...]
    #: 2 × range modifier × hit chance × AP modifier × Π multipliers: the cost of one attack.
    per_attack: Fraction


@lru_cache(maxsize=2048)
def weapon_factors(
    range_inches: int, ap: int, rules: tuple[Rule, ...], context: WeaponContext, category: WeaponCategory
) -> WeaponFactors:
    """The table lookups of one weapon profile, keyed by its stats (not its name), cached."""
    weapon_rules = frozenset([r.name for r in rules])
    quality, quality_source = weapon_quality(context.quality, weapon_rules, context.model_rules, category)
    rng = range_modifier(0 if category == "melee" else range_inches)
    hit, hit_terms = hit_chance(quality, weapon_rules, context.model_rules, category, range_inches)
    ap_value, ap_terms = ap_modifier(ap, weapon_rules)
    factors = multipliers(rules, context.model_rules)
    per_attack = product((tables.WEAPON_ATTACK_FACTOR, rng, hit, ap_value, *[f.value for f in factors]))
    return WeaponFactors(
        category, quality, quality_source, rng, hit, hit_terms, ap_value, ap_terms, factors, per_attack
    )


@dataclass(frozen=True, slots=True)
class WeaponLine:
    """One priced weapon line of a model before the unit decides the halving: the weapon, whether
    it is an Assault weapon's melee copy, its table lookups and its cost for one model."""

    weapon: Weapon
    as_melee: bool
    factors: WeaponFactors
    cost: Fraction

    @property
    def category(self) -> WeaponCategory:
        return self.factors.category

    def breakdown(self, halved: bool) -> WeaponBreakdown:
        """The line as the breakdown shows it; `halved`: the unit's cheaper category costs half (§5)."""
        f, weapon = self.factors, self.weapon
        return WeaponBreakdown(
            name=weapon.name,
            category=f.category,
            assault_copy=self.as_melee and weapon.range != 0,
            attacks=weapon.attacks,
            range=weapon.range,
            range_modifier=f.range_modifier,
            quality=f.quality,
            quality_source=f.quality_source,
            hit_chance=f.hit_chance,
            hit_terms=f.hit_terms,
            ap=weapon.ap,
            ap_modifier=f.ap_modifier,
            ap_terms=f.ap_terms,
            multipliers=f.multipliers,
            cost_before_halving=self.cost,
            halved=halved,
            cost=product((self.cost, tables.CHEAPER_CATEGORY_FACTOR)) if halved else self.cost,
        )


def weapon_line(weapon: Weapon, context: WeaponContext, as_melee: bool) -> WeaponLine:
    """One weapon's cost for one model carrying it, before the warrior/shooter halving.

    `as_melee` prices a ranged Assault weapon's melee copy (§5: "also priced as a melee weapon").
    """
    category: WeaponCategory = "melee" if (as_melee or weapon.range == 0) else "ranged"
    factors = weapon_factors(weapon.range, weapon.ap, weapon.rules, context, category)
    return WeaponLine(weapon, as_melee, factors, product((weapon.attacks, factors.per_attack)))


def price_weapon(
    weapon: Weapon, context: WeaponContext, as_melee: bool = False, halved: bool = False
) -> WeaponBreakdown:
    """The breakdown of one weapon for one model (`halved` if its category is the unit's cheaper one)."""
    return weapon_line(weapon, context, as_melee).breakdown(halved)


def weapon_pricings(weapon: Weapon) -> tuple[bool, ...]:
    """The `as_melee` flags a weapon is priced with: once, or twice for a ranged Assault weapon."""
    if not weapon.is_melee and weapon.has(tables.ASSAULT_RULE):
        return (False, True)
    return (False,)


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
        weapon_factors,
    ):
        cached.cache_clear()
