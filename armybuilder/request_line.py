"""Addresses longer than `MAX_REQUEST_LINE` are refused by the app: a JSON 414 in the API's
error shape for the API, a short page for the rest.

gunicorn refused a request line over its `limit_request_line` (4094 bytes by default) itself,
with an HTML 414 no API client can read (schemathesis found it with a long query string).
`gunicorn.conf.py` now lets gunicorn read lines up to 8190 bytes (its largest setting), and
this middleware, as soon as the request's language is known, answers anything above 4094
bytes as the API answers every other error. Only a line over 8190 bytes still gets gunicorn's
own answer.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _

from armybuilder.api.exceptions import error_body

#: Longest path and query string (percent-encoded, as sent) the app reads; gunicorn's old default.
MAX_REQUEST_LINE = 4094
API_PREFIX = "/api/"


class RequestLineMiddleware:
    """414 for an address longer than `MAX_REQUEST_LINE` bytes, before any other work."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        query = request.META.get("QUERY_STRING", "")
        length = len(request.path.encode()) + (len(query) + 1 if query else 0)
        if length <= MAX_REQUEST_LINE:
            return self.get_response(request)
        message = _("The address is %(length)d characters long; the limit is %(limit)d.") % {
            "length": length, "limit": MAX_REQUEST_LINE}
        if request.path.startswith(API_PREFIX):
            return JsonResponse(error_body("uri_too_long", message), status=414)
        return HttpResponse(message, status=414, content_type="text/plain; charset=utf-8")
