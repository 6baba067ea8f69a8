"""Probability mass functions (PMFs) of counts, as numpy float64 arrays.

`pmf[k]` is P(X = k) for k = 0, 1, 2, …; the array ends at the largest possible value.
Counts of dice, hits and wounds are never negative, so index = value; the few places
that need negative values (cancellations) carry an explicit offset (`counts.py`).

A *limit* folds every value above it into the limit itself ("at least limit"): a unit
with 12 wounds cannot tell 12 wounds from 40, so the engine never computes past that.
Folding keeps the arrays short and is exact for everything at or below the limit.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

PMF = npt.NDArray[np.float64]


def point_mass(value: int = 0) -> PMF:
    """The certain outcome `value` (P = 1)."""
    pmf = np.zeros(value + 1)
    pmf[value] = 1.0
    return pmf


def bernoulli(p: float) -> PMF:
    """One trial that succeeds with probability p: P(0) = 1 − p, P(1) = p."""
    return np.array([1.0 - p, p])


def total(pmf: PMF) -> float:
    """The total probability; 1 for a proper PMF (tests check it within 1e-9)."""
    return float(pmf.sum())


#: 0, 1, 2, … as floats, for `mean`: the same products and sums as `np.arange(n) @ pmf` (numpy
#: casts the integers to these floats first) without making the counts for every mean.
_COUNTS = np.arange(1024, dtype=np.float64)
_COUNTS.setflags(write=False)


def mean(pmf: PMF) -> float:
    """E[X] = Σ k·P(k). Written `pmf.dot(counts)`: the same dot product as `counts @ pmf`, to
    the bit, at a third of its call's cost on the short PMFs of one attack (issue 42)."""
    n = len(pmf)
    return float(pmf.dot(_COUNTS[:n] if n <= len(_COUNTS) else np.arange(n, dtype=np.float64)))


def at_least(pmf: PMF) -> PMF:
    """P(X ≥ k) for every k (the "at least k killed" curve of the charts); `np.add.accumulate`
    is `np.cumsum` without its wrapper's dispatch."""
    return np.add.accumulate(pmf[::-1])[::-1]


def fold(pmf: PMF, limit: int | None) -> PMF:
    """Fold the mass above `limit` onto `limit`, so the last entry means "limit or more"."""
    if limit is None or len(pmf) <= limit + 1:
        return pmf
    folded = pmf[: limit + 1].copy()
    folded[limit] += pmf[limit + 1 :].sum()
    return folded


def pad(pmf: PMF, length: int) -> PMF:
    """The same distribution written on `length` entries (zeros appended)."""
    if len(pmf) >= length:
        return pmf
    return np.concatenate([pmf, np.zeros(length - len(pmf))])


def convolve(a: PMF, b: PMF, limit: int | None = None) -> PMF:
    """The PMF of X + Y for independent X ~ a and Y ~ b, folded at `limit`."""
    if limit is not None:
        # Values above the limit of either operand only feed the folded tail, so cut first.
        a, b = fold(a, limit), fold(b, limit)
    return fold(np.convolve(a, b), limit)


def power(pmf: PMF, n: int, limit: int | None = None) -> PMF:
    """The PMF of the sum of `n` independent draws from `pmf` (binary powering, folded)."""
    if n < 0:
        raise ValueError("a negative number of draws")
    base = fold(pmf, limit)
    binomial = _binomial_power(base, n, limit)
    if binomial is not None:
        return binomial
    result = point_mass(0)
    while n:
        if n & 1:
            result = convolve(result, base, limit)
        n >>= 1
        if n:
            base = convolve(base, base, limit)
    return result


#: Below this, q**n of `_binomial_power` could leave the range of a float: powered instead.
_SMALLEST_TERM = 1e-280


def _binomial_power(base: PMF, n: int, limit: int | None) -> PMF | None:
    """`power` of a draw that is 0 or one value m (a success of a test, m hits or wounds
    each), as the binomial law written out: P(k·m) = C(n, k) pᵏ qⁿ⁻ᵏ, each term the one
    before times (n − k + 1)/k · p/q — one pass instead of log₂ n convolutions, the
    same numbers to rounding. None when the draw has another shape, or q**n or p**n is too
    small to write as a float (then powered). Up to `_PYTHON_TERMS` draws the pass is plain
    Python floats (the same IEEE operations in the same order as numpy's, so the same bits;
    a hundred terms cost less than numpy's calls), spread in Python too (on a cold cache each
    kind of numpy call costs tens of microseconds, issue 42); above that numpy's."""
    if n < 2 or len(base) < 2:
        return None
    values = base.tolist()
    q, p = values[0], values[-1]
    if q <= 0.0 or p <= 0.0 or any(values[1:-1]):
        return None
    m = len(values) - 1
    first = q**n
    if first < _SMALLEST_TERM or p**n < _SMALLEST_TERM:
        return None
    ratio = p / q
    if n <= _PYTHON_TERMS:
        terms = [first]
        term = first
        for k in range(1, n + 1):
            term *= (n - k + 1) / k * ratio  # exact integers, one rounded division: as numpy's
            terms.append(term)
        if m > 1:  # each success is m: the law on every m-th count, zeros between
            spread = [0.0] * (n * m + 1)
            spread[::m] = terms
            terms = spread
        return fold(np.array(terms), limit)
    else:
        k = np.arange(1, n + 1, dtype=np.float64)
        steps = np.empty(n + 1)
        steps[0] = first
        steps[1:] = (n - k + 1) / k * ratio
        law = np.cumprod(steps)
    if m == 1:
        return fold(law, limit)
    spread = np.zeros(n * m + 1)
    spread[::m] = law
    return fold(spread, limit)


#: Draws up to which `_binomial_power` writes its terms in plain Python (numpy above): the
#: attacks of most units' weapons (20 models × 3 attacks is 60).
_PYTHON_TERMS = 128


def scale(pmf: PMF, factor: int) -> PMF:
    """The PMF of factor·X: each count is multiplied (one hit becoming `factor` hits)."""
    if factor < 0:
        raise ValueError("a negative factor")
    if factor == 1:
        return pmf
    if factor == 0:
        return point_mass(0)
    scaled = np.zeros((len(pmf) - 1) * factor + 1)
    scaled[::factor] = pmf
    return scaled


def mixture(weights: PMF, components: list[PMF]) -> PMF:
    """Σ_i weights[i]·components[i]: the PMF of a value drawn from a randomly chosen component."""
    length = max((len(c) for c in components), default=1)
    mixed = np.zeros(length)
    for w, component in zip(weights, components, strict=True):
        if w:
            mixed[: len(component)] += w * component
    return mixed
