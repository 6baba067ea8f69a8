"""Exact sums and products of Fractions without the churn of one Fraction per step.

`Fraction.__mul__` and `__add__` normalise (a gcd and a new object) at every step; a
weapon's cost is a product of six factors and a unit's total a sum of dozens of terms. These
helpers multiply and add the integer numerators and denominators and build one Fraction at
the end: the same exact value, several times faster (see `bench/bench_points.py`).

The hot path of `price()` goes one step further and keeps its values as `Ratio`s, plain
(numerator, denominator) pairs of ints, building a Fraction only for what a `Breakdown` holds:
constructing a Fraction costs more than the few integer operations it wraps.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from math import gcd, lcm

ZERO = Fraction(0)
ONE = Fraction(1)

#: An exact value as (numerator, denominator): denominator > 0, in lowest terms (as a Fraction).
Ratio = tuple[int, int]


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


def ratio(value: Fraction | int) -> Ratio:
    """`value` as a Ratio."""
    return value.numerator, value.denominator


def _fraction_checked(value: Ratio) -> Fraction:
    """The Fraction of a Ratio, through `Fraction(numerator, denominator)`."""
    numerator, denominator = value
    if denominator == 1:
        return Fraction(numerator)
    return Fraction(numerator, denominator)


_new_object = object.__new__


def _fraction_of_coprime(value: Ratio) -> Fraction:
    """The Fraction of a Ratio, made as Python 3.12's `Fraction._from_coprime_ints` makes one.

    A Ratio is in lowest terms with a positive denominator already, so `Fraction(n, d)`'s type
    dispatch and second gcd are pure cost: this is four times faster, and `price()` makes a
    Fraction for every value a breakdown shows. It fills the two slots `Fraction` declares
    (checked below; otherwise `fraction` is `_fraction_checked`). It must only ever be given a
    Ratio in lowest terms: an unreduced pair would make a Fraction that compares unequal to its value.
    """
    result = _new_object(Fraction)
    result._numerator, result._denominator = value
    return result


#: The Fraction of a Ratio (in lowest terms, denominator > 0, as every function here returns).
fraction = _fraction_of_coprime if Fraction.__slots__ == ("_numerator", "_denominator") else _fraction_checked


def ratio_product(factors: Iterable[Ratio]) -> Ratio:
    """The exact product of `factors` (1 for none), in lowest terms."""
    numerator = denominator = 1
    for n, d in factors:
        numerator *= n
        denominator *= d
    common = gcd(numerator, denominator)
    return numerator // common, denominator // common


def ratio_total(terms: Iterable[Ratio]) -> Ratio:
    """The exact sum of `terms` (0 for none), in lowest terms.

    Over a common denominator (the lcm, not the product), as `total` does: the denominators of the
    spec's tables are small powers of 2, 3 and 5, so the numbers stay small."""
    numerator, denominator = 0, 1
    for n, d in terms:
        if d == denominator:
            numerator += n
        elif n:
            common = lcm(denominator, d)
            numerator = numerator * (common // denominator) + n * (common // d)
            denominator = common
    common = gcd(numerator, denominator)
    return numerator // common, denominator // common


def ratio_times(value: Ratio, count: int) -> Ratio:
    """`value` × a whole `count`, in lowest terms."""
    if count == 1:
        return value
    numerator, denominator = value
    common = gcd(count, denominator)
    return numerator * (count // common), denominator // common
