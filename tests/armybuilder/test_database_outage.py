"""The database going away answers 503 with a clear message, pages and API alike,
as a Redis outage already does; nothing on the way reads the database again.

The test run's own embedded Postgres is stopped for real (`tests/postgres_server.py`).
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.postgres_server import postgres_stopped

pytestmark = pytest.mark.django_db(transaction=True)

MESSAGE = "The database is unreachable right now; nothing was changed. Try again in a minute."


def test_pages_and_the_api_answer_503_while_postgres_is_down_and_work_again_after(settings: Any) -> None:
    settings.DEBUG = False
    page_client = Client(raise_request_exception=False)
    api_client = APIClient(raise_request_exception=False)

    with postgres_stopped(1):
        page = page_client.get("/catalogue/")
        api = api_client.get("/api/v1/units")
        form = page_client.post("/accounts/login/", {"username": "owner", "password": "x"})

    assert page.status_code == 503
    assert page["Retry-After"] == "30"
    assert MESSAGE in page.content.decode()
    assert api.status_code == 503
    assert api["Retry-After"] == "30"
    assert api.json() == {"code": "unavailable", "message": MESSAGE, "details": {}}
    assert form.status_code == 503
    assert page_client.get("/catalogue/").status_code == 200
    assert api_client.get("/api/v1/units").status_code == 200


def test_the_503_page_is_in_the_visitors_language(settings: Any) -> None:
    settings.DEBUG = False
    client = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="pl")

    with postgres_stopped(1):
        page = client.get("/catalogue/")

    assert page.status_code == 503
    assert 'lang="pl"' in page.content.decode()
    assert MESSAGE not in page.content.decode()
