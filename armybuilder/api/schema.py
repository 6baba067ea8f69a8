"""The OpenAPI 3 document (drf-spectacular): error responses, headers and the overview.

`ApiAutoSchema` adds to every operation the error responses it can produce, all with the
one `Error` body of `exceptions.py`, so a client generated from the schema knows every
status it may see: 401 (a missing or bad token), 403, 404, 406, 400, 413/415 for bodies,
429 (with `Retry-After`). Views add what is specific to them (409, 412, 428) with
`extend_schema`. The hooks keep only `/api/v1/` endpoints and write the overview below.
"""

from __future__ import annotations

import copy
from typing import Any

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import permissions, serializers

from armybuilder.api.exceptions import NON_FIELD

OVERVIEW = """\
The army builder's REST API for mobile and other clients. It calls the same services as
the web pages, so a list built here looks the same there.

**Authentication.** Apps exchange a username and password for a token
(`POST /api/v1/auth/token`) and send it as `Authorization: Token <key>`; `DELETE
/api/v1/auth/token` revokes it. The browser may use its session cookie instead (unsafe
methods then need the `X-CSRFToken` header). The catalogue, the points calculator and
shared lists can be read without an account.

**Errors.** Every error is `{"code", "message", "details"}` where `details` maps a field
path (`models[1].weapons[0].ap`, `non_field_errors`) to a list of messages: 400 `invalid`
or `parse_error`, 401 `not_authenticated` / `authentication_failed`, 403
`permission_denied`, 404 `not_found` (also for lists that exist but are not yours — the
API never tells), 406 `not_acceptable`, 409 `conflict`, 412 `precondition_failed`,
413 `payload_too_large`, 415 `unsupported_media_type`, 428 `precondition_required`,
429 `throttled`.

**Concurrency.** Reading a list returns an `ETag` (its version); send it in
`If-None-Match` to get 304 with no body while the list is unchanged. Every write to an existing
list (update, delete, adding, changing or removing units) must send it back in
`If-Match`: a stale value gets 412, a missing one 428 (`If-Match: *` overwrites whatever
is there). A write that loses a race with another one at the same moment gets 409.

**Rates.** Requests are limited per account and, without an account, per client address;
getting a token and creating estimates have lower limits. Over a limit: 429 with
`Retry-After` (seconds).

**Pagination.** Collections take `page` and `page_size` (at most 200) and answer
`{count, next, previous, results}`.
"""


class ErrorSerializer(serializers.Serializer):
    """The body of every error response."""

    code = serializers.CharField(help_text="A stable machine-readable word, e.g. `invalid`, `not_found`.")
    message = serializers.CharField(help_text="A human-readable sentence.")
    details = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        help_text=f"Field path (`models[0].count`, `{NON_FIELD}`) → messages; `{{}}` when no field "
                  "is at fault.",
    )

    class Meta:
        ref_name = "Error"


def error(description: str) -> OpenApiResponse:
    """An error response with the common body, for `extend_schema(responses=...)`."""
    return OpenApiResponse(ErrorSerializer, description=description)


ETAG_HEADER = OpenApiParameter(
    "ETag", str, OpenApiParameter.HEADER, response=[200, 201, 204, 304],
    description="The list's version; send it back in If-Match to change the list.",
)
IF_MATCH = OpenApiParameter(
    "If-Match", str, OpenApiParameter.HEADER, required=True,
    description="The ETag from the last read of the list, or `*` to overwrite any version. "
                "A stale value gets 412; without the header, 428.",
)
IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match", str, OpenApiParameter.HEADER,
    description="The ETag you have; if it is still current the answer is 304 with no body.",
)
NOT_MODIFIED = {304: OpenApiResponse(description="Not modified: the ETag in If-None-Match is current.")}
STALE_RESPONSES = {
    409: error("The list was changed by a concurrent request while this one ran."),
    412: error("If-Match does not match the list's current ETag."),
    428: error("If-Match is missing."),
}

def unit_format_schema() -> dict[str, Any]:
    """The envelope of a unit in the interchange format (`docs/unit-format.md`).

    A model's profile fields depend on the system; the exact JSON Schema of one model is
    each system's `profile_schema` (`GET /api/v1/systems/{key}`), and the engine checks it.
    """
    rules = {"type": "array", "items": {"type": "string"},
             "description": "Rule names, `Name(X)` with a value."}
    weapon = {"type": "object", "required": ["name"], "additionalProperties": True, "properties": {
        "name": {"type": "string"}, "range": {"type": "integer", "description": "0 for a melee weapon."},
        "attacks": {"type": "integer"}, "ap": {"type": "integer"}, "rules": rules}}
    model = {"type": "object", "required": ["name", "count"], "additionalProperties": True,
             "description": "One model profile, `count` times; the other fields are the system's profile.",
             "properties": {"name": {"type": "string"}, "count": {"type": "integer", "minimum": 0},
                            "rules": rules, "weapons": {"type": "array", "items": weapon}}}
    return {"type": "object", "required": ["system", "name", "models"], "additionalProperties": True,
            "title": "Unit",
            "description": "A unit in the interchange format; `system` picks the game system that prices it.",
            "properties": {"format": {"type": "integer", "enum": [1]},
                           "system": {"type": "string", "description": "A game system's key, e.g. `opr`."},
                           "name": {"type": "string"},
                           "models": {"type": "array", "items": model}}}


_COMMON = {
    "400": "Invalid input: `details` names each field at fault.",
    "401": "No credentials, or an invalid or revoked token.",
    "403": "Not allowed (for a session: a missing CSRF token).",
    "404": "Not found, or not visible to you.",
    "406": "The Accept header asks for a media type this endpoint does not give.",
    "413": "The request body is too large.",
    "414": "The address (path and query string) is longer than 4094 bytes.",
    "415": "The body is not `application/json`.",
    "429": "Too many requests; retry after `Retry-After` seconds.",
}


class ApiAutoSchema(AutoSchema):
    """Documents the error responses every operation may give, with the `Error` body."""

    def _get_response_bodies(self, direction: str = "response") -> dict[str, Any]:  # type: ignore[override]
        responses = super()._get_response_bodies(direction)
        if direction != "response":
            return responses
        has_body = self.method in {"POST", "PUT", "PATCH"} and self.get_request_serializer() is not None
        public = any(isinstance(p, permissions.AllowAny) for p in self.view.get_permissions())
        codes = ["401", "406", "429"]
        query = [p for p in self.get_override_parameters() if isinstance(p, OpenApiParameter)
                 and p.location == OpenApiParameter.QUERY]
        if has_body or query or self._get_filter_parameters() or self._get_pagination_parameters() \
                or self._get_format_parameters():
            codes.append("400")  # a query parameter the schema forbids is a 400 (`query_checks.py`)
            codes.append("414")  # so is an address too long for the server (`request_line.py`)
        if not public or self.method not in permissions.SAFE_METHODS:
            codes.append("403")
        if "{" in self.path or self._is_list_view():
            codes.append("404")
        if has_body:
            codes += ["413", "415"]
        ref = self.resolve_serializer(ErrorSerializer, "response").ref
        for code in sorted(codes):
            if code in responses:
                continue
            responses[code] = {"description": _COMMON[code],
                               "content": {"application/json": {"schema": ref}}}
            if code == "429":
                responses[code]["headers"] = {"Retry-After": {
                    "schema": {"type": "integer"}, "description": "Seconds until a request may succeed."}}
        return dict(sorted(responses.items()))


def only_api_endpoints(endpoints: list[tuple], **kwargs: Any) -> list[tuple]:
    """Preprocessing hook: the document covers `/api/v1/` only (not admin or pages)."""
    return [endpoint for endpoint in endpoints if endpoint[0].startswith("/api/v1/")]


def document_api(result: dict[str, Any], generator: Any, **kwargs: Any) -> dict[str, Any]:
    """Postprocessing hook: the overview of authentication, errors, concurrency and rates; and a
    documented 400 on every operation with a query parameter (each query is checked against the
    schema, so `?format=` or `?paper=.exe` answers 400 naming the parameter)."""
    result.setdefault("info", {})["description"] = OVERVIEW
    error_body = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            if any(p.get("in") == "query" for p in operation.get("parameters", ())) \
                    and "400" not in operation["responses"]:
                operation["responses"]["400"] = {"description": _COMMON["400"], "content": error_body}
                operation["responses"] = dict(sorted(operation["responses"].items()))
    return result


def _component_name(base: str, components: dict[str, Any], schema: dict[str, Any]) -> str:
    name = "".join(part[:1].upper() + part[1:] for part in base.replace("-", "_").split("_") if part)
    candidate, number = name, 2
    while candidate in components and components[candidate] != schema:
        candidate, number = f"{name}{number}", number + 1
    return candidate


def _hoist(schema: Any, fallback: str, components: dict[str, Any]) -> Any:
    """`schema` as a `$ref` to a named component when it is an inline object or union.

    Named by its `title` (else `fallback`); titled objects nested in its properties, array
    items and `oneOf`/`anyOf` branches become components too.
    """
    if not isinstance(schema, dict) or "$ref" in schema:
        return schema
    is_object = schema.get("type") == "object" and ("properties" in schema or "title" in schema)
    is_union = "oneOf" in schema or "anyOf" in schema
    for key in ("oneOf", "anyOf"):
        if key in schema:
            schema[key] = [_hoist(branch, f"{fallback}_option{index + 1}", components)
                           if isinstance(branch, dict) and "title" in branch else branch
                           for index, branch in enumerate(schema[key])]
    for prop, sub in list(schema.get("properties", {}).items()):
        if isinstance(sub, dict) and ("title" in sub or "oneOf" in sub):
            schema["properties"][prop] = _hoist(sub, f"{fallback}_{prop}", components) \
                if "title" in sub else _hoist_branches(sub, f"{fallback}_{prop}", components)
        elif isinstance(sub, dict) and sub.get("type") == "array" and isinstance(sub.get("items"), dict) \
                and "title" in sub["items"]:
            sub["items"] = _hoist(sub["items"], f"{fallback}_{prop}_item", components)
    if not (is_object or is_union):
        return schema
    name = _component_name(str(schema.get("title") or fallback), components, schema)
    components[name] = schema
    return {"$ref": f"#/components/schemas/{name}"}


def _hoist_branches(schema: dict[str, Any], fallback: str, components: dict[str, Any]) -> dict[str, Any]:
    for key in ("oneOf", "anyOf"):
        if key in schema:
            schema[key] = [_hoist(branch, f"{fallback}_option{index + 1}", components)
                           for index, branch in enumerate(schema[key])]
    return schema


def name_inline_schemas(result: dict[str, Any], generator: Any, **kwargs: Any) -> dict[str, Any]:
    """Postprocessing hook: every request and response body is a named component.

    Client generators (openapi-python-client) skip inline unions and name inline objects
    after the path, so a body written as a raw JSON Schema (`EstimateRequest`, `Unit`,
    `ArmyListFile`) gets its own component and a `$ref`.
    """
    # The raw schemas given to `extend_schema` are shared by every generation of the
    # document; hoisting rewrites them, so it works on a copy.
    result = copy.deepcopy(result)
    components = result.setdefault("components", {}).setdefault("schemas", {})
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            if not isinstance(operation, dict):
                continue
            op_id = str(operation.get("operationId", "body"))
            for media in operation.get("requestBody", {}).get("content", {}).values():
                media["schema"] = _hoist(media.get("schema"), f"{op_id}_request", components)
            for code, response in operation.get("responses", {}).items():
                for media in response.get("content", {}).values():
                    media["schema"] = _hoist(media.get("schema"), f"{op_id}_response_{code}", components)
    # Serializer components can hold a raw union field too (`EstimateRequest.attacker`: a unit
    # or a reference): its titled branches become components of their own.
    for name, schema in list(components.items()):
        for prop, sub in list(schema.get("properties", {}).items()):
            if isinstance(sub, dict) and ("oneOf" in sub or "anyOf" in sub) and "title" not in sub:
                schema["properties"][prop] = _hoist_branches(sub, f"{name}_{prop}", components)
    return result
