"""Tokens for apps, sessions for the browser (issue 6, "token authentication for apps")."""

from __future__ import annotations

from typing import Any

from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.factories.army_lists import PASSWORD


def get_token(client: APIClient, username: str, password: str) -> Any:
    return client.post("/api/v1/auth/token", {"username": username, "password": password}, format="json")


def test_a_username_and_password_give_a_token_that_authenticates(owner: Any) -> None:
    client = APIClient()
    response = client.post("/api/v1/auth/token", {"username": "owner", "password": PASSWORD}, format="json")

    body = response.json()
    assert response.status_code == 200
    assert body == {"token": Token.objects.get(user=owner).key, "user_id": owner.pk, "username": "owner"}
    client.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
    assert client.get("/api/v1/lists").status_code == 200


def test_asking_twice_gives_the_same_token(owner: Any) -> None:
    client = APIClient()
    first = client.post("/api/v1/auth/token", {"username": "owner", "password": PASSWORD}, format="json")
    second = client.post("/api/v1/auth/token", {"username": "owner", "password": PASSWORD}, format="json")
    assert first.json()["token"] == second.json()["token"]


def test_a_wrong_password_is_a_400_without_saying_which_part_was_wrong(owner: Any) -> None:
    wrong_password = get_token(APIClient(), "owner", "x")
    no_such_user = get_token(APIClient(), "nobody", "x")

    assert wrong_password.status_code == no_such_user.status_code == 400
    assert wrong_password.json() == no_such_user.json()
    assert list(wrong_password.json()["details"]) == ["non_field_errors"]


def test_an_inactive_account_gets_no_token(owner: Any) -> None:
    owner.is_active = False
    owner.save()
    response = get_token(APIClient(), "owner", PASSWORD)
    assert response.status_code == 400


def test_revoking_the_token_signs_the_app_out_and_a_new_one_can_be_made(owner: Any) -> None:
    client = APIClient()
    old = client.post("/api/v1/auth/token", {"username": "owner", "password": PASSWORD}, format="json").json()
    client.credentials(HTTP_AUTHORIZATION=f"Token {old['token']}")

    assert client.delete("/api/v1/auth/token").status_code == 204
    after = client.get("/api/v1/lists")
    assert (after.status_code, after.json()["code"]) == (401, "authentication_failed")

    client.credentials()
    new = client.post("/api/v1/auth/token", {"username": "owner", "password": PASSWORD}, format="json").json()
    assert new["token"] != old["token"]


def test_revoking_needs_an_account(db: None) -> None:
    assert APIClient().delete("/api/v1/auth/token").status_code == 401


def test_the_browser_session_works_without_a_token(owner: Any) -> None:
    client = APIClient()
    client.force_login(owner)
    assert client.get("/api/v1/lists").status_code == 200
