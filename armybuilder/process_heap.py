"""A server process's start-up heap, moved out of the garbage collector's sight.

Python's full (generation 2) collection walks every container object the process holds. A
web worker holds about 150,000 of them once Django, the apps, the URLconf and the engines are
imported, and none of them ever becomes garbage. Walking them took about 100 ms per full
collection on the benchmark machine: a pause that some click in the editor paid every few
dozen requests. `gc.freeze()` moves everything alive at start-up into the
permanent generation, which collections skip; the objects themselves stay as they are.
"""

from __future__ import annotations

import gc


def freeze_startup_heap() -> int:
    """Import what every request needs (the URLconf and with it the views), drop the garbage
    that made, then freeze the rest. Returns how many objects were frozen.

    Call once, at the end of a server process's start-up, never per request.
    """
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018 - imports the URLconf and every view module
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()


#: Collections of the middle generation after which a full collection is due: Python's own
#: default third threshold (`gc.get_threshold()[2]` before `defer_full_collections`).
FULL_COLLECTION_DUE = 10


def defer_full_collections() -> None:
    """Stop Python from starting a full collection in the middle of a request; the server runs
    it after the response instead (`collect_if_due`, from gunicorn's `post_request` hook).

    Even with the start-up heap and the engine data frozen, a full collection walks what the
    worker keeps between requests (the rosters of the lists being edited: about 67,000
    objects for a 60-row list), 40–170 ms that the click which happened to trigger it paid
    before its answer was sent. The young and middle generations still run as before, so a
    request's short-lived cycles are freed while it runs; only the full walk moves, and it
    runs as often as Python would have started it (every `FULL_COLLECTION_DUE` collections of
    the middle generation), after the player has the answer.
    """
    young, middle, _ = gc.get_threshold()
    # The third threshold is compared with the number of middle collections since the last
    # full one; a count that a worker never reaches between two `collect_if_due` calls.
    gc.set_threshold(young, middle, 2**31 - 1)


def collect_if_due() -> bool:
    """Run the full collection `defer_full_collections` held back, if one is due. Call it after
    a response has been sent (never while a player waits for one). Returns whether it ran."""
    if gc.get_count()[2] < FULL_COLLECTION_DUE:
        return False
    gc.collect()
    return True


def prepare_server_worker() -> int:
    """Everything a web server's worker process does once, after loading the application and
    before its first request: freeze the start-up heap and defer full collections to the
    moments between requests. Returns how many objects were frozen."""
    frozen = freeze_startup_heap()
    defer_full_collections()
    return frozen
