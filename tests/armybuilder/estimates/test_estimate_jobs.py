"""Estimate jobs without a worker: reuse of stored answers, the failure policy, progress.

The task is run in-process (`run_estimate(id)`), as a worker would run it; the real worker
is in `test_estimate_worker.py`.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from unittest import mock

import pytest
from django.conf import settings
from django.utils import timezone
from kombu.exceptions import OperationalError

from armybuilder.estimates import compute
from armybuilder.estimates.inputs import army_inputs, list_vs_list_inputs, unit_vs_unit_inputs
from armybuilder.estimates.models import Estimate
from armybuilder.estimates.selectors import STALE_GRACE, WORKER_LOST, estimate_get
from armybuilder.estimates.services import QUEUE_DOWN, estimate_inputs_hash, estimate_request, estimate_retry
from armybuilder.estimates.tasks import GAVE_UP, MAX_ATTEMPTS, run_estimate
from rules.systems.registry import get_system
from tests.factories.estimate_lists import distinct_units
from tests.factories.estimate_rows import estimate_set, stored_estimate
from tests.factories.opr_documents import LAUNCHER, RIFLE, opr_unit

pytestmark = pytest.mark.django_db

ATTACKER = opr_unit("Veterans", count=5, quality=3, weapons=[RIFLE, LAUNCHER])
DEFENDER = opr_unit("Guards", count=10, defence=5)


def ask(situation: dict | None = None, **kwargs: object) -> Estimate:
    system, inputs = unit_vs_unit_inputs(attacker=ATTACKER, defender=DEFENDER, situation=situation or {})
    return estimate_request(kind=Estimate.Kind.UNIT_VS_UNIT, system=system, inputs=inputs, **kwargs)


def test_an_identical_request_reuses_the_stored_job_and_makes_no_second_row():
    first = ask({"mode": "shooting", "range_inches": 18})
    run_estimate(str(first.pk))

    again = ask({"range_inches": 18.0, "mode": "shooting"})

    assert again.pk == first.pk
    assert Estimate.objects.count() == 1
    assert again.status == Estimate.Status.DONE


def test_a_queued_or_running_identical_job_is_reused_too():
    first = ask()
    assert ask().pk == first.pk
    estimate_set(first.pk, status=Estimate.Status.RUNNING, started=timezone.now())
    assert ask().pk == first.pk
    assert Estimate.objects.count() == 1


def test_a_different_situation_is_a_different_job():
    first = ask()
    second = ask({"defender_in_cover": True})
    assert first.pk != second.pk
    assert first.inputs_hash != second.inputs_hash


def test_a_failed_job_is_not_reused_asking_again_runs_it_anew():
    first = ask()
    estimate_set(first.pk, status=Estimate.Status.FAILED, error="boom")
    first.refresh_from_db()

    again = estimate_retry(estimate=first)

    assert again.pk != first.pk
    assert again.status == Estimate.Status.QUEUED
    assert again.inputs_hash == first.inputs_hash


def test_the_hash_is_of_canonical_json_whatever_the_key_order():
    a = estimate_inputs_hash(kind="unit_vs_unit", system="opr", inputs={"x": 1, "y": [1, 2]})
    b = estimate_inputs_hash(kind="unit_vs_unit", system="opr", inputs={"y": [1, 2], "x": 1})
    assert a == b and len(a) == 64
    assert a != estimate_inputs_hash(kind="list_vs_list", system="opr", inputs={"x": 1, "y": [1, 2]})


def test_the_job_is_queued_when_the_transaction_commits(django_capture_on_commit_callbacks):
    with mock.patch("armybuilder.estimates.services.run_estimate.apply_async") as delay, \
            django_capture_on_commit_callbacks(execute=True):
        estimate = ask()
    delay.assert_called_once_with((str(estimate.pk),), task_id=str(estimate.pk), retry=False)


def test_a_job_that_cannot_be_queued_fails_visibly(django_capture_on_commit_callbacks):
    down = OperationalError("down")
    with mock.patch("armybuilder.estimates.services.run_estimate.apply_async", side_effect=down), \
            django_capture_on_commit_callbacks(execute=True):
        estimate = ask()
    estimate.refresh_from_db()
    assert estimate.status == Estimate.Status.FAILED
    assert estimate.error == QUEUE_DOWN


def test_running_a_job_stores_the_result_of_the_systems_attack():
    estimate = ask({"mode": "melee", "charging": True})

    assert run_estimate(str(estimate.pk)) == "done"

    estimate.refresh_from_db()
    expected = get_system("opr").attack(ATTACKER, DEFENDER, estimate.inputs["situation"])
    assert estimate.status == Estimate.Status.DONE
    assert estimate.result["expected"] == pytest.approx(expected["expected"], abs=1e-12)
    assert estimate.result["kills_distribution"] == pytest.approx(expected["kills_distribution"], abs=1e-12)
    assert (estimate.progress, estimate.attempts, estimate.error) == (1.0, 1, "")


def test_a_job_past_max_attempts_is_marked_failed_instead_of_run_again():
    """Each redelivery after a lost worker counts an attempt; past MAX_ATTEMPTS the job gives up."""
    estimate = ask()
    estimate_set(estimate.pk, status=Estimate.Status.RUNNING, attempts=MAX_ATTEMPTS)

    assert run_estimate(str(estimate.pk)) == "failed"

    estimate.refresh_from_db()
    assert estimate.status == Estimate.Status.FAILED
    assert estimate.attempts == MAX_ATTEMPTS + 1
    assert estimate.error == GAVE_UP
    assert estimate.result is None and estimate.finished is not None


def test_a_redelivered_job_under_the_limit_runs_again():
    estimate = ask()
    estimate_set(estimate.pk, status=Estimate.Status.RUNNING, attempts=MAX_ATTEMPTS - 1)
    assert run_estimate(str(estimate.pk)) == "done"
    estimate.refresh_from_db()
    assert (estimate.status, estimate.attempts) == (Estimate.Status.DONE, MAX_ATTEMPTS)


def test_a_job_stuck_running_past_the_time_limit_is_reported_failed_by_the_selector():
    estimate = ask()
    too_long = timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT) + STALE_GRACE + timedelta(seconds=1)
    estimate_set(estimate.pk, status=Estimate.Status.RUNNING, attempts=1,
                 started=timezone.now() - too_long)

    seen = estimate_get(estimate_id=estimate.pk)

    assert seen.status == Estimate.Status.FAILED
    assert seen.error == WORKER_LOST
    assert Estimate.objects.get(pk=estimate.pk).status == Estimate.Status.FAILED


def test_a_job_running_within_the_time_limit_stays_running():
    estimate = ask()
    estimate_set(estimate.pk, status=Estimate.Status.RUNNING, started=timezone.now())
    assert estimate_get(estimate_id=estimate.pk).status == Estimate.Status.RUNNING


def test_a_stale_running_job_is_not_reused_by_an_identical_request():
    estimate = ask()
    estimate_set(estimate.pk, status=Estimate.Status.RUNNING,
                 started=timezone.now() - timedelta(days=1))
    assert ask().pk != estimate.pk
    assert Estimate.objects.get(pk=estimate.pk).status == Estimate.Status.FAILED


def test_a_finished_job_is_not_run_twice_and_an_unknown_id_is_skipped():
    estimate = ask()
    run_estimate(str(estimate.pk))
    assert run_estimate(str(estimate.pk)) == "skipped"
    assert Estimate.objects.get(pk=estimate.pk).attempts == 1
    assert run_estimate("not-a-uuid") == "skipped"
    assert run_estimate("00000000-0000-0000-0000-000000000000") == "skipped"


def test_a_job_the_system_cannot_compute_fails_with_its_error():
    estimate = stored_estimate(kind=Estimate.Kind.UNIT_VS_UNIT, system="no-such-system",
                               inputs={"attacker": {}, "defender": {}}, inputs_hash="x" * 64)
    assert run_estimate(str(estimate.pk)) == "failed"
    estimate.refresh_from_db()
    assert estimate.status == Estimate.Status.FAILED
    assert "no-such-system" in estimate.error


def test_list_against_list_reports_progress_up_to_the_total_and_computes_repeats_once():
    units = distinct_units("Unit", 3)
    side = army_inputs(name="A", units=[(u["name"], u) for u in [*units, units[0]]])
    _system, inputs = list_vs_list_inputs(system_key="opr", list_a=side, list_b=side, situation={})
    calls: list[tuple[int, int]] = []
    # A list job computes each cell with the system's `cell_attack` (its `attack` for OPR).
    opr = get_system("opr")
    cell = mock.Mock(side_effect=opr.cell_attack)  # counts the cells computed
    counting = replace(opr, matrix_attack=cell)  # OPR computes cell by cell (no `matrix_row`)
    with mock.patch("armybuilder.estimates.compute.get_system", return_value=counting):
        result = compute.list_vs_list("opr", inputs, lambda done, total: calls.append((done, total)))
        computed = cell.call_count

    assert calls[-1] == (32, 32)
    assert [done for done, _total in calls] == sorted(done for done, _total in calls)
    assert computed == 9  # 3 distinct units: every pair once, although the lists hold 4 × 4 pairs
    assert result["a_vs_b"][3][1] == result["a_vs_b"][0][1]
    assert len(result["b_vs_a"]) == 4 and len(result["b_vs_a"][0]) == 4
