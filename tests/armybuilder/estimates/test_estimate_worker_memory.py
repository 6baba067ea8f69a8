"""A job past the worker's memory limit ends failed with a clear message and is not retried, on a
real worker process through Redis and Postgres."""

from __future__ import annotations

import copy

import pytest
from django.db import connection

from armybuilder.estimates.models import Estimate
from armybuilder.estimates.services import estimate_request
from armybuilder.estimates.tasks import OUT_OF_MEMORY
from tests.armybuilder.estimates.test_estimate_worker import wait_for
from tests.conftest import start_worker, stop_worker, wait_for_worker
from tests.factories.opr_documents import opr_unit

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

KINDS = [["Rending"], ["Deadly(3)"], ["Blast(3)"], []]
ARSENAL = [{"name": f"W{i}", "range": 24, "attacks": 1 + i % 3, "ap": i % 3,
            "rules": (["Precise"] if i % 2 else []) + KINDS[i % 4]} for i in range(32)]


def mixed_horde() -> dict:
    unit = opr_unit("Horde", count=150, toughness=3, weapons=[])
    heavy = copy.deepcopy(unit["models"][0])
    heavy.update(name="Heavy", toughness=4)
    unit["models"].append(heavy)
    return unit


def arsenal_on_a_worker() -> Estimate:
    """The arsenal against the mixed horde (past every memory bound), queued as a job and run
    to its end on a real prefork worker started with the environment the test set."""
    inputs = {"attacker": opr_unit("Arsenal", count=20, weapons=ARSENAL), "defender": mixed_horde(),
              "situation": {"mode": "shooting", "charging": False, "attacker_moved": False,
                            "defender_in_cover": False, "defender_activated": False,
                            "enemies_within_12": False, "range_inches": 12.0}}
    worker = start_worker(connection.settings_dict["NAME"], "--pool", "prefork", "--concurrency", "1")
    try:
        wait_for_worker()
        estimate = estimate_request(kind=Estimate.Kind.UNIT_VS_UNIT, system="opr", inputs=inputs)
        return wait_for(estimate, lambda e: e.is_finished, timeout=240, what="finished")
    finally:
        stop_worker(worker)


def test_a_job_past_the_memory_limit_fails_once_with_a_clear_message(monkeypatch):
    """The inputs builder would refuse this matchup (`bounds`); queued directly, as a job from an
    older release or a wrong cost model would be, it meets the worker's RLIMIT_DATA instead."""
    monkeypatch.setenv("ESTIMATE_WORKER_MEMORY_MB", "400")
    estimate = arsenal_on_a_worker()
    assert estimate.status == Estimate.Status.FAILED
    assert estimate.error == OUT_OF_MEMORY
    assert estimate.attempts == 1


def test_a_job_is_held_to_its_own_memory_bound_even_with_no_worker_cap(monkeypatch):
    """With the worker's overall cap off, the per-job bound (`ESTIMATE_JOB_MEMORY_MB`)
    still stops the matchup the cost model would have refused, as it stops one it under-predicts."""
    monkeypatch.setenv("ESTIMATE_WORKER_MEMORY_MB", "0")
    monkeypatch.setenv("ESTIMATE_JOB_MEMORY_MB", "300")
    estimate = arsenal_on_a_worker()
    assert estimate.status == Estimate.Status.FAILED
    assert estimate.error == OUT_OF_MEMORY
    assert estimate.attempts == 1


def test_the_memory_bound_stops_an_allocation_past_it_and_is_put_back_after():
    import resource

    import numpy as np

    from armybuilder.celery import memory_bound

    before = resource.getrlimit(resource.RLIMIT_DATA)
    with pytest.raises(MemoryError), memory_bound(64 * 2**20):
        np.ones(128 * 2**20, dtype=np.uint8)
    assert resource.getrlimit(resource.RLIMIT_DATA) == before
    assert np.ones(128 * 2**20, dtype=np.uint8).sum() == 128 * 2**20
