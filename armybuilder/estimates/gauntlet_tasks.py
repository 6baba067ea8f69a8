"""The live gauntlet's jobs: compute the matchups a list's gauntlet is missing
(`armybuilder.estimates.gauntlet_live`) as durable jobs (`armybuilder.jobs`).

A gauntlet job is a Postgres row (kind `gauntlet`) named by its list and the content of its
gauntlet (`gauntlet_live.job_key`, the row's `key` and `lock`: one unfinished job per list
content), not a marker in the job cache: a Redis restart no longer drops the job, and the
reconciliation sends a lost message again or redoes a killed worker's job within a minute,
where the panel used to wait for the marker to expire. The job prices every missing matchup,
computes the first part itself and stores each other part as a job row of its own (kind
`gauntlet_part`, the same `key`, its matchup keys and prices in the row), so every worker shares
them and a lost part is sent again like any job. While any job of a key is unfinished the panel
queues nothing more for it.

The results, the matchups, stay in the job cache under their content keys: a cache of what any
job recomputes, never the only copy of a job's state (a matchup lost with Redis is missing on
the panel's next look, which queues a job for it). Every job is idempotent: what is cached is
never computed again.

`gauntlet.measure` and `gauntlet.measure_part` were the previous release's tasks; a message of
theirs still queued after a deploy is turned into the job it now is (`armybuilder.job_aliases`).
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings

import armybuilder.celery  # noqa: F401  (the app these tasks bind to, loaded lazily)
from armybuilder import jobs
from armybuilder.estimates.gauntlet_live import (
    compute_matchups,
    compute_missing,
    known_prices,
    plan_missing,
    remember_prices,
)
from armybuilder.estimates.gauntlet_signal import announce
from armybuilder.models import ArmyList, BackgroundJob

logger = logging.getLogger(__name__)

#: The kinds of durable job of the gauntlet: a list's missing matchups, and one part of them.
KIND = "gauntlet"
PART = "gauntlet_part"
#: The broker queue of the gauntlet's jobs: CPU work beside the estimates, not behind files.
QUEUE = "celery"
_UNFINISHED = (BackgroundJob.State.QUEUED, BackgroundJob.State.RUNNING)


def gauntlet_queue(army_list: ArmyList, key: str) -> str | None:
    """Queue the job computing what the list's gauntlet (content `key`) is missing, unless a
    job or part of that content is unfinished; the new job's id, or None. A database or broker
    that is down queues nothing (the panel's next look tries again)."""
    try:
        if BackgroundJob.objects.filter(key=key, state__in=_UNFINISHED).exists():
            return None
        return jobs.job_create(kind=KIND, owner_id=army_list.owner_id, language="", key=key, lock=key,
                               request={"list": army_list.pk}).pk
    except jobs.JobBusy:
        return None
    except jobs.JobsUnavailable as exc:
        logger.warning("could not queue the gauntlet of list %s: %s", army_list.pk, exc)
        return None


def _parts_in_flight(key: str, *, but: str) -> set[str]:
    """The matchup keys of the unfinished parts of this content (a job redone after its worker
    was killed does not queue its parts twice)."""
    rows = BackgroundJob.objects.filter(kind=PART, key=key, state__in=_UNFINISHED).exclude(pk=but)
    return {matchup for asked in rows.values_list("request", flat=True) for matchup in asked.get("keys", [])}


def run_gauntlet(job: BackgroundJob, inputs: list[Any]) -> dict[str, Any]:
    """Compute what the list's gauntlet is missing: every matchup priced once here, then dealt
    into parts of equal predicted seconds; the other parts are queued as jobs of their own
    (with their prices) for every worker to share, and this job computes the first."""
    army_list = ArmyList.objects.select_related("system").filter(pk=job.request.get("list")).first()
    if army_list is None:
        return {"computed": 0, "parts": 0}
    plan, todo, parts = plan_missing(army_list)
    if not parts:
        announce(army_list.pk)  # matchups past a limit were stored as left out
        return {"computed": 0, "parts": 0}
    in_flight = _parts_in_flight(job.key, but=job.pk) if job.attempts > 1 else set()
    for keys in parts[1:]:
        keys = [matchup for matchup in keys if matchup not in in_flight]
        if keys:
            jobs.job_create(kind=PART, owner_id=job.owner_id, language="", key=job.key,
                            request={"list": army_list.pk, "keys": keys, "prices": known_prices(keys)})
    predicted = sum(price or 0.0 for price in known_prices([key for part in parts for key in part]).values())
    computed = compute_matchups(plan.system, todo, parts[0], landed=lambda: announce(army_list.pk))
    return {"computed": computed, "parts": len(parts), "predicted_seconds": round(predicted, 3)}


def run_gauntlet_part(job: BackgroundJob, inputs: list[Any]) -> dict[str, Any]:
    """One part of a large gauntlet: its matchup keys, priced by the job that planned it (so
    they are not priced again); what is cached already, or stale, is skipped."""
    army_list = ArmyList.objects.select_related("system").filter(pk=job.request.get("list")).first()
    if army_list is None:
        return {"computed": 0}
    remember_prices(job.request.get("prices") or {})
    return {"computed": compute_missing(army_list, keys=job.request.get("keys") or [],
                                        landed=lambda: announce(army_list.pk))}


jobs.register(KIND, run_gauntlet, soft_time_limit=settings.CELERY_TASK_SOFT_TIME_LIMIT, queue=QUEUE)
jobs.register(PART, run_gauntlet_part, soft_time_limit=settings.CELERY_TASK_SOFT_TIME_LIMIT, queue=QUEUE)
