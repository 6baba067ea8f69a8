"""Query-string filters of the catalogue collections (`?system=opr&faction=3&search=guard`).

A viewset lists its filters as `QueryFilter`s; the backend applies them and documents them
in the OpenAPI schema. Values are checked before they reach the database (an integer in
range, a string without NUL characters, bounded length), so a bad value is a 400 naming
the parameter and never a database error.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _
from rest_framework import exceptions
from rest_framework.filters import BaseFilterBackend
from rest_framework.request import Request

MAX_ID = 2**63 - 1
MAX_TEXT = 100


@dataclass(frozen=True)
class QueryFilter:
    """`?param=value` becomes `queryset.filter(**{lookup: value})`."""

    param: str
    lookup: str
    kind: type = str
    description: str = ""

    def parse(self, raw: str) -> Any:
        if self.kind is int:
            if not (raw.isascii() and raw.isdigit()) or len(raw) > 19 or not 1 <= int(raw) <= MAX_ID:
                raise exceptions.ValidationError({self.param: [_("Must be a positive integer id.")]})
            return int(raw)
        return checked_text(self.param, raw)


def checked_text(param: str, raw: str) -> str:
    """A text query parameter the database can take, or a 400 naming `param`."""
    if "\x00" in raw or len(raw) > MAX_TEXT:
        raise exceptions.ValidationError(
            {param: [_("Must be at most %(n)d characters, without NUL characters.") % {"n": MAX_TEXT}]})
    return raw


class QueryFilterBackend(BaseFilterBackend):
    """Applies `view.query_filters` (a tuple of `QueryFilter`) to list requests."""

    def filter_queryset(self, request: Request, queryset: QuerySet, view: Any) -> QuerySet:
        for query_filter in getattr(view, "query_filters", ()):
            raw = request.query_params.get(query_filter.param)
            if raw:
                queryset = queryset.filter(**{query_filter.lookup: query_filter.parse(raw.strip())})
        return queryset

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters = []
        for query_filter in getattr(view, "query_filters", ()):
            schema: dict[str, Any] = (
                {"type": "integer", "minimum": 1, "maximum": MAX_ID} if query_filter.kind is int
                else {"type": "string", "maxLength": MAX_TEXT}
            )
            parameters.append({"name": query_filter.param, "in": "query", "required": False,
                               "description": query_filter.description, "schema": schema})
        return parameters
