"""Periodic reconciliation: no job stays "queued" or "running" past its bound.

A job strands when the thing that was to finish it vanished: the broker lost its message
(Redis restarted without the queue), or the worker running it died (a SIGKILL, an OOM, a
host going away). Nothing will ever write to such a row again, so Celery beat runs
`jobs.reconcile` every `RECONCILE_INTERVAL` seconds (the worker starts beat with `-B`):

- a job queued longer than `ESTIMATE_QUEUED_LIMIT` fails ("no worker started it");
- a job running longer than the hard time limit (plus a grace) fails ("worker lost");
- a job running that no live worker holds (asked through Celery's control channel; the
  task id is the estimate id) is sent again, or failed once it used up its attempts, so a
  whole-worker crash costs one reconcile interval rather than the broker's visibility
  timeout.

Readers apply the two time bounds too (`selectors.estimate_refresh_stale`), so even with no
beat running, a stranded job is reported failed when looked at.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from armybuilder.estimates.models import Estimate
from armybuilder.estimates.selectors import NEVER_STARTED, STALE_GRACE, WORKER_LOST, estimate_queued_limit

logger = logging.getLogger(__name__)

#: A running job younger than this is left alone: its worker may not have reported it yet.
ORPHAN_GRACE = timedelta(seconds=10)
#: How long to wait for workers to say which tasks they hold.
INSPECT_TIMEOUT = 1.0


@dataclass(frozen=True)
class Reconciled:
    """What one pass changed (for the log and the tests)."""

    failed_queued: int = 0
    failed_running: int = 0
    requeued: int = 0
    failed_orphans: int = 0


def live_task_ids() -> set[str] | None:
    """Ids of the tasks the live workers are running, or `None` when none answered."""
    from armybuilder.celery import app

    try:
        replies = app.control.inspect(timeout=INSPECT_TIMEOUT).active()
    except Exception as exc:  # the broker is down: nothing can be said about the workers
        logger.warning("reconcile: cannot ask the workers: %s", exc)
        raise
    if not replies:
        return None
    return {str(task.get("id")) for tasks in replies.values() for task in tasks or []}


def jobs_reconcile(*, held: set[str] | None = None, ask_workers: bool = True) -> Reconciled:
    """One pass over the unfinished estimate jobs (see the module docstring).

    `held` is the set of task ids live workers are running (`live_task_ids()` when
    `ask_workers`); with `ask_workers=False` only the time bounds apply.
    """
    from armybuilder.estimates.services import send_job
    from armybuilder.estimates.tasks import MAX_ATTEMPTS

    now = timezone.now()
    failed_queued = Estimate.objects.filter(
        status=Estimate.Status.QUEUED, created__lt=now - estimate_queued_limit()).update(
        status=Estimate.Status.FAILED, finished=now, error=NEVER_STARTED)
    running_limit = timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT) + STALE_GRACE
    failed_running = Estimate.objects.filter(
        status=Estimate.Status.RUNNING, started__lt=now - running_limit).update(
        status=Estimate.Status.FAILED, finished=now, error=WORKER_LOST)
    requeued = failed_orphans = 0
    candidates = list(Estimate.objects.filter(status=Estimate.Status.RUNNING, started__lt=now - ORPHAN_GRACE)
                      .values_list("pk", "attempts"))
    if candidates and ask_workers:
        held = live_task_ids() or set()
    if candidates and held is not None:
        for pk, attempts in candidates:
            if str(pk) in held:
                continue
            if attempts >= MAX_ATTEMPTS:
                failed_orphans += Estimate.objects.filter(pk=pk, status=Estimate.Status.RUNNING).update(
                    status=Estimate.Status.FAILED, finished=timezone.now(), error=WORKER_LOST)
                continue
            # Back to the queue: the task's start moves it to running again (attempts + 1).
            if Estimate.objects.filter(pk=pk, status=Estimate.Status.RUNNING).update(
                    status=Estimate.Status.QUEUED, progress=0.0):
                send_job(str(pk))
                requeued += 1
    outcome = Reconciled(failed_queued, failed_running, requeued, failed_orphans)
    if outcome != Reconciled():
        logger.warning("reconcile: %s", outcome)
    return outcome


@shared_task(name="jobs.reconcile", ignore_result=True)
def reconcile() -> dict[str, int]:
    """The beat entry point."""
    return jobs_reconcile().__dict__
