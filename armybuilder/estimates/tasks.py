"""The Celery task that runs an estimate and stores its outcome in Postgres.

Failure policy, so that a job never stays "running" forever:
- the task is acknowledged late and rejected when its worker process dies, so the broker
  hands it to another worker; every start counts an attempt, and past
  `MAX_ATTEMPTS` the job is marked failed instead of run again;
- a hard time limit kills a runaway computation; the soft limit before it lets the task
  record the failure itself; a job may use `ESTIMATE_CPU_SECONDS` of CPU in all (its parts
  together when fanned out), counted in CPU, not wall-clock, so load does not fail it;
- a job left "running" longer than the hard limit (its worker vanished with the message)
  is marked failed when anyone looks at it (`selectors.estimate_refresh_stale`);
- Postgres away for a few seconds (a restart, a cut connection) is waited out: the task
  retries on `OperationalError` with a back-off (`fanout.DB_RETRIES`) instead of failing.
"""

from __future__ import annotations

import logging
import time
import uuid
from typing import Any

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import connection

import armybuilder.celery  # noqa: F401  (the app these tasks bind to, loaded lazily)
from armybuilder.celery import memory_bound
from armybuilder.estimates import fanout
from armybuilder.estimates.compute import COMPUTATIONS, EstimateInputError
from armybuilder.estimates.cpu_limit import CpuTimeExceeded, cpu_time_limit, process_cpu_seconds
from armybuilder.estimates.failures import CPU_TOO_LONG, GAVE_UP, MAX_ATTEMPTS, OUT_OF_MEMORY, TOO_LONG
from armybuilder.estimates.job_state import estimate_finish, estimate_progress, estimate_start
from armybuilder.estimates.models import Estimate
from armybuilder.fault_holds import hold_for_tests

logger = logging.getLogger(__name__)

#: Progress is written at most this often (seconds), so a fast job does not hammer Postgres.
PROGRESS_INTERVAL = 0.25


@shared_task(
    name="estimates.run",
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    time_limit=settings.CELERY_TASK_TIME_LIMIT,
    soft_time_limit=settings.CELERY_TASK_SOFT_TIME_LIMIT,
)
def run_estimate(self: Any, estimate_id: str) -> str:
    """Run the job `estimate_id` and store its result or its error; returns what happened
    ("done", "failed", or "skipped" for a job already finished or gone)."""
    try:
        return _run_estimate(self, estimate_id)
    except fanout.DB_ERRORS as exc:
        return fanout._db_retry(self, exc)


def _run_estimate(task: Any, estimate_id: str) -> str:
    try:
        uuid.UUID(str(estimate_id))
    except ValueError:
        return "skipped"  # not an estimate's id: nothing to run, nothing to record
    # A redelivery after a lost worker starts the running job again (an attempt counted); a
    # retry after a database error is the same attempt.
    estimate = estimate_start(estimate_id, worker=task.request.hostname or "",
                              attempt=task.request.retries == 0)
    if estimate is None:
        return "skipped"
    if estimate.attempts > MAX_ATTEMPTS:
        _finish(estimate, error=GAVE_UP)
        return "failed"
    hold_for_tests("start")

    predicted, costs, exact = 0.0, None, True
    cpu_before = process_cpu_seconds()
    if estimate.kind == Estimate.Kind.LIST_VS_LIST and not fanout.is_fanned_out(str(estimate.pk)):
        # Every matchup is priced before it computes, on the worker (the request screened each
        # unit against the other side's largest only): a job past a limit fails naming its
        # unit. A large job that will fan out is sized from the screen, and each part prices
        # its own matchups in parallel (`fanout`); a job that stays in one task, or might,
        # prices them all here.
        from armybuilder.estimates.bounds import job_refusal, screen_refusal
        from rules.systems.registry import get_system

        system = get_system(estimate.system)
        try:
            with cpu_time_limit(settings.ESTIMATE_CPU_SECONDS):
                refusal, costs = None, None
                if fanout.may_fan_out(estimate, request=task.request):
                    refusal, costs = screen_refusal(system=system, inputs=estimate.inputs)
                    predicted = sum(fanout.row_seconds(estimate.inputs, costs).values())
                    exact = False
                if refusal is None and not fanout.screened_large(predicted):
                    refusal, costs = job_refusal(system=system, inputs=estimate.inputs)
                    predicted, exact = sum(costs.values()), True
        except CpuTimeExceeded:
            _finish(estimate, error=CPU_TOO_LONG)
            return "failed"
        except Exception:  # inputs the cost model cannot read: let the computation say why
            logger.exception("estimate %s: its cost could not be predicted", estimate_id)
            refusal, costs, predicted = None, None, float("inf")
        if refusal:
            _finish(estimate, error=refusal)
            return "failed"
    # A list-vs-list job on a worker becomes subtasks of rows sized by their cost (`fanout`);
    # the pricing counts against the job's CPU seconds, which its parts share.
    if fanout.should_fan_out(estimate, request=task.request, predicted=predicted):
        fanout.cpu_used(str(estimate.pk), process_cpu_seconds() - cpu_before)
        return fanout.start(estimate, costs, priced=exact)

    last_write = 0.0

    def on_progress(done: int, total: int) -> None:
        nonlocal last_write
        now = time.monotonic()
        if total > 0 and (now - last_write >= PROGRESS_INTERVAL or done == total):
            last_write = now
            estimate_progress(estimate_id, done=done / total)

    started = time.perf_counter()
    try:
        left = settings.ESTIMATE_CPU_SECONDS - (process_cpu_seconds() - cpu_before)
        if settings.ESTIMATE_CPU_SECONDS > 0 and left <= 0:
            raise CpuTimeExceeded("the pricing used the job's CPU seconds")
        with memory_bound(settings.ESTIMATE_JOB_MEMORY_MB * 2**20), cpu_time_limit(max(0.0, left)):
            result = COMPUTATIONS[estimate.kind](estimate.system, estimate.inputs, on_progress)
    except CpuTimeExceeded:  # past ESTIMATE_CPU_SECONDS
        # The limit may have struck inside a progress write: the job's failure is written on a
        # fresh connection, not on one left halfway through a query.
        connection.close()
        _finish(estimate, error=CPU_TOO_LONG)
        return "failed"
    except SoftTimeLimitExceeded:
        _finish(estimate, error=TOO_LONG)
        return "failed"
    except MemoryError:  # past ESTIMATE_WORKER_MEMORY_MB
        _finish(estimate, error=OUT_OF_MEMORY)
        return "failed"
    except (EstimateInputError, KeyError, TypeError, ValueError) as exc:
        _finish(estimate, error=f"{type(exc).__name__}: {exc}")
        return "failed"
    except Exception as exc:  # a bug must still end the job visibly, with its error
        logger.exception("estimate %s crashed", estimate_id)
        _finish(estimate, error=f"{type(exc).__name__}: {exc}")
        return "failed"
    _finish(estimate, result=result, compute_ms=(time.perf_counter() - started) * 1000)
    return "done"


def _finish(estimate: Estimate, *, result: dict | None = None, error: str = "",
            compute_ms: float | None = None) -> None:
    """The job's last write: done with its result, or failed with its error."""
    estimate_finish(estimate.pk, result=result, error=error, compute_ms=compute_ms)
