"""Unit cost, docs/rules/opr-points.md §1: Σ model cost, models may differ; exact until the unit total,
rounded once."""

import json
from fractions import Fraction

import pytest

from points.opr import price, round_unit_total, tables
from points.opr.unit import Aura
from tests.factories.opr_units import brutes, infantry, melee, model, unit, weapon

F = Fraction


@pytest.mark.parametrize(
    ("exact", "points"),
    [
        (F("142.5"), 143),
        (F("142.49"), 142),
        (F("199.728"), 200),
        (F(143), 143),
        (F("-0.5"), 0),
        (F("-0.51"), -1),
    ],
)
def test_rounding_is_half_up(exact, points):
    """§1 Decision (rounding): a unit total is rounded half-up to a whole point."""
    assert round_unit_total(exact) == points


def test_rounding_happens_once_per_unit_not_per_model():
    """§1 Decision: 10 models at 14.3 are 143 points, not 10 × round(14.3) = 140."""
    b = price(infantry())
    assert b.models[0].model_cost == F("14.3")
    assert b.points == 143 != 10 * round(b.models[0].model_cost)


def test_models_of_a_unit_may_differ():
    """§1: "models of a unit may differ: sergeant, heavy weapon" — each profile priced on its own."""
    squad = unit(
        model("Veteran", 4, weapons=[weapon("Rifle", 24)]),
        model("Sergeant", 1, 3, weapons=[weapon("Plasma", 18, 1, 2, "Overcharge")]),
    )
    b = price(squad)
    assert [m.name for m in b.models] == ["Veteran", "Sergeant"]
    assert b.exact == sum(m.count * m.model_cost for m in b.models)
    assert b.model_count == 5


def test_model_cost_is_one_models_final_cost():
    """The dice engine's "expected points destroyed" reads model_cost: one model, after halving."""
    m = price(infantry()).models[0]
    assert m.model_cost == m.base_cost + m.weapon_cost + m.ability_cost
    assert m.weapon_cost == sum(w.cost for w in m.weapons)
    assert m.weapon_cost_before_halving == sum(w.cost_before_halving for w in m.weapons)
    assert m.total == m.count * m.model_cost


def test_base_cost_is_five_times_the_three_modifiers():
    """§1: base cost = 5 × morale modifier × defence modifier × toughness modifier."""
    m = price(brutes()).models[0]
    assert tables.BASE_COST_FACTOR == 5
    assert m.base_cost == 5 * m.morale.modifier * m.defence.modifier * m.toughness.modifier


def test_breakdown_to_dict_is_json_with_exact_strings():
    """§1: the API returns the exact value as a decimal string, the rounded one, and every term."""
    squad = unit(
        model(
            "Leader",
            1,
            4,
            4,
            7,
            rule_names=["Fear(2)"],
            weapons=[weapon("Gun", 14)],
            auras=[Aura("Fast", "friends", "grant", 12)],
        )
    )
    d = price(squad).to_dict()
    json.dumps(d)  # JSON-ready
    assert isinstance(d["points"], int)
    assert d["models"][0]["toughness"]["modifier"] == "29/3"  # T7 does not terminate in decimal
    assert "/" not in d["exact"]  # `exact` is always a decimal string
    assert F(d["exact_fraction"]) == price(squad).exact
    abilities = {a["name"]: a for a in d["models"][0]["abilities"]}
    assert abilities["Fear(2)"]["cost"] == "1.5"
    assert abilities['Aura: grant Fast to friends, 12"']["cost"] == "16"


def test_weapon_lines_keep_the_models_order():
    """The breakdown lists weapons in the order the model carries them (the UI shows them so)."""
    b = price(unit(model(weapons=[melee("Axe"), weapon("Gun"), melee("Claw")])))
    assert [w.name for w in b.models[0].weapons] == ["Axe", "Gun", "Claw"]


def test_breakdown_is_immutable():
    """Breakdown is a frozen dataclass (shared by caches and the dice engine)."""
    b = price(infantry())
    with pytest.raises(AttributeError):
        b.points = 1  # type: ignore[misc]


def test_exact_helpers_match_fraction_arithmetic():
    """points.opr.exact: the integer-level sum and product equal Fraction's own arithmetic."""
    from points.opr.exact import product, total

    values = [F("1.33"), F(29, 3), F(0), F(-7, 4), 3, F("0.65")]
    assert total(values) == sum(values, start=F(0))
    assert total([]) == 0 and total([F(0), F(0)]) == 0 and total([5]) == 5
    assert product(values[:2] + values[3:]) == F("1.33") * F(29, 3) * F(-7, 4) * 3 * F("0.65")
    assert product([]) == 1 and product([F(0), F(5)]) == 0
    assert isinstance(total([5]), F) and isinstance(product([2, 3]), F)
