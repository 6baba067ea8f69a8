"""Asking for an estimate: reuse a stored answer to the same question, or queue a job.

No job may strand: when the broker cannot take the message the caller
learns it at once (`QueueUnavailable`, a 503) and no row is left behind; a job that may
never finish (queued or running past its bound, `reconciliation.py`) is never reused.
"""

from __future__ import annotations

import hashlib
import json
import logging
import uuid
from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from armybuilder.estimates.compute import ENGINE_VERSION
from armybuilder.estimates.job_state import QUEUED, estimate_fail_if
from armybuilder.estimates.models import JOB_KIND, Estimate, job_id_of
from armybuilder.estimates.selectors import estimate_can_finish, estimate_refresh_stale
from armybuilder.estimates.tasks import run_estimate
from armybuilder.job_rows import BackgroundJob

logger = logging.getLogger(__name__)

#: Stored in English, translated when shown.
QUEUE_DOWN = gettext_noop("The job could not be queued: the job queue is unreachable. Try again later.")


def estimate_inputs_hash(*, kind: str, system: str, inputs: Mapping[str, Any]) -> str:
    """SHA-256 of the canonical JSON (sorted keys, no spaces) of what is asked.

    The engine version is part of it, so a corrected dice engine never serves answers
    stored by the old one.
    """
    canonical = json.dumps({"engine": ENGINE_VERSION, "kind": kind, "system": system, "inputs": inputs},
                           sort_keys=True,
                           separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


class QueueUnavailable(Exception):
    """The job queue (Redis) cannot take the job now; nothing was stored. Try again later."""


def send_job(estimate_id: str) -> None:
    """Publish the job, failing within seconds when the broker is down (no retry loop).

    The Celery task id is the estimate's id, so the reconciliation can tell which running
    jobs a live worker really holds.
    """
    run_estimate.apply_async((estimate_id,), task_id=estimate_id, retry=False)


def _enqueue(estimate_id: str) -> None:
    """Hand the job to the workers after a commit; a broker that is down fails the job
    visibly instead of leaving it "queued" forever."""
    try:
        send_job(estimate_id)
    except Exception:  # kombu's OperationalError, redis' ConnectionError/TimeoutError
        logger.exception("could not queue estimate %s", estimate_id)
        estimate_fail_if(estimate_id, state=QUEUED, error=QUEUE_DOWN)


def estimate_create(*, kind: str, system: str, inputs: Mapping[str, Any],
                    owner: AbstractBaseUser | None, inputs_hash: str = "") -> Estimate:
    """The estimate and its job (kind `estimate`, queued), written together; not sent yet.
    `inputs_hash`: `estimate_inputs_hash` of the question, when the caller has it."""
    estimate_id = uuid.uuid4()
    with transaction.atomic():
        job = BackgroundJob.objects.create(id=job_id_of(estimate_id), kind=JOB_KIND, owner=owner,
                                           request={"estimate": str(estimate_id)}, touched=timezone.now())
        return Estimate.objects.create(
            id=estimate_id, job=job, kind=kind, system=system, inputs=dict(inputs), owner=owner,
            inputs_hash=inputs_hash or estimate_inputs_hash(kind=kind, system=system, inputs=inputs))


def estimate_request(*, kind: str, system: str, inputs: Mapping[str, Any],
                     user: AbstractBaseUser | AnonymousUser | None = None) -> Estimate:
    """The estimate for these inputs: a finished or running identical one, or a new queued job.

    `inputs` must already be canonical (`armybuilder.estimates.inputs` builds them), so that
    the same question always hashes the same. A failed job is not reused: asking again runs
    it again. The job is queued when the surrounding transaction commits, so a worker never
    looks for a row it cannot see yet.
    """
    digest = estimate_inputs_hash(kind=kind, system=system, inputs=inputs)
    owner = user if user is not None and user.is_authenticated else None
    # Only the asker's own jobs (or anonymous ones, for an anonymous asker) are reused: a
    # player's job is readable by that player alone (`selectors.estimate_visible_to`).
    candidates = (Estimate.objects.select_related("job")
                  .filter(inputs_hash=digest, kind=kind, system=system, owner=owner)
                  .exclude(job__state=Estimate.Status.FAILED).order_by("-created")[:5])
    for existing in candidates:
        existing = estimate_refresh_stale(estimate=existing)
        if existing.status == Estimate.Status.DONE or (
                existing.status != Estimate.Status.FAILED and estimate_can_finish(estimate=existing)):
            return existing
    estimate = estimate_create(kind=kind, system=system, inputs=inputs, owner=owner, inputs_hash=digest)
    estimate_id = str(estimate.pk)
    if connection.in_atomic_block:
        # Queued once the row is visible to the worker; a failure then marks the row failed.
        transaction.on_commit(lambda: _enqueue(estimate_id))
        return estimate
    try:
        send_job(estimate_id)
    except Exception as exc:  # the broker is down: leave nothing behind, say so
        logger.warning("could not queue estimate %s: %s", estimate_id, exc)
        BackgroundJob.objects.filter(pk=estimate.job_id).delete()  # the estimate with it
        raise QueueUnavailable(QUEUE_DOWN) from exc
    return estimate


def estimate_retry(*, estimate: Estimate, user: AbstractBaseUser | AnonymousUser | None = None) -> Estimate:
    """Ask the same question as a finished job again: a failed one runs anew, a done one is
    simply the stored answer."""
    return estimate_request(kind=estimate.kind, system=estimate.system, inputs=estimate.inputs, user=user)
