"""A request rate for the HTML pages, per account or client address.

The API has had per-user and per-address rates since it existed; the pages had none, so
the cheapest way to load the server was a browser-shaped loop. Pages count against
`page` rate (`PAGE_RATE`, generous: a person clicking never reaches it) in the shared
throttle store. Unlike logins this fails open: a Redis hiccup must not take every page
down. Static files, `/healthz` and the API (which has its own throttles) are not counted.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _

from armybuilder.api.throttling import SharedCacheThrottle, client_address

EXEMPT_PREFIXES = ("/static/", "/api/", "/healthz")


class PageThrottle(SharedCacheThrottle):
    scope = "page"

    def hit(self, ident: str) -> float | None:
        """Count one page request; `None` when allowed, else the seconds to wait."""
        if self.rate is None:
            return None
        window = int(self.timer() // self.duration)
        self.window_ends = (window + 1) * self.duration
        try:
            allowed = self._count(f"throttle_page_{ident}:{window}") <= self.num_requests
        except Exception:  # store down: pages keep working
            return None
        return None if allowed else self.wait()


class PageRateLimitMiddleware:
    """429 with `Retry-After` for a visitor over the page rate."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path_info.startswith(EXEMPT_PREFIXES):
            user = getattr(request, "user", None)
            signed_in = user is not None and user.is_authenticated
            ident = f"user{user.pk}" if signed_in else client_address(request)
            wait = PageThrottle().hit(ident)
            if wait is not None:
                response = HttpResponse(_("Too many requests; try again in %(seconds)d seconds.")
                                        % {"seconds": int(wait)}, status=429,
                                        content_type="text/plain; charset=utf-8")
                response["Retry-After"] = str(int(wait))
                return response
        return self.get_response(request)
