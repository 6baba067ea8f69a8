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


def models_fled(kills: PMF, *, models: int, leadership: int) -> PMF:
    """P(f models flee) over the kills distribution (index k = P(k killed))."""
    fled = np.zeros(models + 1)
    for killed, p_killed in enumerate(kills):
        if not p_killed:
            continue
        left = models - killed
        p_fail = p_morale_failed(killed, leadership) if left > 0 else 0.0
        fled[0] += p_killed * (1 - p_fail)
        if p_fail:
            after = left - 1
            lost = attrition(after, below_half=2 * after < models)
            fled[1 : 1 + len(lost)] += p_killed * p_fail * lost
    return fled


def models_lost(kills: PMF, *, models: int, leadership: int) -> PMF:
    """P(n models lost in all: killed plus fled)."""
    total = np.zeros(models + 1)
    for killed, p_killed in enumerate(kills):
        if not p_killed:
            continue
        total[killed] += p_killed * (1 - (p_morale_failed(killed, leadership) if killed < models else 0.0))
        left = models - killed
        if left > 0 and (p_fail := p_morale_failed(killed, leadership)):
            after = left - 1
            lost = attrition(after, below_half=2 * after < models)
            total[killed + 1 : killed + 1 + len(lost)] += p_killed * p_fail * lost
    return total
