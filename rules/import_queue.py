"""What catalogue imports and list imports share on their way to the worker: the two ways a
request is refused before anything is queued, and the per-account rate. The rate is a fixed
window per account in the shared throttle cache (`API_THROTTLE_CACHE`), so every web process
counts the same imports. It fails closed: with the store down it raises, and the caller
answers that nothing could be queued (the queue shares that Redis anyway).

The rate is DRF's own setting (`REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"][scope]`, e.g.
"12/hour"), so one place configures every rate of the site.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any, Protocol

from django.conf import settings
from django.core.cache import caches

_PERIOD_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


class ImportUnavailable(Exception):
    """The job queue or its cache is down; nothing was queued."""


class JobFailed(Exception):
    """What a job's runner raises for a job that cannot be done: `errors` (plain data, stored
    as they are) are shown to its owner."""

    def __init__(self, errors: list[Any]) -> None:
        super().__init__(errors)
        self.errors = errors


class DurableJobs(Protocol):
    """Where import jobs are kept: one durable row per job (`armybuilder.jobs`, which provides
    it when the apps are ready; this layer may not import it). A job has `id`, `state`,
    `request`, `result`, `errors`, `reason`, `created` and `finished`."""

    def create(self, *, kind: str, owner_id: int, language: str, request: dict[str, Any],
               files: Sequence[tuple[str, bytes]]) -> Any:
        """Store the job and its files and send it; raises `ImportUnavailable` (nothing kept)."""

    def of(self, *, job_id: str, owner_id: int, kind: str) -> Any | None:
        """The owner's job of `kind`, or None; raises `ImportUnavailable` with the database down."""


_durable: DurableJobs | None = None


def provide_durable_jobs(store: DurableJobs) -> None:
    global _durable
    _durable = store


def durable_jobs() -> DurableJobs:
    """The job store (`armybuilder.jobs`); set when the apps are ready."""
    if _durable is None:
        raise RuntimeError("no durable job store: armybuilder's app config provides it")
    return _durable


class ImportThrottled(Exception):
    """The account started too many imports; `wait` seconds until the next one."""

    def __init__(self, wait: float) -> None:
        super().__init__(wait)
        self.wait = wait


def rate_of(scope: str) -> tuple[int, int] | None:
    """(count, seconds) of the `scope` rate, or None when it is unset."""
    text = settings.REST_FRAMEWORK.get("DEFAULT_THROTTLE_RATES", {}).get(scope)
    if not text:
        return None
    count, period = text.split("/")
    return int(count), _PERIOD_SECONDS[period[0]]


def wait_before(scope: str, owner_id: int) -> float | None:
    """None when `owner_id` may start one more `scope` job now (counting it), else the
    seconds until its window ends."""
    rate = rate_of(scope)
    if rate is None:
        return None
    count, seconds = rate
    now = time.time()
    window = int(now // seconds)
    store = caches[settings.API_THROTTLE_CACHE]
    key = f"throttle_{scope}_{owner_id}:{window}"
    store.add(key, 0, timeout=seconds + 1)
    if store.incr(key) <= count:
        return None
    return float(max(1, int((window + 1) * seconds - now) + 1))
