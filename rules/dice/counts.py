"""How many successes many dice give: the count distributions an attack sequence chains.

Each function takes and returns count PMFs (`rules.dice.pmf`). They are the building
blocks named in the rules of every system: a fixed number of dice (binomial), a random
number of dice (compound), extra successes on chosen natural faces, every success
becoming several (multiplication), each success surviving a second test (thinning), and
dice that cancel other dice's results (a net count that cannot go below zero).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from rules.dice.d6 import FACES, D6Test, value_pmf
from rules.dice.pmf import PMF, bernoulli, convolve, fold, point_mass, power, scale


def binomial(n: int, p: float, limit: int | None = None) -> PMF:
    """Successes among `n` independent trials of chance `p`."""
    return power(bernoulli(p), n, limit)


def successes_per_die(test: D6Test, extra_on_faces: Mapping[int, int] | None = None) -> PMF:
    """Successes one die scores: 1 when it passes `test`, plus `extra_on_faces[f]` when the
    passing die shows natural face f (extra hits on a natural 6)."""
    extra = extra_on_faces or {}
    values = [(1 + extra.get(f, 0)) if test.succeeds(f) else 0 for f in FACES]
    pmf, low = value_pmf(values)
    return np.concatenate([np.zeros(low), pmf]) if low else pmf


def sum_of_dice(per_die: PMF, n: int, limit: int | None = None) -> PMF:
    """The total of `n` independent dice that each score `per_die`."""
    return power(per_die, n, limit)


def multiply(count: PMF, factor: int) -> PMF:
    """Every success becomes `factor` successes (a blast hitting several models)."""
    return scale(count, factor)


def compound(count: PMF, per_item: PMF, limit: int | None = None) -> PMF:
    """Σ_n P(count = n) · per_item^{*n}: a random number of items, each scoring `per_item`
    (a random number of hits, each rolling a defence die)."""
    result = np.zeros(1)
    term = point_mass(0)
    for n, p_n in enumerate(count):
        if n:
            term = convolve(term, per_item, limit)
        if p_n:
            if len(result) < len(term):
                result = np.concatenate([result, np.zeros(len(term) - len(result))])
            result[: len(term)] += p_n * term
    return fold(result, limit)


def thin(count: PMF, p: float, limit: int | None = None) -> PMF:
    """Each counted item survives independently with chance `p` (binomial thinning)."""
    return compound(count, bernoulli(p), limit)


def signed_compound(count: PMF, item: PMF, item_low: int) -> tuple[PMF, int]:
    """`compound` for items whose value may be negative: item[i] is P(value = item_low + i).

    Returned as (pmf, low) with pmf[i] = P(total = low + i).
    """
    high_n = len(count) - 1
    low = min(0, item_low) * high_n
    high = max(0, item_low + len(item) - 1) * high_n
    result = np.zeros(high - low + 1)
    term = point_mass(0)
    for n, p_n in enumerate(count):
        if n:
            term = np.convolve(term, item)
        if p_n:
            start = n * item_low - low
            result[start : start + len(term)] += p_n * term
    return result, low


def clamped_sum(per_draw: PMF, low: int, n: int, limit: int | None = None) -> PMF:
    """max(0, X_1 + … + X_n) for independent draws with P(X = low + i) = per_draw[i].

    The count left after cancellations: items that add and dice that take away, rolled
    together, never going below zero. With no negative values it is a plain sum; with
    negative ones the whole range is kept until the end (a later cancellation can pull a
    large total back under the limit), computed in one pass with an FFT power.
    """
    if low >= 0:
        shifted = np.concatenate([np.zeros(low), per_draw]) if low else per_draw
        return power(shifted, n, limit)
    if n == 0:
        return point_mass(0)
    length = n * (len(per_draw) - 1) + 1
    size = 1 << (length - 1).bit_length()
    spectrum = np.fft.rfft(per_draw, size) ** n
    total = np.maximum(np.fft.irfft(spectrum, size)[:length], 0.0)
    zero_at = -n * low
    result = total[zero_at:].copy()
    result[0] += total[:zero_at].sum()
    return fold(result, limit)
