"""Estimates as stored rows, for tests that need one in a given state without running it: an
estimate and its background job (`armybuilder.estimates.models`), the job's columns named as the
estimate shows them (`status`, `error` are the job's `state`, `reason`)."""

from __future__ import annotations

from typing import Any

from armybuilder.estimates.models import Estimate
from armybuilder.estimates.services import estimate_create
from armybuilder.job_rows import BackgroundJob

#: The estimate's names of its job's columns.
JOB_FIELDS = {"status": "state", "error": "reason", "progress": "progress", "attempts": "attempts",
              "started": "started", "finished": "finished", "touched": "touched"}


def _job_fields(fields: dict[str, Any]) -> dict[str, Any]:
    return {JOB_FIELDS[name]: fields.pop(name) for name in list(fields) if name in JOB_FIELDS}


def stored_estimate(*, kind: str = Estimate.Kind.UNIT_VS_UNIT, system: str = "opr", inputs: Any = None,
                    owner: Any = None, inputs_hash: str = "", **fields: Any) -> Estimate:
    """A stored estimate (not sent to any worker) whose job has `fields` (`status`, `progress`,
    `error`, …); other `fields` (`result`, `compute_ms`) are the estimate's."""
    estimate = estimate_create(kind=kind, system=system, inputs=inputs if inputs is not None else {},
                               owner=owner, inputs_hash=inputs_hash or "x" * 64)
    estimate_set(estimate, **fields)
    estimate.refresh_from_db()
    estimate.job.refresh_from_db()
    return estimate


def estimate_set(estimate: Estimate | Any, **fields: Any) -> None:
    """Write `fields` of the estimate (its id or itself): those of its job (`JOB_FIELDS`, and
    `created`, which both rows keep) on its job, the others on it. A job given a start (or a
    creation) and no `touched` was last seen then, as `jobs.job_start` writes it."""
    pk = estimate.pk if isinstance(estimate, Estimate) else estimate
    job_fields = _job_fields(fields)
    if "created" in fields:
        job_fields["created"] = fields["created"]
    # As the job's start and creation write it, its last sign of life is when it started (or was made).
    moment = job_fields.get("started") or job_fields.get("created")
    if moment is not None and "touched" not in job_fields:
        job_fields["touched"] = moment
    if job_fields:
        BackgroundJob.objects.filter(estimate__pk=pk).update(**job_fields)
    if fields:
        Estimate.objects.filter(pk=pk).update(**fields)
