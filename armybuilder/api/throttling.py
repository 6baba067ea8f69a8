"""Request rates: per account, per client address, and lower scopes for costly actions.

Rates live in `REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]` (each settable from the
environment: `API_THROTTLE_USER`, `API_THROTTLE_IP`, `API_THROTTLE_LOGIN`,
`API_THROTTLE_ESTIMATES`). Counters are kept in the `API_THROTTLE_CACHE` cache (Redis), so
a rate holds across all gunicorn workers. A throttled request gets 429 with `Retry-After`.
"""

from __future__ import annotations

import logging
import math
from typing import Any

from django.conf import settings
from django.core.cache import BaseCache, caches
from django.core.cache.backends.redis import RedisCache
from django.core.exceptions import ImproperlyConfigured
from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

logger = logging.getLogger(__name__)


class SharedCacheThrottle(SimpleRateThrottle):
    """A rate limit counted per fixed window in the shared throttle cache.

    DRF's `SimpleRateThrottle` keeps the time of every request of the period in one cache
    entry and rewrites it on each request, so its cost grows with the rate (at 2000/hour a
    2000-element list goes through Redis per request). Here each window of the rate's
    period (a minute, an hour) has one integer counter, incremented atomically: the same
    cost at any rate. The price: a burst straddling two windows may see up to twice the
    rate. `Retry-After` is the time left in the window.

    If the counter store is unreachable the request is let through and logged: refusing
    every request because Redis hiccupped would turn it into a full outage.
    """

    window_ends: float = 0.0

    @property
    def cache(self) -> BaseCache:  # type: ignore[override]
        return caches[settings.API_THROTTLE_CACHE]

    def get_rate(self) -> str | None:
        """The scope's rate as the settings say now (DRF reads them once, at import)."""
        try:
            return api_settings.DEFAULT_THROTTLE_RATES[self.scope]
        except KeyError:
            raise ImproperlyConfigured(f"No throttle rate set for the {self.scope!r} scope.") from None

    def allow_request(self, request: Request, view: Any) -> bool:
        if self.rate is None:
            return True
        ident = self.get_cache_key(request, view)
        if ident is None:
            return True
        window = int(self.timer() // self.duration)
        self.window_ends = (window + 1) * self.duration
        try:
            return self._count(f"{ident}:{window}") <= self.num_requests
        except Exception as exc:  # the cache backend's connection errors
            logger.warning("throttle cache unavailable, request allowed: %s", exc)
            return True

    def _count(self, key: str) -> int:
        """This request's number in its window (the counter lives one period after it starts).

        On Redis one round trip: `SET NX EX` (the window's counter, at 0, created once with its
        lifetime) and `INCR`, pipelined. Django's `cache.incr` asks whether the key exists
        first, a second round trip on every page and API request.
        """
        cache = self.cache
        if not isinstance(cache, RedisCache):  # another backend (a local-memory cache in a test, say)
            try:
                return cache.incr(key)
            except ValueError:  # first request of the window
                if cache.add(key, 1, timeout=self.duration + 1):
                    return 1
                return cache.incr(key)  # another process created it meanwhile
        name = cache.make_and_validate_key(key)
        pipe = cache._cache.get_client(name, write=True).pipeline(transaction=False)
        pipe.set(name, 0, ex=self.duration + 1, nx=True)
        pipe.incr(name)
        return int(pipe.execute()[1])

    def wait(self) -> float:
        return max(1.0, math.ceil(self.window_ends - self.timer()))


class PerUserThrottle(SharedCacheThrottle):
    """Every request made with an account counts against that account (`user` rate)."""

    scope = "user"

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        if not request.user or not request.user.is_authenticated:
            return None
        return self.cache_format % {"scope": self.scope, "ident": request.user.pk}


class PerIPThrottle(SharedCacheThrottle):
    """Requests without an account count against the client address (`ip` rate).

    The address is `REMOTE_ADDR` unless `API_NUM_PROXIES` says how many proxies to trust
    in `X-Forwarded-For`.
    """

    scope = "ip"

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        if request.user and request.user.is_authenticated:
            return None
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class EstimateThrottle(SharedCacheThrottle):
    """Creating an expected-damage job (`estimates` rate, lower: each job is CPU on a worker)."""

    scope = "estimates"

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        if request.method != "POST":
            return None
        ident = request.user.pk if request.user and request.user.is_authenticated else self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}


class PdfRenderThrottle(SharedCacheThrottle):
    """Starting a roster PDF render (`pdf` rate), per account or client address.

    Counted by `armybuilder.roster.pdf_jobs` for the pages and the API alike, and only when
    a render is queued: a PDF already rendered is served without counting.
    """

    scope = "pdf"

    def allow_ident(self, ident: str) -> bool:
        """Count one render for `ident`; unlike the API rates this one fails closed: with its
        store down no render is queued anyway."""
        if self.rate is None:
            return True
        window = int(self.timer() // self.duration)
        self.window_ends = (window + 1) * self.duration
        return self._count(f"throttle_pdf_{ident}:{window}") <= self.num_requests


def client_address(request: Any) -> str:
    """The client address as the throttles see it (`REMOTE_ADDR`, or `X-Forwarded-For`
    through `API_NUM_PROXIES` trusted proxies)."""
    return PerIPThrottle().get_ident(request)
