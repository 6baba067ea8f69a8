"""Asking for an estimate: reuse a stored answer to the same question, or queue a job."""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop
from kombu.exceptions import OperationalError

from armybuilder.estimates.compute import ENGINE_VERSION
from armybuilder.estimates.models import Estimate
from armybuilder.estimates.selectors import estimate_refresh_stale
from armybuilder.estimates.tasks import run_estimate

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


def _enqueue(estimate_id: str) -> None:
    """Hand the job to the workers; a broker that is down fails the job visibly instead of
    leaving it "queued" forever (and the request that asked still gets its answer page)."""
    try:
        run_estimate.delay(estimate_id)
    except OperationalError:
        logger.exception("could not queue estimate %s", estimate_id)
        Estimate.objects.filter(pk=estimate_id, status=Estimate.Status.QUEUED).update(
            status=Estimate.Status.FAILED, error=QUEUE_DOWN, finished=timezone.now())


def estimate_request(*, kind: str, system: str, inputs: Mapping[str, Any],
                     user: AbstractBaseUser | AnonymousUser | None = None) -> Estimate:
    """The estimate for these inputs: a finished or running identical one, or a new queued job.

    `inputs` must already be canonical (`armybuilder.estimates.inputs` builds them), so that
    the same question always hashes the same. A failed job is not reused: asking again runs
    it again. The job is queued when the surrounding transaction commits, so a worker never
    looks for a row it cannot see yet.
    """
    digest = estimate_inputs_hash(kind=kind, system=system, inputs=inputs)
    existing = (Estimate.objects.filter(inputs_hash=digest, kind=kind, system=system)
                .exclude(status=Estimate.Status.FAILED).order_by("-created").first())
    if existing is not None:
        existing = estimate_refresh_stale(estimate=existing)
        if existing.status != Estimate.Status.FAILED:
            return existing
    owner = user if user is not None and user.is_authenticated else None
    estimate = Estimate.objects.create(kind=kind, system=system, inputs=dict(inputs), inputs_hash=digest,
                                       owner=owner)
    estimate_id = str(estimate.pk)
    transaction.on_commit(lambda: _enqueue(estimate_id))
    return estimate


def estimate_retry(*, estimate: Estimate, user: AbstractBaseUser | AnonymousUser | None = None) -> Estimate:
    """Ask the same question as a finished job again: a failed one runs anew, a done one is
    simply the stored answer."""
    return estimate_request(kind=estimate.kind, system=estimate.system, inputs=estimate.inputs, user=user)
