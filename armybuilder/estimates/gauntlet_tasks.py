"""The Celery task of the live gauntlet: compute the matchups a list's gauntlet is missing
(`armybuilder.estimates.gauntlet_live`). Idempotent: what is cached is never computed again,
so a job lost with its worker is simply queued again by the next look at the panel."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

import armybuilder.celery  # noqa: F401  (the app these tasks bind to, loaded lazily)
from armybuilder.estimates.gauntlet_live import compute_missing
from armybuilder.models import ArmyList


@shared_task(name="gauntlet.measure", acks_late=True, reject_on_worker_lost=True, ignore_result=True,
             time_limit=settings.CELERY_TASK_TIME_LIMIT, soft_time_limit=settings.CELERY_TASK_SOFT_TIME_LIMIT)
def measure_gauntlet(list_id: int) -> int:
    """Matchups computed for the list's gauntlet as it is now (0: the list is gone, or all cached)."""
    army_list = ArmyList.objects.select_related("system").filter(pk=list_id).first()
    if army_list is None:
        return 0
    return compute_missing(army_list)
