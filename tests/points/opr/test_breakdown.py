"""Exact values as text (breakdown.to_dict): decimals when they terminate, fractions otherwise (§1)."""

from fractions import Fraction

import pytest

from points.opr.breakdown import decimal_text, exact_text

F = Fraction


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (F("199.728"), "199.728"),
        (F(143), "143"),
        (F("-0.13"), "-0.13"),
        (F(29, 3), "29/3"),
        (F(0), "0"),
        (F(1, 8), "0.125"),
        (F(-7, 2), "-3.5"),
    ],
)
def test_exact_text(value, text):
    """Exact: terminating decimals as decimals, others as p/q (never a rounded float)."""
    assert exact_text(value) == text
    assert F(text) == value


@pytest.mark.parametrize(
    ("value", "text"),
    [(F(29, 3), "9.6666666667"), (F(1, 3), "0.3333333333"), (F("2.5"), "2.5"), (F(-1, 3), "-0.3333333333")],
)
def test_decimal_text(value, text):
    """`exact` of a unit is always a decimal string, rounded to 10 places only if it does not terminate."""
    assert decimal_text(value) == text
