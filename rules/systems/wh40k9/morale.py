"""The Morale phase after the attack: Morale test, then Combat Attrition (docs/rules/wh40k9.md §8.7, §6.6).

A unit that lost k ≥ 1 models this turn rolls D6 + k; it fails when that exceeds its
highest Ld, but an unmodified 1 always passes. On a failure one model flees, then each
remaining model rolls a D6, −1 if the unit is below Half-strength (fewer than half its
starting models; the modified result is at least 1), and flees on a 1. The estimate
assumes the attack's kills are the unit's only losses this turn and that its highest Ld
survives (models are allocated cheapest first, `damage`).

Half-strength counts against the unit's starting models. The estimate starts from the models
the defender has now, so a unit that was already below Half-strength before the attack (a game
in progress: the play mode's survivors) says so with the situation's `defender_below_half`:
then every Combat Attrition die flees on 1–2, whatever the attack kills.
"""

from __future__ import annotations

from functools import lru_cache
from math import comb

import numpy as np

from rules.dice.pmf import PMF


@lru_cache(maxsize=4096)
def p_morale_failed(killed: int, leadership: int) -> float:
    """P(D6 + killed > Ld, the die not a 1); no test without losses."""
    if killed <= 0:
        return 0.0
    return sum(1 for face in range(2, 7) if face + killed > leadership) / 6


@lru_cache(maxsize=4096)
def attrition(remaining: int, *, below_half: bool) -> PMF:
    """P(j more models flee) among `remaining`: each on a 1 (on 1–2 below Half-strength)."""
    p = 2 / 6 if below_half else 1 / 6
    out = np.array([comb(remaining, j) * p**j * (1 - p) ** (remaining - j) for j in range(remaining + 1)])
    out.setflags(write=False)
    return out


def morale_losses(kills: PMF, *, models: int, leadership: int, below_half: bool = False) -> np.ndarray:
    """Two rows, (P(f models flee), P(n models lost in all: killed plus fled)), over the kills
    distribution (index k = P(k killed); entries past its end are 0), every kill count at
    once: row k of a matrix is the Combat Attrition of the models left after k kills and
    one fled, a binomial built by the ratio of its successive terms. One array, so that the
    result reads both rows' means and lists in one pass each. `below_half`: the unit was
    below Half-strength before the attack (every row flees on 1–2)."""
    table = np.zeros((2, models + 1))
    fled, lost = table
    size = min(len(kills), models + 1)
    lost[:size] = kills[:size]
    # A test can fail once D6 + k > Ld for a 6 (k ≥ Ld − 5), and only with models left.
    first, last = max(1, leadership - 5), min(size - 1, models - 1)
    if first > last:
        fled[0] = lost.sum()
        return table
    n = last - first + 1
    # P(D6 + k > Ld, the die not a 1): the faces max(2, Ld + 1 − k) … 6, min(k + 6 − Ld, 5) of them.
    failing = kills[first : last + 1] * [min(k + 6 - leadership, 5) / 6 for k in range(first, last + 1)]
    lost[first : last + 1] -= failing
    fled[0] = lost.sum()
    # Row i: k = first + i kills, a failed test, then Combat Attrition among `after` = models − k − 1;
    # the first `whole` rows are not below Half-strength (2·after ≥ models): a 1 flees, else 1–2.
    top = models - first - 1
    whole = 0 if below_half else min(n, max(0, top - (models + 1) // 2 + 1))
    after = np.arange(top, top - n, -1.0)
    columns = top + 1
    # rows[i, j]: P(k kills, a failed test, then j more flee), a binomial in j built by the ratio
    # of its successive terms; the zero tail of `spread` makes room for the shift below.
    spread = np.zeros((n, columns + n))
    rows = spread[:, :columns]
    rows[:, 0] = failing * np.power([5 / 6] * whole + [2 / 3] * (n - whole), after)  # … nobody flees
    j = np.arange(1.0, columns)
    # P(j) / P(j − 1) …, written into the table itself: no temporary of the table's size
    # (its memory is the estimate's largest for a big defending unit, `estimate.BYTES_PER_MODEL_PAIR`).
    ratios = np.subtract.outer(after + 1.0, j, out=rows[:, 1:])
    np.divide(ratios, j, out=ratios)
    ratios[:whole] *= 1 / 5  # … times p / (1 − p): a 1, or
    ratios[whole:] *= 2 / 4  # 1–2 below Half-strength
    np.multiply.accumulate(rows, axis=1, out=rows)  # (past j = after the ratio is 0: the rest stays 0)
    fled[1 : 1 + columns] += rows.sum(axis=0)
    # After k kills and a failed test: k + 1 + j lost. Read with a row length one shorter, row
    # i of `spread` starts i places later: column c sums P(k + 1 + j = first + 1 + c) over rows
    # (past `models` there is nothing: j ≤ after = models − k − 1).
    shifted = spread.ravel()[: n * (columns + n - 1)].reshape(n, columns + n - 1)
    lost[first + 1 :] += shifted.sum(axis=0)[: models - first]
    return table


def models_fled(kills: PMF, *, models: int, leadership: int) -> PMF:
    """P(f models flee) over the kills distribution (index k = P(k killed))."""
    return morale_losses(kills, models=models, leadership=leadership)[0]


def models_lost(kills: PMF, *, models: int, leadership: int) -> PMF:
    """P(n models lost in all: killed plus fled)."""
    return morale_losses(kills, models=models, leadership=leadership)[1]
