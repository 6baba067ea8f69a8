"""Hostile JSON fails the import naming the problem, never a crash: on the HTML page (the job
shows the form again with the problem), and in the API (a 400 before anything is queued): lone
surrogates, integers longer than Python converts."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from armybuilder.models import ArmyList
from tests.factories.army_lists import INFANTRY, make_user, opr_system
from tests.factories.list_imports import page_result

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("inline_pdf_renders")]


def document(name: str = "Imported") -> dict:
    return {"format": 1, "system": "opr", "name": name, "points_limit": 1000,
            "options": {"unit_balance": False}, "units": [{"unit": INFANTRY, "count": 1}]}


def test_a_lone_surrogate_in_the_name_fails_naming_the_field(client) -> None:
    opr_system()
    client.force_login(make_user())
    text = json.dumps(document()).replace('"Imported"', '"\\ud800x"')

    response = page_result(client, client.post(reverse("lists:import"), {"text": text}))

    assert response.status_code == 200
    page = response.content.decode()
    assert "name" in page and "unpaired surrogates" in page
    assert ArmyList.objects.count() == 0


def test_an_integer_of_5000_digits_fails_in_words_not_a_crash(client) -> None:
    opr_system()
    client.force_login(make_user())
    text = json.dumps(document()).replace('"points_limit": 1000', '"points_limit": ' + "9" * 5000)

    response = page_result(client, client.post(reverse("lists:import"), {"text": text}))

    assert response.status_code == 200
    assert "Not valid JSON" in response.content.decode()
    assert "A number has 5000 digits; numbers may have at most 30." in response.content.decode()
    assert "set_int_max_str_digits" not in response.content.decode()  # issue 25: not Python's own words
    assert ArmyList.objects.count() == 0


def test_the_api_import_refuses_the_same_documents_with_400(client) -> None:
    opr_system()
    client.force_login(make_user())
    surrogate = json.dumps(document()).replace('"Imported"', '"\\ud800x"')
    digits = json.dumps(document()).replace('"points_limit": 1000', '"points_limit": ' + "9" * 5000)

    for body in (surrogate, digits):
        response = client.post("/api/v1/lists/import", body, content_type="application/json")
        assert response.status_code == 400, response.content
