"""Which task messages the broker and the live workers hold: what a reconciliation of any kind of
job (estimates, durable background jobs) compares its unfinished rows with, so that a row
whose message was lost is sent again and one still held is left alone.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable

logger = logging.getLogger(__name__)

#: How long to wait for workers to say which tasks they hold.
INSPECT_TIMEOUT = 3.0
#: The broker queues whose messages hold estimate work (`CELERY_TASK_ROUTES`).
WORK_QUEUES = ("celery",)


def live_task_ids() -> set[str] | None:
    """Ids of the tasks the live workers hold (running, reserved, or waiting for the countdown
    of a retry), `None` when no worker answered."""
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
