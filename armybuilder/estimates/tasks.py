"""The Celery task that runs an estimate and stores its outcome in Postgres.

Failure policy, so that a job never stays "running" forever:
- the task is acknowledged late and rejected when its worker process dies, so the broker
  hands it to another worker; every start counts an attempt, and past
  `MAX_ATTEMPTS` the job is marked failed instead of run again;
- a hard time limit kills a runaway computation; the soft limit before it lets the task
  record the failure itself;
- a job left "running" longer than the hard limit (its worker vanished with the message)
  is marked failed when anyone looks at it (`selectors.estimate_refresh_stale`).
"""

from __future__ import annotations

import logging
import time
import uuid

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext_noop

import armybuilder.celery  # noqa: F401  (the app these tasks bind to, loaded lazily)
from armybuilder.estimates import fanout
from armybuilder.estimates.compute import COMPUTATIONS, EstimateInputError
from armybuilder.estimates.models import Estimate

logger = logging.getLogger(__name__)

MAX_ATTEMPTS = 3
#: Errors stored in English and translated when shown (`{% translate estimate.error %}`).
GAVE_UP = gettext_noop("The job was given up: the worker running it was lost on every attempt.")
TOO_LONG = gettext_noop("The computation took longer than the time limit.")
#: A job that runs out of the worker's memory limit fails once, visibly, not retried.
OUT_OF_MEMORY = gettext_noop("The computation needed more memory than a worker may use; it was not retried. "
                             "Estimate smaller units or lists.")
#: Progress is written at most this often (seconds), so a fast job does not hammer Postgres.
PROGRESS_INTERVAL = 0.25


@shared_task(
    name="estimates.run",
    acks_late=True,
    reject_on_worker_lost=True,
    time_limit=settings.CELERY_TASK_TIME_LIMIT,
    soft_time_limit=settings.CELERY_TASK_SOFT_TIME_LIMIT,
)
def run_estimate(estimate_id: str) -> str:
    """Run the job `estimate_id` and store its result or its error; returns what happened
    ("done", "failed", or "skipped" for a job already finished or gone)."""
    try:
        uuid.UUID(str(estimate_id))
    except ValueError:
        return "skipped"  # not an estimate's id: nothing to run, nothing to record
    startable = [Estimate.Status.QUEUED, Estimate.Status.RUNNING]  # RUNNING: a redelivery after a lost worker
    Estimate.objects.filter(pk=estimate_id, status__in=startable).update(
        status=Estimate.Status.RUNNING, attempts=F("attempts") + 1, started=timezone.now(), progress=0.0)
    estimate = Estimate.objects.filter(pk=estimate_id).first()
    if estimate is None or estimate.status != Estimate.Status.RUNNING:
        return "skipped"
    if estimate.attempts > MAX_ATTEMPTS:
        _finish(estimate, error=GAVE_UP)
        return "failed"
    _hold_for_tests()

    # A list-vs-list job on a worker becomes one subtask per row (`fanout`).
    if fanout.should_fan_out(estimate, request=run_estimate.request):
        return fanout.start(estimate)

    last_write = 0.0

    def on_progress(done: int, total: int) -> None:
        nonlocal last_write
        now = time.monotonic()
        if total > 0 and (now - last_write >= PROGRESS_INTERVAL or done == total):
            last_write = now
            Estimate.objects.filter(pk=estimate_id).update(progress=min(1.0, max(0.0, done / total)))

    started = time.perf_counter()
    try:
        result = COMPUTATIONS[estimate.kind](estimate.system, estimate.inputs, on_progress)
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


def _hold_for_tests() -> None:
    """Fault tests only (`ESTIMATE_TEST_HOLD_FILE` names a file; never set in production):
    write `<file>.reached`, then wait while `<file>` exists, so a test can kill the worker
    while the job is certainly running. Bounded by the soft time limit."""
    hold = settings.ESTIMATE_TEST_HOLD_FILE
    if not hold:
        return
    from pathlib import Path

    Path(f"{hold}.reached").write_text("running")
    while Path(hold).exists():
        time.sleep(0.05)


def _finish(estimate: Estimate, *, result: dict | None = None, error: str = "",
            compute_ms: float | None = None) -> None:
    """The job's last write: done with its result, or failed with its error."""
    Estimate.objects.filter(pk=estimate.pk).update(
        status=Estimate.Status.FAILED if error else Estimate.Status.DONE,
        result=result, error=error, progress=1.0, finished=timezone.now(), compute_ms=compute_ms)
