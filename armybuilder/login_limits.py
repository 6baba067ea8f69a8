"""One limit on password guessing for every way in: the login page, the admin's login page,
the API's token endpoint (and the sign-up and password-reset forms, which mail or create).

Only failures count: a wrong password is counted against two counters in the
shared throttle store, one per client address and username tried (the `login` rate) and one
per client address (the higher `login_address` rate, against one address trying many
accounts). A successful sign-in counts nothing, so a club signing in from one address is not
slowed by its members; and no counter is per username alone, so an attacker elsewhere who
knows a username (they are public in shared lists) cannot lock its owner out. Over either
limit every attempt from that pair or address is refused, the right password included.
The sign-up and password-reset forms count every POST per address (each one mails or
creates). The limit fails closed: with the store unreachable an attempt is refused with a
503 rather than allowed unlimited.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from rest_framework.settings import api_settings

from armybuilder.api.throttling import SharedCacheThrottle, client_address

#: Usernames longer than this are cut for the counter key (a key stays bounded).
MAX_USERNAME_KEY = 150


def username_key(username: str) -> str:
    """The counter key's username part: a digest of the normalised name, so any text a client
    sends (control characters, spaces, 150 characters) makes a short, cache-safe key."""
    normalised = username.strip().lower()[:MAX_USERNAME_KEY]
    return hashlib.sha256(normalised.encode("utf-8", "surrogatepass")).hexdigest()[:32]


class LoginStoreDown(Exception):
    """The counter store is unreachable: the attempt cannot be counted, so it is refused."""


class LoginAttemptThrottle(SharedCacheThrottle):
    """Failed attempts per (address, username) at the `login` rate and per address at the
    `login_address` rate; `blocked` reads the counters, `failed` counts one failure."""

    scope = "login"
    address_scope = "login_address"

    def _counters(self, *, address: str, username: str) -> list[tuple[str, int, int]]:
        """(key, limit, period) of each counter this attempt is checked and counted against."""
        counters = []
        if username:
            window = int(self.timer() // self.duration)
            counters.append((f"throttle_login_pair_{address}_{username_key(username)}:{window}",
                             self.num_requests, self.duration))
        address_rate = api_settings.DEFAULT_THROTTLE_RATES.get(self.address_scope)
        if address_rate:
            limit, period = self.parse_rate(address_rate)
            window = int(self.timer() // period)
            counters.append((f"throttle_login_address_{address}:{window}", limit, period))
        return counters

    def blocked(self, *, address: str, username: str) -> float | None:
        """`None` when this attempt may be made, else the seconds until the next may be."""
        if self.rate is None:
            return None
        counters = self._counters(address=address, username=username)
        try:
            counts = self.cache.get_many([key for key, _, _ in counters])
        except Exception as exc:  # the cache backend's connection errors
            raise LoginStoreDown(str(exc)) from exc
        over = [period for key, limit, period in counters if int(counts.get(key) or 0) >= limit]
        if not over:
            return None
        period = max(over)
        self.window_ends = (int(self.timer() // period) + 1) * period
        return self.wait()

    def failed(self, *, address: str, username: str) -> None:
        """Count one failed attempt (a wrong password, or a costly form posted)."""
        if self.rate is None:
            return
        try:
            for key, _, period in self._counters(address=address, username=username):
                self._count_for(key, period)
        except Exception as exc:  # the cache backend's connection errors
            raise LoginStoreDown(str(exc)) from exc

    def _count_for(self, key: str, period: int) -> int:
        duration = self.duration
        self.duration = period  # `_count` gives the counter one period (and a second) of life
        try:
            return self._count(key)
        finally:
            self.duration = duration


def _username(value: Any) -> str:
    return str(value or "")


def login_blocked(*, request: Any, username: Any) -> float | None:
    """Whether `request` (Django or DRF) may try a password now. Raises `LoginStoreDown`."""
    return LoginAttemptThrottle().blocked(address=client_address(request), username=_username(username))


def login_failed(*, request: Any, username: Any) -> None:
    """Count a failed attempt of `request`. Raises `LoginStoreDown`."""
    LoginAttemptThrottle().failed(address=client_address(request), username=_username(username))


class LoginRateLimitMiddleware:
    """Guards each POST to the HTML login paths (`LOGIN_RATE_LIMITED_PATHS`).

    Before the view: refused over the limit (429 with `Retry-After` and the form's page) or
    with the store down (503). After it: a login that did not sign in (the form again, not a
    redirect) counts a failure; a sign-up or password-reset POST always counts.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method != "POST" or request.path_info not in settings.LOGIN_RATE_LIMITED_PATHS:
            return self.get_response(request)
        is_login = request.path_info in settings.LOGIN_PATHS
        username = request.POST.get("username", "") if is_login else ""
        try:
            wait = login_blocked(request=request, username=username)
        except LoginStoreDown:
            return self._store_down(request)
        if wait is not None:
            return self._refuse(request, 429, int(wait), _(
                "Too many attempts. Try again in %(seconds)d seconds.") % {"seconds": int(wait)})
        response = self.get_response(request)
        if not is_login or not response.has_header("Location"):
            try:
                login_failed(request=request, username=username)
            except LoginStoreDown:
                return self._store_down(request)
        return response

    def _store_down(self, request: HttpRequest) -> HttpResponse:
        return self._refuse(request, 503, 30, _(
            "Signing in is not possible right now (the attempt counter is unreachable). "
            "Try again in a minute."))

    @staticmethod
    def _refuse(request: HttpRequest, status: int, retry_after: int, message: str) -> HttpResponse:
        response = render(request, "registration/too_many_attempts.html", {"message": message}, status=status)
        response["Retry-After"] = str(retry_after)
        return response
