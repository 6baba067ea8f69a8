"""The points audit on the list and faction pages (issue 28, item 2) and the Army Forge
share-JSON export of OPR lists (issue 31, item 4), read back by our own importer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse

from armybuilder.lists.importers import Source
from armybuilder.lists.imports import import_source
from armybuilder.lists.services import list_units_in_order
from rules.models import Faction
from tests.armybuilder.api.conftest import if_match
from tests.factories.army_lists import token_client

FIXTURES = Path(__file__).parent / "imports"
SAMPLE = json.loads((FIXTURES / "army_forge_list.json").read_text())


@pytest.fixture
def imported(db, client, django_user_model):
    call_command("load_catalogue", verbosity=0)
    user = django_user_model.objects.create_user("player", password="a-long-test-password")
    client.force_login(user)
    outcome = import_source(
        user=user, source=Source(name="l.json", data=(FIXTURES / "army_forge_list.json").read_bytes())
    )
    return user, outcome.army_list


def test_list_audit_sets_book_beside_formula_with_totals(client, imported):
    _user, army_list = imported
    units = list_units_in_order(army_list)
    response = client.get(reverse("lists:audit", args=[army_list.pk]))
    assert response.status_code == 200
    rows = response.context["rows"]
    assert [(r.name, r.book_number, r.formula) for r in rows] == [
        ("Ember Wardens", 215, units[0].points),
        ("Captain Vell", 90, units[1].points),
        ("Cinder Walker", 215, units[2].points),
    ]
    total = response.context["total"]
    assert (total.book_number, total.formula) == (520, sum(u.points for u in units))
    assert total.gap_number == sum(u.points for u in units) - 520
    link = reverse("lists:audit_unit", args=[army_list.pk, units[2].pk])
    assert link in response.content.decode()
    breakdown = client.get(link)
    assert breakdown.status_code == 200
    assert breakdown.context["breakdown"]["points"] == units[2].points
    assert breakdown.context["row"].gap == units[2].points - 215


def test_the_list_page_links_the_audit_and_the_army_forge_export(client, imported):
    _user, army_list = imported
    page = client.get(reverse("lists:detail", args=[army_list.pk])).content.decode()
    assert reverse("lists:audit", args=[army_list.pk]) in page
    assert reverse("lists:export_army_forge", args=[army_list.pk]) in page


def test_audit_is_404_for_a_system_without_a_formula(client, imported):
    user, _army_list = imported
    from armybuilder.lists.services import army_list_create
    from rules.models import GameSystem

    other = army_list_create(
        owner=user,
        system=GameSystem.objects.get(key="whfb6"),
        faction=None,
        name="Old world",
        points_limit=2000,
    )
    assert client.get(reverse("lists:audit", args=[other.pk])).status_code == 404
    assert client.get(reverse("lists:export_army_forge", args=[other.pk])).status_code == 404


def test_faction_page_sorts_units_by_the_gap(client, imported):
    user, _army_list = imported
    import_source(
        user=user, source=Source(name="b.json", data=(FIXTURES / "army_forge_book.json").read_bytes())
    )
    faction = Faction.objects.get(owner=user)
    response = client.get(reverse("rules:faction", args=["opr", faction.slug]))
    audit = response.context["audit"]
    gaps = [abs(row.gap) for row in audit]
    assert gaps == sorted(gaps, reverse=True)
    assert {row.name for row in audit} == {"Ember Wardens", "Ember Captain"}
    unit = client.get(audit[0].link)
    assert unit.status_code == 200
    assert unit.context["breakdown"]["points"] == audit[0].formula
    assert 'id="breakdown" open' in unit.content.decode()


def _shape(value):
    if isinstance(value, dict):
        return "object"
    if isinstance(value, list):
        return "array"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    return "string" if isinstance(value, str) else "null"


def test_army_forge_export_has_the_sample_shape_and_reads_back(client, imported):
    user, army_list = imported
    response = client.get(reverse("lists:export_army_forge", args=[army_list.pk]))
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="ember-patrol.army-forge.json"'
    exported = json.loads(response.content)
    # every top-level and unit key of the published sample's shape, with the same JSON type
    for key in ("id", "name", "gameSystem", "points", "pointsLimit", "units"):
        assert _shape(exported[key]) == _shape(SAMPLE.get(key, SAMPLE["points"])), key
    sample_unit = SAMPLE["units"][3]
    for unit in exported["units"]:
        for key in (
            "id",
            "selectionId",
            "name",
            "size",
            "quality",
            "defense",
            "cost",
            "rules",
            "loadout",
            "selectedUpgrades",
            "combined",
        ):
            assert _shape(unit[key]) == _shape(sample_unit[key]), key
        for weapon in unit["loadout"]:
            assert {"type", "name", "range", "attacks", "count", "specialRules"} <= set(weapon)
    units = list_units_in_order(army_list)
    assert [u["cost"] for u in exported["units"]] == [u.points for u in units]
    assert exported["points"] == sum(u.points for u in units)
    assert [u["customName"] for u in exported["units"]] == [None, None, None]
    back = import_source(user=user, source=Source.of_text(response.content.decode()), dry_run=True)
    assert [u.formula_points for u in back.imported.units] == [u.points for u in units]
    assert [u.source_points for u in back.imported.units] == [u.points for u in units]


def test_api_exports_army_forge_and_shared_rosz(imported):
    user, army_list = imported
    api = token_client(user)
    answer = api.get(f"/api/v1/lists/{army_list.pk}/export/army-forge")
    assert answer.status_code == 200
    assert json.loads(answer.content)["name"] == "Ember Patrol"
    shared = api.post(f"/api/v1/lists/{army_list.pk}/share", **if_match(army_list))
    token = shared.json()["token"]
    assert api.get(f"/api/v1/shared/{token}/export/rosz").content[:2] == b"PK"
    assert json.loads(api.get(f"/api/v1/shared/{token}/export/army-forge").content)["units"]
