"""Estimate jobs on a real Celery worker process, through Redis and the Postgres row."""

from __future__ import annotations

import json
import signal
import time
from typing import Any

import psutil
import pytest
from django.db import connection

from armybuilder.estimates.inputs import army_inputs, list_vs_list_inputs, unit_vs_unit_inputs
from armybuilder.estimates.models import Estimate
from armybuilder.estimates.services import estimate_request
from rules.systems.registry import get_system
from tests.conftest import start_worker, stop_worker, wait_for_worker
from tests.factories.estimate_lists import distinct_units
from tests.factories.opr_documents import LAUNCHER, RIFLE, opr_unit

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

SITUATION = {"mode": "shooting", "range_inches": 18, "defender_in_cover": True}


def wait_for(estimate: Estimate, condition: Any, *, timeout: float, what: str) -> Estimate:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        estimate.refresh_from_db()
        if condition(estimate):
            return estimate
        time.sleep(0.05)
    raise AssertionError(f"the job never became {what}: "
                         f"{estimate.status}, {estimate.progress}, {estimate.error}")


def as_stored(value: Any) -> Any:
    """What a JSON column gives back for `value`."""
    return json.loads(json.dumps(value))


def test_a_worker_runs_a_unit_against_unit_job_to_the_same_result_as_attack(celery_worker_process):
    attacker = opr_unit("Veterans", count=5, quality=3, weapons=[RIFLE, LAUNCHER])
    defender = opr_unit("Guards", count=10, defence=5)
    system, inputs = unit_vs_unit_inputs(attacker=attacker, defender=defender, situation=SITUATION)
    estimate = estimate_request(kind=Estimate.Kind.UNIT_VS_UNIT, system=system, inputs=inputs)

    estimate = wait_for(estimate, lambda e: e.is_finished, timeout=60, what="finished")

    assert estimate.status == Estimate.Status.DONE, estimate.error
    assert estimate.progress == 1.0
    assert estimate.attempts == 1
    assert estimate.started is not None and estimate.finished is not None and estimate.compute_ms > 0
    # The attack's figures, plus the abilities it did not use (these units have none kept as text).
    expected = {**get_system("opr").attack(attacker, defender, inputs["situation"]), "not_used": []}
    assert estimate.result == as_stored(expected)


def test_a_worker_runs_a_list_against_list_job_cell_by_cell_as_attack(celery_worker_process):
    units_a = distinct_units("Mine", 3)
    units_b = distinct_units("Theirs", 2)
    system, inputs = list_vs_list_inputs(
        system_key="opr", situation={"mode": "melee", "charging": True},
        list_a=army_inputs(name="Mine", units=[(u["name"], u) for u in units_a]),
        list_b=army_inputs(name="Theirs", units=[(u["name"], u) for u in units_b]))
    estimate = estimate_request(kind=Estimate.Kind.LIST_VS_LIST, system=system, inputs=inputs)

    estimate = wait_for(estimate, lambda e: e.is_finished, timeout=60, what="finished")

    assert estimate.status == Estimate.Status.DONE, estimate.error
    assert estimate.progress == 1.0
    result = estimate.result
    assert result["list_a"] == {"name": "Mine", "units": [u["name"] for u in units_a]}
    attack = get_system("opr").attack
    for i, attacker in enumerate(units_a):
        for j, defender in enumerate(units_b):
            direct = attack(attacker, defender, inputs["situation"])
            back = attack(defender, attacker, inputs["situation"])
            assert result["a_vs_b"][i][j] == as_stored({
                "expected_kills": direct["expected"]["kills"], "p_destroyed": direct["p_destroyed"],
                "expected_points_destroyed": direct["expected_points_destroyed"],
                "points_efficiency": direct["points_efficiency"],
                **{o["key"]: o["value"] for o in direct.get("outcomes", ())
                   if o["kind"] in ("probability", "number")}})
            assert result["b_vs_a"][j][i]["expected_kills"] == pytest.approx(back["expected"]["kills"],
                                                                             abs=1e-12)


def pool_child(worker: Any, timeout: float = 30) -> psutil.Process:
    """The prefork pool's one child process of the worker."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        children = psutil.Process(worker.pid).children()
        if children:
            return children[0]
        time.sleep(0.1)
    raise AssertionError("the worker started no pool process")


def hold_file(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The sentinel a running job waits on while it exists (`ESTIMATE_TEST_HOLD_FILE`), so
    the kill always lands mid-job; the worker reads it from its environment."""
    hold = tmp_path / "hold"
    hold.write_text("hold")
    monkeypatch.setenv("ESTIMATE_TEST_HOLD_FILE", str(hold))
    return hold


def wait_for_file(path: Any, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not path.exists():
        if time.monotonic() > deadline:
            raise AssertionError(f"{path} never appeared")
        time.sleep(0.05)


def small_job() -> Estimate:
    system, inputs = unit_vs_unit_inputs(attacker=opr_unit("Veterans", count=5, weapons=[RIFLE, LAUNCHER]),
                                         defender=opr_unit("Guards"), situation=SITUATION)
    return estimate_request(kind=Estimate.Kind.UNIT_VS_UNIT, system=system, inputs=inputs)


def test_a_job_whose_worker_process_dies_is_requeued_and_finished_by_the_next_one(tmp_path, monkeypatch):
    """SIGKILL of the pool process while the job certainly runs (it waits on the sentinel):
    the message is rejected back to the queue (`reject_on_worker_lost`), the pool's new
    process runs it again once the sentinel is gone, and it ends done."""
    hold = hold_file(tmp_path, monkeypatch)
    worker = start_worker(connection.settings_dict["NAME"], "--pool", "prefork", "--concurrency", "1")
    try:
        wait_for_worker()
        child = pool_child(worker)
        estimate = small_job()
        wait_for_file(tmp_path / "hold.reached", timeout=60)
        assert wait_for(estimate, lambda e: e.status == Estimate.Status.RUNNING, timeout=10,
                        what="running").attempts == 1

        child.send_signal(signal.SIGKILL)
        child.wait(timeout=10)
        hold.unlink()

        estimate = wait_for(estimate, lambda e: e.is_finished, timeout=120, what="finished")
    finally:
        stop_worker(worker)
    assert estimate.status == Estimate.Status.DONE, estimate.error
    assert estimate.attempts == 2
    assert estimate.progress == 1.0


def test_a_job_whose_whole_worker_dies_is_requeued_by_the_reconciliation(tmp_path, monkeypatch):
    """SIGKILL of the whole worker (main process and pool) mid-job: nothing rejects the
    message, which the broker would hand out only after its visibility timeout; the
    reconciliation sees that no live worker holds the running job and sends it again."""
    from armybuilder.estimates.reconciliation import jobs_reconcile, orphan_grace

    hold = hold_file(tmp_path, monkeypatch)
    worker = start_worker(connection.settings_dict["NAME"], "--pool", "prefork", "--concurrency", "1")
    try:
        wait_for_worker()
        estimate = small_job()
        wait_for_file(tmp_path / "hold.reached", timeout=60)
        for process in [*psutil.Process(worker.pid).children(recursive=True), psutil.Process(worker.pid)]:
            process.send_signal(signal.SIGKILL)
        worker.wait(timeout=10)
    finally:
        stop_worker(worker)
    hold.unlink()
    replacement = start_worker(connection.settings_dict["NAME"])
    try:
        wait_for_worker()
        time.sleep(orphan_grace().total_seconds())
        outcome = jobs_reconcile()
        estimate = wait_for(estimate, lambda e: e.is_finished, timeout=120, what="finished")
    finally:
        stop_worker(replacement)
    assert outcome.requeued == 1
    assert estimate.status == Estimate.Status.DONE, estimate.error
    assert estimate.attempts == 2
