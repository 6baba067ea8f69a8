"""The Import page: a file, pasted text or a share link in any format we read, with a report of
each unit's source price beside ours; "Check" saves nothing; bad input fails the job naming the
field or line, and the form comes back with the text to fix.

The import runs as a job (`armybuilder.lists.import_jobs`); here Celery's eager mode runs it
inside the post, so the redirect leads to a finished job. `test_import_jobs.py` runs it on a
real worker."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse

from armybuilder.models import ArmyList
from rules.models import Faction
from tests.factories.list_imports import page_result

FIXTURES = Path(__file__).parent / "imports"
LIST = (FIXTURES / "army_forge_list.json").read_text()


@pytest.fixture
def player(db, client, django_user_model, inline_pdf_renders):
    call_command("load_catalogue", verbosity=0)
    user = django_user_model.objects.create_user("player", password="a-long-test-password")
    client.force_login(user)
    return user


def test_pasted_army_forge_json_imports_and_shows_the_report(client, player):
    response = page_result(client, client.post(reverse("lists:import"),
                                            {"text": LIST, "format": "auto", "action": "import"}))
    assert response.status_code == 200
    page = response.content.decode()
    army_list = ArmyList.objects.get(owner=player)
    assert "Ember Patrol" in page and reverse("lists:detail", args=[army_list.pk]) in page
    report = response.context["report"]
    assert [(u["name"], u["source_points"]) for u in report["units"]] == [
        ("Ember Wardens", 215),
        ("Captain Vell", 90),
        ("Cinder Walker", 215),
    ]
    assert report["formula_total"] == army_list.total_points
    assert report["gap"] == army_list.total_points - 520
    # the rules the formula does not price are kept as text and named, not left out
    assert "2 rules not priced by the formula: Ember Oath, Banner of Cinders" in page
    assert "formula price without: Banner of Cinders" in page


def test_check_saves_nothing(client, player):
    response = page_result(client, client.post(reverse("lists:import"), {"text": LIST, "action": "check"}))
    assert response.status_code == 200
    assert "nothing was saved" in response.content.decode()
    assert not ArmyList.objects.exists()


def test_uploaded_army_book_becomes_a_faction(client, player):
    book = SimpleUploadedFile("book.json", (FIXTURES / "army_forge_book.json").read_bytes())
    response = page_result(client, client.post(reverse("lists:import"), {"file": book, "action": "import"}))
    assert response.status_code == 200
    faction = Faction.objects.get(owner=player)
    assert reverse("rules:faction", args=["opr", faction.slug]) in response.content.decode()


def test_bad_source_fails_the_job_naming_the_field_and_keeps_the_text(client, player):
    data = json.loads(LIST)
    data["units"][0]["size"] = 0
    text = json.dumps(data)
    response = page_result(client, client.post(reverse("lists:import"), {"text": text, "action": "import"}))
    assert response.context["import_errors"] == [("units[0].size", "Must be a whole number from 1 to 1000.")]
    assert response.context["form"]["text"].value() == text  # the text comes back to be fixed
    assert not ArmyList.objects.exists()


def test_a_link_elsewhere_is_refused(client, player):
    response = page_result(client, client.post(
        reverse("lists:import"), {"text": "https://example.com/share?id=abc", "action": "import"}
    ))
    assert response.context["import_errors"][0][0] == "url"
