"""The Celery task of the live gauntlet: compute the matchups a list's gauntlet is missing
(`armybuilder.estimates.gauntlet_live`). Idempotent: what is cached is never computed again,
so a job lost with its worker is simply queued again by the next look at the panel."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

import armybuilder.celery  # noqa: F401  (the app these tasks bind to, loaded lazily)
from armybuilder.estimates.gauntlet_live import (
    compute_matchups,
    compute_missing,
    known_prices,
    plan_missing,
    remember_prices,
)
from armybuilder.models import ArmyList


@shared_task(name="gauntlet.measure", acks_late=True, reject_on_worker_lost=True, ignore_result=True,
             time_limit=settings.CELERY_TASK_TIME_LIMIT, soft_time_limit=settings.CELERY_TASK_SOFT_TIME_LIMIT)
def measure_gauntlet(list_id: int) -> int:
    """Compute what the list's gauntlet is missing: every matchup priced once here, then dealt
    into parts of equal predicted seconds; the other parts are queued for every worker to share
    (with their prices) and this task computes the first. Returns the matchups computed here
    (0: the list is gone, or all cached)."""
    army_list = ArmyList.objects.select_related("system").filter(pk=list_id).first()
    if army_list is None:
        return 0
    inputs, todo, parts = plan_missing(army_list)
    if not parts:
        return 0
    for keys in parts[1:]:
        measure_gauntlet_part.delay(list_id, keys, known_prices(keys))
    return compute_matchups(inputs.system, todo, parts[0])


@shared_task(name="gauntlet.measure_part", acks_late=True, reject_on_worker_lost=True, ignore_result=True,
             time_limit=settings.CELERY_TASK_TIME_LIMIT, soft_time_limit=settings.CELERY_TASK_SOFT_TIME_LIMIT)
def measure_gauntlet_part(list_id: int, keys: list[str], prices: dict[str, float | None]) -> int:
    """One part of a large gauntlet: the matchups `keys`, priced (`prices`) by the job that
    planned it, so they are not priced again."""
    army_list = ArmyList.objects.select_related("system").filter(pk=list_id).first()
    if army_list is None:
        return 0
    remember_prices(prices)
    return compute_missing(army_list, keys=keys)
