"""An estimate's transitions, on its background job (`armybuilder.jobs`: the one state machine of
every kind of job): started by its task, its progress written as its matchups finish, ended
once with its answer (kept on the estimate) or the reason it failed (kept on the job).

The task of a whole job (`tasks`), the parts of a fanned-out one (`fanout`) and the
reconciliation (`reconciliation`) all move an estimate through these, never by writing its
job's columns themselves.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from armybuilder import jobs
from armybuilder.estimates.models import Estimate, job_id_of
from armybuilder.job_rows import BackgroundJob

RUNNING = BackgroundJob.State.RUNNING
QUEUED = BackgroundJob.State.QUEUED


def estimate_start(estimate_id: Any, *, worker: str, attempt: bool = True) -> Estimate | None:
    """Mark the estimate's job running on `worker` (an attempt counted unless `attempt` is
    false); the estimate with its job, or None when it has finished or is gone."""
    job = jobs.job_start(job_id_of(estimate_id), worker=worker, attempt=attempt)
    if job is None:
        return None
    return Estimate.objects.select_related("job").filter(job_id=job.pk).first()


def estimate_running(estimate_id: Any) -> Estimate | None:
    """The estimate (with its job) while its job runs, else None."""
    return (Estimate.objects.select_related("job")
            .filter(job_id=job_id_of(estimate_id), job__state=RUNNING).first())


def estimate_progress(estimate_id: Any, *, done: float | None = None, add: float | None = None) -> None:
    """How far the running job is (`jobs.job_progress`): `done` from 0 to 1, or a part's share
    `add`ed (kept under 1 until the job ends)."""
    if add is not None:
        jobs.job_progress(job_id_of(estimate_id), add=add, below=0.999)
    else:
        jobs.job_progress(job_id_of(estimate_id), done=done)


def estimate_attempt(estimate_id: Any) -> None:
    """One more attempt on the job (a part of it delivered again after its worker was lost)."""
    from django.db.models import F

    BackgroundJob.objects.filter(pk=job_id_of(estimate_id)).update(attempts=F("attempts") + 1)


def estimate_touch(estimate_id: Any) -> None:
    """A sign of life of an unfinished job (the reconciliation found its work held)."""
    BackgroundJob.objects.filter(pk=job_id_of(estimate_id), state__in=[QUEUED, RUNNING]).update(
        touched=timezone.now())


def estimate_finish(estimate_id: Any, *, result: dict | None = None, error: str = "",
                    compute_ms: float | None = None) -> bool:
    """The job's last write: done with its result (stored on the estimate), or failed with its
    error (the job's reason). A job that has finished already is left as it is; True when this
    call ended it."""
    job_id = job_id_of(estimate_id)
    with transaction.atomic():
        job = BackgroundJob.objects.select_for_update().filter(pk=job_id).first()
        if job is None or job.finished_state:
            return False
        if not error:
            Estimate.objects.filter(job_id=job_id).update(result=result, compute_ms=compute_ms)
        jobs.job_finish(job_id, reason=error)
    return True


def estimate_fail_if(estimate_id: Any, *, state: str, error: str) -> int:
    """Fail the job with `error` if it is still in `state` (a reconciliation's verdict); 1 if it did."""
    job_id = job_id_of(estimate_id)
    with transaction.atomic():
        if not BackgroundJob.objects.select_for_update().filter(pk=job_id, state=state).exists():
            return 0
        jobs.job_finish(job_id, reason=error)
    return 1


def estimate_requeue(estimate_id: Any) -> bool:
    """A running job whose work was lost goes back to the queue (its next start counts an attempt)."""
    return bool(BackgroundJob.objects.filter(pk=job_id_of(estimate_id), state=RUNNING).update(
        state=QUEUED, progress=0.0, touched=timezone.now()))
