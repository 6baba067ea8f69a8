"""Toughness modifier, docs/rules/opr-points.md §4 (seed "Modyfikator wytrzymałości", "Masywny")."""

from fractions import Fraction

import pytest

from points.opr import price
from points.opr.toughness import pricing_toughness, toughness, toughness_modifier
from points.opr.unit import Part
from tests.factories.opr_units import model, unit

LISTED = {1: "1", 2: "2.15", 3: "3.5", 6: "8", 9: "13", 12: "18"}


@pytest.mark.parametrize("t", sorted(LISTED))
def test_listed_points(t):
    """§4 table: T1 1, T2 2.15, T3 3.5, T6 8, T9 13, T12 18."""
    assert toughness_modifier(t) == Fraction(LISTED[t])


@pytest.mark.parametrize(
    ("t", "expected"),
    [
        (4, Fraction(5)),
        (5, Fraction("6.5")),
        (7, Fraction(29, 3)),
        (8, Fraction(34, 3)),
        (10, Fraction(44, 3)),
        (11, Fraction(49, 3)),
    ],
)
def test_between_listed_points_interpolates(t, expected):
    """§4 Decision: linear interpolation (T4 = 5, T5 = 6.5, T7 = 29/3, T8 = 34/3, T10 = 44/3, T11 = 49/3)."""
    assert toughness_modifier(t) == expected


@pytest.mark.parametrize(
    ("t", "expected"), [(13, 18 + Fraction(5, 3)), (15, Fraction(23)), (18, Fraction(28))]
)
def test_above_twelve_continues_at_five_per_three(t, expected):
    """§4 table's last column "each +3: +5", and the Decision: the line continues (T13 = 18 + 5/3)."""
    assert toughness_modifier(t) == expected


def test_interpolated_flag():
    """The breakdown says when a value was interpolated rather than read from the table."""
    assert not toughness(model(toughness=3)).interpolated
    assert toughness(model(toughness=4)).interpolated
    assert not toughness(model(toughness=15)).interpolated


def test_massive_uses_sum_of_parts():
    """§4 Massive (seed "Masywny: Licz sumę wytrzymałości elementów"): priced with the parts' summed
    toughness."""
    tank = model("Tank", 1, 4, 2, 6, rule_names=["Massive"], parts=[Part("Hull", 6), Part("Turret", 3)])
    assert pricing_toughness(tank) == 9
    b = toughness(tank)
    assert (b.toughness, b.priced_toughness, b.modifier) == (6, 9, Fraction(13))
    assert b.parts == (("Hull", 6), ("Turret", 3))
    assert price(unit(tank)).models[0].base_cost == 5 * 1 * 2 * 13  # Q4 morale 1, D2 defence 2


def test_massive_toughness_also_prices_per_toughness_abilities():
    """Our decision (tables.MASSIVE_TOUGHNESS_FOR_ABILITIES): Stealth on a Massive 6+3 model is 2 × 9."""
    beast = model("Beast", 1, 4, 4, 6, rule_names=["Massive", "Stealth"], parts=[Part("A", 6), Part("B", 3)])
    [stealth] = price(unit(beast)).models[0].abilities
    assert (stealth.name, stealth.quantity, stealth.cost) == ("Stealth", 9, 18)


def test_parts_without_massive_are_not_summed():
    """Only the Massive rule switches to the parts' toughness."""
    plain = model(toughness=3, parts=[Part("A", 6), Part("B", 6)])
    assert pricing_toughness(plain) == 3
