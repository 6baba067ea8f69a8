"""A job past its CPU seconds (`ESTIMATE_CPU_SECONDS`) ends failed with a clear message, on a
real worker process through Redis and Postgres, whether it runs as one task or fanned out
into parts that share the job's seconds."""

from __future__ import annotations

import pytest
from django.db import connection

from armybuilder.estimates import fanout
from armybuilder.estimates.compute import list_vs_list
from armybuilder.estimates.cpu_limit import process_cpu_seconds
from armybuilder.estimates.inputs import army_inputs, list_vs_list_inputs
from armybuilder.estimates.models import Estimate
from armybuilder.estimates.services import estimate_request
from armybuilder.estimates.tasks import CPU_TOO_LONG
from tests.armybuilder.estimates.test_estimate_worker import wait_for
from tests.conftest import start_worker, stop_worker, wait_for_worker
from tests.factories.opr_documents import BLADE, LAUNCHER, RIFLE, opr_unit

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

#: The least limit the worker is given: the profiling timer checks every 0.05 CPU s.
LEAST_LIMIT = 0.15
HEAVY = dict(LAUNCHER, name="Heavy launcher", rules=["Deadly(3)"])


def job() -> tuple[str, dict]:
    units = {side: [opr_unit(f"{side} {i}", count=10 + 7 * i, quality=3 + i % 3, defence=3 + i % 4,
                             weapons=[RIFLE, BLADE, LAUNCHER, HEAVY]) for i in range(30)]
             for side in ("A", "B")}
    return list_vs_list_inputs(
        system_key="opr", situation={"mode": "shooting", "range_inches": 12},
        list_a=army_inputs(name="A", units=[(u["name"], u) for u in units["A"]]),
        list_b=army_inputs(name="B", units=[(u["name"], u) for u in units["B"]]))


def cpu_needed(system: str, inputs: dict) -> float:
    before = process_cpu_seconds()
    list_vs_list(system, inputs)
    return process_cpu_seconds() - before


def limit_below(needed: float) -> float:
    """A limit a quarter of what the job needs on this machine (never under `LEAST_LIMIT`), so
    the test holds on a faster or slower CPU and after the engine gets faster; the job must
    still need more than twice the limit."""
    limit = max(LEAST_LIMIT, needed / 4)
    assert needed > 2 * limit, f"the job needs only {needed:.2f} CPU s: make it bigger"
    return limit


def run(system: str, inputs: dict, monkeypatch: pytest.MonkeyPatch, *, fan_out_min: str,
        limit: float) -> Estimate:
    monkeypatch.setenv("ESTIMATE_CPU_SECONDS", str(limit))
    monkeypatch.setenv("ESTIMATE_FAN_OUT_MIN_SECONDS", fan_out_min)
    worker = start_worker(connection.settings_dict["NAME"], "--pool", "prefork", "--concurrency", "1",
                          "-Q", "celery")
    try:
        wait_for_worker()
        estimate = estimate_request(kind=Estimate.Kind.LIST_VS_LIST, system=system, inputs=inputs)
        return wait_for(estimate, lambda e: e.is_finished, timeout=120, what="finished")
    finally:
        stop_worker(worker)


def test_a_one_task_job_past_its_cpu_seconds_fails_saying_so(monkeypatch):
    system, inputs = job()
    limit = limit_below(cpu_needed(system, inputs))

    estimate = run(system, inputs, monkeypatch, fan_out_min="1e9", limit=limit)

    assert estimate.status == Estimate.Status.FAILED
    assert estimate.error == CPU_TOO_LONG
    assert estimate.attempts == 1
    assert not fanout.is_fanned_out(str(estimate.pk))


def test_the_parts_of_a_fanned_out_job_share_its_cpu_seconds(monkeypatch):
    system, inputs = job()
    limit = limit_below(cpu_needed(system, inputs))

    estimate = run(system, inputs, monkeypatch, fan_out_min="0", limit=limit)

    assert fanout.is_fanned_out(str(estimate.pk))
    assert estimate.status == Estimate.Status.FAILED
    assert estimate.error == CPU_TOO_LONG
    # The job stopped once its tasks had used the seconds, not after computing every row.
    counted = float(fanout._redis().get(fanout._key(str(estimate.pk), "cpu")))
    assert limit * 0.5 <= counted < 2 * limit
    assert fanout.missing_rows(estimate)


def test_the_same_job_within_its_cpu_seconds_is_done_and_counts_them(monkeypatch):
    system, inputs = job()

    estimate = run(system, inputs, monkeypatch, fan_out_min="0", limit=60)

    assert estimate.status == Estimate.Status.DONE, estimate.error
    counted = float(fanout._redis().get(fanout._key(str(estimate.pk), "cpu")))
    assert cpu_needed(system, inputs) * 0.5 < counted < 60
