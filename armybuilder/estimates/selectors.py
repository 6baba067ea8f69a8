"""Reading estimates, with the check that turns an abandoned "running" job into "failed"."""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q, QuerySet
from django.db.models.fields.json import KT
from django.utils import timezone
from django.utils.translation import gettext_noop

from armybuilder.estimates.models import Estimate

#: How long past the hard time limit a job may stay "running" before it counts as abandoned.
STALE_GRACE = timedelta(seconds=30)
#: A job queued longer than this has no worker free (or none running): the page says so.
SLOW_QUEUE = timedelta(seconds=20)
#: Stored in English, translated when shown.
WORKER_LOST = gettext_noop("The worker running this job stopped answering before it finished.")


def estimate_refresh_stale(*, estimate: Estimate) -> Estimate:
    """Mark a job failed when it has run longer than any worker would let it.

    A worker killed by its hard time limit, or lost with the job's message, never writes
    again; whoever looks at the job next sees it failed instead of "running" forever.
    """
    limit = timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT) + STALE_GRACE
    running = estimate.status == Estimate.Status.RUNNING and estimate.started is not None
    if running and timezone.now() - estimate.started > limit:
        Estimate.objects.filter(pk=estimate.pk, status=Estimate.Status.RUNNING).update(
            status=Estimate.Status.FAILED, finished=timezone.now(), error=WORKER_LOST)
        estimate.refresh_from_db()
    return estimate


def _uuid(value: Any) -> uuid.UUID | None:
    try:
        return value if isinstance(value, uuid.UUID) else uuid.UUID(str(value))
    except ValueError:
        return None


def estimate_get(*, estimate_id: Any) -> Estimate | None:
    """The estimate by id (ids are random UUIDs, so knowing one is the permission to read it)."""
    pk = _uuid(estimate_id)
    estimate = Estimate.objects.filter(pk=pk).first() if pk else None
    return estimate_refresh_stale(estimate=estimate) if estimate else None


def estimate_is_waiting_long(*, estimate: Estimate) -> bool:
    """Queued for a while without a worker starting it (none free, or none running)."""
    return estimate.status == Estimate.Status.QUEUED and timezone.now() - estimate.created > SLOW_QUEUE


def estimates_of(*, user: AbstractBaseUser | AnonymousUser, ids: Iterable[Any] = ()) -> QuerySet[Estimate]:
    """The estimates a visitor asked for: their own (signed in) and those whose ids their
    session remembers (anyone), newest first.

    For a listing: without the result and the units (a list-vs-list row can be large), but
    with the names the listing shows, read by Postgres from the inputs (`attacker_name`,
    `defender_name`, `list_a_name`, `list_b_name`).
    """
    known = [pk for pk in (_uuid(value) for value in ids) if pk is not None]
    condition = Q(pk__in=known)
    if user.is_authenticated:
        condition |= Q(owner=user)
    return (Estimate.objects.filter(condition).defer("result", "inputs")
            .annotate(attacker_name=KT("inputs__attacker__name"), defender_name=KT("inputs__defender__name"),
                      list_a_name=KT("inputs__list_a__name"), list_b_name=KT("inputs__list_b__name"))
            .order_by("-created"))
