"""`/healthz`: is every real part of the app up? (database, Redis, a Celery worker)

Load balancers and the run command's users read this. Each check is independent and
bounded in time, so a dead component makes the answer 503 quickly and names it, instead
of hanging the request.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import redis
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache

from armybuilder import worker_heartbeat
from armybuilder.tasks import ping

#: How long a ping task may take: an idle worker answers in milliseconds; a busy one is
#: recognised by its heartbeat instead of being waited for.
PING_TIMEOUT_SECONDS = 0.3
PING_POLL_SECONDS = 0.02
NO_ANSWER = object()


def check_database() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT version()")
        (version,) = cursor.fetchone()
    return version.split(",")[0]


def check_redis() -> str:
    client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2, socket_connect_timeout=2)
    try:
        client.ping()
        return "Redis " + str(client.info("server").get("redis_version", "?"))
    finally:
        client.close()


def _ping_answer(timeout: float) -> object:
    """The ping task's result, polled from the result store (Celery's `result.get` waits in
    steps of a whole second); `NO_ANSWER` after `timeout` seconds."""
    result = ping.apply_async(expires=worker_heartbeat.STALE_AFTER)
    deadline = time.monotonic() + timeout
    try:
        while not result.ready():
            if time.monotonic() >= deadline:
                return NO_ANSWER
            time.sleep(PING_POLL_SECONDS)
        return result.get(timeout=0)
    finally:
        result.forget()


def _busy(beats: list[worker_heartbeat.WorkerBeat]) -> str:
    running = sum(b.running for b in beats)
    processes = sum(b.processes for b in beats)
    return f"busy ({running}/{processes} processes at work, heartbeat {min(b.age for b in beats):.1f} s ago)"


def check_worker() -> str:
    """Is a worker up? Its heartbeat (`worker_heartbeat`, written every second by the
    worker's main process, which no task blocks) says whether every pool process is at work
    (long PDF renders): then the worker is busy, and up, without a ping that would queue
    behind the renders (`/healthz` took 4.8 s during a burst of PDFs). Otherwise a
    ping task's round trip, waited for `PING_TIMEOUT_SECONDS` ("pong"); unanswered, the
    worker is up only if its heartbeat is fresh, and down if not (stopped, killed, hung)."""
    beats = worker_heartbeat.fresh_beats()
    if beats and all(b.all_busy for b in beats):
        return _busy(beats)
    answer = _ping_answer(PING_TIMEOUT_SECONDS)
    if answer is NO_ANSWER:
        beats = worker_heartbeat.fresh_beats()
        if not beats:
            raise RuntimeError(
                f"no answer to a ping within {PING_TIMEOUT_SECONDS} s and no worker heartbeat "
                f"within {worker_heartbeat.STALE_AFTER:.0f} s"
            )
        return _busy(beats)
    if answer != "pong":
        raise RuntimeError(f"unexpected answer {answer!r}")
    return "pong"


CHECKS: dict[str, Callable[[], str]] = {
    "database": check_database,
    "redis": check_redis,
    "worker": check_worker,
}


@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    components: dict[str, dict[str, object]] = {}
    for name, check in CHECKS.items():
        started = time.perf_counter()
        try:
            detail = check()
            components[name] = {"status": "up", "detail": detail}
        except Exception as exc:  # any failure of a component is reported, never raised
            components[name] = {"status": "down", "error": f"{type(exc).__name__}: {exc}"}
        components[name]["ms"] = round((time.perf_counter() - started) * 1000, 1)
    down = [name for name, c in components.items() if c["status"] != "up"]
    body = {"status": "ok" if not down else "unavailable", "down": down, "components": components}
    return JsonResponse(body, status=200 if not down else 503)
