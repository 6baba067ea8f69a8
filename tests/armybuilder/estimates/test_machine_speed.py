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
    machine_speed.forget()
    cache.delete(machine_speed.CACHE_KEY)
    yield cache
    machine_speed.forget()
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


def _no_measuring(monkeypatch):
    def refuse(*_args, **_kwargs):
        raise AssertionError("measured where a shared or kept figure was there")

    monkeypatch.setattr(machine_speed, "workload_seconds", refuse)


@pytest.mark.django_db
def test_a_process_reads_the_shared_figure_again_after_a_while(fresh_factor, monkeypatch):
    """The beat measures again every half hour; every process picks the new figure up within
    `KEPT_SECONDS`, so the factor follows a VM whose speed changes."""
    _no_measuring(monkeypatch)
    fresh_factor.set(machine_speed.CACHE_KEY, 2.0)
    assert machine_speed.machine_factor() == 2.0
    fresh_factor.set(machine_speed.CACHE_KEY, 3.5)
    assert machine_speed.machine_factor() == 2.0  # kept for a while
    now = machine_speed.time.monotonic()
    monkeypatch.setattr(machine_speed.time, "monotonic", lambda: now + machine_speed.KEPT_SECONDS + 1)
    assert machine_speed.machine_factor() == 3.5


@pytest.mark.django_db
def test_a_process_keeps_its_figure_when_the_shared_one_is_gone(fresh_factor, monkeypatch):
    """Redis restarted: a web process does not measure in a request, it keeps its figure until
    the beat shares a new one."""
    fresh_factor.set(machine_speed.CACHE_KEY, 2.0)
    assert machine_speed.machine_factor() == 2.0
    fresh_factor.delete(machine_speed.CACHE_KEY)
    _no_measuring(monkeypatch)
    now = machine_speed.time.monotonic()
    monkeypatch.setattr(machine_speed.time, "monotonic", lambda: now + machine_speed.KEPT_SECONDS + 1)
    assert machine_speed.machine_factor() == 2.0


@pytest.mark.django_db
def test_the_beat_task_measures_and_shares_a_new_figure(fresh_factor, monkeypatch):
    fresh_factor.set(machine_speed.CACHE_KEY, 19.0)
    assert machine_speed.machine_factor() == 19.0
    monkeypatch.setattr(machine_speed, "workload_seconds", lambda: 2 * machine_speed.REFERENCE_SECONDS)
    assert machine_speed.measure_machine.apply().get() == pytest.approx(2.0)
    assert fresh_factor.get(machine_speed.CACHE_KEY) == pytest.approx(2.0)
    assert machine_speed.machine_factor() == pytest.approx(2.0)


@pytest.mark.django_db
def test_a_starting_worker_measures_only_when_nothing_is_shared(fresh_factor, monkeypatch):
    monkeypatch.setattr(machine_speed, "workload_seconds", lambda: 3 * machine_speed.REFERENCE_SECONDS)
    machine_speed._share_when_a_worker_starts()
    assert fresh_factor.get(machine_speed.CACHE_KEY) == pytest.approx(3.0)
    _no_measuring(monkeypatch)
    machine_speed._share_when_a_worker_starts()  # shared now: nothing to do


def test_with_a_fixed_factor_nothing_is_measured(settings, monkeypatch):
    _no_measuring(monkeypatch)
    settings.ESTIMATE_MACHINE_FACTOR = "1.5"
    machine_speed._share_when_a_worker_starts()
    assert machine_speed.measure_machine.apply().get() == 1.5


def test_the_beat_measures_on_the_control_queue_inside_the_shared_lifetime(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["measure-machine"]
    assert entry["task"] == machine_speed.measure_machine.name
    assert entry["options"]["queue"] == "control"
    assert settings.CELERY_TASK_ROUTES[machine_speed.measure_machine.name] == {"queue": "control"}
    assert entry["schedule"] == machine_speed.MEASURE_INTERVAL < machine_speed.SHARED_SECONDS
    assert "armybuilder.estimates.machine_speed" in settings.CELERY_IMPORTS


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
