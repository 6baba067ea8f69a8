"""Reading estimates, with the check that turns an abandoned "running" job into "failed"."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from armybuilder.estimates.models import Estimate

#: How long past the hard time limit a job may stay "running" before it counts as abandoned.
STALE_GRACE = timedelta(seconds=30)


def estimate_refresh_stale(*, estimate: Estimate) -> Estimate:
    """Mark a job failed when it has run longer than any worker would let it."""
    limit = timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT) + STALE_GRACE
    if estimate.status == Estimate.Status.RUNNING and estimate.started and timezone.now() - estimate.started > limit:
        Estimate.objects.filter(pk=estimate.pk, status=Estimate.Status.RUNNING).update(
            status=Estimate.Status.FAILED, finished=timezone.now(),
            error="the worker running this job stopped answering")
        estimate.refresh_from_db()
    return estimate


def estimate_get(*, estimate_id: str) -> Estimate | None:
    """The estimate by id (ids are random UUIDs, so knowing one is the permission to read it)."""
    estimate = Estimate.objects.filter(pk=estimate_id).first()
    return estimate_refresh_stale(estimate=estimate) if estimate else None
