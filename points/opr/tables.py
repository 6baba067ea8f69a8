"""Every table of the OPR cost formula, as data (`docs/rules/opr-points.md`).

The numbers are seed 002's (`docs/rules/opr-points.md`), unchanged, as exact
`Fraction`s built from their decimal text, so `1.33` is 133/100 and not a binary float.
Each **Decision** of the spec is a named constant here (or a named function in the module
that applies it, pointing back here), so that a decision can be changed in one place.

Nothing in this module computes; the modules named after each part of the formula
(`morale.py`, `defence.py`, `toughness.py`, `weapon_cost.py`, `ability_cost.py`,
`army_structure.py`) read these tables.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction


def _f(text: str) -> Fraction:
    """An exact table value from the seed's decimal text."""
    return Fraction(text)


def _row(columns: tuple[int, ...], values: str) -> dict[int, Fraction]:
    """One table row, written as in the spec: `_row(DEFENCE_COLUMNS, "0.8 1 1.33 1.67 2")`."""
    return dict(zip(columns, (Fraction(v) for v in values.split()), strict=True))


# ---------------------------------------------------------------------------
# §1 Cost of a unit
# ---------------------------------------------------------------------------

#: base cost = 5 × morale modifier × defence modifier × toughness modifier (§1).
BASE_COST_FACTOR = Fraction(5)

#: Decision (rounding), §1: a unit total is rounded half-up once; this is the "half".
ROUNDING_HALF = Fraction(1, 2)

# ---------------------------------------------------------------------------
# §2 Morale modifier (Quality)
# ---------------------------------------------------------------------------

#: Quality and Defence are the d6 result to reach, 2 to 6 (§2, §3).
QUALITY_RANGE = (2, 6)
DEFENCE_RANGE = (2, 6)

#: morale modifier = 1.3 − (Q − 1)/10 × m (§2).
MORALE_START = _f("1.3")
MORALE_QUALITY_OFFSET = 1
MORALE_QUALITY_DIVISOR = 10

#: m starts at 1 and is multiplied by 0.5 for each of these model rules (§2).
MORALE_MULTIPLIER_RULES: dict[str, Fraction] = {
    "Fearless": _f("0.5"),
    "Reckless": _f("0.5"),
}

#: Decision (§2): Fearless and Reckless multiply, so a unit with both has m = 0.25.
MORALE_MULTIPLIERS_STACK = True

# ---------------------------------------------------------------------------
# §3 Defence modifier: the base value plus each row that applies
# ---------------------------------------------------------------------------

#: The columns of the defence table: no armour, light armour, heavy armour, light plating, heavy plating.
DEFENCE_COLUMNS = (6, 5, 4, 3, 2)

#: Base value by Defence (§3).
DEFENCE_BASE: dict[int, Fraction] = _row(DEFENCE_COLUMNS, "0.8 1 1.33 1.67 2")

#: Rows added to the base when the model has the rule (§3). Order is display order.
DEFENCE_ROWS: dict[str, dict[int, Fraction]] = {
    "Delicate": _row(DEFENCE_COLUMNS, "-0.13 -0.1 -0.08 -0.07 -0.05"),
    "Resistant": _row(DEFENCE_COLUMNS, "0.35 0.3 0.2 0.1 0.05"),
    "Regeneration": _row(DEFENCE_COLUMNS, "0.4 0.45 0.5 0.65 1"),
    "Spearhead": _row(DEFENCE_COLUMNS, "0.1 0.17 0.17 0.17 0.1"),
}

# ---------------------------------------------------------------------------
# §4 Toughness modifier
# ---------------------------------------------------------------------------

#: (toughness, modifier) points of the table (§4).
TOUGHNESS_POINTS: tuple[tuple[int, Fraction], ...] = (
    (1, _f("1")),
    (2, _f("2.15")),
    (3, _f("3.5")),
    (6, _f("8")),
    (9, _f("13")),
    (12, _f("18")),
)

#: The table's last column, "each +3: +5" (§4).
TOUGHNESS_STEP = 3
TOUGHNESS_STEP_MODIFIER = _f("5")

#: Decision (§4), documentation only (the spec offers no other reading): between listed
#: points toughness interpolates linearly (T4 = 5); see `toughness.toughness_modifier`.

#: Decision (§4): above 12 the line continues at +5 per 3 (T13 = 18 + 5/3).
TOUGHNESS_SLOPE_ABOVE_TABLE = TOUGHNESS_STEP_MODIFIER / TOUGHNESS_STEP

#: Massive (§4): the model is priced with the sum of its parts' toughness.
#: Decision (ours, §4 + §6): that summed toughness is also the "toughness of the model" that
#: per-toughness ability costs multiply, so a Massive model is priced as one consistent size.
MASSIVE_TOUGHNESS_FOR_ABILITIES = True

# ---------------------------------------------------------------------------
# §5 Weapon cost = attacks × 2 × range modifier × hit chance × ability modifiers
# ---------------------------------------------------------------------------

WEAPON_ATTACK_FACTOR = Fraction(2)

#: A melee weapon (range 0) (§5).
MELEE_RANGE_MODIFIER = _f("0.6")
MELEE_CAUTIOUS = _f("0")

#: (range in inches, modifier) points of the range table (§5).
RANGE_MODIFIER_POINTS: tuple[tuple[int, Fraction], ...] = (
    (12, _f("0.65")),
    (18, _f("1")),
    (24, _f("1.25")),
    (30, _f("1.45")),
    (36, _f("1.55")),
)

#: (range in inches, hit-chance term) of the Cautious row of the range table (§5).
CAUTIOUS_POINTS: tuple[tuple[int, Fraction], ...] = (
    (12, _f("0")),
    (18, _f("0.5")),
    (24, _f("0.7")),
    (30, _f("0.8")),
    (36, _f("0.9")),
)

#: Decision (§5), documentation only (no other reading is defined): ranges between
#: listed values interpolate linearly; 12" and below (the
#: spec's "6" and below", and 7"–11" which have no lower point to interpolate from) use the
#: 12" value; beyond 36" the line continues at the 30"→36" slope.

#: hit chance = 7 − Q + terms (§5). A count of faces, not a probability.
HIT_CHANCE_FACES = 7

#: Hit-chance terms by rule (§5).
HIT_CHANCE_TERMS: dict[str, Fraction] = {
    "Rending": _f("1"),
    "Furious": _f("0.65"),
    "Relentless": _f("0.65"),
    "Lance": _f("0.65"),
    "Spearhead": _f("0.5"),
    "Lock-On": _f("0.35"),
}

#: Decision (§5), documentation only (the spec names no alternative): each rule that
#: applies adds its term once — a Furious model's Lance weapon
#: adds 0.65 twice. Furious raises melee weapons, Relentless ranged weapons (model rules);
#: Lance, Rending, Lock-On, Reliable are the weapon's; Spearhead and Cautious the model's.
MELEE_ONLY_HIT_RULES = frozenset({"Furious"})
RANGED_ONLY_HIT_RULES = frozenset({"Relentless"})

#: Reliable: Q counts as 2 for this weapon (§5).
RELIABLE_QUALITY = 2
#: Good Shot / Bad Shot: ranged weapons use Q 4 / Q 5 (§5).
SHOT_SKILL_QUALITY: dict[str, int] = {"Good Shot": 4, "Bad Shot": 5}
#: Decision (ours, §5 is silent): a weapon's own Reliable wins over the model's Good/Bad Shot.
RELIABLE_OVERRIDES_SHOT_SKILL = True

#: The columns of the AP table (§5).
AP_RANGE = (-1, 5)
AP_COLUMNS = (-1, 0, 1, 2, 3, 4, 5)

#: AP base value (§5).
AP_BASE: dict[int, Fraction] = _row(AP_COLUMNS, "0.8 1 1.5 1.9 2.25 2.5 2.65")

#: AP rows added to the base when the weapon has the rule (§5). Order is display order.
AP_ROWS: dict[str, dict[int, Fraction]] = {
    "Lance": _row(AP_COLUMNS, "0.15 0.35 0.3 0.25 0.15 0.1 0.05"),
    "No Cover": _row(AP_COLUMNS, "0.1 0.25 0.2 0.15 0.1 0.1 0.05"),
    "Corrosive": _row(AP_COLUMNS, "0.05 0.05 0.1 0.25 0.4 0.5 0.55"),
}

#: Lock-On "takes the No Cover row" (§5).
LOCK_ON_AP_ROW = "No Cover"
#: Decision (ours, §5 is silent): a weapon with both Lock-On and No Cover adds that row once
#: (Lock-On already ignores cover; the rows are effects, and one effect is counted once).
LOCK_ON_NO_COVER_ROW_ONCE = True

#: (X, multiplier) points of Blast(X) and Deadly(X) (§5).
BLAST_POINTS: tuple[tuple[int, Fraction], ...] = ((2, _f("1.95")), (3, _f("2.8")), (6, _f("4.3")))
DEADLY_POINTS: tuple[tuple[int, Fraction], ...] = ((2, _f("1.9")), (3, _f("2.6")), (6, _f("3.8")))

#: Decision (§5): X = 1 is ×1, other X interpolate linearly, above 6 at the 3→6 slope.
X_ONE_MULTIPLIER = Fraction(1)
X_MULTIPLIER_POINTS: dict[str, tuple[tuple[int, Fraction], ...]] = {
    "Blast": ((1, X_ONE_MULTIPLIER), *BLAST_POINTS),
    "Deadly": ((1, X_ONE_MULTIPLIER), *DEADLY_POINTS),
}

#: A weapon's own rules that multiply its cost (§5). Order is display order.
WEAPON_MULTIPLIERS: dict[str, Fraction] = {
    "Indirect": _f("1.2"),
    "Lock-On": _f("1.1"),
    "Limited": _f("0.4"),
    "Overcharge": _f("1.4"),
    "Precise": _f("1.5"),
    "Brutal": _f("1.1"),
}

#: A model's rules that multiply the cost of every weapon it carries (§5).
MODEL_WEAPON_MULTIPLIERS: dict[str, Fraction] = {
    "Vengeance": _f("1.1"),
}

#: Assault: a ranged weapon is also priced as a melee weapon, both costs count (§5).
ASSAULT_RULE = "Assault"

#: The cheaper of melee and ranged weapons (summed over the whole unit) costs half (§5).
CHEAPER_CATEGORY_FACTOR = _f("0.5")
#: A unit is a warrior unit if melee costs *more*, a shooter otherwise (ties: shooter) (§5).
WARRIOR = "warrior"
SHOOTER = "shooter"

# ---------------------------------------------------------------------------
# §6 Ability cost
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AbilityPrice:
    """One row of the ability table (§6).

    `per_toughness` is None where the table says "see weapon/defence/quality" (the rule is
    priced elsewhere in the formula, `priced_in` says where); `aura`/`order` are None for "–".
    """

    per_toughness: Fraction | None
    aura: Fraction | None
    order: Fraction | None
    priced_in: str | None = None


ABILITY_TABLE: dict[str, AbilityPrice] = {
    "Ambush": AbilityPrice(_f("2"), None, None),
    "Scout": AbilityPrice(_f("2"), None, None),
    "Fast": AbilityPrice(_f("1"), _f("8"), _f("10")),
    "Slow": AbilityPrice(_f("-1"), _f("8"), _f("10")),
    "Skirmisher": AbilityPrice(_f("1.5"), _f("12"), _f("15")),
    "Immobile": AbilityPrice(_f("-2.5"), None, _f("25")),
    "Agile": AbilityPrice(_f("0.5"), _f("4"), _f("5")),
    "Clumsy": AbilityPrice(_f("-0.5"), _f("4"), _f("5")),
    "Flying": AbilityPrice(_f("1"), _f("8"), _f("10")),
    "Aircraft": AbilityPrice(_f("3"), None, None),
    "Furious": AbilityPrice(None, _f("24"), _f("30"), priced_in="weapon"),
    "Relentless": AbilityPrice(None, _f("28"), _f("35"), priced_in="weapon"),
    "Good Shot": AbilityPrice(None, None, None, priced_in="weapon"),
    "Bad Shot": AbilityPrice(None, None, None, priced_in="weapon"),
    "Counter": AbilityPrice(_f("2"), _f("16"), _f("20")),
    "Delicate": AbilityPrice(None, _f("4"), _f("5"), priced_in="defence"),
    "Resistant": AbilityPrice(None, _f("16"), _f("20"), priced_in="defence"),
    "Regeneration": AbilityPrice(None, _f("28"), _f("35"), priced_in="defence"),
    "Stealth": AbilityPrice(_f("2"), _f("16"), _f("20")),
    "Entrenched": AbilityPrice(_f("1"), _f("8"), _f("10")),
    "Shield": AbilityPrice(_f("1.25"), _f("10"), _f("12.5")),
    "Fearless": AbilityPrice(None, _f("12"), _f("15"), priced_in="quality"),
    "Reckless": AbilityPrice(None, _f("12"), _f("15"), priced_in="quality"),
    "Guardian": AbilityPrice(_f("3"), _f("24"), _f("30")),
    "Instinct": AbilityPrice(_f("-1"), _f("8"), _f("10")),
}

#: Hero: free (§6); its limits are army-structure rule 3 (§7).
HERO_COST = Fraction(0)
#: Fear(X): 0.75 × X (§6).
FEAR_PER_X = _f("0.75")
#: Caster(X): 8 × X (§6). X is the power tokens per round, at most 6 (seed, "Mag(X)").
CASTER_PER_X = _f("8")
CASTER_MAX_X = 6
#: Flat prices of the other abilities (§6).
FLAT_ABILITY_COSTS: dict[str, Fraction] = {
    "Relay": _f("4"),
    "Mending": _f("20"),
    "Radio": _f("3"),
}

#: Transport(X): X × the factor of the model's other abilities (§6).
TRANSPORT_FACTORS: tuple[tuple[str, Fraction], ...] = (
    ("Aircraft", _f("3.5")),
    ("Ambush", _f("2.5")),
    ("Scout", _f("2.5")),
    ("Flying", _f("1.5")),
    ("Fast", _f("1.25")),
    ("Agile", _f("1.25")),
)
TRANSPORT_DEFAULT_FACTOR = _f("1")
#: Decision (§6): when several transport factors apply, the highest one is used.
TRANSPORT_HIGHEST_FACTOR_WINS = True

#: Auras are priced for 8 toughness (the table's aura column); a 12" aura is bought twice (§6).
AURA_RANGES = (6, 12)
AURA_LONG_RANGE = 12
AURA_LONG_RANGE_MULTIPLIER = Fraction(2)
#: Orders are priced for 10 toughness (the order column), always reach 12", priced once (§6).
ORDER_RANGE = 12

# ---------------------------------------------------------------------------
# §7 Army structure (each switchable per list, except the points limit)
# ---------------------------------------------------------------------------

#: 1. At most 1 unit per full 200 points of the points limit.
POINTS_PER_UNIT_ALLOWED = 200
#: 2. No unit over 35% of the limit, under 50 points, or over 21 models.
MAX_UNIT_SHARE = Fraction(35, 100)
MIN_UNIT_POINTS = 50
MAX_MODELS_PER_UNIT = 21
#: 3. Hero: at most 1 per 500 points, at most 1 per unit.
#: Decision (ours, §7 like rule 1): "per 500 points" counts full 500s of the points limit.
POINTS_PER_HERO_ALLOWED = 500
MAX_HEROES_PER_UNIT = 1
#: 4. A model's weapon cost before halving is between 1× and 5× its base cost.
BALANCE_MIN_RATIO = Fraction(1)
BALANCE_MAX_RATIO = Fraction(5)
#: 5. A unit has at most one active ability; a model has an active ability or an aura.
MAX_ACTIVE_ABILITIES_PER_UNIT = 1
#: The seed's "Active" abilities (Mag, Przekaźnik, Łatanie, Rozkaz); orders are active too.
ACTIVE_ABILITIES = frozenset({"Caster", "Relay", "Mending"})
#: The seed lists Radio under "Aury" (auras); a model's aura list counts too.
AURA_ABILITIES = frozenset({"Radio"})
