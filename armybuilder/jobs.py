"""Durable background jobs: one Postgres row per job, whatever its kind, and one reconciliation.

The import jobs kept their state and their input only in the job cache (Redis), so the fault
runs of issue 38 lost them: a Redis restart answered 404 for every import (one whose list was
saved included) and dropped the queued ones with their input; a 5-second Postgres stop failed
the running import ("The import failed", the catch-all took the `OperationalError`) and left
the ones behind it "queued" for good; a killed worker's import showed "running" for the
broker's whole visibility timeout (10 min). Now:

- `job_create` writes the job (`BackgroundJob`: owner, kind, state, what was asked) and its
  input (`JobInput` rows: the uploaded files or pasted text) in one transaction, then sends a
  message holding only the job's id (task id = job id). A broker that is down deletes the
  row again and raises `JobsUnavailable` (a 503: nothing was stored);
- the task (`run_job`) starts the row (`job_start`: running, an attempt counted, the worker's
  node name recorded), reads the input from the rows, and ends it (`job_finish`: the result,
  or the errors; the input rows are deleted). A database error anywhere is retried with
  backoff (`DB_RETRY_DELAYS`), not called a failure;
- `jobs_reconcile` (Celery beat's `jobs.reconcile`, every `RECONCILE_INTERVAL` seconds) looks
  at every unfinished job not touched for `ESTIMATE_ORPHAN_GRACE` seconds: a queued one whose
  message neither the broker nor a live worker holds is sent again (the input is in Postgres,
  so a Redis restart loses nothing); a running one whose worker's heartbeat is stale
  (`armybuilder.worker_heartbeat`, 5 s) or which no live worker holds is sent again, or failed
  with `WORKER_LOST` after `MAX_ATTEMPTS` starts; finished jobs past `KEEP_SECONDS` are
  deleted. A killed worker's job is sent again within one interval plus the heartbeat's 5 s,
  not after the broker's visibility timeout; its old message, redelivered later, finds the job
  finished and does nothing, and the import receipts (`rules.import_receipts`) keep two
  deliveries from saving twice.

Each kind registers what its worker does (`register`): the task reads the job and calls it.
An estimate is a job too (kind `estimate`, `armybuilder.estimates`): its rows of work fan out
over tasks of their own, so it runs on its own task (`estimates.run`) and its kind is watched by
a pass of its own (`watch`) given the same look at the broker and the workers; it uses this
module's state machine (`job_start`, `job_progress`, `job_finish`) and is kept until deleted.
A kind also says which broker queue its messages go to (file work on `pdf`, the gauntlet's
matchups on `celery` beside the estimates) and how long its finished jobs are kept (a roster's
PDF, a `JobOutput` row, is served from its job for `PDF_CACHE_SECONDS`). A job that names what it
makes (`key`) can be found by it, and one that holds a `lock` is the only unfinished job with
that lock (a Postgres constraint: one PDF render per list, one gauntlet job per list content),
so two requests at once never queue the same work twice.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from celery import shared_task
from django.conf import settings
from django.db import DatabaseError, IntegrityError, InterfaceError, OperationalError, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

import armybuilder.celery  # noqa: F401  (the app `run_job` binds to: its broker and routes)
from armybuilder.fault_holds import hold_for_tests
from armybuilder.job_rows import BackgroundJob, JobInput, JobOutput
from rules.import_queue import ImportUnavailable
from rules.import_queue import JobFailed as RulesJobFailed

logger = logging.getLogger(__name__)

#: A finished job (its state and outcome) is kept this long for its owner to read.
KEEP_SECONDS = 3600
#: Starts of one job before the reconciliation fails it instead of sending it again.
MAX_ATTEMPTS = 3
#: Seconds between the retries of a task that met a database error (then it is left to the
#: reconciliation, which sends it again while attempts remain).
DB_RETRY_DELAYS = (1, 2, 4, 8, 15, 30, 30, 30)
#: Seconds past its hard time limit after which a running job no live worker holds is lost.
OVERDUE_SECONDS = 30
#: The broker queue the job tasks are routed to (`CELERY_TASK_ROUTES`).
QUEUE = "pdf"
#: Stored in English, translated when shown.
WORKER_LOST = gettext_noop("The worker running this job stopped each time it was tried; nothing was saved.")

Kind = str
Runner = Callable[[BackgroundJob, list[JobInput]], "dict[str, Any] | Made"]

#: Per kind: what its worker does, its (soft, hard) time limits in seconds, its broker queue,
#: and the seconds a finished job is kept.
_runners: dict[Kind, Runner] = {}
_limits: dict[Kind, tuple[float, float]] = {}
_queues: dict[Kind, str] = {}
_keep: dict[Kind, float] = {}
#: Kinds that run on tasks of their own: their pass of the reconciliation (`watch`).
_watchers: dict[Kind, Callable[[Any], dict[str, int]]] = {}


class JobsUnavailable(ImportUnavailable):
    """The database or the broker cannot take or show a job right now; nothing was stored."""


class JobBusy(Exception):
    """Another unfinished job holds the lock this one asked for; nothing was stored."""


#: What a runner raises for a job that cannot be done (its `errors` are shown to its owner);
#: declared beside the import queue, whose catalogue runner (`rules.battlescribe_jobs`) raises it.
JobFailed = RulesJobFailed


class JobRefused(Exception):
    """What a runner raises for a job that fails for one reason (`reason`: stored in English,
    translated when shown), where no error of its input says it (a PDF too large to keep)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def register(kind: Kind, runner: Runner, *, soft_time_limit: float, queue: str = QUEUE,
             keep_seconds: float = KEEP_SECONDS) -> None:
    """`runner(job, inputs)` does a job of `kind` on the worker and returns its result (plain
    JSON data, or `Made`: the result and the files it made), or raises `JobFailed`; past
    `soft_time_limit` seconds Celery raises `SoftTimeLimitExceeded` in it (and kills it 10 s
    later). It must save at most once however often it is called for the same job
    (`rules.import_receipts`), or be idempotent. Its messages go to `queue`; its finished jobs
    are kept `keep_seconds`."""
    _runners[kind] = runner
    _limits[kind] = (soft_time_limit, soft_time_limit + 10)
    _queues[kind] = queue
    _keep[kind] = keep_seconds


def watch(kind: Kind, reconcile: Callable[[Any], dict[str, int]], *, queue: str) -> None:
    """Jobs of `kind` run on tasks of their own (not `run_job`), whose messages go to `queue`,
    and are kept until deleted: `reconcile(seen)`, given the reconciliation's look at the broker
    and the workers (`broker_tasks.Look`), sends again or fails what of them is lost; the pass of
    the other kinds and the pruning leave them alone."""
    _watchers[kind] = reconcile
    _queues[kind] = queue


def queues() -> set[str]:
    """The broker queues the registered kinds' messages go to (every kind registers when the apps
    are ready, `job_kinds`)."""
    return set(_queues.values())


@dataclass(frozen=True)
class Upload:
    """One input of a job: a file's bytes (`data`) or pasted text."""

    name: str
    data: bytes | None = None
    text: str = ""


@dataclass(frozen=True)
class Made:
    """What a runner returns when its job made files: the result and the files (`JobOutput`)."""

    result: dict[str, Any]
    outputs: Sequence[Upload] = ()


def job_create(*, kind: Kind, owner_id: int | None, language: str, request: dict[str, Any],
               inputs: Sequence[Upload] = (), key: str = "", lock: str = "",
               job_id: str | None = None) -> BackgroundJob:
    """Store the job and its input, then send it to the workers; the job, queued.

    Raises `JobBusy` when an unfinished job holds `lock`, `JobsUnavailable` (nothing is kept)
    when the database or the broker is down. Call it outside a transaction: a worker reads the
    row as soon as the message arrives (a row not yet committed then is skipped by that
    delivery, and sent again by the reconciliation). `job_id` is given only for a job an older
    release queued under that id (`armybuilder.job_aliases`)."""
    job_id = job_id or uuid.uuid4().hex
    try:
        with transaction.atomic():
            job = BackgroundJob.objects.create(id=job_id, kind=kind, owner_id=owner_id, language=language,
                                               request=request, touched=timezone.now(), key=key[:255],
                                               lock=lock[:255])
            JobInput.objects.bulk_create([
                JobInput(job=job, position=index, name=upload.name[:255], data=upload.data, text=upload.text)
                for index, upload in enumerate(inputs)])
    except IntegrityError as exc:
        if lock and "background_job_one_unfinished_per_lock" in str(exc):
            raise JobBusy(lock) from exc
        raise JobsUnavailable(str(exc)) from exc
    except DatabaseError as exc:
        raise JobsUnavailable(str(exc)) from exc
    try:
        job_send(job_id, kind)
    except Exception as exc:  # kombu's OperationalError, redis' ConnectionError/TimeoutError
        logger.warning("could not queue the %s job %s: %s", kind, job_id, exc)
        try:
            BackgroundJob.objects.filter(pk=job_id).delete()
        except DatabaseError:
            logger.warning("could not delete the unsent job %s", job_id)
        raise JobsUnavailable(str(exc)) from exc
    job.refresh_from_db()  # eager mode (tests) ran it already
    return job


def job_send(job_id: str, kind: Kind) -> None:
    """Publish the job's message (its id only, a few hundred bytes in the broker), with its
    kind's time limits, failing within seconds when the broker is down."""
    soft, hard = _limits[kind]  # every kind registers when the apps are ready (`job_kinds`)
    run_job.apply_async((job_id,), task_id=job_id, retry=False, soft_time_limit=soft, time_limit=hard,
                        queue=_queues[kind])


def job_of(*, job_id: str, owner_id: int, kind: Kind | None = None) -> BackgroundJob | None:
    """The job as its owner sees it; None when it is unknown, deleted or someone else's.

    Raises `JobsUnavailable` with the database down."""
    try:
        found = BackgroundJob.objects.filter(pk=job_id, owner_id=owner_id)
        if kind is not None:
            found = found.filter(kind=kind)
        return found.first()
    except DatabaseError as exc:
        raise JobsUnavailable(str(exc)) from exc


def job_start(job_id: str, *, worker: str, attempt: bool = True) -> BackgroundJob | None:
    """Mark the job running on `worker` (an attempt counted, unless `attempt` is false: a retry
    after a database error is the same attempt); None when it has finished (a message delivered
    again after the job ended) or no longer exists."""
    with transaction.atomic():
        job = BackgroundJob.objects.select_for_update().filter(pk=job_id).first()
        if job is None or job.finished_state:
            return None
        if not attempt and job.state == BackgroundJob.State.RUNNING:
            return job
        now = timezone.now()
        job.state, job.attempts, job.worker = BackgroundJob.State.RUNNING, job.attempts + 1, worker
        job.started = job.touched = now
        job.progress = 0.0
        job.save(update_fields=["state", "attempts", "worker", "started", "touched", "progress"])
    return job


def job_progress(job_id: str, *, done: float | None = None, add: float | None = None,
                 below: float = 1.0) -> bool:
    """Write how far the running job is: `done` (0 to 1), or `add` to what it was, kept under
    `below` (the parts of a fanned-out job add their shares; only its end makes it 1). Touches
    the job (a sign of life). False when the job is not running."""
    from django.db.models import F, Value
    from django.db.models.functions import Greatest, Least

    now = timezone.now()
    if add is not None:
        value: Any = Least(F("progress") + Value(add), Value(below))
    else:
        value = Greatest(Value(0.0), Least(Value(float(done or 0.0)), Value(below)))
    return bool(BackgroundJob.objects.filter(pk=job_id, state=BackgroundJob.State.RUNNING).update(
        progress=value, touched=now))


def job_finish(job_id: str, *, result: dict[str, Any] | None = None, errors: list[Any] | None = None,
               reason: str = "", outputs: Sequence[Upload] = ()) -> str:
    """Store the outcome ("done" with `result` and the files made, `outputs`, or "failed" with
    `errors` or `reason`) and delete the input; the state written. A finished job is left as it
    is (the state returned is then what it holds)."""
    state = BackgroundJob.State.FAILED if errors or reason else BackgroundJob.State.DONE
    with transaction.atomic():
        updated = BackgroundJob.objects.filter(pk=job_id).exclude(
            state__in=[BackgroundJob.State.DONE, BackgroundJob.State.FAILED]).update(
            state=state, result=result, errors=errors or [], reason=reason, finished=timezone.now(),
            touched=timezone.now(), progress=1.0)
        if updated:
            JobInput.objects.filter(job_id=job_id).delete()
            JobOutput.objects.bulk_create([
                JobOutput(job_id=job_id, name=made.name[:255], data=made.data or b"") for made in outputs])
    return state


def job_output(job_id: str, name: str) -> bytes | None:
    """The file `name` a finished job made, or None."""
    data = JobOutput.objects.filter(job_id=job_id, name=name).values_list("data", flat=True).first()
    return bytes(data) if data is not None else None


def job_inputs(job: BackgroundJob) -> list[JobInput]:
    return list(JobInput.objects.filter(job=job))


def _retry_delay(retries: int) -> int | None:
    return DB_RETRY_DELAYS[retries] if retries < len(DB_RETRY_DELAYS) else None


@shared_task(bind=True, name="jobs.run", acks_late=True, reject_on_worker_lost=True, ignore_result=True,
             max_retries=len(DB_RETRY_DELAYS))
def run_job(self: Any, job_id: str) -> str:
    """Run the job on this worker: "done", "failed", or "skipped" (finished or gone). A database
    error is retried with backoff (`DB_RETRY_DELAYS`); past them the reconciliation sends the job
    again while it has attempts left."""
    try:
        return _run(job_id, worker=self.request.hostname or "")
    except (OperationalError, InterfaceError) as exc:
        delay = _retry_delay(self.request.retries)
        logger.warning("job %s met a database error (%s); retry in %s s", job_id, exc, delay)
        if delay is None:
            raise
        raise self.retry(exc=exc, countdown=delay) from None


def _run(job_id: str, *, worker: str) -> str:
    # Celery's Django fixup closes a connection a database restart broke before each task.
    job = job_start(job_id, worker=worker)
    if job is None:
        return "skipped"
    hold_for_tests("job")  # fault tests only: the job holds here while their file exists
    runner = _runners[job.kind]  # every kind registers when the apps are ready (`job_kinds`)
    try:
        result = runner(job, job_inputs(job))
    except JobFailed as exc:
        return job_finish(job_id, errors=exc.errors)
    except JobRefused as exc:
        return job_finish(job_id, reason=exc.reason)
    if isinstance(result, Made):
        return job_finish(job_id, result=result.result, outputs=result.outputs)
    return job_finish(job_id, result=result)


class Store:
    """The job store the import queue of the `rules` layer uses (`rules.import_queue.DurableJobs`)."""

    def create(self, *, kind: str, owner_id: int, language: str, request: dict[str, Any],
               files: Sequence[tuple[str, bytes]]) -> BackgroundJob:
        return job_create(kind=kind, owner_id=owner_id, language=language, request=request,
                          inputs=[Upload(name=name, data=data) for name, data in files])

    def of(self, *, job_id: str, owner_id: int, kind: str) -> BackgroundJob | None:
        return job_of(job_id=job_id, owner_id=owner_id, kind=kind)


@dataclass(frozen=True)
class JobsReconciled:
    """What one pass changed (for the log and the tests)."""

    resent_queued: int = 0
    resent_running: int = 0
    failed_lost: int = 0
    deleted: int = 0


def jobs_reconcile(*, held: set[str] | None, workers_alive: bool, live_workers: set[str] | None = None,
                   now: Any = None) -> JobsReconciled:
    """One pass over the unfinished jobs (see the module docstring).

    `held`: the task ids the broker's queue or a live worker holds (None: unknown, the broker is
    down); `workers_alive`: some worker answered; `live_workers`: the node names with a fresh
    heartbeat (None: unknown)."""
    now = now or timezone.now()
    counts = dict.fromkeys(JobsReconciled.__dataclass_fields__, 0)
    grace = now - timedelta(seconds=settings.ESTIMATE_ORPHAN_GRACE)
    unfinished = BackgroundJob.objects.filter(
        state__in=[BackgroundJob.State.QUEUED, BackgroundJob.State.RUNNING], touched__lt=grace).exclude(
        kind__in=list(_watchers))
    for job in unfinished.only("pk", "kind", "state", "attempts", "worker", "started"):
        if held is not None and job.pk in held:
            if job.state == BackgroundJob.State.QUEUED and not workers_alive:
                continue  # queued, but no worker to take it: nothing to do yet
            if job.state == BackgroundJob.State.QUEUED or live_workers is None or job.worker in live_workers:
                BackgroundJob.objects.filter(pk=job.pk, state=job.state).update(touched=now)
                continue
        if job.state == BackgroundJob.State.QUEUED:
            if held is None:
                continue  # the broker cannot be read: whether the message is there is unknown
            if BackgroundJob.objects.filter(pk=job.pk, state=job.state).update(touched=now):
                job_send(job.pk, job.kind)  # its message is gone (Redis restarted): send it again
                counts["resent_queued"] += 1
            continue
        # Lost: its worker stopped beating (killed, hung, gone); or, where no heartbeat can be
        # read, no answering worker holds it; or a live worker dropped it (its database retries
        # ran out) and it is past its time limit. A worker busy in a solo pool answers no
        # inspection but beats, so a beating worker's job is never taken for lost early.
        worker_gone = live_workers is not None and job.worker not in live_workers
        unheld = held is not None and workers_alive and job.pk not in held
        overdue = job.started is not None and job.started < now - timedelta(
            seconds=_limits.get(job.kind, (0, 600))[1] + OVERDUE_SECONDS)
        if not (worker_gone or (unheld and (live_workers is None or overdue))):
            continue
        if job.attempts >= MAX_ATTEMPTS:
            if BackgroundJob.objects.filter(pk=job.pk, state=job.state).exists():
                job_finish(job.pk, reason=WORKER_LOST)
                counts["failed_lost"] += 1
            continue
        if BackgroundJob.objects.filter(pk=job.pk, state=BackgroundJob.State.RUNNING).update(
                state=BackgroundJob.State.QUEUED, touched=now):
            job_send(job.pk, job.kind)
            counts["resent_running"] += 1
    counts["deleted"] = _prune(now)
    outcome = JobsReconciled(**counts)
    if outcome != JobsReconciled():
        logger.warning("reconcile background jobs: %s", outcome)
    return outcome


def _prune(now: Any) -> int:
    """Delete the finished jobs past their kind's keeping time (`register`); how many."""
    ended = BackgroundJob.objects.filter(
        state__in=[BackgroundJob.State.DONE, BackgroundJob.State.FAILED]).exclude(kind__in=list(_watchers))
    kept_longer = {kind: seconds for kind, seconds in _keep.items() if seconds != KEEP_SECONDS}
    batches = [ended.filter(finished__lt=now - timedelta(seconds=KEEP_SECONDS)).exclude(kind__in=kept_longer)]
    batches += [ended.filter(kind=kind, finished__lt=now - timedelta(seconds=seconds))
                for kind, seconds in kept_longer.items()]
    total = 0
    for batch in batches:
        _, deleted = batch.delete()
        total += deleted.get(BackgroundJob._meta.label, 0)
    return total


def needs_a_look() -> bool:
    """Whether some unfinished job is past the grace, so where its work is must be looked at."""
    grace = timezone.now() - timedelta(seconds=settings.ESTIMATE_ORPHAN_GRACE)
    return BackgroundJob.objects.filter(state__in=[BackgroundJob.State.QUEUED, BackgroundJob.State.RUNNING],
                                        touched__lt=grace).exists()


def watched_pass(seen: Any) -> dict[str, int]:
    """The passes of the kinds that run on tasks of their own (`watch`), given the same look;
    what each changed, by name."""
    counts: dict[str, int] = {}
    for reconcile in _watchers.values():
        counts.update(reconcile(seen))
    return counts


def reconcile_pass(seen: Any = None) -> JobsReconciled:
    """`jobs_reconcile` with what the broker, the workers and their heartbeats say (`seen`, the
    reconciliation's one look at them, `broker_tasks.Look`; taken here when not given)."""
    from armybuilder.broker_tasks import look

    if seen is None:
        if not needs_a_look():
            return jobs_reconcile(held=None, workers_alive=False)  # nothing to look for: only the pruning
        seen = look(sorted(queues()))
    return jobs_reconcile(held=seen.held, workers_alive=seen.workers_alive, live_workers=seen.live_workers,
                          now=seen.taken_at)
