"""Requests past the body limits are answered in a player's words, and a client
told to retry later keeps its connection (gunicorn's keep-alive outlasts `Retry-After`)."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest
from django.test import Client

from armybuilder.roster.pdf_jobs import PdfState
from tests.factories.army_lists import make_user

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.django_db
def test_a_form_over_the_body_limit_gets_a_page_that_says_so(settings) -> None:
    settings.DEBUG = False
    client = Client(raise_request_exception=False)
    client.force_login(make_user())

    response = client.post("/lists/import/", {"text": "x" * (3 * 1024 * 1024)})

    page = response.content.decode()
    assert response.status_code == 413
    assert "What you sent is larger than the 2 MB a form may send." in page
    assert "Bad Request" not in page


@pytest.mark.django_db
def test_a_form_with_too_many_fields_gets_a_page_that_says_so(settings) -> None:
    settings.DEBUG = False
    client = Client(raise_request_exception=False)
    client.force_login(make_user())

    response = client.post("/lists/import/", {f"field{i}": "x" for i in range(2100)})

    assert response.status_code == 400
    assert "What you sent has more than 2000 fields. Send less at once." in response.content.decode()


def test_keep_alive_outlasts_every_retry_after_the_jobs_send() -> None:
    config = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    assert config["keepalive"] > PdfState("pending").retry_after
