"""Morale modifier, docs/rules/opr-points.md §2 (seed: "Modyfikator morale wynosi 1,3 − (jakość − 1)/10 ×
mnożniki")."""

from fractions import Fraction

import pytest

from points.opr.morale import morale, morale_multiplier

PLAIN_ROW = {2: "1.2", 3: "1.1", 4: "1.0", 5: "0.9", 6: "0.8"}
FEARLESS_ROW = {2: "1.25", 3: "1.2", 4: "1.15", 5: "1.1", 6: "1.05"}


@pytest.mark.parametrize("quality", sorted(PLAIN_ROW))
def test_plain_row(quality):
    """§2 table, row "plain": 1.3 − (Q − 1)/10."""
    assert morale(quality, frozenset()).modifier == Fraction(PLAIN_ROW[quality])


@pytest.mark.parametrize("rule", ["Fearless", "Reckless"])
@pytest.mark.parametrize("quality", sorted(FEARLESS_ROW))
def test_fearless_or_reckless_row(quality, rule):
    """§2 table, row "Fearless or Reckless": m = 0.5."""
    b = morale(quality, frozenset({rule}))
    assert b.modifier == Fraction(FEARLESS_ROW[quality])
    assert [t.name for t in b.multiplier_terms] == [rule]


def test_fearless_and_reckless_multiply_to_a_quarter():
    """§2 Decision: the two multiply; a unit with both has m = 0.25 (Q4: 1.3 − 0.3 × 0.25 = 1.225)."""
    m, terms = morale_multiplier(frozenset({"Fearless", "Reckless"}))
    assert m == Fraction(1, 4)
    assert len(terms) == 2
    assert morale(4, frozenset({"Fearless", "Reckless"})).modifier == Fraction("1.225")


def test_other_rules_do_not_change_morale():
    """§2: only Fearless and Reckless multiply m."""
    assert morale(4, frozenset({"Furious", "Stealth"})).modifier == 1
