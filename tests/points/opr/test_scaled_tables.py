"""The integer tables `price()` reads (`points/opr/scaled_tables.py`) give, for every input the
unit format allows, exactly the value of the Fraction function the breakdown shows
(docs/rules/opr-points.md §2–§6), so the totals and the breakdown cannot drift apart."""

from fractions import Fraction
from itertools import chain, combinations

import pytest

from points.opr import scaled_tables, tables
from points.opr.ability_cost import ability_costs
from points.opr.defence import defence
from points.opr.morale import morale
from points.opr.toughness import toughness_modifier
from points.opr.unit import Aura, Rule
from points.opr.unit_cost import clear_caches
from points.opr.weapon_cost import (
    WEAPON_RELEVANT_MODEL_RULES,
    ap_modifier,
    hit_chance,
    range_modifier,
    weapon_rules,
)


def subsets(names):
    names = sorted(names)
    return [frozenset(c) for c in chain.from_iterable(combinations(names, k) for k in range(len(names) + 1))]


def value(ratio):
    return Fraction(*ratio)


def test_morale_of_every_quality_and_morale_rule_set():
    """§2: 1.3 − (Q − 1)/10 × m, m halved by Fearless and by Reckless."""
    t = scaled_tables.TABLES
    for names in subsets({"Fearless", "Reckless", "Hero"}):
        for quality in range(2, 7):
            assert value(t.morale[quality, names & t.morale_rules]) == morale(quality, names).modifier


def test_defence_of_every_defence_and_row_set():
    """§3: the base plus each row the model has."""
    for names in subsets({*tables.DEFENCE_ROWS, "Fearless"}):
        for defence_value in range(2, 7):
            found = scaled_tables.defence_ratio(defence_value, names)
            assert value(found) == defence(defence_value, names).modifier


def test_toughness_listed_and_continued_past_the_table():
    """§4: T4 = 5, T7 = 29/3, above 12 +5 per 3; listed and worked-out values alike."""
    for t in range(1, 2001):
        assert value(scaled_tables.toughness_ratio(t)) == toughness_modifier(t)
    assert value(scaled_tables.toughness_ratio(7)) == Fraction(29, 3)


def test_range_of_every_range_melee_included():
    """§5 range table: melee at 0, 12" below, interpolated, continued past 36"."""
    for inches in range(0, 241):
        assert value(scaled_tables.range_ratio(inches)) == range_modifier(inches)


@pytest.mark.parametrize("ranged", [True, False])
def test_hit_chance_of_every_quality_rule_set_and_range(ranged):
    """§5: 7 − Q plus each term (Furious melee only, Relentless ranged only), Cautious by range."""
    weapon_sets = subsets({"Rending", "Lance", "Lock-On", "Reliable"})
    model_sets = subsets({"Furious", "Relentless", "Spearhead", "Cautious"})
    category = "ranged" if ranged else "melee"
    for quality in range(2, 7):
        for weapon_names in weapon_sets:
            for model_rules in model_sets:
                for inches in ((7, 12, 15, 24, 40, 120) if ranged else (0, 24)):
                    found = scaled_tables.hit_ratio(quality, weapon_names, model_rules, ranged, inches)
                    # an Assault weapon's melee copy keeps its range: Cautious reads 0 for it
                    expected = hit_chance(quality, weapon_names, model_rules, category, inches)[0]
                    assert value(found) == expected, (quality, weapon_names, model_rules, inches)


def test_ap_of_every_ap_and_row_set():
    """§5 AP table: base plus rows; Lock-On takes the No Cover row, once with No Cover."""
    for names in subsets({*tables.AP_ROWS, "Lock-On", "Rending"}):
        for ap in range(tables.AP_RANGE[0], tables.AP_RANGE[1] + 1):
            assert value(scaled_tables.ap_ratio(ap, names)) == ap_modifier(ap, names)[0]


def test_weapon_factor_of_multipliers_and_x_rules():
    """§5: 2 × Blast(X) × Deadly(X) × Indirect × … × the model's Vengeance."""
    plain = [Rule(name) for name in tables.WEAPON_MULTIPLIERS] + [Rule("Rending")]
    for x in range(1, 30):
        both = (Rule("Blast", x), Rule("Deadly", 31 - x))
        for extra in ((), (Rule("Blast", x),), (Rule("Deadly", x),), both):
            for k in range(0, len(plain) + 1, 2):
                rules = (*extra, *plain[:k])
                for model_rules in (frozenset(), frozenset({"Vengeance"}) & WEAPON_RELEVANT_MODEL_RULES):
                    expected = weapon_rules(rules, model_rules).factor
                    assert value(scaled_tables.weapon_factor(rules, model_rules)) == value(expected)


def test_ability_total_with_values_auras_and_orders():
    """§6: per toughness × T, Fear(X), Caster(X), Transport(X) × its factor, flat prices, auras
    (×2 at 12") and orders."""
    per_toughness = [Rule(n) for n, row in tables.ABILITY_TABLE.items() if row.per_toughness is not None]
    others = [Rule("Hero"), Rule("Transport", 6), Rule("Fear", 3), Rule("Caster", 2),
              *(Rule(n) for n in tables.FLAT_ABILITY_COSTS)]
    auras = [Aura(n, "friends", "grant", r) for n, row in tables.ABILITY_TABLE.items() if row.aura is not None
             for r in tables.AURA_RANGES]
    orders = [Aura(n, "friends", "grant", tables.ORDER_RANGE) for n, row in tables.ABILITY_TABLE.items()
              if row.order is not None]
    for start in range(0, len(per_toughness), 3):
        rules = tuple(per_toughness[start:start + 4] + others[start % len(others):][:3])
        names = frozenset(r.name for r in rules)
        for toughness in (1, 3, 7, 40):
            for chosen_auras, chosen_orders in (((), ()), (tuple(auras[start:start + 2]), tuple(orders[:1]))):
                expected = sum((c.cost for c in ability_costs(rules, chosen_auras, chosen_orders, toughness)),
                               Fraction(0))
                found = scaled_tables.ability_ratio(rules, names, toughness, chosen_auras, chosen_orders)
                assert value(found) == expected


def test_tables_are_kept_by_the_cold_state_and_rebuilt_for_a_flipped_decision(monkeypatch):
    """The cold state a benchmark makes keeps the tables (a new process has them); a decision
    flipped in `tables` reaches them through `clear_caches()`."""
    built = scaled_tables.TABLES
    clear_caches(rebuild_tables=False)
    assert scaled_tables.TABLES is built
    monkeypatch.setattr(tables, "MORALE_MULTIPLIERS_STACK", False)
    clear_caches()
    try:
        both = frozenset({"Fearless", "Reckless"})
        assert value(scaled_tables.TABLES.morale[4, both]) == Fraction("1.15")
    finally:
        monkeypatch.undo()
        clear_caches()
    both = frozenset({"Fearless", "Reckless"})
    assert value(scaled_tables.TABLES.morale[4, both]) == Fraction("1.225")  # 1.3 − 0.3 × 1/4
