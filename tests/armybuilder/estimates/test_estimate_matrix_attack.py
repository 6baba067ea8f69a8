"""A list job's cells come from `GameSystem.cell_attack` (`matrix_attack` where a system has
one, issue 42): they must be exactly the cells `attack` gives, matchup by matchup, on many
random accepted inputs of every system (random catalogue units resized and changed, random
situations; `tests.factories.cost_inputs.random_samples`)."""

from __future__ import annotations

import itertools
import random

import pytest

from armybuilder.estimates.compute import matrix_cell, prepare_situation, prepare_units
from rules.systems.registry import get_system
from tests.factories.cost_inputs import SYSTEM_KEYS, random_samples

SAMPLES = 40


@pytest.mark.parametrize("system_key", SYSTEM_KEYS)
def test_a_matrix_cell_is_exactly_the_cell_of_the_full_attack(system_key):
    system = get_system(system_key)
    compared = 0
    for sample in itertools.islice(random_samples(system_key, random.Random(4242)), SAMPLES):
        pair = prepare_units(system_key, [sample.attacker, sample.defender])
        attacker, defender = pair[0].prepared, pair[1].prepared
        situation = prepare_situation(system_key, sample.situation)
        try:
            full = matrix_cell(system.attack(attacker, defender, situation))
        except ValueError:
            with pytest.raises(ValueError):
                system.cell_attack(attacker, defender, situation)
            continue
        assert matrix_cell(system.cell_attack(attacker, defender, situation)) == full
        compared += 1
    assert compared >= SAMPLES // 2


def test_a_system_without_a_matrix_attack_fills_its_cells_from_attack():
    system = get_system("opr")
    assert system.matrix_attack is None
    assert system.cell_attack is system.attack


def test_systems_with_a_matrix_attack_use_it():
    for key in ("aos1", "whfb6", "ru_whfb"):
        system = get_system(key)
        assert system.matrix_attack is not None
        assert system.cell_attack is system.matrix_attack


@pytest.mark.parametrize("system_key", ["whfb6", "ru_whfb", "aos1"])
@pytest.mark.parametrize("seed", [7, 8])
def test_a_list_job_of_random_units_gives_each_matchup_s_own_cell(system_key, seed):
    """What a job keeps with its units between matchups (a unit's strikers, break tests, its part
    of the combat result; per-weapon numbers) changes no cell: a job of random catalogue units
    in a random situation gives, pair by pair, the cell of `attack` on the unit dicts alone."""
    from armybuilder.estimates.compute import list_vs_list
    from rules.systems.registry import get_system

    system = get_system(system_key)
    samples = list(itertools.islice(random_samples(system_key, random.Random(seed)), 12))
    situation = samples[0].situation
    units = [s.attacker for s in samples[:6]] + [s.defender for s in samples[6:]]
    half = [{"name": f"U{i}", "unit": u} for i, u in enumerate(units)]
    inputs = {"list_a": {"name": "A", "units": half[:6]}, "list_b": {"name": "B", "units": half[6:]},
              "situation": situation}
    try:
        result = list_vs_list(system_key, inputs)
    except ValueError:
        pytest.skip("a pair of this draw is past the engine's limits")
    for i, attacker in enumerate(units[:6]):
        for j, defender in enumerate(units[6:]):
            assert result["a_vs_b"][i][j] == matrix_cell(system.attack(attacker, defender, situation))
            assert result["b_vs_a"][j][i] == matrix_cell(system.attack(defender, attacker, situation))
