"""Piecewise-linear lookup in the spec's tables, exactly.

Three Decisions of docs/rules/opr-points.md make table columns into lines: toughness (§4), weapon range
(§5) and the X of Blast/Deadly (§5). All three interpolate linearly between listed points,
clamp below the first point and continue a straight line above the last; this module is
that one rule, written once, with Fractions so that T7 is exactly 29/3.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from itertools import pairwise


def last_segment_slope(points: Sequence[tuple[int, Fraction]]) -> Fraction:
    """The slope between the last two listed points (used to continue a line past the table)."""
    (x0, y0), (x1, y1) = points[-2], points[-1]
    return (y1 - y0) / (x1 - x0)


def interpolate(points: Sequence[tuple[int, Fraction]], x: int, slope_above: Fraction) -> Fraction:
    """y at `x` on the line through `points` (sorted by x).

    Below the first point: the first value. Above the last: the last value plus
    `slope_above` per unit of x. Between points: linear interpolation. On a point: its value.
    """
    first_x, first_y = points[0]
    if x <= first_x:
        return first_y
    last_x, last_y = points[-1]
    if x >= last_x:
        return last_y + slope_above * (x - last_x)
    for (x0, y0), (x1, y1) in pairwise(points):
        if x0 <= x <= x1:
            if x == x0:
                return y0
            return y0 + (y1 - y0) * Fraction(x - x0, x1 - x0)
    raise AssertionError("unreachable: x lies between the first and last point")  # pragma: no cover


def is_listed(points: Sequence[tuple[int, Fraction]], x: int) -> bool:
    """Whether `x` is one of the table's own points (so the value was read, not interpolated)."""
    return any(px == x for px, _ in points)
