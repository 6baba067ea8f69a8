"""How long a request waits on a Redis that is down: moved here from the unit suite, which now
counts the attempts (one each, no retry loop) instead of timing them.

    .venv/bin/python bench/bench_faults.py [--rounds 5]

On a private Redis server (`tests/redis_server.py`), each of the three places a request meets
Redis, on the real code path with the production settings' timeouts:
- the estimate job's publish (`armybuilder.estimates.services.send_job`, Celery's Redis broker);
- an API rate limit's counter (`armybuilder.api.throttling.PerIPThrottle.allow_request`, which
  lets the request through when the store is down);
- the job cache (render progress, gauntlet matchups: `armybuilder.roster.pdf_jobs.cache().get`).
Each is timed (wall clock: the cost is waiting, not computing) with the server up, the
baseline, then with it stopped. Printed: both best-of-`--rounds` times, their ratio, and the
time with Redis down against the `BUDGET_SECONDS` a request may spend before its 503 (the
bound the unit tests used to assert). Exits 1 when one misses the budget.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import time
import uuid
from collections.abc import Callable

import _django

_django.setup()

from django.conf import settings  # noqa: E402
from django.core.cache import caches  # noqa: E402
from django.test import RequestFactory  # noqa: E402
from django.test.utils import override_settings  # noqa: E402
from rest_framework.request import Request  # noqa: E402

from armybuilder.api.throttling import PerIPThrottle  # noqa: E402
from armybuilder.estimates.services import send_job  # noqa: E402
from armybuilder.roster import pdf_jobs  # noqa: E402
from tests.redis_server import RedisServer, point_celery_at, running_redis  # noqa: E402

BUDGET_SECONDS = 5.0


def best_wall_seconds(call: Callable[[], object], rounds: int) -> float:
    best = float("inf")
    for _ in range(rounds):
        started = time.perf_counter()
        with contextlib.suppress(Exception):  # a down store raises on some paths; the wait is measured
            call()
        best = min(best, time.perf_counter() - started)
    return best


def pointed_caches(url: str) -> dict:
    """The production cache settings with both Redis caches at `url`."""
    found = {name: dict(value) for name, value in settings.CACHES.items()}
    for name in (settings.API_THROTTLE_CACHE, settings.PDF_CACHE):
        found[name]["LOCATION"] = url
    return found


def paths(server: RedisServer) -> list[tuple[str, Callable[[], object]]]:
    request = Request(RequestFactory().get("/api/v1/systems"))

    def throttle() -> object:
        caches[settings.API_THROTTLE_CACHE].close()
        return PerIPThrottle().allow_request(request, None)

    def pdf_store() -> object:
        pdf_jobs.cache().close()
        return pdf_jobs.cache().get(f"bench:{uuid.uuid4()}")

    return [("estimate publish (Celery broker)", lambda: send_job(str(uuid.uuid4()))),
            ("API rate-limit counter", throttle),
            ("job cache (PDF progress, matchups)", pdf_store)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f}; wall seconds, best of {args.rounds}")
    failed = 0
    with running_redis() as server, point_celery_at(server.url(8)), \
            override_settings(CACHES=pointed_caches(server.url(0))):
        checks = paths(server)
        up = [best_wall_seconds(call, args.rounds) for _, call in checks]
        server.stop()
        down = [best_wall_seconds(call, args.rounds) for _, call in checks]
    print(f"{'path':36} {'Redis up':>10} {'Redis down':>11} {'down/up':>9}  budget {BUDGET_SECONDS:g} s")
    for (name, _), base, measured in zip(checks, up, down, strict=True):
        ok = measured < BUDGET_SECONDS
        failed += not ok
        print(f"{name:36} {base:9.4f}s {measured:10.4f}s {measured / base:8.1f}x  "
              f"{measured / BUDGET_SECONDS:5.2f} of it  {'ok' if ok else 'MISS'}")
    print("\nall within their budget" if not failed else f"\n{failed} path(s) missed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
