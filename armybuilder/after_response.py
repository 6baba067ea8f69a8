"""Work a request hands to its own process for after its response has been sent.

Some work a change causes need not hold up the change's answer: it only keeps something
ready for later requests (the list's stored API documents, `armybuilder.api.list_documents`,
about 11.5 ms per language stored). A WSGI server sends a response's body and then closes the
response, and Django sends `request_finished` at that close: work deferred here (`defer`)
while a request runs is done then, by the same process, after the player has the answer and
before that worker takes its next request (the moment `armybuilder.process_heap` runs the
full garbage collection it holds back). Nothing is queued anywhere else, so nothing is lost
to a broker and nothing waits on a worker of another kind.

Outside a request (a Celery task, a management command, the editor's services called by a
test) there is no response to wait for: the work runs at once, as it did before.

Work is kept per thread (a threaded server serves one request per thread) and by `key`, so
that a request changing a list ten times rewrites its documents once, as it stands at the end.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Hashable
from typing import Any

logger = logging.getLogger(__name__)

_local = threading.local()


def _pending() -> dict[Hashable, Callable[[], None]] | None:
    """The work deferred by the request this thread is serving; None outside a request."""
    return getattr(_local, "pending", None)


def defer(work: Callable[[], None], *, key: Hashable) -> None:
    """Run `work` once the response of the request being served has been sent, at once outside
    a request. Work deferred again under the same `key` in the same request runs once, in its
    latest form (it reads what it needs when it runs)."""
    pending = _pending()
    if pending is None:
        work()
        return
    pending.pop(key, None)  # the latest comes last, in the order the request asked
    pending[key] = work


def request_started(**_kwargs: Any) -> None:
    """`request_started`: from here on, deferred work waits for the response."""
    _local.pending = {}


def request_finished(**_kwargs: Any) -> None:
    """`request_finished` (the server closed the response, its body sent): run the request's
    deferred work. A failure is logged and the rest still runs: the answer is already sent, and
    what the work keeps ready is checked before it is used (a stale document is never sent),
    so a later request does without it."""
    pending = _pending()
    _local.pending = None
    for key, work in (pending or {}).items():
        try:
            work()
        except Exception:
            logger.exception("work deferred after a response failed: %s", key)
