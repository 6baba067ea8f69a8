"""ETag and If-Match for lists: no write lands on a version of a list the client has not seen.

A list's ETag is its `version` (bumped by every service that changes it). A write to an
existing list must send `If-Match`:

- missing → 428 `precondition_required` (a client that forgot it would silently overwrite);
- a value other than the current ETag → 412 `precondition_failed`;
- `*` → applied to whatever version is current (an explicit "overwrite").

The matching version is then handed to the service as `expected_version`, so a write that
races with another one between this check and the service's row lock is a 409 `conflict`.

A read may send `If-None-Match` with the ETag it has: 304 with no body if it is current.
"""

from __future__ import annotations

from typing import TypeVar

from django.http import HttpResponseBase
from django.utils.cache import patch_cache_control, patch_vary_headers
from rest_framework.request import Request
from rest_framework.response import Response

from armybuilder.api.exceptions import PreconditionFailed, PreconditionRequired
from armybuilder.models import ArmyList

_Response = TypeVar("_Response", bound=HttpResponseBase)


def etag(army_list: ArmyList) -> str:
    """The strong ETag of a list's current version, e.g. `"7"`."""
    return f'"{army_list.version}"'


def expected_version(request: Request, army_list: ArmyList) -> int | None:
    """The version `If-Match` promises (or `None` for `*`); 428 or 412 otherwise."""
    header = request.headers.get("If-Match")
    if header is None or not header.strip():
        raise PreconditionRequired()
    tags = [tag.strip() for tag in header.split(",")]
    if "*" in tags:
        return None
    # Weak tags (W/"7") never match for If-Match (RFC 9110 §13.1.1: strong comparison).
    if etag(army_list) in tags:
        return army_list.version
    raise PreconditionFailed()


def if_none_match(request: Request) -> list[str]:
    """The ETags a conditional GET says the client already has (weak ones compare weakly)."""
    header = request.headers.get("If-None-Match", "")
    return [tag.strip().removeprefix("W/") for tag in header.split(",") if tag.strip()]


def with_etag(response: Response, army_list: ArmyList) -> Response:
    """The list's ETag on `response`; caches must revalidate it and keep it per user."""
    return with_version_etag(response, army_list.version)


def with_version_etag(response: _Response, version: int) -> _Response:
    """`with_etag` for a list known only by its version (a stored document's read)."""
    response["ETag"] = f'"{version}"'
    patch_cache_control(response, private=True, no_cache=True)
    patch_vary_headers(response, ("Authorization", "Cookie"))
    return response
