"""The wound track (`rules.systems.fantasy_combat.wound_track`): die-by-die stepping and the
convolution shortcut for large units agree with icepool and with each other."""

from __future__ import annotations

import icepool
import numpy as np

from rules.systems.fantasy_combat.blows import Blow
from rules.systems.fantasy_combat.wound_track import FFT_FROM_STATES, WoundTrack
from tests.rules.dice.icepool_oracle import as_pmf, assert_pmf_equal


def test_killing_blow_and_excess_wounds_on_multi_wound_models_match_icepool():
    """§7.4, §8.1, §8.2: a D3-wound hit loses its excess on one model, a slay jumps to the next."""
    blow = Blow(
        p_hit=1.0, p_slay=1 / 6, p_unsaved=1 / 3, damage=(0.0, 1 / 3, 1 / 3, 1 / 3), regeneration_fails=1.0
    )
    track = WoundTrack(3, 3)
    dist = track.throw(track.start_rows(1), np.array([5]), track.transition(blow))[0]
    outcome = icepool.d6.map(
        lambda f: -1 if f == 1 else 0 if f > 3 else 9
    )  # 1: slay, 2-3: wounded, 4-6: nothing
    wounded = icepool.map(
        lambda kind, dmg: kind if kind != 9 else dmg, outcome, icepool.d6.map(lambda x: (x + 1) // 2)
    )

    def step(state, result):
        if state >= 9 or result == 0:
            return state
        if result == -1:
            return (state // 3 + 1) * 3
        return state + min(result, 3 - state % 3)

    state = icepool.Die([0])
    for _ in range(5):
        state = icepool.map(step, state, wounded)
    assert_pmf_equal(dist, as_pmf(state, track.size))


def test_convolution_shortcut_equals_die_by_die_stepping_for_large_units():
    blow = Blow(p_hit=0.5, p_slay=0.0, p_unsaved=0.3, damage=(0.0, 1.0), regeneration_fails=1.0)
    track = WoundTrack(400, 1)
    assert track.size > FFT_FROM_STATES
    rng = np.random.default_rng(3)
    dist = rng.random((7, track.size))
    dist[:, 200:] = 0
    dist /= dist.sum()
    dice = np.array([0, 3, 50, 50, 120, 400, 7])
    transition = track.transition(blow)
    fast = track.throw(dist, dice, transition)
    slow = dist.copy()
    for k in range(1, dice.max() + 1):
        rows = dice >= k
        slow[rows] = WoundTrack.one_die(slow[rows], transition)
    assert np.abs(fast - slow).max() <= 1e-12
    assert abs(fast.sum() - 1) <= 1e-12


def _by_matrices(track: WoundTrack, dist: np.ndarray, dice: np.ndarray, per_die: np.ndarray) -> np.ndarray:
    """What `_throw_independent` did before issue 42 on a short track: every row through the
    dice matrix of its number of dice (`_dice_matrix` of the folded law), no shortcut."""
    from rules.dice.pmf import fold
    from rules.systems.fantasy_combat.wound_track import _binomial_matrix, _dice_matrix

    outcomes = np.flatnonzero(per_die)
    out = np.zeros_like(dist)
    for n in np.unique(dice).tolist():
        rows = dice == n
        if len(outcomes) == 2:  # no wound or one: the binomial law's matrix
            out[rows] = dist[rows] @ _binomial_matrix(per_die[: outcomes[-1] + 1].tobytes(), n, track.size)
            continue
        law = np.ones(1)
        for _ in range(n):
            law = fold(np.convolve(law, per_die), track.size - 1)
        out[rows] = dist[rows] @ _dice_matrix(law, track.size)
    return out


def test_dice_on_an_untouched_pool_give_exactly_the_matrix_products():
    """Issue 42: rows whose pool is untouched (all their mass in state 0: a first strike, the
    return blows of a unit not yet struck) take the dice law's row scaled instead of a matrix
    product; the product's other terms are exact zeros, so the numbers are the very same —
    checked bit for bit on random tables, one row and many, one wound per die and several."""
    rng = np.random.default_rng(42)
    for _ in range(200):
        models, w = int(rng.integers(1, 30)), int(rng.integers(1, 4))
        track = WoundTrack(models, w)
        if track.size > FFT_FROM_STATES:
            continue
        p = float(rng.random())
        damage = (0.0, 1.0) if rng.random() < 0.6 else (0.0, 0.5, 0.5)
        blow = Blow(p_hit=1.0, p_slay=0.0, p_unsaved=p, damage=damage, regeneration_fails=1.0)
        transition = track.transition(blow)
        if not (transition[:-1] == transition[0]).all():
            continue
        rows = int(rng.integers(1, 8))
        dist = np.zeros((rows, track.size))
        dist[:, 0] = rng.random(rows) * (rng.random(rows) < 0.8)
        if not dist.any():
            dist[0, 0] = 1.0
        dist /= dist.sum()
        dice = rng.integers(0, 12, size=rows)
        per_die = transition[0]
        expected = _by_matrices(track, dist, dice, per_die)
        assert np.array_equal(track.throw(dist, dice, transition), expected)


def test_binomial_laws_are_the_powered_die_and_their_rows_do_not_depend_on_the_table():
    """Issue 42: every number of dice's law at once (`binomial_laws`, kept per die) equals
    `pmf.power` of the die folded at the last state, for one wound per die or several, few
    dice or more than the track holds, past `BINOMIAL_MOST` (powered row by row); and row n is
    the same bits whichever table it comes from, and as the law of n dice alone
    (`binomial_law`, which the matrix of n dice and a throw of many dice are built on)."""
    from rules.dice.pmf import power
    from rules.systems.fantasy_combat.wound_track import BINOMIAL_MOST, binomial_law, binomial_laws

    rng = np.random.default_rng(7)
    for _ in range(300):
        m, size = int(rng.integers(1, 4)), int(rng.integers(2, 60))
        most = int(rng.integers(0, BINOMIAL_MOST + 30))
        p = float(rng.random())
        die = np.zeros(m + 1)
        die[0], die[m] = 1 - p, p
        laws = binomial_laws(die.tobytes(), most, size)
        assert laws.shape == (most + 1, size)
        for n in range(0, most + 1, max(1, most // 12)):
            law = power(die, n, size - 1)
            expected = np.zeros(size)
            expected[: len(law)] = law
            assert np.abs(laws[n] - expected).max() <= 1e-12
            assert np.array_equal(binomial_laws(die.tobytes(), n, size)[n], laws[n])
            assert np.array_equal(binomial_law(die.tobytes(), n, size), laws[n])
