"""Periodic reconciliation, one for every kind of job: a job's state follows its work.

A job strands when the thing that was to finish it vanished: the broker lost its message
(Redis restarted without the queue), or the worker running it died (a SIGKILL, an OOM, a
host going away). Nothing will ever write to such a row again, so Celery beat runs
`jobs.reconcile` every `RECONCILE_INTERVAL` seconds, on a queue of its own (`control`) that a
worker of its own consumes, so the schedule never waits behind thousands of rows of work.

Each pass looks at where every unfinished job's work really is: the messages in the broker's
queues, the tasks the live workers hold (active or reserved, asked through Celery's control
channel) and, for a fanned-out job, its rows done (`fanout`). One look (`look`: every work
queue read once, the workers asked once, their heartbeats read once) serves every kind of job,
each a `BackgroundJob` row: the estimates here (`watched`, the pass `armybuilder.jobs` gives
the kind it watches: an estimate's work is fanned out by rows on tasks of its own) and the
other kinds (`armybuilder.jobs`: list, roster and catalogue imports, roster PDFs, the gauntlet
and its parts), which apply the same rules to it. Then:

- a queued job whose message is queued or held is alive; one whose message is gone (Redis
  restarted) is sent again;
- a running job held by a live worker is alive; one no live worker holds is sent again
  (its start counts an attempt), or failed past `MAX_ATTEMPTS`;
- a fanned-out job is alive while its missing rows are all queued or held (its own task id
  is long finished: it only published the rows); the rows that are neither are sent again,
  and only those (each row's start counts; a row past its attempts fails the job). A job
  whose rows are all done but whose result was not written (the last row's worker died
  between the two) is assembled here;
- what is alive is "touched": the time bounds readers apply (`selectors.estimate_refresh_stale`)
  count from there, so a job that waits behind a backlog of work is never failed for it,
  while a job no reconciliation vouches for (no beat running) still fails at its bound.

Each pass also prunes the import jobs' receipts older than a job's lifetime
(`rules.import_receipts`): they exist only for a redelivery of a job the job cache still keeps.

A row caught in flight between the queue and a worker is seen in neither place for a moment,
so a row is sent again only when it is missing in two looks `CONFIRM_DELAY` apart; and when
no worker answers at all, no running work is sent again (it cannot be told lost from busy).
"""

from __future__ import annotations

import logging
import time
import uuid
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from celery import shared_task
from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from armybuilder.broker_tasks import Look, live_task_ids, look, queued_task_ids
from armybuilder.estimates.failures import GAVE_UP, MAX_ATTEMPTS
from armybuilder.estimates.job_state import (
    QUEUED,
    RUNNING,
    estimate_fail_if,
    estimate_requeue,
    estimate_touch,
)
from armybuilder.estimates.models import JOB_KIND, Estimate
from armybuilder.estimates.selectors import NEVER_STARTED, STALE_GRACE, WORKER_LOST, estimate_queued_limit
from armybuilder.job_rows import BackgroundJob
from rules.import_receipts import import_receipts_prune

logger = logging.getLogger(__name__)

#: The pause between the two looks that must both miss a row before it is sent again.
CONFIRM_DELAY = 0.5


@dataclass(frozen=True)
class Reconciled:
    """What one pass changed (for the log and the tests)."""

    failed_queued: int = 0
    failed_running: int = 0
    requeued: int = 0
    failed_orphans: int = 0
    rows_requeued: int = 0
    assembled: int = 0


def orphan_grace() -> timedelta:
    """A job younger than this is left alone: its worker may not have reported it yet."""
    return timedelta(seconds=settings.ESTIMATE_ORPHAN_GRACE)


def _snapshot() -> tuple[set[str], bool]:
    """Every task id the broker queues or a live worker holds, read in that order (a message
    moving from the queue to a worker in between is seen in the second place), and whether
    any worker answered at all."""
    queued = queued_task_ids()
    live = live_task_ids()
    return queued | (live or set()), live is not None


def jobs_reconcile(*, held: set[str] | None = None, ask_workers: bool = True,
                   workers_alive: bool | None = None, seen_at: Any = None) -> Reconciled:
    """One pass over the unfinished estimate jobs (see the module docstring).

    `held` is the set of task ids the broker queues or live workers hold (`_snapshot()` when
    `ask_workers`); with `ask_workers=False` and no `held` only the time bounds apply.
    `workers_alive` says whether any worker answered when `held` was read (default: it was
    read, so some did); `seen_at`, when `held` was read (the candidates are the jobs past the
    grace then; default: now, and `held` read after they are listed).
    """
    from armybuilder.estimates import fanout
    from armybuilder.estimates.services import send_job

    now = seen_at or timezone.now()
    counts = dict.fromkeys(Reconciled.__dataclass_fields__, 0)
    # A job younger than the grace is left alone: its worker may not report it yet.
    grace = orphan_grace()
    candidates = list(Estimate.objects.select_related("job").filter(
        Q(job__state=QUEUED, job__created__lt=now - grace)
        | Q(job__state=RUNNING, job__started__lt=now - grace))
        .only("pk", "inputs", "kind", "job__state", "job__attempts", "job__started", "job__created"))
    workers_alive = held is not None if workers_alive is None else workers_alive
    if candidates and ask_workers and held is None:
        held, workers_alive = _snapshot()
    if candidates and held is not None:
        second_look: set[str] | None = None
        for job in candidates:
            pk = str(job.pk)
            fanned = job.kind == Estimate.Kind.LIST_VS_LIST and fanout.is_fanned_out(pk)
            if pk in held:
                if job.status == RUNNING or workers_alive:
                    estimate_touch(pk)  # a queued message counts only while some worker will take it
                continue
            if not workers_alive and job.status == RUNNING:
                # No worker answered (none runs, or all were too slow to say): whether its work
                # is held cannot be told, and sending it again could only duplicate it. Work
                # lost with the workers is sent again once one answers.
                continue
            if job.status == QUEUED:
                if BackgroundJob.objects.filter(pk=job.job_id, state=QUEUED).exists():
                    send_job(pk)  # its message is gone (the broker lost it): send it again
                    estimate_touch(pk)
                    counts["requeued"] += 1
                continue
            if fanned:
                missing = fanout.missing_rows(job)
                if not missing:
                    if fanout.assemble(pk) == "done":
                        counts["assembled"] += 1
                    continue
                lost = [row for row in missing if row not in fanout.rows_held(pk, held)]
                if lost and ask_workers:
                    if second_look is None:
                        time.sleep(CONFIRM_DELAY)
                        second_look = _snapshot()[0]
                    done_now = set(lost) - set(fanout.missing_rows(job))
                    still_held = fanout.rows_held(pk, second_look)
                    lost = [row for row in lost if row not in done_now and row not in still_held]
                if lost:
                    if _row_attempts_used(pk, lost) >= MAX_ATTEMPTS:
                        counts["failed_orphans"] += estimate_fail_if(pk, state=RUNNING, error=GAVE_UP)
                        continue
                    counts["rows_requeued"] += fanout.send_rows(pk, lost)
                estimate_touch(pk)
                continue
            if job.attempts >= MAX_ATTEMPTS:
                counts["failed_orphans"] += estimate_fail_if(pk, state=RUNNING, error=WORKER_LOST)
                continue
            # Back to the queue: the task's start moves it to running again (attempts + 1).
            if estimate_requeue(pk):
                send_job(pk)
                counts["requeued"] += 1
    # The time bounds, counted from the last sign of life: what no pass vouched for.
    now = timezone.now()
    estimates = BackgroundJob.objects.filter(kind=JOB_KIND)
    queued_limit = estimate_queued_limit()
    waited_long = estimates.filter(state=QUEUED, created__lt=now - queued_limit).exclude(
        touched__gte=now - queued_limit)
    counts["failed_queued"] = _fail_all(waited_long, state=QUEUED, error=NEVER_STARTED)
    running_limit = timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT) + STALE_GRACE
    ran_long = estimates.filter(state=RUNNING, started__lt=now - running_limit).exclude(
        touched__gte=now - running_limit)
    counts["failed_running"] = _fail_all(ran_long, state=RUNNING, error=WORKER_LOST)
    outcome = Reconciled(**counts)
    if outcome != Reconciled():
        logger.warning("reconcile: %s", outcome)
    return outcome


def _fail_all(found: Any, *, state: str, error: str) -> int:
    """Fail every job `found` that is still in `state`; how many."""
    return sum(estimate_fail_if(uuid.UUID(job_id), state=state, error=error)
               for job_id in found.values_list("pk", flat=True))


def _row_attempts_used(pk: str, rows: list[str]) -> int:
    """The most starts any of these rows has had."""
    from armybuilder.estimates.fanout import _key, _redis

    started = _redis().hmget(_key(pk, "rows_started"), rows)
    return max((int(value) for value in started if value is not None), default=0)


@shared_task(name="jobs.reconcile", ignore_result=True)
def reconcile() -> dict[str, int]:
    """The beat entry point, the one reconciliation of every kind of job: first the import
    receipts past their jobs' lifetime are pruned (`rules.import_receipts`; that needs only the
    database, so a broker outage does not stop it); then, when some job of any kind is past its
    grace, one `look` at the queues, the workers and their heartbeats, applied to the durable
    background jobs (`armybuilder.jobs`) and to the estimate jobs alike."""
    from armybuilder.jobs import needs_a_look, queues, reconcile_pass, watched_pass

    pruned = import_receipts_prune()
    nothing = Look(held=None, workers_alive=False, live_workers=None)
    seen = look(sorted(queues())) if needs_a_look() else nothing
    background = reconcile_pass(seen)
    return {**watched_pass(seen), "receipts_pruned": pruned,
            **{f"background_{name}": count for name, count in background.__dict__.items()}}


def watched(seen: Look) -> dict[str, int]:
    """The estimates' pass of the one reconciliation (`armybuilder.jobs.watch`), given its look:
    with nothing to look for, or the broker unreadable, only the time bounds apply."""
    if seen.held is None:
        outcome = jobs_reconcile(ask_workers=False)
    else:
        outcome = jobs_reconcile(held=seen.held, workers_alive=seen.workers_alive, seen_at=seen.taken_at)
    return dict(outcome.__dict__)
