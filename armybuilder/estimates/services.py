"""Asking for an estimate: reuse a stored answer to the same question, or queue a job."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import transaction

from armybuilder.estimates.models import Estimate
from armybuilder.estimates.tasks import run_estimate


def estimate_inputs_hash(*, kind: str, system: str, inputs: Mapping[str, Any]) -> str:
    """SHA-256 of the canonical JSON (sorted keys, no spaces) of what is asked."""
    canonical = json.dumps({"kind": kind, "system": system, "inputs": inputs}, sort_keys=True,
                           separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


def estimate_request(*, kind: str, system: str, inputs: Mapping[str, Any],
                     user: AbstractBaseUser | AnonymousUser | None = None) -> Estimate:
    """The estimate for these inputs: a finished or running identical one, or a new queued job.

    A failed job is not reused: asking again runs it again.
    """
    digest = estimate_inputs_hash(kind=kind, system=system, inputs=inputs)
    existing = (Estimate.objects.filter(inputs_hash=digest, kind=kind, system=system)
                .exclude(status=Estimate.Status.FAILED).order_by("-created").first())
    if existing is not None:
        from armybuilder.estimates.selectors import estimate_refresh_stale

        existing = estimate_refresh_stale(estimate=existing)
        if existing.status != Estimate.Status.FAILED:
            return existing
    owner = user if user is not None and user.is_authenticated else None
    estimate = Estimate.objects.create(kind=kind, system=system, inputs=dict(inputs), inputs_hash=digest,
                                       owner=owner)
    transaction.on_commit(lambda: run_estimate.delay(str(estimate.pk)))
    return estimate
