"""One limit on password attempts for every way in: the login page, the admin's login page,
the API's token endpoint (and the sign-up and password-reset forms, which mail or create).

Before, only `POST /api/v1/auth/token` was limited, so guessing simply moved to the HTML
form, and the limiter let everything through while Redis was down. Now
every attempt counts against two counters in the shared throttle store, one per client
address and one per username tried (so rotating addresses does not help against one
account), at the `login` rate. The limit fails closed: with the store unreachable a login
is refused with a 503 rather than allowed unlimited.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

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
    """The `login` rate, counted per address and per username, failing closed."""

    scope = "login"

    def attempt(self, *, address: str, username: str) -> float | None:
        """Count one attempt; `None` when allowed, else the seconds until the next may be made."""
        if self.rate is None:
            return None
        window = int(self.timer() // self.duration)
        self.window_ends = (window + 1) * self.duration
        keys = [f"throttle_login_ip_{address}:{window}"]
        if username:
            keys.append(f"throttle_login_user_{username_key(username)}:{window}")
        try:
            counts = [self._count(key) for key in keys]
        except Exception as exc:  # the cache backend's connection errors
            raise LoginStoreDown(str(exc)) from exc
        return None if max(counts) <= self.num_requests else self.wait()


def login_attempt(*, request: Any, username: str) -> float | None:
    """Count a password attempt of `request` (a Django or DRF request). Raises `LoginStoreDown`."""
    return LoginAttemptThrottle().attempt(address=client_address(request), username=str(username or ""))


class LoginRateLimitMiddleware:
    """Counts each POST to the HTML login paths (`LOGIN_RATE_LIMITED_PATHS`) before the view.

    Over the limit: 429 with `Retry-After` and the form's page; store down: 503.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method == "POST" and request.path_info in settings.LOGIN_RATE_LIMITED_PATHS:
            try:
                wait = login_attempt(request=request, username=request.POST.get("username", ""))
            except LoginStoreDown:
                return self._refuse(request, 503, 30, _(
                    "Signing in is not possible right now (the attempt counter is unreachable). "
                    "Try again in a minute."))
            if wait is not None:
                return self._refuse(request, 429, int(wait), _(
                    "Too many attempts. Try again in %(seconds)d seconds.") % {"seconds": int(wait)})
        return self.get_response(request)

    @staticmethod
    def _refuse(request: HttpRequest, status: int, retry_after: int, message: str) -> HttpResponse:
        response = render(request, "registration/too_many_attempts.html", {"message": message}, status=status)
        response["Retry-After"] = str(retry_after)
        return response
