"""No CSRF cookie for API requests that authenticate with a token.

A token client has no session for a CSRF cookie to protect, yet anything that renders a
template with `{% csrf_token %}` on its behalf (an export, an error page) would make
Django's CSRF middleware set one. This middleware, placed after `CsrfViewMiddleware`,
cancels that for requests carrying `Authorization: Token ...`.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse


class NoCsrfCookieForTokenRequests:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if request.META.get("HTTP_AUTHORIZATION", "").startswith("Token "):
            request.META["CSRF_COOKIE_NEEDS_UPDATE"] = False
        return response
