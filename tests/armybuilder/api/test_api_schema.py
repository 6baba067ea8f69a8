"""The OpenAPI document describes the whole API: every endpoint, error shape and auth method."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import get_resolver
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.validation import validate_schema
from rest_framework.test import APIClient

EXPECTED_OPERATIONS = {
    ("post", "/api/v1/auth/token"), ("delete", "/api/v1/auth/token"),
    ("get", "/api/v1/systems"), ("get", "/api/v1/systems/{key}"),
    ("get", "/api/v1/systems/{key}/situation-schema"),
    ("get", "/api/v1/factions"), ("get", "/api/v1/factions/{id}"),
    ("get", "/api/v1/units"), ("get", "/api/v1/units/{id}"),
    ("get", "/api/v1/special-rules"), ("get", "/api/v1/special-rules/{id}"),
    ("post", "/api/v1/points/price"),
    ("get", "/api/v1/lists"), ("post", "/api/v1/lists"), ("post", "/api/v1/lists/import"),
    ("get", "/api/v1/lists/imports/{job_id}"),
    ("get", "/api/v1/lists/{list_id}"), ("put", "/api/v1/lists/{list_id}"),
    ("patch", "/api/v1/lists/{list_id}"), ("delete", "/api/v1/lists/{list_id}"),
    ("get", "/api/v1/lists/{list_id}/validate"), ("post", "/api/v1/lists/{list_id}/fork"),
    ("get", "/api/v1/lists/{list_id}/audit"),
    ("post", "/api/v1/lists/{list_id}/share"), ("delete", "/api/v1/lists/{list_id}/share"),
    ("get", "/api/v1/lists/{list_id}/units"), ("post", "/api/v1/lists/{list_id}/units"),
    ("get", "/api/v1/lists/{list_id}/units/{unit_id}"), ("patch", "/api/v1/lists/{list_id}/units/{unit_id}"),
    ("delete", "/api/v1/lists/{list_id}/units/{unit_id}"),
    ("post", "/api/v1/lists/{list_id}/units/{unit_id}/duplicate"),
    ("get", "/api/v1/lists/{list_id}/export/pdf"), ("get", "/api/v1/lists/{list_id}/export/text"),
    ("get", "/api/v1/lists/{list_id}/export/json"),
    ("get", "/api/v1/lists/{list_id}/export/card"),
    ("get", "/api/v1/lists/{list_id}/locks"), ("post", "/api/v1/lists/{list_id}/locks"),
    ("get", "/api/v1/lists/{list_id}/gauntlet"), ("put", "/api/v1/lists/{list_id}/gauntlet"),
    ("get", "/api/v1/shared/{token}"), ("post", "/api/v1/shared/{token}/fork"),
    ("get", "/api/v1/shared/{token}/export/pdf"), ("get", "/api/v1/shared/{token}/export/text"),
    ("get", "/api/v1/shared/{token}/export/json"),
    ("get", "/api/v1/shared/{token}/export/card"),
    ("post", "/api/v1/battlescribe/imports"), ("get", "/api/v1/battlescribe/imports/{job_id}"),
    ("post", "/api/v1/battlescribe/rosters"),
    ("get", "/api/v1/lists/{list_id}/export/rosz"),
    ("get", "/api/v1/lists/{list_id}/export/army-forge"), ("get", "/api/v1/shared/{token}/export/army-forge"),
    ("get", "/api/v1/shared/{token}/export/rosz"),
}


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    return SchemaGenerator().get_schema(request=None, public=True)


def operations(schema: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    return {(method, path): operation for path, item in schema["paths"].items()
            for method, operation in item.items() if method in {"get", "post", "put", "patch", "delete"}}


def test_the_schema_is_valid_openapi_3(schema: dict[str, Any]) -> None:
    validate_schema(schema)
    assert schema["openapi"].startswith("3.")


def test_every_api_endpoint_is_documented(schema: dict[str, Any]) -> None:
    documented = set(operations(schema))
    assert documented >= EXPECTED_OPERATIONS, EXPECTED_OPERATIONS - documented
    extra = {op for op in documented - EXPECTED_OPERATIONS if "estimates" not in op[1]}
    assert not extra, f"document these in EXPECTED_OPERATIONS and test them: {extra}"


def test_every_error_status_has_the_error_body(schema: dict[str, Any]) -> None:
    error_ref = "#/components/schemas/Error"
    assert set(schema["components"]["schemas"]["Error"]["properties"]) == {"code", "message", "details"}
    for (method, path), operation in operations(schema).items():
        errors = {code: r for code, r in operation["responses"].items() if code.startswith(("4", "5"))}
        assert {"401", "429"} <= set(errors), (method, path)
        for code, response in errors.items():
            body = response["content"]["application/json"]["schema"]
            assert body == {"$ref": error_ref}, (method, path, code)
        assert "Retry-After" in errors["429"]["headers"]


def test_list_writes_document_if_match_and_the_stale_statuses(schema: dict[str, Any]) -> None:
    for (method, path), operation in operations(schema).items():
        changes_settings = path.startswith("/api/v1/lists/{list_id}") and method in {"put", "patch", "delete"}
        changes_units = method == "post" and path.endswith(("/units", "/share", "/duplicate", "/locks"))
        writes_a_list = changes_settings or changes_units
        if not writes_a_list:
            continue
        headers = {p["name"]: p for p in operation["parameters"] if p["in"] == "header"}
        assert headers["If-Match"]["required"] is True, (method, path)
        assert {"409", "412", "428"} <= set(operation["responses"]), (method, path)


def test_both_authentication_methods_are_described(schema: dict[str, Any]) -> None:
    schemes = schema["components"]["securitySchemes"]
    assert schemes["tokenAuth"] == {"type": "apiKey", "in": "header", "name": "Authorization",
                                    "description": 'Token-based authentication with required prefix "Token"'}
    assert schemes["cookieAuth"]["in"] == "cookie"
    ops = operations(schema)
    assert {} in ops[("get", "/api/v1/units")]["security"]  # public
    assert {} not in ops[("get", "/api/v1/lists")]["security"]  # needs an account


def test_the_overview_explains_errors_concurrency_and_rates(schema: dict[str, Any]) -> None:
    overview = schema["info"]["description"]
    for topic in ("Authorization: Token", "If-Match", "428", "412", "409", "Retry-After", "page_size"):
        assert topic in overview


def test_schema_and_docs_are_served_to_anyone(db: None) -> None:
    client = APIClient()
    served = client.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    docs = client.get("/api/v1/docs/")
    redoc = client.get("/api/v1/docs/redoc/")

    assert served.status_code == 200 and "paths" in served.json()
    assert docs.status_code == redoc.status_code == 200
    assert b"swagger" in docs.content.lower() and b"redoc" in redoc.content.lower()


def test_no_other_url_leaks_into_the_schema(schema: dict[str, Any]) -> None:
    assert all(path.startswith("/api/v1/") for path in schema["paths"])
    assert get_resolver().resolve("/api/v1/lists").url_name == "list-list"


def test_every_body_is_a_named_component_however_often_the_schema_is_generated(db: None) -> None:
    """The hook that names inline bodies rewrites shared dicts: a second generation must
    still define every component the first one referenced (issue 17, item 7)."""
    from drf_spectacular.generators import SchemaGenerator

    for _ in range(3):
        document = SchemaGenerator().get_schema(request=None, public=True)
        names = set(document["components"]["schemas"])
        text = str(document)
        referenced = {part.split("'")[0] for part in text.split("#/components/schemas/")[1:]}
        assert referenced <= names, referenced - names
        request = document["paths"]["/api/v1/estimates"]["post"]["requestBody"]["content"]["application/json"]
        assert request["schema"] == {"$ref": "#/components/schemas/EstimateRequest"}
        assert {"Unit", "UnitReference", "ArmyListFile", "PdfPending"} <= names
