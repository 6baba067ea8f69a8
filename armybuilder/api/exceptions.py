"""One error shape for the whole API, and the exceptions DRF lacks (409, 412, 413, 428).

Every error response is `{"code": ..., "message": ..., "details": {field: [messages]}}`:
`code` is a stable machine word (`invalid`, `not_found`, `precondition_failed`, ...),
`message` a human sentence, and `details` maps a field path (`models[1].weapons[0].ap`,
`units[2].count`, `non_field_errors`) to its messages; it is `{}` when no field is to blame.
The handler is registered as `REST_FRAMEWORK["EXCEPTION_HANDLER"]`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.http import Http404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.settings import api_settings

from armybuilder.lists.errors import ArmyListError, NotApplicable, StaleListError
from points.shared_format import UnitFormatError

NON_FIELD = api_settings.NON_FIELD_ERRORS_KEY


class PayloadTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "payload_too_large"
    default_detail = _lazy("The request body is too large.")

    def __init__(self, limit: int | None = None) -> None:
        super().__init__(
            _("The request body is larger than %(limit)d bytes.") % {"limit": limit} if limit else None)


class Conflict(exceptions.APIException):
    """The list changed between reading it and writing it (a concurrent write won)."""

    status_code = status.HTTP_409_CONFLICT
    default_code = "conflict"
    default_detail = _lazy("The list was changed by another request; reload it and try again.")


class ServiceUnavailable(exceptions.APIException):
    """A service the request needs (the job queue) is down; nothing was stored. Retry later."""

    status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    default_code = "unavailable"
    default_detail = "The job queue is unreachable; nothing was stored. Try again in a minute."

    def __init__(self, detail: str | None = None, *, retry_after: int = 30) -> None:
        super().__init__(detail)
        self.wait = retry_after


class PreconditionFailed(exceptions.APIException):
    """`If-Match` names a version of the list that is no longer the current one."""

    status_code = status.HTTP_412_PRECONDITION_FAILED
    default_code = "precondition_failed"
    default_detail = _lazy("If-Match does not match the list's current ETag; reload it and try again.")


class PreconditionRequired(exceptions.APIException):
    """A write to an existing list came without `If-Match` (lost updates are refused)."""

    status_code = status.HTTP_428_PRECONDITION_REQUIRED
    default_code = "precondition_required"
    default_detail = _lazy("Send If-Match with the list's ETag (from GET), or If-Match: * to overwrite.")


def field_errors(detail: Any, prefix: str = "") -> dict[str, list[str]]:
    """Flatten DRF's nested error detail into `{"a.b[2].c": [messages]}`.

    Serializer errors nest dicts (fields), lists (list serializers, with `{}` for valid
    items) and dicts with integer keys (`ListField` children); all become one path each.
    """
    out: dict[str, list[str]] = {}

    def walk(node: Any, path: str) -> None:
        if isinstance(node, Mapping):
            for key, value in node.items():
                if isinstance(key, int):
                    walk(value, f"{path}[{key}]")
                elif key == NON_FIELD and path:
                    walk(value, path)
                else:
                    walk(value, f"{path}.{key}" if path else str(key))
        elif isinstance(node, list | tuple):
            for index, item in enumerate(node):
                if isinstance(item, Mapping | list | tuple):
                    walk(item, f"{path}[{index}]")
                else:
                    out.setdefault(path or NON_FIELD, []).append(str(item))
        elif node is not None:
            out.setdefault(path or NON_FIELD, []).append(str(node))

    walk(detail, prefix)
    return out


def unit_format_details(exc: UnitFormatError) -> dict[str, list[str]]:
    """The engine's `FieldError`s (`models[1].weapons[0].ap`, message) as `{path: [messages]}`."""
    details: dict[str, list[str]] = {}
    for field_error in exc.errors:
        details.setdefault(field_error.path or NON_FIELD, []).append(field_error.message)
    return details


def error_body(code: str, message: str, details: Mapping[str, list[str]] | None = None) -> dict[str, Any]:
    return {"code": code, "message": message, "details": dict(details or {})}


def exception_handler(exc: Exception, context: Mapping[str, Any]) -> Response | None:
    """DRF's handler (status, `WWW-Authenticate`, `Retry-After`, rollback) with our body.

    The services' and the engine's refusals are translated here, once for every view:
    `ArmyListError` and `UnitFormatError` are 400 with their field paths, `StaleListError`
    (a concurrent write won the race) is 409.
    """
    # Not at module level: `rest_framework.views` loads the parser classes of the settings,
    # and `parsers.py` needs this module's `PayloadTooLarge`.
    from rest_framework.views import exception_handler as drf_exception_handler

    from armybuilder.estimates.services import QueueUnavailable

    if isinstance(exc, ArmyListError):
        exc = exceptions.ValidationError(exc.as_dict())
    elif isinstance(exc, UnitFormatError):
        exc = exceptions.ValidationError(unit_format_details(exc))
    elif isinstance(exc, StaleListError):
        exc = Conflict()
    elif isinstance(exc, NotApplicable):
        exc = exceptions.NotFound(str(exc))
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    elif isinstance(exc, RequestDataTooBig):
        exc = PayloadTooLarge()
    elif isinstance(exc, QueueUnavailable):
        exc = ServiceUnavailable()
    response = drf_exception_handler(exc, context)
    if response is None or not isinstance(exc, exceptions.APIException):
        return response
    if isinstance(exc, exceptions.ValidationError):
        response.data = error_body("invalid", _("The input is not valid."), field_errors(exc.detail))
    else:
        codes = exc.get_codes()
        code = codes if isinstance(codes, str) else exc.default_code
        response.data = error_body(str(code), _message(exc.detail))
    return response


def _message(detail: Any) -> str:
    if isinstance(detail, Mapping):
        return "; ".join(f"{key}: {_message(value)}" for key, value in detail.items())
    if isinstance(detail, list | tuple):
        return "; ".join(_message(item) for item in detail)
    return str(detail)


#: What a page or the API says while the database is unreachable (a 503, not a 500).
DATABASE_DOWN = _lazy("The database is unreachable right now; nothing was changed. Try again in a minute.")
#: Seconds a client is told to wait before trying again after a database outage.
DATABASE_RETRY_AFTER = 30


def _database_down() -> bool:
    """Whether the exception being handled is the database being unreachable."""
    import sys

    from django.db import InterfaceError, OperationalError

    return isinstance(sys.exc_info()[1], OperationalError | InterfaceError)


def server_error(request: Any, *args: Any, **kwargs: Any) -> Any:
    """Django's `handler500`: JSON in the error shape under `/api/`, the HTML page elsewhere.

    An app never gets an HTML page it cannot parse, even for a bug. The
    database being unreachable is no bug: a 503 with `Retry-After` and a message saying so, on a
    page that reads nothing from the database (no account, no session).
    """
    from django.http import HttpResponse, JsonResponse
    from django.template.loader import render_to_string
    from django.views import defaults

    if _database_down():
        if request.path.startswith("/api/"):
            response = JsonResponse(error_body("unavailable", str(DATABASE_DOWN)), status=503)
        else:
            response = HttpResponse(render_to_string("503_database.html", {"message": DATABASE_DOWN}),
                                    status=503)
        response["Retry-After"] = str(DATABASE_RETRY_AFTER)
        return response
    if request.path.startswith("/api/"):
        return JsonResponse(error_body("server_error", "A server error occurred."), status=500)
    return defaults.server_error(request, *args, **kwargs)


#: A form past the body limits gets this page, not Django's bare "Bad Request (400)".
FORM_TOO_LARGE = _lazy("What you sent is larger than the %(mb)s MB a form may send. Send less: a shorter "
                       "text or a smaller file.")
FORM_TOO_MANY_FIELDS = _lazy("What you sent has more than %(fields)d fields. Send less at once.")


def bad_request(request: Any, exception: Exception | None = None, *args: Any, **kwargs: Any) -> Any:
    """Django's `handler400`: a body past `DATA_UPLOAD_MAX_MEMORY_SIZE` (or with more fields
    than `DATA_UPLOAD_MAX_NUMBER_FIELDS`) says so in a player's words, in JSON under `/api/`
    and on a page elsewhere; any other bad request is Django's own answer."""
    from django.conf import settings
    from django.core.exceptions import TooManyFieldsSent
    from django.http import HttpResponse, JsonResponse
    from django.template.loader import render_to_string
    from django.views import defaults

    if isinstance(exception, RequestDataTooBig):
        message = FORM_TOO_LARGE % {"mb": f"{settings.DATA_UPLOAD_MAX_MEMORY_SIZE / 2**20:g}"}
        status_code, code = 413, "too_large"
    elif isinstance(exception, TooManyFieldsSent):
        message = FORM_TOO_MANY_FIELDS % {"fields": settings.DATA_UPLOAD_MAX_NUMBER_FIELDS}
        status_code, code = 400, "invalid"
    else:
        return defaults.bad_request(request, exception, *args, **kwargs)
    if request.path.startswith("/api/"):
        return JsonResponse(error_body(code, str(message)), status=status_code)
    return HttpResponse(render_to_string("400_form.html", {"message": message}, request=request),
                        status=status_code)
