"""Password guessing is limited on every login path, with one shared count, and the limit
fails closed when its store is down."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.factories.army_lists import PASSWORD

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


def test_an_attacker_elsewhere_does_not_lock_the_owner_out(owner: Any, throttle_rates: Any) -> None:
    """The count is per address and username (and per address), never per username
    alone: usernames are public in shared lists."""
    throttle_rates(login="2/minute", login_address="100/minute")
    attacker = Client(REMOTE_ADDR="10.0.0.66")

    guesses = [html_login(attacker, "/accounts/login/", WRONG) for _ in range(3)]
    owner_signs_in = html_login(Client(REMOTE_ADDR="10.0.0.1"), "/accounts/login/", PASSWORD)

    assert guesses == [200, 200, 429]
    assert owner_signs_in == 302


def test_successful_sign_ins_count_nothing_so_a_club_on_one_address_is_not_slowed(
        owner: Any, other: Any, throttle_rates: Any) -> None:
    throttle_rates(login="2/minute", login_address="3/minute")

    statuses = [html_login(Client(REMOTE_ADDR="10.0.0.5"), "/accounts/login/", PASSWORD, username=name)
                for name in ("owner", "other") * 4]
    api = [api_login(PASSWORD, username=name, REMOTE_ADDR="10.0.0.5") for name in ("owner", "other") * 2]

    assert statuses == [302] * 8
    assert api == [200] * 4


def test_one_address_trying_many_accounts_is_slowed_by_the_address_rate(
        owner: Any, other: Any, throttle_rates: Any) -> None:
    throttle_rates(login="5/minute", login_address="3/minute")
    client = Client(REMOTE_ADDR="10.0.0.7")

    statuses = [html_login(client, "/accounts/login/", WRONG, username=name)
                for name in ("owner", "other", "third", "fourth")]
    elsewhere = html_login(Client(REMOTE_ADDR="10.0.0.8"), "/accounts/login/", PASSWORD)

    assert statuses == [200, 200, 200, 429]
    assert elsewhere == 302


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
