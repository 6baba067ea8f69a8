"""Predicted seconds are this machine's (`estimates/machine_speed.py`): the cost models'
seconds times a factor measured on a reference workload, or fixed by a setting."""

from __future__ import annotations

import pytest
from django.core.cache import caches

from armybuilder.estimates import bounds, machine_speed
from armybuilder.estimates.inputs import unit_vs_unit_inputs
from rules.systems.fantasy_combat.estimate import FIT_MACHINE_SLOWER
from rules.systems.registry import get_system
from tests.factories.opr_documents import RIFLE, opr_unit


@pytest.fixture
def fresh_factor(settings):
    """No factor measured in this process or shared in the cache."""
    settings.ESTIMATE_MACHINE_FACTOR = "auto"
    cache = caches[settings.PDF_CACHE]
    machine_speed._measured_factor.cache_clear()
    cache.delete(machine_speed.CACHE_KEY)
    yield cache
    machine_speed._measured_factor.cache_clear()
    cache.delete(machine_speed.CACHE_KEY)


def test_a_fixed_factor_scales_the_seconds_and_not_the_bytes(settings):
    system = get_system("opr")
    attacker, defender = opr_unit("A", count=10, weapons=[RIFLE]), opr_unit("D", count=10)
    seconds, size = system.estimate_cost(attacker, defender, {})
    settings.ESTIMATE_MACHINE_FACTOR = "2.5"
    assert bounds.matchup_cost(system, attacker, defender, {}) == (pytest.approx(2.5 * seconds), size)
    settings.ESTIMATE_MACHINE_FACTOR = "1"
    assert bounds.matchup_cost(system, attacker, defender, {}) == (pytest.approx(seconds), size)


def test_the_test_runner_fixes_the_factor_at_one(settings):
    """What a test accepts must not depend on the speed of the machine running it."""
    assert settings.ESTIMATE_MACHINE_FACTOR == "1"
    assert machine_speed.machine_factor() == 1.0


@pytest.mark.django_db
def test_auto_measures_once_and_shares_the_figure(fresh_factor):
    factor = machine_speed.machine_factor()
    assert machine_speed.LOWEST <= factor <= machine_speed.HIGHEST
    assert fresh_factor.get(machine_speed.CACHE_KEY) == factor
    assert machine_speed.machine_factor() == factor  # kept in the process


@pytest.mark.django_db
def test_a_process_reads_the_shared_figure_instead_of_measuring(fresh_factor):
    fresh_factor.set(machine_speed.CACHE_KEY, 7.25)
    assert machine_speed.machine_factor() == 7.25


@pytest.mark.django_db
def test_a_shared_figure_out_of_bounds_is_measured_again(fresh_factor):
    fresh_factor.set(machine_speed.CACHE_KEY, 1000.0)
    factor = machine_speed.machine_factor()
    assert factor != 1000.0 and machine_speed.LOWEST <= factor <= machine_speed.HIGHEST


def test_the_workload_is_one_accepted_matchup_per_engine_family():
    workload = machine_speed.reference_workload()
    assert {key for key, *_ in workload} == {"opr", "wh40k9", "aos1", "whfb6"}
    for key, attacker, defender, situation in workload:
        assert unit_vs_unit_inputs(attacker=attacker, defender=defender, situation=situation)[0] == key
        assert get_system(key).attack(attacker, defender, situation)


def test_the_workload_is_timed_in_cpu_seconds():
    seconds = machine_speed.workload_seconds(rounds=1)
    assert 0 < seconds < float("inf")


def test_the_fantasy_model_names_the_same_fit_machine():
    assert FIT_MACHINE_SLOWER == machine_speed.SLOWER_THERE
