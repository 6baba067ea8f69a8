"""The Morale phase after the attack: Morale test, then Combat Attrition (001_40k.md §8.7, §6.6).

A unit that lost k ≥ 1 models this turn rolls D6 + k; it fails when that exceeds its
highest Ld, but an unmodified 1 always passes. On a failure one model flees, then each
remaining model rolls a D6, −1 if the unit is below Half-strength (fewer than half its
starting models; the modified result is at least 1), and flees on a 1. The estimate
assumes the attack's kills are the unit's only losses this turn and that its highest Ld
survives (models are allocated cheapest first, `damage`).
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


def morale_losses(kills: PMF, *, models: int, leadership: int) -> tuple[PMF, PMF]:
    """(P(f models flee), P(n models lost in all: killed plus fled)) over the kills
    distribution (index k = P(k killed)), every kill count at once: row k of a matrix is
    the Combat Attrition of the models left after k kills and one fled."""
    kills = np.asarray(kills, dtype=float)
    nonzero = np.flatnonzero(kills)
    fled = np.zeros(models + 1)
    lost = np.zeros(models + 1)
    if not len(nonzero):
        return fled, lost
    k = np.arange(nonzero[-1] + 1)
    p_kill = kills[: len(k)]
    # P(D6 + k > Ld, the die not a 1): the faces 2–6 above Ld − k; no test without losses
    # or without models left.
    p_fail = np.maximum(7 - np.maximum(leadership + 1 - k, 2), 0) / 6
    p_fail[(k == 0) | (k >= models)] = 0.0
    stays = p_kill * (1 - p_fail)
    fled[0] = stays.sum()
    lost[: len(k)] += stays
    failing = np.flatnonzero(p_kill * p_fail)
    if len(failing):
        k = k[failing]
        weight = p_kill[failing] * p_fail[failing]
        after = models - k - 1  # the models that roll for Combat Attrition
        p = np.where(2 * after < models, 2 / 6, 1 / 6)
        # Binomial(after, p) rows by the ratio of successive terms: P(j+1)/P(j) = (n−j)/(j+1)·p/q.
        j = np.arange(int(after.max()) + 1)
        ratio = np.maximum(after[:, None] - j[None, :-1], 0) / j[None, 1:] * (p / (1 - p))[:, None]
        rows = np.concatenate([np.ones((len(k), 1)), np.cumprod(ratio, axis=1)], axis=1)
        rows *= ((1 - p) ** after)[:, None]
        spread = weight[:, None] * rows
        fled[1 : 1 + len(j)] += spread.sum(axis=0)
        columns = (k[:, None] + 1 + j[None, :]).ravel()
        lost += np.bincount(columns, weights=spread.ravel(), minlength=models + 1)[: models + 1]
    return fled, lost


def models_fled(kills: PMF, *, models: int, leadership: int) -> PMF:
    """P(f models flee) over the kills distribution (index k = P(k killed))."""
    return morale_losses(kills, models=models, leadership=leadership)[0]


def models_lost(kills: PMF, *, models: int, leadership: int) -> PMF:
    """P(n models lost in all: killed plus fled)."""
    return morale_losses(kills, models=models, leadership=leadership)[1]
