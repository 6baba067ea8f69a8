"""The AoS 1st cost model (`rules.systems.aos1.compute_cost`): big melee units the generic bound
refused are accepted and predicted within 3× of their traced memory and counted work, and the
battleshock loss table (six rolls per number slain) equals the table it replaced (a
distribution per number slain, built from an identity matrix row)."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

from armybuilder.estimates.bounds import over_limit
from rules.systems.aos1 import combat
from rules.systems.aos1.combat import Situation, _losses, attack, battleshock_fled
from rules.systems.aos1.compute_cost import attack_work, estimate_cost
from rules.systems.generic_cost import generic_cost
from tests.rules.systems.aos1.test_combat import unit, weapon

MELEE = {"mode": "melee"}


@pytest.mark.parametrize("models", [150, 200])
def test_a_big_melee_unit_the_generic_bound_refused_is_accepted_and_predicted(models):
    attacker = unit("Horde", models, weapons=[weapon(attacks=2), weapon(attacks=1, damage="D3")])
    defender = unit("Wall", models, wounds=1, save=5)
    assert over_limit(*generic_cost(attacker, defender, MELEE))  # what it was refused by
    seconds, size = estimate_cost(attacker, defender, MELEE)
    assert over_limit(seconds, size) is None and seconds < 0.1
    attack(attacker, defender, MELEE)  # warm: the first attack imports
    tracemalloc.start()
    attack(attacker, defender, MELEE)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert 1 / 3 <= size / peak <= 3, (size, peak)


def test_the_work_counted_is_the_engines_walk():
    """Two weapon groups of 10 × 2 attacks and 10 × 1 (D3 damage) on 30 one-wound models: 30
    attacks walked; the D3 weapon's terms reach the 30-wound pool after 10 attacks."""
    attacker = unit("A", 10, weapons=[weapon(attacks=2), weapon(attacks=1, damage="D3")])
    work = attack_work(attacker, unit("D", 30), Situation())
    groups, attacks, cells, models, pool, slain = work
    assert (groups, attacks, models, pool) == (2, 30, 30, 30)
    # 20 × 1 + 10 × 3 = 50 damage at most, more than the 30 one-wound models: 0 … 30 slain.
    assert slain == 31
    # Σ_{n=1..20} min(n + 1, 31) × 2 and Σ_{n=1..10} min(3n + 1, 31) × 4
    assert cells == (sum(min(n + 1, 31) * 2 for n in range(1, 21))
                     + sum(min(3 * n + 1, 31) * 4 for n in range(1, 11)))


@pytest.mark.parametrize(("models", "wounds", "expected"), [(20, 3, 8), (5, 3, 6), (40, 1, 24)])
def test_the_numbers_slain_counted_are_those_the_engine_reaches(monkeypatch, models, wounds, expected):
    """10 attacks of 2 damage and D3 mortal wounds: at most 23 damage, so on 20 three-wound
    models 0 … 7 slain (8 steps of the battleshock tables), on 5 all of them (6), on 40
    one-wound models 0 … 23 (24). The engine's own distribution of models slain reaches as far."""
    seen = []
    real = combat.models_slain
    monkeypatch.setattr(combat, "models_slain", lambda *a: seen.append(real(*a)) or seen[-1])
    attacker = unit("A", 10, weapons=[weapon(attacks=1, to_hit=2, to_wound=2, damage=2)])
    defender = unit("D", models, wounds=wounds, save=None)
    work = attack_work(attacker, defender, Situation(mortal_wounds="D3"))
    attack(attacker, defender, {"mode": "melee", "mortal_wounds": "D3"})
    assert work.slain == expected == int(np.flatnonzero(seen[0])[-1]) + 1


def _losses_by_identity_rows(slain, models, bravery, situation):
    lost = np.zeros(models + 1)
    for k, p_k in enumerate(slain):
        if p_k:
            fled = battleshock_fled(np.eye(models + 1)[k], models, bravery, situation)
            lost[k: k + len(fled) - k] += p_k * fled[: models + 1 - k]
    return lost


@pytest.mark.parametrize("situation", [Situation(), Situation(slain_earlier=3, bravery_modifier=-2),
                                       Situation(inspiring_presence=True)])
def test_the_loss_table_is_the_one_it_replaced_to_the_last_bit(situation):
    rng = np.random.default_rng(7)
    for models in (1, 5, 23, 60):
        slain = rng.random(models + 1)
        slain[rng.random(models + 1) < 0.3] = 0.0
        slain /= slain.sum() or 1.0
        for bravery in (1, 5, 10):
            assert np.array_equal(_losses(slain, models, bravery, situation),
                                  _losses_by_identity_rows(slain, models, bravery, situation))


def test_a_target_past_the_old_wound_limit_is_priced_not_refused():
    """Issue 42: 1000 models of 10 wounds (10,000, twice the old limit) struck by ten models is
    milliseconds of work, and predicted so; the cost model, not a cap, decides."""
    seconds, size = estimate_cost(unit("A", 10, weapons=[weapon(attacks="D6", damage="D6")]),
                                  unit("D", 1000, wounds=10), MELEE)
    assert over_limit(seconds, size) is None and seconds < 0.1


def test_past_the_engines_limits_the_same_message():
    with pytest.raises(ValueError, match="wounds in the target"):
        estimate_cost(unit("A", 1, weapons=[weapon()]), unit("D", 1000, wounds=61), MELEE)
    with pytest.raises(ValueError, match="attacks per weapon"):
        estimate_cost(unit("A", 1000, weapons=[weapon(attacks=61)]), unit("D", 10), MELEE)
