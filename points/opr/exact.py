"""Exact sums and products of Fractions without the churn of one Fraction per step.

`Fraction.__mul__` and `__add__` normalise (a gcd and a new object) at every step; a
weapon's cost is a product of six factors and a unit's total a sum of dozens of terms. These
helpers multiply and add the integer numerators and denominators and build one Fraction at
the end: the same exact value, several times faster (see `bench/bench_points.py`).
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from math import lcm

ZERO = Fraction(0)
ONE = Fraction(1)


def product(factors: Iterable[Fraction | int]) -> Fraction:
    """The exact product of `factors` (1 for none)."""
    numerator = denominator = 1
    for factor in factors:
        numerator *= factor.numerator
        denominator *= factor.denominator
    if denominator == 1:
        return Fraction(numerator)
    return Fraction(numerator, denominator)


def total(terms: Iterable[Fraction | int]) -> Fraction:
    """The exact sum of `terms` (0 for none)."""
    numerator, denominator, nonzero, last = 0, 1, 0, ZERO
    for term in terms:
        n = term.numerator
        if not n:
            continue
        nonzero += 1
        last = term
        d = term.denominator
        if d == denominator:
            numerator += n
        else:
            common = lcm(denominator, d)
            numerator = numerator * (common // denominator) + n * (common // d)
            denominator = common
    if nonzero <= 1:
        return last if isinstance(last, Fraction) else Fraction(last)
    if denominator == 1:
        return Fraction(numerator)
    return Fraction(numerator, denominator)


def times(value: Fraction, count: int) -> Fraction:
    """`value` × a whole `count` (a model's cost × how many models), without a new Fraction for 1."""
    return value if count == 1 else Fraction(value.numerator * count, value.denominator)
