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

from armybuilder.tasks import ping

WORKER_TIMEOUT_SECONDS = 3.0


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


def check_worker() -> str:
    """A ping task's round trip; when every pool process is busy (long PDF renders), the
    worker's own control channel answers instead, so a busy worker is not a down one."""
    from celery.exceptions import TimeoutError as CeleryTimeout

    result = ping.apply_async(expires=WORKER_TIMEOUT_SECONDS)
    try:
        answer = result.get(timeout=WORKER_TIMEOUT_SECONDS)
    except CeleryTimeout:
        replies = ping.app.control.ping(timeout=1.0)
        if replies:
            return f"busy ({len(replies)} worker(s) answering)"
        raise
    finally:
        result.forget()
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
