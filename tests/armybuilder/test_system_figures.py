"""What sizes a list and what a unit carries, as each system says through the registry (issue 13).

- AoS 1st has no points (`GameSystem.points_sized` is false): the list page, the list form,
  the roster, the text export, the API and the gallery show no points limit and no points
  left, but the system's `army_summary` (models against the agreed number, wounds).
- WHFB 6th and the Russian rules report each character's magic item points used / allowed
  (`GameSystem.unit_summary`) on the editor's unit card, the roster and the API, not only in
  a violation.
Pages never name a system: the toy system at the end proves the seam.
"""

from __future__ import annotations

import io
import re

import pytest
from django.core.management import call_command
from django.urls import reverse
from rest_framework.test import APIClient

from armybuilder.models import ArmyList
from rules.models import Faction
from rules.systems.registry import get_system
from tests.factories.army_lists import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def examples() -> None:
    call_command("load_catalogue", stdout=io.StringIO())
    call_command("load_example_lists", stdout=io.StringIO())


def example(system_key: str) -> ArmyList:
    return ArmyList.objects.get(owner__username="examples", system__key=system_key)


def signed_in_api() -> APIClient:
    api = APIClient()
    api.force_authenticate(make_user())
    return api


def test_only_aos_is_sized_without_points():
    assert {key: get_system(key).points_sized for key in ("opr", "whfb6", "wh40k9", "aos1", "ru_whfb")} == {
        "opr": True, "whfb6": True, "wh40k9": True, "aos1": False, "ru_whfb": True,
    }


def test_the_aos_list_page_and_roster_show_models_and_wounds_never_a_points_limit(client, examples):
    aos = example("aos1")
    page = client.get(reverse("lists:detail", args=[aos.pk])).content.decode()
    assert 'id="points-left"' not in page and "points left" not in page
    assert f"/ {aos.points_limit}" not in page
    assert re.search(r'data-summary="models".*Models.*/ 50', page, re.S)
    assert 'data-summary="wounds"' in page
    assert 'class="unit-points' not in page
    roster = client.get(reverse("lists:roster", args=[aos.pk])).content.decode()
    head = roster.split('class="roster-summary"')[0]
    assert "pts" not in head and "Models: " in head and "Wounds: " in head
    assert f"/ {aos.points_limit}" not in roster
    # A points list keeps its limit everywhere.
    opr = example("opr")
    opr_page = client.get(reverse("lists:detail", args=[opr.pk])).content.decode()
    assert 'id="points-left"' in opr_page and f"/ {opr.points_limit} pts" in opr_page


def test_the_aos_gallery_row_compare_and_text_export_show_what_sizes_the_list(client, examples):
    aos = example("aos1")
    gallery = client.get(reverse("lists:gallery")).content.decode()
    row = next(r for r in gallery.split("<tr>") if aos.name in r)
    assert 'data-summary="models"' in row and f"/ {aos.points_limit}" not in row
    client.force_login(make_user())
    text = client.get(reverse("lists:roster_text", args=[aos.pk])).content.decode()
    assert "pts" not in text and "Models 27/50" in text.splitlines()[0], text
    assert "Total: Models 27/50, Wounds 73, 8 units" in text.splitlines()


def test_the_aos_list_form_asks_no_points_limit_and_creates_the_list(client, examples):
    user = make_user()
    client.force_login(user)
    form = client.get(reverse("lists:create"), {"system": "aos1"}).content.decode()
    assert 'name="points_limit"' not in form and 'name="setting-model_limit"' in form
    opr_form = client.get(reverse("lists:create"), {"system": "opr"}).content.decode()
    assert 'name="points_limit"' in opr_form
    faction = Faction.objects.get(slug="stormwardens-of-halcyr")
    response = client.post(
        reverse("lists:create"),
        {"system": "aos1", "faction": faction.pk, "name": "Gate",
         "setting-model_limit": 40, "setting-realm": "fire"},
    )
    assert response.status_code == 302, response.content.decode()
    army_list = ArmyList.objects.get(owner=user)
    settings_page = client.get(reverse("lists:detail", args=[army_list.pk])).content.decode()
    assert 'name="points_limit"' not in settings_page
    saved = client.post(
        reverse("lists:update", args=[army_list.pk]),
        {"version": army_list.version, "name": "Gate II", "setting-model_limit": 60, "setting-realm": "fire"},
    )
    assert saved.status_code == 302
    army_list.refresh_from_db()
    assert (army_list.name, army_list.settings["model_limit"]) == ("Gate II", 60)


def test_the_api_gives_aos_no_points_limit_and_asks_points_systems_for_one(examples):
    api = signed_in_api()
    aos = api.get(f"/api/v1/lists/{example('aos1').pk}").json()
    assert (aos["points_sized"], aos["points_limit"], aos["points_left"]) == (False, None, None)
    assert [row["key"] for row in aos["summary"]] == ["models", "wounds"]
    assert aos["summary"][0] == {"key": "models", "label": "Models", "value": 27, "limit": 50}
    validated = api.get(f"/api/v1/lists/{example('aos1').pk}/validate").json()
    assert (validated["points_limit"], validated["points_left"]) == (None, None)
    opr = api.get(f"/api/v1/lists/{example('opr').pk}").json()
    assert opr["points_sized"] is True and opr["points_limit"] == example("opr").points_limit
    created = api.post("/api/v1/lists", {"system": "aos1", "name": "No points"}, format="json")
    assert created.status_code == 201, created.content
    refused = api.post("/api/v1/lists", {"system": "opr", "name": "Needs points"}, format="json")
    assert refused.status_code == 400 and "points_limit" in refused.content.decode()


def test_each_characters_magic_items_show_on_the_card_the_roster_and_the_api(client, examples):
    whfb = example("whfb6")
    margrave = whfb.units.get(position=0)
    [row] = get_system("whfb6").unit_summary({"options": {}}, margrave.data)
    assert row["model"] == "Margrave" and row["limit"] == 100 and row["over"] is False
    spent = row["value"]
    assert float(spent) > 0
    client.force_login(whfb.owner)
    page = client.get(reverse("lists:detail", args=[whfb.pk])).content.decode()
    card = page.split(f'id="unit-{margrave.pk}"')[1].split("</li>")[0]
    figure = f'"magic_items">Margrave · Magic item points: <span class="points">{spent}</span> / 100'
    assert figure in card
    roster = client.get(reverse("lists:roster", args=[whfb.pk])).content.decode()
    assert f"Margrave · Magic item points: {spent} / 100" in roster
    assert roster.count("Margrave · Magic item points") == 1  # on the card, not again in the summary
    table = client.get(reverse("lists:roster", args=[whfb.pk]), {"layout": "table"}).content.decode()
    assert f'data-figure="magic_items">Margrave · Magic item points: {spent} / 100</small>' in table
    body = signed_in_api().get(f"/api/v1/lists/{whfb.pk}").json()
    assert body["units"][0]["summary"] == [
        {"key": "magic_items", "label": "Magic item points", "model": "Margrave", "value": spent,
         "over": False, "limit": 100}
    ]
    # Units without characters report nothing; systems without the seam report nothing.
    assert body["units"][3]["summary"] == []
    assert signed_in_api().get(f"/api/v1/lists/{example('opr').pk}").json()["units"][0]["summary"] == []


def test_the_allowance_is_shown_while_the_list_checks_it_and_an_overspend_is_marked():
    unit = {
        "format": 1, "system": "ru_whfb", "name": "Hero", "slot": "hero",
        "models": [{"name": "Hero", "count": 1, "points": 50, "character": True, "items": [
            {"name": "Blade", "kind": "weapon", "points": 30.25},
            {"name": "Charm", "kind": "talisman", "points": 25},
            {"name": "Shield", "kind": "mundane", "points": 5},
        ]}],
    }
    summarise = get_system("ru_whfb").unit_summary
    assert summarise({"options": {}}, unit) == [
        {"key": "magic_items", "label": "Magic item points", "model": "Hero", "value": "55.3", "over": True,
         "limit": 50}
    ]
    assert summarise({"options": {"magic_item_points": False}}, unit) == [
        {"key": "magic_items", "label": "Magic item points", "model": "Hero", "value": "55.3", "over": False}
    ]
    assert summarise({}, {**unit, "slot": "core"}) == []


def test_an_aos_list_is_named_by_its_units_not_points_in_the_estimate_target_menu(examples):
    from django.contrib.auth.models import AnonymousUser

    from armybuilder.estimates.sources import _list_label

    aos, opr = example("aos1"), example("opr")
    assert _list_label(aos, AnonymousUser()) == (
        f"{aos.name} (by examples; Stormwardens of Halcyr (original sample army), 8 units, #{aos.pk})"
    )
    assert f", {opr.total_points}/{opr.points_limit} pts, #{opr.pk})" in _list_label(opr, AnonymousUser())


def test_a_system_without_unit_figures_writes_no_army_out_per_unit(examples, monkeypatch):
    """OPR reports no figure besides points for a unit: reading a list (API, pages) writes its army
    out for no unit (it was once per unit of every read), and each unit's summary stays empty."""
    from armybuilder.lists import evaluation

    def refuse(**_kwargs):
        raise AssertionError("no army is written out for a system without unit figures")

    monkeypatch.setattr(evaluation, "army_dict", refuse)
    opr = example("opr")
    assert all(evaluation.unit_summary(army_list=opr, unit=unit) == [] for unit in opr.units.all())
    monkeypatch.undo()
    read = signed_in_api().get(f"/api/v1/lists/{opr.pk}").json()
    assert read["units"] and all(unit["summary"] == [] for unit in read["units"])
