"""The two worked examples of docs/rules/opr-points.md §9, which the points engine must reproduce."""

from fractions import Fraction

from points.opr import price
from rules.systems.opr.unit_format import parse_unit
from tests.factories.opr_units import INFANTRY_JSON, brutes, infantry


def test_infantry_costs_143_points():
    """§9 Infantry: base 5, Rifle 7.5, Knife 3.6 halved to 1.8 (shooter unit), model 14.3, unit 143."""
    b = price(infantry())
    m = b.models[0]
    rifle, knife = m.weapons
    assert m.base_cost == 5
    assert rifle.cost == Fraction("7.5") and not rifle.halved
    assert knife.cost_before_halving == Fraction("3.6") and knife.cost == Fraction("1.8") and knife.halved
    assert b.ranged_total == 75 and b.melee_total == 36
    assert b.category == "shooter" and b.halved_category == "melee"
    assert m.model_cost == Fraction("14.3")
    assert b.exact == 143 and b.points == 143


def test_brutes_cost_200_points():
    """§9 Brutes: morale 1.2, base 27.93, Great Axe 3 × 2 × 0.6 × 5.65 × 1.9 = 38.646, unit 199.728 → 200."""
    b = price(brutes())
    m = b.models[0]
    assert m.morale.modifier == Fraction("1.2")
    assert m.base_cost == Fraction("27.93")
    axe = m.weapons[0]
    assert axe.hit_chance == Fraction("5.65")
    assert [t.name for t in axe.hit_terms] == ["7 - Q", "Rending", "Furious"]
    assert axe.ap_modifier == Fraction("1.9")
    assert axe.cost == Fraction("38.646")
    assert b.category == "warrior"
    assert m.model_cost == Fraction("66.576")
    assert b.exact == Fraction("199.728") and b.points == 200


def test_infantry_from_its_json_form():
    """§9 Infantry, read from the unit format (docs/unit-format.md) rather than built in code."""
    b = price(parse_unit(INFANTRY_JSON))
    assert b.points == 143
    assert b.to_dict()["exact"] == "143"


def test_brutes_breakdown_as_json():
    """§1: the API returns the exact value as a decimal string and the rounded points."""
    d = price(brutes()).to_dict()
    assert d["points"] == 200
    assert d["exact"] == "199.728"
    assert d["category"] == "warrior"
    assert d["models"][0]["model_cost"] == "66.576"
    assert d["models"][0]["weapons"][0]["cost"] == "38.646"
