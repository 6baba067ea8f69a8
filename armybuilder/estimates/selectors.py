"""Reading estimates, with the check that turns an abandoned "running" job into "failed"."""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q, QuerySet
from django.db.models.fields.json import KT, KeyTransform
from django.utils import timezone
from django.utils.translation import gettext_noop

from armybuilder.estimates.inputs import REFERENCES
from armybuilder.estimates.job_state import estimate_fail_if
from armybuilder.estimates.models import Estimate

#: How long past the hard time limit a job may stay "running" before it counts as abandoned.
STALE_GRACE = timedelta(seconds=30)
#: A job queued longer than this has no worker free (or none running): the page says so.
SLOW_QUEUE = timedelta(seconds=20)
#: Stored in English, translated when shown.
WORKER_LOST = gettext_noop("The worker running this job stopped answering before it finished.")
NEVER_STARTED = gettext_noop("No worker started this job in time (the job queue lost it). Try again.")


def _since(moment: Any, estimate: Estimate) -> Any:
    """The later of `moment` and the job's last sign of life (`Estimate.touched`)."""
    if estimate.touched is not None and (moment is None or estimate.touched > moment):
        return estimate.touched
    return moment


def estimate_refresh_stale(*, estimate: Estimate) -> Estimate:
    """Mark a job failed when it has run longer than any worker would let it.

    A worker killed by its hard time limit, or lost with the job's message, never writes
    again; whoever looks at the job next sees it failed instead of "running" forever. The
    bounds count from the job's last sign of life: a job whose rows wait behind a backlog,
    which the reconciliation vouches for, is not failed while it waits.
    """
    limit = timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT) + STALE_GRACE
    started = _since(estimate.started, estimate)
    running = estimate.status == Estimate.Status.RUNNING and started is not None
    if running and timezone.now() - started > limit:
        estimate_fail_if(estimate.pk, state=Estimate.Status.RUNNING, error=WORKER_LOST)
        estimate.job.refresh_from_db()
    elif (estimate.status == Estimate.Status.QUEUED
          and timezone.now() - _since(estimate.created, estimate) > estimate_queued_limit()):
        estimate_fail_if(estimate.pk, state=Estimate.Status.QUEUED, error=NEVER_STARTED)
        estimate.job.refresh_from_db()
    return estimate


def estimate_queued_limit() -> timedelta:
    """How long a job may wait in the queue before it counts as lost with the broker."""
    return timedelta(seconds=settings.ESTIMATE_QUEUED_LIMIT)


def estimate_can_finish(*, estimate: Estimate) -> bool:
    """Whether a job not yet finished may still finish: queued or running within its bound.

    De-duplication reuses only such jobs, so a job orphaned by a lost broker or worker is
    never handed out again.
    """
    now = timezone.now()
    if estimate.status == Estimate.Status.QUEUED:
        return now - _since(estimate.created, estimate) <= estimate_queued_limit()
    if estimate.status == Estimate.Status.RUNNING:
        limit = timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT) + STALE_GRACE
        started = _since(estimate.started, estimate)
        return started is not None and now - started <= limit
    return False


def _uuid(value: Any) -> uuid.UUID | None:
    try:
        return value if isinstance(value, uuid.UUID) else uuid.UUID(str(value))
    except ValueError:
        return None


def estimate_visible_to(*, estimate: Estimate, user: AbstractBaseUser | AnonymousUser | None,
                        remembered: Iterable[Any] = ()) -> bool:
    """Whether `user` may read the estimate.

    A job asked by a signed-in player may hold their private units in full, so only they
    (or the browser session that asked, which remembers its ids) may read it; knowing the
    id is not enough. A job asked anonymously could only name what its asker could read
    without an account, and stays readable by its id.
    """
    if estimate.owner_id is None:
        return True
    if user is not None and user.is_authenticated and user.pk == estimate.owner_id:
        return True
    return str(estimate.pk) in {str(value) for value in remembered}


def estimate_get(*, estimate_id: Any, user: AbstractBaseUser | AnonymousUser | None = None,
                 remembered: Iterable[Any] = ()) -> Estimate | None:
    """The estimate by id if `user` may read it (`estimate_visible_to`), else `None`."""
    pk = _uuid(estimate_id)
    estimate = Estimate.objects.select_related("job").filter(pk=pk).first() if pk else None
    if estimate is None or not estimate_visible_to(estimate=estimate, user=user, remembered=remembered):
        return None
    return estimate_refresh_stale(estimate=estimate)


def estimate_is_waiting_long(*, estimate: Estimate) -> bool:
    """Queued for a while without a worker starting it (none free, or none running)."""
    return estimate.status == Estimate.Status.QUEUED and timezone.now() - estimate.created > SLOW_QUEUE


def estimates_of(*, user: AbstractBaseUser | AnonymousUser, ids: Iterable[Any] = ()) -> QuerySet[Estimate]:
    """The estimates a visitor asked for: their own (signed in) and those whose ids their
    session remembers (anyone), newest first.

    For a listing: without the result and the units (a list-vs-list row can be large), but
    with the names the listing shows, read by Postgres from the inputs (`attacker_name`,
    `defender_name`, `list_a_name`, `list_b_name`), and the sides that are reference targets
    (`references`, `inputs.with_references`; None in older inputs).
    """
    known = [pk for pk in (_uuid(value) for value in ids) if pk is not None]
    condition = Q(pk__in=known)
    if user.is_authenticated:
        condition |= Q(owner=user)
    return (Estimate.objects.filter(condition).select_related("job").defer("result", "inputs", "job__result")
            .annotate(attacker_name=KT("inputs__attacker__name"), defender_name=KT("inputs__defender__name"),
                      list_a_name=KT("inputs__list_a__name"), list_b_name=KT("inputs__list_b__name"),
                      references=KeyTransform(REFERENCES, "inputs"))
            .order_by("-created"))
