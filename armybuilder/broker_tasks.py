"""Which task messages the broker and the live workers hold: what a reconciliation of any kind of
job (estimates, durable background jobs) compares its unfinished rows with, so that a row
whose message was lost is sent again and one still held is left alone.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

logger = logging.getLogger(__name__)

#: How long to wait for workers to say which tasks they hold.
INSPECT_TIMEOUT = 3.0
#: The broker queues whose messages hold estimate work (`CELERY_TASK_ROUTES`).
WORK_QUEUES = ("celery",)


def live_task_ids(answered: set[str] | None = None) -> set[str] | None:
    """Ids of the tasks the live workers hold (running, reserved, or waiting for the countdown
    of a retry), `None` when no worker answered; the node names that answered are added to
    `answered` when given."""
    from armybuilder.celery import app

    try:
        inspect = app.control.inspect(timeout=INSPECT_TIMEOUT)
        active = inspect.active()
        reserved = inspect.reserved() if active else None
        scheduled = inspect.scheduled() if active else None
    except Exception as exc:  # the broker is down: nothing can be said about the workers
        logger.warning("reconcile: cannot ask the workers: %s", exc)
        raise
    if not active:
        return None
    if answered is not None:
        answered.update(active)
    ids = {str(task.get("id")) for replies in (active, reserved or {}) for tasks in replies.values()
           for task in tasks or []}
    ids |= {str((entry.get("request") or {}).get("id")) for tasks in (scheduled or {}).values()
            for entry in tasks or []}
    return ids


def queued_task_ids(queues: Iterable[str] = WORK_QUEUES) -> set[str]:
    """Ids of the task messages waiting in the broker's queues (Redis lists), including those
    scheduled for a retry (a countdown parks them in the worker, which `live_task_ids` holds)."""
    from armybuilder.estimates.fanout import _redis

    store = _redis()
    ids: set[str] = set()
    for queue in queues:
        for raw in store.lrange(queue, 0, -1):
            try:
                ids.add(str(json.loads(raw)["headers"]["id"]))
            except (ValueError, KeyError, TypeError):
                continue
    return ids


@dataclass(frozen=True)
class Look:
    """Where the work of every job is, seen once per pass: the task ids the broker's queues or a
    live worker hold (`held`, None when the broker cannot be read), whether any worker answered,
    and the node names with a fresh heartbeat (None when they cannot be read)."""

    held: set[str] | None
    workers_alive: bool
    live_workers: set[str] | None
    #: When the look began (before the queues were read): only a job older than the grace then
    #: is judged by it. Asking the workers takes seconds; a job queued meanwhile is in neither
    #: what was read nor what the workers said, and must not be taken for lost.
    taken_at: Any = None


def look(queues: Iterable[str]) -> Look:
    """One look at the work `queues` (the estimates' and every durable kind's), the workers and
    their heartbeats: the queues first, then the workers (a message moving from a queue to a
    worker in between is seen in the second place)."""
    from celery import current_task
    from django.utils import timezone

    from armybuilder import worker_heartbeat

    answered: set[str] = set()
    taken_at = timezone.now()
    try:
        queued = queued_task_ids(queues)
        live = live_task_ids(answered)
    except Exception as exc:
        logger.warning("reconcile: the broker cannot be read: %s", exc)
        return Look(held=None, workers_alive=False, live_workers=None, taken_at=taken_at)
    try:
        beating: set[str] | None = {beat.hostname for beat in worker_heartbeat.fresh_beats()}
    except Exception:
        beating = None
    me = getattr(getattr(current_task, "request", None), "hostname", None)
    silent = (beating or set()) - answered - {me}
    if live is not None and silent:
        # A worker that beats but did not answer in time (busy on a loaded machine, or a solo
        # pool at work) holds tasks no one can see: sending anything again now could run it
        # twice. Only what the heartbeats tell (a worker that stopped beating) is acted on.
        logger.warning("reconcile: %s did not answer; nothing held is taken for lost", sorted(silent))
        return Look(held=None, workers_alive=False, live_workers=beating, taken_at=taken_at)
    return Look(held=queued | (live or set()), workers_alive=live is not None, live_workers=beating,
                taken_at=taken_at)
