"""Password guessing is limited on every login path, with one shared count, and the limit
fails closed when its store is down (issue 17, item 3)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.api.conftest import PASSWORD

WRONG = "not the password"


def html_login(client: Client, path: str, password: str, username: str = "owner", **extra: Any) -> int:
    return client.post(path, {"username": username, "password": password}, **extra).status_code


def api_login(password: str, username: str = "owner", **extra: Any) -> int:
    return APIClient().post("/api/v1/auth/token", {"username": username, "password": password},
                            format="json", **extra).status_code


@pytest.mark.parametrize("path", ["/accounts/login/", "/admin/login/"])
def test_each_html_login_form_locks_out_after_the_login_rate(owner: Any, throttle_rates: Any,
                                                            path: str) -> None:
    throttle_rates(login="3/minute")
    client = Client()

    statuses = [html_login(client, path, WRONG) for _ in range(3)]
    locked = client.post(path, {"username": "owner", "password": PASSWORD})

    assert statuses == [200, 200, 200]  # the form again, with its error
    assert locked.status_code == 429
    assert int(locked["Retry-After"]) > 0
    assert "Too many attempts" in locked.content.decode()


def test_the_form_and_the_api_share_one_count_so_the_form_is_no_way_around(owner: Any,
                                                                           throttle_rates: Any) -> None:
    throttle_rates(login="3/minute")

    statuses = [html_login(Client(), "/accounts/login/", WRONG), html_login(Client(), "/admin/login/", WRONG),
                api_login(WRONG), api_login(PASSWORD), html_login(Client(), "/accounts/login/", PASSWORD)]

    assert statuses == [200, 200, 400, 429, 429]


def test_rotating_addresses_does_not_escape_the_per_account_count(owner: Any, throttle_rates: Any) -> None:
    throttle_rates(login="2/minute")

    statuses = [html_login(Client(REMOTE_ADDR=f"10.0.0.{n}"), "/accounts/login/", WRONG) for n in range(1, 4)]
    other_account = html_login(Client(REMOTE_ADDR="10.0.0.9"), "/accounts/login/", WRONG, username="other")

    assert statuses == [200, 200, 429]
    assert other_account == 200


def test_with_the_counter_store_down_every_login_path_fails_closed(owner: Any, settings: Any) -> None:
    from tests.redis_server import free_port

    settings.CACHES = {**settings.CACHES, settings.API_THROTTLE_CACHE: {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": f"redis://127.0.0.1:{free_port()}/0", "OPTIONS": {"socket_connect_timeout": 1}}}

    form = Client().post("/accounts/login/", {"username": "owner", "password": PASSWORD})
    admin = Client().post("/admin/login/", {"username": "owner", "password": PASSWORD})
    api = APIClient().post("/api/v1/auth/token", {"username": "owner", "password": PASSWORD}, format="json")
    page = Client().get("/accounts/login/")  # reading the form needs no counter

    assert (form.status_code, admin.status_code, api.status_code) == (503, 503, 503)
    assert api.json()["code"] == "unavailable"
    assert page.status_code == 200


def test_html_pages_have_a_rate_per_address_too(db: None, throttle_rates: Any) -> None:
    throttle_rates(page="3/minute")
    client = Client()

    statuses = [client.get("/catalogue/").status_code for _ in range(4)]
    health = client.get("/healthz")

    assert statuses == [200, 200, 200, 429]
    assert health.status_code != 429
