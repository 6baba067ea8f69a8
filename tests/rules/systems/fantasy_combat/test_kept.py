"""What the fantasy engine keeps between a job's matchups (issue 42) changes no number: a
unit's blows kept per kind of enemy it meets, and the combat resolution's break chances read
per combat result, against what they replaced."""

from __future__ import annotations

import random

import numpy as np
import pytest

from rules.systems.fantasy_combat.estimate import clear_caches, matrix_attack, prepare_situation, prepare_unit
from rules.systems.fantasy_combat.resolution import (
    _causes_fear,
    _fearless,
    _losing_table,
    _per_state_all,
    break_test,
    resolve,
)
from rules.systems.fantasy_combat.situation import Situation
from rules.systems.fantasy_combat.units import read_unit
from rules.systems.fantasy_combat.variants import RU_WHFB, WHFB6
from rules.systems.fantasy_combat.wound_track import WoundTrack
from tests.factories.fantasy_units import unit

RULES = [
    "Hatred",
    "Killing Blow",
    "Poisoned Attacks",
    "Always Strikes First",
    "Stubborn",
    "Fear",
    "Swarm",
    "Unbreakable",
]


def _random_unit(rng: random.Random, index: int) -> dict:
    """A unit drawn from few profiles, so that several of a list share the numbers a blow reads
    (T, saves, WS) at different sizes: the same kept blows on different wound tracks."""
    profile = {
        "ws": rng.choice([3, 4]),
        "s": rng.choice([3, 4]),
        "t": rng.choice([3, 4]),
        "w": rng.choice([1, 1, 2]),
        "i": rng.choice([3, 4]),
        "a": rng.choice([1, 2]),
        "save": rng.choice([4, 5, None]),
        "rules": rng.sample(RULES, rng.choice([0, 0, 1, 2])),
    }
    return unit(f"U{index}", rng.randint(3, 14), **profile)


@pytest.mark.parametrize("variants", [WHFB6, RU_WHFB], ids=["whfb6", "ru_whfb"])
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_matchups_with_kept_blows_equal_each_matchup_computed_afresh(variants, seed):
    """A job's units (read once, meeting every enemy, in a shuffled order) give, pair by pair,
    the very numbers of the same matchup computed on its own with every cache emptied."""
    rng = random.Random(seed)
    units = [_random_unit(rng, i) for i in range(10)]
    # RU #2: ASF re-rolls misses against a lower Initiative only: two enemies alike but for I
    units += [
        unit("Elves", 10, i=5, rules=["Always Strikes First"]),
        unit("Slow", 10, i=2),
        unit("Quick", 10, i=6),
    ]
    situation = {
        "mode": "melee",
        "charging": rng.random() < 0.7,
        "round": 2 if seed % 2 else 1,
        "fighting_models": 5,
        "defender_fighting_models": 5,
        "attacker_width": 5,
        "defender_width": 5,
        "attacker_standard": True,
        **({"fear_auto_break": True} if variants is RU_WHFB else {}),  # an RU table's option (WHFB: always)
    }
    sit = prepare_situation(situation, variants=variants)
    prepared = [prepare_unit(u) for u in units]
    pairs = [(i, j) for i in range(len(units)) for j in range(len(units)) if i != j]
    rng.shuffle(pairs)
    kept = {(i, j): matrix_attack(prepared[i], prepared[j], sit, variants=variants) for i, j in pairs}
    for i, j in pairs:
        clear_caches()
        assert kept[(i, j)] == matrix_attack(units[i], units[j], situation, variants=variants)


def _reference_breaks(dist, diff, attacker, defender, tracks, situation, variants) -> tuple[float, float]:
    """P(defender breaks), P(attacker breaks) cell by cell, as `resolve` computed them before
    issue 42: each cell's chance from its difference, raised to 1 where fear breaks the loser,
    where a Swarm's wounds take its last and where the side is destroyed."""
    ta, td = tracks
    _, us_a, _, _, destroyed_a = _per_state_all(attacker, ta, situation.attacker_width)
    _, us_d, _, _, destroyed_d = _per_state_all(defender, td, situation.defender_width)
    fear = variants.fear_auto_break or situation.fear_auto_break
    out = []
    for loser, winner, lost_by, loser_us, winner_us, track, side in (
        (defender, attacker, diff, us_d[None, :], us_a[:, None], td, "defender"),
        (attacker, defender, -diff, us_a[:, None], us_d[None, :], ta, "attacker"),
    ):
        general = getattr(situation, f"{side}_general_ld")
        reroll = getattr(situation, f"{side}_battle_standard") or getattr(situation, f"{side}_army_standard")
        test = break_test(loser, general, reroll, variants)
        if test.kind != "test":
            chance = np.zeros(diff.shape)
        else:
            table = _losing_table(test.leadership, not test.modified, test.reroll)
            chance = table[lost_by.clip(0, len(table) - 1)]
            if fear and _causes_fear(winner) and not _fearless(loser):
                chance[(lost_by > 0) & (winner_us > loser_us)] = 1.0
        left = track.size - 1 - np.arange(track.size)
        if test.kind == "swarm":
            chance[(lost_by > 0) & (lost_by >= (left[None, :] if side == "defender" else left[:, None]))] = (
                1.0
            )
        if side == "defender":
            chance[:, destroyed_d] = 1.0
        else:
            chance[destroyed_a, :] = 1.0
        out.append(float(np.vdot(dist, chance)))
    return out[0], out[1]


@pytest.mark.parametrize("variants", [WHFB6, RU_WHFB], ids=["whfb6", "ru_whfb"])
def test_break_chances_read_per_combat_result_equal_them_cell_by_cell(variants):
    """The break chances from the combat result's distribution plus the cells forced to a break
    (fear, a Swarm's last wounds, destroyed) equal the cell-by-cell sum, on random tables."""
    rng = random.Random(3)
    nprng = np.random.default_rng(3)
    for _ in range(30):
        attacker, defender = read_unit(_random_unit(rng, 0)), read_unit(_random_unit(rng, 1))
        situation = Situation.from_dict(
            {
                "mode": "melee",
                "charging": True,
                "attacker_width": rng.choice([4, 5]),
                "defender_width": rng.choice([4, 5]),
                "attacker_standard": rng.random() < 0.5,
                "defender_musician": rng.random() < 0.3,
                **({"fear_auto_break": rng.random() < 0.5} if variants is RU_WHFB else {}),
                "defender_battle_standard": rng.random() < 0.3,
                "defender_general_ld": rng.choice([0, 9]),
            },
            variants,
        )
        tracks = tuple(WoundTrack.of(u.pool_models, u.wounds_per_model) for u in (attacker, defender))
        dist = nprng.random((tracks[0].size, tracks[1].size)) * (
            nprng.random((tracks[0].size, tracks[1].size)) < 0.6
        )
        dist[-1, :] += nprng.random(tracks[1].size) * 0.1  # mass where each side is destroyed
        dist[:, -1] += nprng.random(tracks[0].size) * 0.1
        dist /= dist.sum()
        result = resolve(dist, attacker, defender, tracks, situation, variants)
        assert abs(result.difference.sum() - 1) < 1e-12
        diff = _differences(dist, attacker, defender, tracks, situation, variants)
        expected = _reference_breaks(dist, diff, attacker, defender, tracks, situation, variants)
        assert result.p_defender_breaks == pytest.approx(expected[0], abs=1e-12)
        assert result.p_attacker_breaks == pytest.approx(expected[1], abs=1e-12)


def _differences(dist, attacker, defender, tracks, situation, variants) -> np.ndarray:
    """The cells' combat result differences as `resolve` builds them (read back through its
    distribution: a one-cell table at each cell gives that cell's difference)."""
    diff = np.zeros(dist.shape, dtype=np.int64)
    for i in range(dist.shape[0]):
        for j in range(dist.shape[1]):
            one = np.zeros(dist.shape)
            one[i, j] = 1.0
            cell = resolve(one, attacker, defender, tracks, situation, variants)
            diff[i, j] = cell.offset + int(np.flatnonzero(cell.difference)[0])
    return diff
