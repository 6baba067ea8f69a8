"""Every error has one shape — `{"code", "message", "details": {field path: [messages]}}` —
and no input, however malformed, produces a 500 (issue 6, "Consistent errors")."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import override_settings
from rest_framework.test import APIClient

from armybuilder.models import ArmyList
from tests.armybuilder.api.conftest import if_match
from tests.factories.army_lists import PASSWORD
from tests.factories.opr_documents import opr_unit


def error_of(response: Any) -> dict[str, Any]:
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    body = response.json()
    assert set(body) == {"code", "message", "details"}, body
    assert isinstance(body["message"], str) and body["message"]
    return body


def test_invalid_unit_is_a_400_naming_each_field_path(anonymous_client: APIClient, db: None) -> None:
    unit = opr_unit("Bad")
    unit["models"][0]["quality"] = 9
    unit["models"][0]["weapons"][0]["ap"] = 7

    response = anonymous_client.post("/api/v1/points/price", unit, format="json")

    body = error_of(response)
    assert (response.status_code, body["code"]) == (400, "invalid")
    assert {"models[0].quality", "models[0].weapons[0].ap"} <= set(body["details"])


def test_serializer_errors_are_flattened_to_paths(owner_client: APIClient, private_list: ArmyList) -> None:
    veterans = private_list.units.get(position=0)
    response = owner_client.patch(f"/api/v1/lists/{private_list.pk}/units/{veterans.pk}",
                                  {"options": {"plasma": "many"}, "position": -1}, format="json",
                                  **if_match(private_list))

    body = error_of(response)
    assert set(body["details"]) == {"options.plasma", "position"}


def test_someone_elses_private_list_looks_exactly_like_a_missing_one(other_client: APIClient,
                                                                     private_list: ArmyList) -> None:
    hidden = other_client.get(f"/api/v1/lists/{private_list.pk}")
    missing = other_client.get("/api/v1/lists/999999999")
    hidden_write = other_client.delete(f"/api/v1/lists/{private_list.pk}")  # no If-Match: still 404, not 428

    assert hidden.status_code == missing.status_code == hidden_write.status_code == 404
    assert error_of(hidden) == error_of(missing) == error_of(hidden_write)


def test_a_stale_if_match_is_a_412(owner_client: APIClient, private_list: ArmyList) -> None:
    response = owner_client.post(f"/api/v1/lists/{private_list.pk}/units", {"unit": 1}, format="json",
                                 HTTP_IF_MATCH=f'"{private_list.version - 1}"')
    assert response.status_code == 412
    assert error_of(response)["code"] == "precondition_failed"


def test_too_many_requests_for_an_account_is_a_429_with_retry_after(owner_client: APIClient, db: None,
                                                                    throttle_rates: Any) -> None:
    throttle_rates(user="2/minute")
    statuses = [owner_client.get("/api/v1/lists").status_code for _ in range(3)]

    assert statuses == [200, 200, 429]
    response = owner_client.get("/api/v1/lists")
    assert error_of(response)["code"] == "throttled"
    assert 0 < int(response["Retry-After"]) <= 60


def test_the_account_rate_does_not_limit_another_account(owner_client: APIClient, other_client: APIClient,
                                                         db: None, throttle_rates: Any) -> None:
    throttle_rates(user="1/minute")
    assert owner_client.get("/api/v1/lists").status_code == 200
    assert owner_client.get("/api/v1/lists").status_code == 429
    assert other_client.get("/api/v1/lists").status_code == 200


def test_anonymous_requests_are_limited_per_address(db: None, throttle_rates: Any) -> None:
    throttle_rates(ip="2/minute")
    here, there = APIClient(REMOTE_ADDR="10.0.0.1"), APIClient(REMOTE_ADDR="10.0.0.2")
    assert [here.get("/api/v1/systems").status_code for _ in range(3)] == [200, 200, 429]
    assert there.get("/api/v1/systems").status_code == 200


def test_a_forged_forwarded_for_header_does_not_escape_the_address_rate(db: None,
                                                                         throttle_rates: Any) -> None:
    throttle_rates(ip="1/minute")
    client = APIClient(REMOTE_ADDR="10.0.0.3")
    assert client.get("/api/v1/systems", HTTP_X_FORWARDED_FOR="1.1.1.1").status_code == 200
    assert client.get("/api/v1/systems", HTTP_X_FORWARDED_FOR="2.2.2.2").status_code == 429


def test_password_guessing_is_limited_by_the_login_rate(owner: Any, throttle_rates: Any) -> None:
    throttle_rates(login="2/minute")
    client = APIClient()
    wrong = {"username": "owner", "password": "guess"}
    statuses = [client.post("/api/v1/auth/token", wrong, format="json").status_code for _ in range(2)]
    right = client.post("/api/v1/auth/token", {"username": "owner", "password": PASSWORD}, format="json")

    assert statuses == [400, 400]
    assert right.status_code == 429


def test_no_credentials_is_a_401_that_says_how_to_authenticate(anonymous_client: APIClient, db: None) -> None:
    response = anonymous_client.get("/api/v1/lists")
    assert response.status_code == 401
    assert error_of(response)["code"] == "not_authenticated"
    assert response["WWW-Authenticate"] == "Token"


def test_a_wrong_token_is_a_401_even_on_public_endpoints(db: None) -> None:
    client = APIClient(HTTP_AUTHORIZATION="Token not-a-real-token")
    response = client.get("/api/v1/systems")
    assert response.status_code == 401
    assert error_of(response)["code"] == "authentication_failed"


@pytest.mark.parametrize("body", [
    b"{", b'{"name": }', b"[1, 2", b"\xff\xfe\x00", b"NaN", b'{"a": Infinity}', b"1" * 5000,
])
def test_malformed_json_is_a_400_parse_error(anonymous_client: APIClient, db: None, body: bytes) -> None:
    response = anonymous_client.generic("POST", "/api/v1/points/price", body, content_type="application/json")
    assert response.status_code == 400
    assert error_of(response)["code"] == "parse_error"


@pytest.mark.parametrize("body", [[1, 2], "a unit", 42, None, {"system": 7},
                                  {"system": "opr", "models": "x"}])
def test_wrong_types_are_a_400(anonymous_client: APIClient, db: None, body: Any) -> None:
    response = anonymous_client.post("/api/v1/points/price", json.dumps(body),
                                     content_type="application/json")
    assert response.status_code == 400
    assert error_of(response)["code"] == "invalid"


def test_deep_nesting_is_a_400_not_a_recursion_error(anonymous_client: APIClient, db: None) -> None:
    body = "[" * 100_000 + "]" * 100_000
    response = anonymous_client.generic("POST", "/api/v1/points/price", body, content_type="application/json")
    assert response.status_code == 400
    assert error_of(response)["code"] == "parse_error"


@override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=10_000)
def test_a_huge_body_is_a_413(anonymous_client: APIClient, db: None) -> None:
    unit = opr_unit("Huge")
    unit["name"] = "x" * 20_000
    response = anonymous_client.post("/api/v1/points/price", unit, format="json")
    assert response.status_code == 413
    assert error_of(response)["code"] == "payload_too_large"


def test_strings_postgres_cannot_store_are_a_400_naming_the_field(owner_client: APIClient, db: None) -> None:
    response = owner_client.post("/api/v1/lists",
                                 '{"name": "nul\\u0000", "system": "opr", "points_limit": 5}',
                                 content_type="application/json")
    surrogate = owner_client.post("/api/v1/lists", '{"name": "\\ud800", "system": "opr", "points_limit": 5}',
                                  content_type="application/json")

    assert error_of(response)["details"] == {"name": ["Strings may not contain NUL characters or unpaired "
                                                      "surrogates."]}
    assert surrogate.status_code == 400


def test_nul_in_a_query_parameter_is_a_400(anonymous_client: APIClient, db: None) -> None:
    response = anonymous_client.get("/api/v1/units", {"search": "a\x00b"})
    assert response.status_code == 400
    assert list(error_of(response)["details"]) == ["search"]


def test_a_body_that_is_not_json_is_a_415(owner_client: APIClient, db: None) -> None:
    response = owner_client.post("/api/v1/lists", "name=x", content_type="application/x-www-form-urlencoded")
    assert response.status_code == 415
    assert error_of(response)["code"] == "unsupported_media_type"


def test_unknown_paths_and_methods_answer_in_the_error_shape(owner_client: APIClient, db: None) -> None:
    unknown = owner_client.get("/api/v1/nothing/here")
    with_newline = owner_client.get("/api/v1/lists/1%0Ax")
    assert (with_newline.status_code, error_of(with_newline)["code"]) == (404, "not_found")
    wrong_method = owner_client.put("/api/v1/lists", {}, format="json")

    assert (unknown.status_code, error_of(unknown)["code"]) == (404, "not_found")
    assert (wrong_method.status_code, error_of(wrong_method)["code"]) == (405, "method_not_allowed")


def test_a_browser_session_needs_the_csrf_token_to_write(owner: Any) -> None:
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(owner)
    assert client.get("/api/v1/lists").status_code == 200

    response = client.post("/api/v1/lists", {"name": "X", "system": "opr", "points_limit": 5}, format="json")
    assert response.status_code == 403
    assert error_of(response)["code"] == "permission_denied"


def test_asking_for_a_media_type_the_endpoint_does_not_give_is_a_406_in_json(owner_client: APIClient,
                                                                            db: None) -> None:
    response = owner_client.get("/api/v1/lists", HTTP_ACCEPT="text/html")
    assert response.status_code == 406
    assert error_of(response)["code"] == "not_acceptable"


def test_an_export_error_is_json_even_when_a_pdf_was_asked_for(other_client: APIClient,
                                                               private_list: ArmyList) -> None:
    response = other_client.get(f"/api/v1/lists/{private_list.pk}/export/pdf", HTTP_ACCEPT="application/pdf")
    assert response.status_code == 404
    assert error_of(response)["code"] == "not_found"
