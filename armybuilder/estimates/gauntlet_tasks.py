"""The Celery task of the live gauntlet: compute the matchups a list's gauntlet is missing
(`armybuilder.estimates.gauntlet_live`). Idempotent: what is cached is never computed again,
so a job lost with its worker is simply queued again by the next look at the panel."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

import armybuilder.celery  # noqa: F401  (the app these tasks bind to, loaded lazily)
from armybuilder.estimates.gauntlet_live import compute_missing, missing_matchups, parts_for
from armybuilder.models import ArmyList


@shared_task(name="gauntlet.measure", acks_late=True, reject_on_worker_lost=True, ignore_result=True,
             time_limit=settings.CELERY_TASK_TIME_LIMIT, soft_time_limit=settings.CELERY_TASK_SOFT_TIME_LIMIT)
def measure_gauntlet(list_id: int) -> int:
    """Compute what the list's gauntlet is missing: here when it is small, else in parts that
    every worker shares. Returns the matchups computed here (0: the list is gone, or all cached)."""
    army_list = ArmyList.objects.select_related("system").filter(pk=list_id).first()
    if army_list is None:
        return 0
    _inputs, missing, _todo = missing_matchups(army_list)
    parts = parts_for(len(missing))
    if parts == 1:
        return compute_missing(army_list)
    for part in range(parts):
        measure_gauntlet_part.delay(list_id, part, parts)
    return 0


@shared_task(name="gauntlet.measure_part", acks_late=True, reject_on_worker_lost=True, ignore_result=True,
             time_limit=settings.CELERY_TASK_TIME_LIMIT, soft_time_limit=settings.CELERY_TASK_SOFT_TIME_LIMIT)
def measure_gauntlet_part(list_id: int, part: int, parts: int) -> int:
    """One part of a large gauntlet: every `parts`-th missing matchup from `part`."""
    army_list = ArmyList.objects.select_related("system").filter(pk=list_id).first()
    if army_list is None:
        return 0
    return compute_missing(army_list, part=part, parts=parts)
