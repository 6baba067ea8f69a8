"""A faction's BattleScribe data re-imported at another revision (issue 40): every list of it is
re-priced once, in the import, and the import says what changed; the list, a fresh evaluation
and the roster's errors then show one total (hand-written test catalogue `bands_army.cat`)."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command
from django.template.loader import render_to_string

from armybuilder.lists import services
from armybuilder.lists.evaluation import army_list_evaluate
from rules.battlescribe.xml_reader import SourceFile
from rules.battlescribe_import import import_files
from rules.battlescribe_jobs import ImportJob
from rules.battlescribe_views import job_context
from rules.models import UnitTemplate
from tests.factories.army_lists import make_list, make_user
from tests.rules.battlescribe.files import FILES, source

pytestmark = pytest.mark.django_db


def revision_2() -> SourceFile:
    """The catalogue at revision 2: the Giant costs 230 (was 200), Spears are gone."""
    text = (FILES / "bands_army.cat").read_text(encoding="utf-8")
    text = text.replace('name="Test Hill Tribes" revision="1"', 'name="Test Hill Tribes" revision="2"')
    giant = text.index('id="bd-giant"')
    cost = text.index('value="200.0"', giant)
    text = text[:cost] + 'value="230.0"' + text[cost + len('value="200.0"') :]
    start = text.index('<selectionEntry id="bd-rw-spears"')
    end = text.index("</selectionEntry>", start) + len("</selectionEntry>")
    return SourceFile("bands_army.cat", (text[:start] + text[end:]).encode())


def test_a_reimport_reprices_every_list_once_and_reports_the_changes():
    call_command("load_catalogue", verbosity=0)
    owner = make_user()
    files = [source("bands.gst"), source("bands_army.cat")]
    first = import_files(system_key="whfb6", files=files, owner=owner)
    assert first.repriced == []
    faction = first.factions[0]
    army_list = make_list(owner=owner, faction=faction, points_limit=2000)
    for slug in ("bs-bd-giant", "bs-bd-riders"):
        army_list.refresh_from_db()
        services.army_list_add_unit(
            army_list=army_list,
            unit=UnitTemplate.objects.get(faction=faction, slug=slug),
            options={},
            expected_version=army_list.version,
        )
    army_list.refresh_from_db()
    riders = army_list.units.get(name="Wolf Riders")
    spears = next(o for o in riders.available_options if o["label"] == "Spears")
    services.army_list_unit_set_options(
        list_unit=riders,
        options={o["key"]: int(o["key"] == spears["key"]) for o in riders.available_options},
        expected_version=army_list.version,
    )
    army_list.refresh_from_db()
    assert army_list.total_points == 200 + 60

    second = import_files(system_key="whfb6", files=[source("bands.gst"), revision_2()], owner=owner)
    assert second.repriced == [
        {
            "list_id": army_list.pk,
            "list": army_list.name,
            "owner_id": owner.pk,
            "old_total": 260,
            "new_total": 230 + 50,
            "changes": [
                {"unit": "Giant", "old": 200, "new": 230, "removed_options": [], "gone": False},
                {"unit": "Wolf Riders", "old": 60, "new": 50, "removed_options": ["Spears"], "gone": False},
            ],
        }
    ]
    summary = json.loads(json.dumps(second.summary()))
    assert summary["repriced_lists"] == second.repriced
    # the import's result page says it, in a player's words
    job = ImportJob(id="j", state="done", system="whfb6", summary=summary)
    page = " ".join(render_to_string("rules/_battlescribe_job.html", job_context(job)).split())
    assert "Lists re-priced with this data" in page
    assert f">{army_list.name}</a>: 260 → 280 pts" in page
    assert "Giant: 200 → 230 pts" in page
    assert "Wolf Riders: 60 → 50 pts; options that no longer exist: Spears" in page
    army_list.refresh_from_db()
    fresh = army_list_evaluate(army_list=army_list)
    assert army_list.total_points == fresh.total_points == 280
    assert army_list.violations == fresh.violations
    # the same data again changes nothing and reports nothing
    third = import_files(system_key="whfb6", files=[source("bands.gst"), revision_2()], owner=owner)
    assert third.repriced == []
