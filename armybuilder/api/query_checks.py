"""Query parameters are checked against the OpenAPI schema before any view runs.

The schema is the contract a generated client and schemathesis test against: a value it
forbids (`page_size=null`, `paper=.exe`, an empty `format=`) must be a 400 naming the
parameter, not silently ignored or clamped. Rather than re-stating each
parameter's rules in each view, the middleware reads them from the schema drf-spectacular
generates (once per process, about 0.3 s), so a parameter documented later is checked too.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Mapping
from typing import Any

import jsonschema
from django.http import HttpRequest, HttpResponse, JsonResponse, QueryDict

from armybuilder.api.exceptions import error_body

API_PREFIX = "/api/v1/"
INTEGER = re.compile(r"-?[0-9]{1,19}")
NUMBER = re.compile(r"-?[0-9]{1,19}(\.[0-9]{1,19})?")

#: (compiled path regex, {method: [query parameter objects]}), most literal paths first.
_table: list[tuple[re.Pattern[str], dict[str, list[dict[str, Any]]]]] | None = None
_lock = threading.Lock()


def _resolve(schema: Mapping[str, Any], components: Mapping[str, Any]) -> dict[str, Any]:
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
        return dict(components.get(ref.rsplit("/", 1)[1], {}))
    return dict(schema)


def _build() -> list[tuple[re.Pattern[str], dict[str, list[dict[str, Any]]]]]:
    from drf_spectacular.generators import SchemaGenerator

    document = SchemaGenerator().get_schema(request=None, public=True)
    components = document.get("components", {}).get("schemas", {})
    rows = []
    for template, operations in document.get("paths", {}).items():
        pattern = re.compile("^" + re.sub(r"\\\{[^/]+?\\\}", "[^/]+", re.escape(template)) + "$")
        by_method = {}
        for method, operation in operations.items():
            if not isinstance(operation, Mapping):
                continue
            params = [{**param, "schema": _resolve(param.get("schema", {}), components)}
                      for param in operation.get("parameters", []) if param.get("in") == "query"]
            by_method[method.upper()] = params
        rows.append((template.count("{"), pattern, by_method))
    rows.sort(key=lambda row: row[0])
    return [(pattern, by_method) for _, pattern, by_method in rows]


def table() -> list[tuple[re.Pattern[str], dict[str, list[dict[str, Any]]]]]:
    global _table
    if _table is None:
        with _lock:
            if _table is None:
                _table = _build()
    return _table


def _coerce(raw: str, schema: Mapping[str, Any]) -> Any:
    """The query string's text as the JSON value the schema describes (or `raw` unchanged)."""
    kind = schema.get("type")
    if kind == "integer" and INTEGER.fullmatch(raw):
        return int(raw)
    if kind == "number" and NUMBER.fullmatch(raw):
        return float(raw)
    if kind == "boolean" and raw in ("true", "false"):
        return raw == "true"
    return raw


def parameter_errors(path: str, method: str, query: QueryDict) -> dict[str, list[str]]:
    """`{parameter: [message]}` for each documented query parameter whose value breaks its schema."""
    errors: dict[str, list[str]] = {}
    for pattern, by_method in table():
        if not pattern.match(path):
            continue
        for param in by_method.get(method, []):
            values = query.getlist(param["name"])
            schema = param["schema"]
            for raw in values:
                try:
                    jsonschema.validate(_coerce(raw, schema), schema)
                except jsonschema.ValidationError as exc:
                    errors.setdefault(param["name"], []).append(_message(exc, schema))
                    break
        break
    return errors


def _message(exc: jsonschema.ValidationError, schema: Mapping[str, Any]) -> str:
    if "enum" in schema:
        return "Must be one of: " + ", ".join(str(value) for value in schema["enum"]) + "."
    kind = schema.get("type")
    if kind == "integer":
        low, high = schema.get("minimum"), schema.get("maximum")
        bounds = f" between {low} and {high}" if low is not None and high is not None else ""
        return f"Must be a whole number{bounds}."
    return exc.message


class QueryParameterMiddleware:
    """A JSON 400 in the API's error shape for a query parameter the schema does not allow."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        path = request.path_info
        if path.startswith(API_PREFIX) and request.GET and not path.startswith(
                (API_PREFIX + "schema/", API_PREFIX + "docs/")):
            errors = parameter_errors(path, request.method or "GET", request.GET)
            if errors:
                return JsonResponse(error_body("invalid", "The input is not valid.", errors), status=400)
        return self.get_response(request)
