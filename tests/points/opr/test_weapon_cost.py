"""Weapon cost, docs/rules/opr-points.md §5: attacks × 2 × range modifier × hit chance × ability modifiers.

Seed: "Koszt broni wynosi: liczba ataków * 2 * modyfikator zasięgu * szansa trafienia *
modyfikatory zdolności."
"""

from fractions import Fraction

import pytest

from points.opr import price
from points.opr.weapon_cost import (
    ap_modifier,
    cautious_term,
    hit_chance,
    price_weapon,
    range_modifier,
    weapon_context,
    x_multiplier,
)
from tests.factories.opr_units import melee, model, rules, unit, weapon

F = Fraction


def line(w, quality=4, model_rules=(), as_melee=False):
    """One weapon line for a model of Quality `quality` with `model_rules`."""
    return price_weapon(w, weapon_context(quality, frozenset(model_rules)), as_melee)


# --- range table -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("inches", "value"), [(0, "0.6"), (12, "0.65"), (18, "1"), (24, "1.25"), (30, "1.45"), (36, "1.55")]
)
def test_range_table_row(inches, value):
    """§5 range table: melee 0.6, 12" 0.65, 18" 1, 24" 1.25, 30" 1.45, 36" 1.55."""
    assert range_modifier(inches) == F(value)


@pytest.mark.parametrize(
    ("inches", "value"),
    [
        (1, F("0.65")),
        (6, F("0.65")),
        (9, F("0.65")),
        (15, F("0.825")),
        (21, F("1.125")),
        (27, F("1.35")),
        (42, F("1.65")),
        (48, F("1.75")),
    ],
)
def test_ranges_between_listed_values_interpolate(inches, value):
    """§5 Decision: interpolate; 6" and below use the 12" value; beyond 36" continue at the 30"→36" slope."""
    assert range_modifier(inches) == value


@pytest.mark.parametrize(
    ("inches", "value"), [(0, "0"), (12, "0"), (18, "0.5"), (24, "0.7"), (30, "0.8"), (36, "0.9")]
)
def test_cautious_row(inches, value):
    """§5 range table, row Cautious (Ostrożny): what it adds to the hit chance."""
    assert cautious_term(inches) == F(value)


def test_cautious_interpolates_like_the_range():
    """§5 Decision on ranges applies to the Cautious row: 15" → 0.25, 6" → 0, 42" → 1."""
    assert (cautious_term(15), cautious_term(6), cautious_term(42)) == (F("0.25"), 0, F(1))


# --- hit chance ----------------------------------------------------------------------------


@pytest.mark.parametrize("quality", [2, 3, 4, 5, 6])
def test_hit_chance_is_seven_minus_quality(quality):
    """§5: hit chance = 7 − Q (a count of faces)."""
    assert line(weapon(), quality).hit_chance == 7 - quality


@pytest.mark.parametrize(("rule", "term"), [("Rending", "1"), ("Lance", "0.65"), ("Lock-On", "0.35")])
def test_weapon_rule_adds_its_hit_term(rule, term):
    """§5 hit chance: +1 Rending, +0.65 Lance, +0.35 Lock-On (weapon rules)."""
    assert line(weapon("W", 24, 1, 0, rule)).hit_chance == 3 + F(term)


def test_furious_raises_melee_weapons_only():
    """§5 Decision: Furious (model rule) raises the hit chance of the model's melee weapons only."""
    assert line(melee(), model_rules={"Furious"}).hit_chance == F("3.65")
    assert line(weapon(), model_rules={"Furious"}).hit_chance == 3


def test_relentless_raises_ranged_weapons_only():
    """§5 Decision: Relentless (model rule) raises the hit chance of the model's ranged weapons only."""
    assert line(weapon(), model_rules={"Relentless"}).hit_chance == F("3.65")
    assert line(melee(), model_rules={"Relentless"}).hit_chance == 3


def test_spearhead_raises_all_weapons():
    """§5: +0.5 Spearhead, a model rule that applies to all its weapons."""
    assert line(weapon(), model_rules={"Spearhead"}).hit_chance == F("3.5")
    assert line(melee(), model_rules={"Spearhead"}).hit_chance == F("3.5")


def test_cautious_adds_by_each_weapons_range():
    """§5: Cautious adds the range table's value for each weapon's range (0 in melee)."""
    assert line(weapon("W", 24), model_rules={"Cautious"}).hit_chance == F("3.7")
    assert line(weapon("W", 36), model_rules={"Cautious"}).hit_chance == F("3.9")
    assert line(melee(), model_rules={"Cautious"}).hit_chance == 3


def test_furious_model_with_lance_weapon_adds_twice():
    """§5 Decision: each rule adds its term once — a Furious model's Lance weapon adds 0.65 twice."""
    w = line(melee("Lance", 1, 0, "Lance"), model_rules={"Furious"})
    assert w.hit_chance == 3 + F("1.3")
    assert [t.name for t in w.hit_terms] == ["7 - Q", "Furious", "Lance"]


def test_reliable_counts_quality_as_two():
    """§5 Reliable (Niezawodny): Q counts as 2 for this weapon."""
    w = line(weapon("W", 24, 1, 0, "Reliable"), quality=5)
    assert (w.quality, w.quality_source, w.hit_chance) == (2, "Reliable", 5)


@pytest.mark.parametrize(("rule", "quality"), [("Good Shot", 4), ("Bad Shot", 5)])
def test_good_and_bad_shot_set_ranged_quality(rule, quality):
    """§5 Good Shot / Bad Shot (Dobrze/źle strzela): ranged weapons use Q 4 / Q 5; melee keeps the
    model's Q."""
    ranged = line(weapon(), quality=6, model_rules={rule})
    assert (ranged.quality, ranged.hit_chance) == (quality, 7 - quality)
    assert line(melee(), quality=6, model_rules={rule}).quality == 6


def test_reliable_wins_over_shot_skill():
    """Our decision (tables.RELIABLE_OVERRIDES_SHOT_SKILL): a weapon's Reliable beats the model's Bad Shot."""
    assert line(weapon("W", 24, 1, 0, "Reliable"), quality=5, model_rules={"Bad Shot"}).quality == 2


def test_hit_chance_terms_are_named():
    """The breakdown lists every term of the hit chance (traceability)."""
    value, terms = hit_chance(3, frozenset({"Rending"}), frozenset({"Spearhead"}), "ranged", 24)
    assert value == F("5.5")
    assert [(t.name, t.value) for t in terms] == [("7 - Q", 4), ("Rending", 1), ("Spearhead", F("0.5"))]


# --- AP -----------------------------------------------------------------------------------

AP_BASE = {-1: "0.8", 0: "1", 1: "1.5", 2: "1.9", 3: "2.25", 4: "2.5", 5: "2.65"}
AP_ROWS = {
    "Lance": {-1: "0.15", 0: "0.35", 1: "0.3", 2: "0.25", 3: "0.15", 4: "0.1", 5: "0.05"},
    "No Cover": {-1: "0.1", 0: "0.25", 1: "0.2", 2: "0.15", 3: "0.1", 4: "0.1", 5: "0.05"},
    "Corrosive": {-1: "0.05", 0: "0.05", 1: "0.1", 2: "0.25", 3: "0.4", 4: "0.5", 5: "0.55"},
}


@pytest.mark.parametrize("ap", sorted(AP_BASE))
def test_ap_base_row(ap):
    """§5 AP table, base row."""
    assert ap_modifier(ap, frozenset())[0] == F(AP_BASE[ap])


@pytest.mark.parametrize("rule", sorted(AP_ROWS))
@pytest.mark.parametrize("ap", sorted(AP_BASE))
def test_ap_rule_row_adds(rule, ap):
    """§5 AP table: the rows Lance, No Cover, Corrosive add to the base."""
    value, terms = ap_modifier(ap, frozenset({rule}))
    assert value == F(AP_BASE[ap]) + F(AP_ROWS[rule][ap])
    assert terms[-1].name == rule


def test_lock_on_takes_no_cover_row_multiplier_and_hit_term():
    """§5 Lock-On (Namierzanie): ×1.1, takes the No Cover row, and +0.35 hit chance."""
    w = line(weapon("W", 24, 1, 2, "Lock-On"))
    assert w.ap_modifier == F("1.9") + F("0.15")
    assert ("Lock-On", F("1.1")) in [(t.name, t.value) for t in w.multipliers]
    assert w.hit_chance == F("3.35")
    assert w.cost == 1 * 2 * F("1.25") * F("3.35") * F("2.05") * F("1.1")


def test_lock_on_with_no_cover_adds_the_row_once():
    """Our decision (tables.LOCK_ON_NO_COVER_ROW_ONCE): Lock-On + No Cover add the No Cover row once."""
    value, terms = ap_modifier(0, frozenset({"Lock-On", "No Cover"}))
    assert value == F("1.25")
    assert [t.name for t in terms] == ["AP 0", "No Cover"]


# --- Blast(X) and Deadly(X) -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("rule", "x", "value"),
    [
        ("Blast", 2, "1.95"),
        ("Blast", 3, "2.8"),
        ("Blast", 6, "4.3"),
        ("Deadly", 2, "1.9"),
        ("Deadly", 3, "2.6"),
        ("Deadly", 6, "3.8"),
    ],
)
def test_x_table_row(rule, x, value):
    """§5 table X: Blast(X) ×1.95/2.8/4.3, Deadly(X) ×1.9/2.6/3.8 for X = 2/3/6."""
    assert x_multiplier(rule, x) == F(value)


@pytest.mark.parametrize(
    ("rule", "x", "value"),
    [
        ("Blast", 1, F(1)),
        ("Blast", 4, F("3.3")),
        ("Blast", 5, F("3.8")),
        ("Blast", 9, F("5.8")),
        ("Deadly", 1, F(1)),
        ("Deadly", 4, F("3")),
        ("Deadly", 5, F("3.4")),
        ("Deadly", 8, F("4.6")),
    ],
)
def test_other_x_interpolate(rule, x, value):
    """§5 Decision: X = 1 is ×1, other X interpolate linearly, above 6 at the 3→6 slope (Blast(4) = 3.3)."""
    assert x_multiplier(rule, x) == value


def test_blast_on_a_weapon_multiplies_its_cost():
    """§5: Blast(4) on a 24" A1 weapon: 2 × 1.25 × 3 × 3.3."""
    assert line(weapon("Mortar", 24, 1, 0, "Blast(4)")).cost == 2 * F("1.25") * 3 * F("3.3")


# --- other multipliers ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rule", "factor"),
    [("Indirect", "1.2"), ("Limited", "0.4"), ("Overcharge", "1.4"), ("Precise", "1.5"), ("Brutal", "1.1")],
)
def test_weapon_multiplier_row(rule, factor):
    """§5 rule table: Indirect ×1.2, Limited ×0.4, Overcharge ×1.4, Precise ×1.5, Brutal ×1.1."""
    plain = line(weapon()).cost
    w = line(weapon("W", 24, 1, 0, rule))
    assert w.cost == plain * F(factor)
    assert [(t.name, t.value) for t in w.multipliers] == [(rule, F(factor))]


def test_vengeance_multiplies_every_weapon_of_the_model():
    """§5 Vengeance (Zemsta): ×1.1 on every weapon of a model that has this model rule."""
    for w in (weapon(), melee()):
        assert line(w, model_rules={"Vengeance"}).cost == line(w).cost * F("1.1")


def test_multipliers_multiply_together():
    """§5: ability modifiers multiply (Blast(3) × Indirect × Limited)."""
    w = line(weapon("Artillery", 36, 1, 1, "Blast(3)", "Indirect", "Limited"))
    assert w.cost == 2 * F("1.55") * 3 * F("1.5") * F("2.8") * F("1.2") * F("0.4")


def test_attacks_scale_linearly():
    """§5: cost is proportional to attacks (3 attacks cost 3 times 1)."""
    assert line(melee("Axe", 3)).cost == 3 * line(melee("Axe", 1)).cost


# --- Assault and the warrior/shooter rule ----------------------------------------------------


def test_assault_weapon_is_also_priced_as_melee():
    """§5 Assault (Szturmowa): a ranged weapon also priced as a melee weapon; both costs count."""
    pistol = weapon("Pistol", 12, 1, 0, "Assault")
    b = price(unit(model(weapons=[pistol])))
    ranged, copy = b.models[0].weapons
    assert (ranged.category, ranged.assault_copy) == ("ranged", False)
    assert (copy.category, copy.assault_copy, copy.range_modifier) == ("melee", True, F("0.6"))
    assert b.ranged_total == 2 * F("0.65") * 3 and b.melee_total == 2 * F("0.6") * 3


def test_assault_melee_copy_takes_furious_not_relentless():
    """§5: the melee copy counts as melee (Furious applies), the ranged original as ranged (Relentless)."""
    pistol = weapon("Pistol", 12, 1, 0, "Assault")
    ranged, copy = (
        price(unit(model(rule_names=["Furious", "Relentless"], weapons=[pistol]))).models[0].weapons
    )
    assert "Relentless" in [t.name for t in ranged.hit_terms] and "Furious" not in [
        t.name for t in ranged.hit_terms
    ]
    assert "Furious" in [t.name for t in copy.hit_terms] and "Relentless" not in [
        t.name for t in copy.hit_terms
    ]


def test_melee_heavier_unit_is_warrior_and_halves_ranged():
    """§5: a warrior unit if melee costs more; the ranged weapons then cost half."""
    b = price(unit(model(weapons=[weapon("Pistol", 12), melee("Axe", 3)])))
    assert (b.category, b.halved_category) == ("warrior", "ranged")
    pistol, axe = b.models[0].weapons
    assert pistol.halved and pistol.cost == pistol.cost_before_halving / 2
    assert not axe.halved and axe.cost == axe.cost_before_halving


def test_equal_melee_and_ranged_is_a_shooter():
    """§5: "a shooter unit otherwise" — a tie is a shooter unit, melee halved."""
    b = price(unit(model(weapons=[weapon("Gun", 18, 3), melee("Club", 5)])))  # 3×2×1×3 = 18 = 5×2×0.6×3
    assert b.melee_total == b.ranged_total == 18
    assert (b.category, b.halved_category) == ("shooter", "melee")


def test_classification_sums_over_the_whole_unit():
    """§5 (seed: "na poziomie oddziału, nie modelu"): the unit's totals decide, not each model's."""
    shooters = model("Shooter", 5, weapons=[weapon("Rifle", 24)])
    brute = model("Brute", 1, weapons=[melee("Hammer", 4)])
    b = price(unit(shooters, brute))
    assert b.category == "shooter"
    assert b.models[1].weapons[0].halved  # the Brute's melee weapon is the unit's cheaper category


def test_unit_without_weapons_is_a_shooter_with_nothing_halved():
    """§5 edge: no weapons — both totals are 0, the tie rule makes it a shooter."""
    b = price(unit(model()))
    assert (b.category, b.melee_total, b.ranged_total) == ("shooter", 0, 0)


def test_weapon_rules_helper_parses_values():
    """Test helper sanity: rules("Blast(3)") is Blast with value 3."""
    assert rules("Blast(3)")[0].value == 3
