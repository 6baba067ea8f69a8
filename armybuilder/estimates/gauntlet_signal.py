"""Word that matchups of a list's gauntlet have landed in the job cache, from the worker to
the panel's request, through Redis pub/sub (issue 42).

The panel used to learn that a job had finished only at its next poll: after an edit the
edited unit's matchups land on the worker in a tenth of a second, and the poll that sees them
came up to 250 ms later (1 s once a computation ran long). Now the worker publishes on the
list's channel each time it stores a batch of matchups and when a job ends (`announce`), and
a panel request that finds its list still computing waits for that word (`landings`) for at
most `settings.GAUNTLET_PANEL_WAIT_MS` before answering, so the answer leaves as soon as the
figures are there.

Every request's cost stays bounded: a wait holds a web thread, not the CPU, for at most that
long; each web process lets at most `WAITERS_PER_PROCESS` requests wait at once (the others
answer at once, and the panel polls as before); a Redis that cannot be reached means no wait.
A word missed (published before the request subscribed) costs nothing: the request subscribes
before it reads the state, so what landed earlier is in what it reads.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from django.core.cache import caches

logger = logging.getLogger(__name__)

#: Panel requests of one web process that may wait at once (gunicorn runs 4 threads a
#: process in docker-compose): the others answer at once, so waits never take every thread.
WAITERS_PER_PROCESS = 2
_slots = threading.BoundedSemaphore(WAITERS_PER_PROCESS)

Wait = Callable[[float], bool]


def _client() -> Any:
    """The raw Redis client of the job cache (the cache every web process and worker shares),
    or None when it is not Redis."""
    cache = caches["jobs"]
    backend = getattr(cache, "_cache", None)
    get_client = getattr(backend, "get_client", None)
    return get_client(write=True) if get_client else None


def channel(list_id: int) -> str:
    """The channel that carries word of list `list_id`'s matchups."""
    return caches["jobs"].make_key(f"gauntlet-landed:{list_id}")


def announce(list_id: int) -> None:
    """Tell every panel request waiting on the list that matchups of its gauntlet landed
    (a lost word only leaves a waiting request to its deadline, then to the panel's poll)."""
    try:
        client = _client()
        if client is not None:
            client.publish(channel(list_id), b"1")
    except Exception as exc:  # redis' ConnectionError/TimeoutError: the poll still finds it
        logger.warning("could not announce the gauntlet of list %s: %s", list_id, exc)


def landed(keys: list[str]) -> int:
    """How many of the job cache's `keys` are there: one round trip that reads no value (a
    waiting request's look after each word, before it reads the state again); 0 without Redis."""
    if not keys:
        return 0
    cache = caches["jobs"]
    try:
        client = _client()
        return int(client.exists(*[cache.make_key(key) for key in keys])) if client is not None else 0
    except Exception as exc:  # no Redis: the state read after the wait says what is there
        logger.warning("could not look for landed matchups: %s", exc)
        return 0


def _never(_seconds: float) -> bool:
    return False


@contextlib.contextmanager
def landings(list_id: int) -> Iterator[Wait]:
    """Within the block, `wait(seconds)` returns True as soon as word comes that matchups of
    the list landed since the block began (or since the last `wait` returned), False after
    `seconds` without word. Subscribed on entry, so read the state inside the block. With no
    waiting slot free in this process, or no Redis, `wait` returns False at once."""
    if not _slots.acquire(blocking=False):
        yield _never
        return
    pubsub = None
    try:
        try:
            client = _client()
            if client is not None:
                pubsub = client.pubsub(ignore_subscribe_messages=True)
                pubsub.subscribe(channel(list_id))
        except Exception as exc:  # no Redis: no wait, the panel polls
            logger.warning("could not wait for the gauntlet of list %s: %s", list_id, exc)
            pubsub = None
        if pubsub is None:
            yield _never
            return

        def wait(seconds: float) -> bool:
            deadline = time.monotonic() + seconds
            while (left := deadline - time.monotonic()) > 0:
                try:
                    message = pubsub.get_message(timeout=left)
                except Exception:  # the connection dropped: stop waiting, the panel polls
                    return False
                if message is not None and message.get("type") == "message":
                    # Several batches may have landed at once: one look answers them all.
                    with contextlib.suppress(Exception):
                        while pubsub.get_message(timeout=0) is not None:
                            pass
                    return True
            return False

        yield wait
    finally:
        if pubsub is not None:
            with contextlib.suppress(Exception):
                pubsub.close()
        _slots.release()
