"""A system's own list parameters (`GameSystem.list_settings_schema`) through the form, the API,
the list page and `evaluation.army_dict`; the list form's way out when a system has no faction;
the designer for every system."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.urls import reverse
from rest_framework.test import APIClient

from armybuilder.lists.evaluation import army_dict
from armybuilder.models import ArmyList
from rules.list_settings import clean_settings, settings_defaults
from rules.models import Faction, GameSystem
from rules.systems.registry import all_systems, get_system
from tests.factories.army_lists import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def catalogue() -> None:
    call_command("load_catalogue", stdout=io.StringIO())


def test_every_settings_schema_is_complete_with_titles_and_valid_defaults():
    for system in all_systems():
        schema = system.list_settings_schema
        for key, prop in (schema.get("properties") or {}).items():
            assert prop.get("title") and "default" in prop, (system.key, key)
        cleaned, problems = clean_settings(schema, {})
        assert problems == [] and cleaned == settings_defaults(schema)
    assert set(get_system("wh40k9").list_settings_schema["properties"]) == {"battle_size"}
    assert set(get_system("aos1").list_settings_schema["properties"]) == {"model_limit", "realm"}


def test_clean_settings_names_each_bad_key():
    schema = get_system("aos1").list_settings_schema
    cleaned, problems = clean_settings(schema, {"model_limit": 1001, "realm": "moon", "x": 1})
    assert dict(problems) == {
        "model_limit": "Must be between 0 and 1000.",
        "realm": "Must be one of: none, fire, metal, life, beasts, heavens, shadow, death.",
        "x": "Not a list setting of this game system.",
    }
    assert cleaned == {"model_limit": 100, "realm": "none"}


def test_the_create_form_has_the_systems_settings_and_the_list_keeps_them(client, catalogue):
    user = make_user()
    client.force_login(user)
    page = client.get(reverse("lists:create"), {"system": "wh40k9"}).content.decode()
    assert 'name="setting-battle_size"' in page and "Strike Force (100 PL per army)" in page
    faction = Faction.objects.get(slug="ironbound-covenant")
    response = client.post(
        reverse("lists:create"),
        {
            "system": "wh40k9",
            "faction": faction.pk,
            "name": "Patrol",
            "points_limit": 500,
            "setting-battle_size": "combat_patrol",
        },
    )
    assert response.status_code == 302
    army_list = ArmyList.objects.get(owner=user)
    assert army_list.settings == {"battle_size": "combat_patrol"}
    assert army_dict(army_list=army_list, units=[])["settings"] == {"battle_size": "combat_patrol"}
    refused = client.post(
        reverse("lists:create"),
        {
            "system": "wh40k9",
            "faction": faction.pk,
            "name": "Patrol",
            "points_limit": 500,
            "setting-battle_size": "apocalypse",
        },
    )
    assert refused.status_code == 400


def test_a_system_without_settings_shows_no_setting_fields(client, catalogue):
    client.force_login(make_user())
    page = client.get(reverse("lists:create"), {"system": "opr"}).content.decode()
    assert 'name="setting-' not in page


def test_the_list_page_shows_power_level_and_the_api_carries_settings_and_summary(client, catalogue):
    call_command("load_example_lists", stdout=io.StringIO())
    example = ArmyList.objects.get(owner__username="examples", system__key="wh40k9")
    page = client.get(reverse("lists:detail", args=[example.pk])).content.decode()
    assert 'data-summary="power_level"' in page
    roster = client.get(reverse("lists:roster", args=[example.pk])).content.decode()
    assert 'data-summary="power_level"' in roster and "Power Level: 24 / 25" in roster
    assert "Battle size: Combat Patrol (25 PL per army)" in roster
    api = APIClient()
    api.force_authenticate(make_user())  # the API reads others' public lists for signed-in users
    response = api.get(f"/api/v1/lists/{example.pk}")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["settings"] == {"battle_size": "combat_patrol"}
    assert body["summary"][0] == {
        "key": "power_level", "label": "Power Level", "value": 24, "limit": 25
    }  # 4 + 3 + 6 + 4 + 7
    assert [row["key"] for row in body["summary"][1:]] == ["detachment:Covenant patrol"]
    systems = api.get("/api/v1/systems").json()
    systems = systems["results"] if isinstance(systems, dict) else systems
    by_key = {s["key"]: s for s in systems}
    assert by_key["wh40k9"]["list_settings_schema"]["properties"]["battle_size"]["default"] == "strike_force"
    assert by_key["opr"]["list_settings_schema"] == {}


def test_the_api_creates_and_patches_settings_and_names_bad_ones(catalogue):
    user = make_user()
    api = APIClient()
    api.force_authenticate(user)
    created = api.post(
        "/api/v1/lists",
        {"system": "aos1", "name": "Gate", "points_limit": 100, "settings": {"model_limit": 30}},
        format="json",
    )
    assert created.status_code == 201, created.content
    assert created.json()["settings"] == {"model_limit": 30, "realm": "none"}
    list_id = created.json()["id"]
    patched = api.patch(
        f"/api/v1/lists/{list_id}",
        {"settings": {"realm": "fire"}},
        format="json",
        HTTP_IF_MATCH=created["ETag"],
    )
    assert patched.status_code == 200, patched.content
    assert patched.json()["settings"] == {"model_limit": 30, "realm": "fire"}
    bad = api.patch(
        f"/api/v1/lists/{list_id}",
        {"settings": {"realm": "moon"}},
        format="json",
        HTTP_IF_MATCH=patched["ETag"],
    )
    assert bad.status_code == 400
    assert "settings.realm" in bad.content.decode()


def test_a_system_without_factions_offers_the_designer_instead_of_an_empty_menu(client, catalogue):
    client.force_login(make_user())
    Faction.objects.filter(system__key="aos1").delete()
    page = client.get(reverse("lists:create"), {"system": "aos1"}).content.decode()
    assert 'id="no-faction"' in page
    assert f"{reverse('rules:designer')}?system=aos1" in page
    assert '<select name="faction"' not in page


@pytest.mark.parametrize("system_key", [s.key for s in all_systems()])
def test_the_designer_opens_without_errors_for_every_system(client, catalogue, system_key):
    client.force_login(make_user())
    response = client.get(reverse("rules:designer"), {"system": system_key})
    assert response.status_code == 200
    html = response.content.decode()
    assert GameSystem.objects.get(key=system_key).name in html
    assert 'class="errorlist' not in html


def test_the_designer_sets_a_power_rating_and_a_fantasy_slot(client, catalogue):
    client.force_login(make_user())
    page = client.get(reverse("rules:designer"), {"system": "wh40k9"}).content.decode()
    assert 'name="u-power_rating"' in page
    page = client.get(reverse("rules:designer"), {"system": "whfb6"}).content.decode()
    assert 'name="u-slot"' in page and 'name="u-min_models"' in page
    page = client.get(reverse("rules:designer"), {"system": "opr"}).content.decode()
    assert 'name="u-' not in page


def test_designer_unit_fields_round_trip_into_the_unit():
    from rules.designer_form import DesignerForm

    form = DesignerForm(
        system_key="wh40k9",
        profile_schema=get_system("wh40k9").profile_schema,
        model_rules=[],
        weapon_rules=[],
    )
    form.load_unit({"name": "Squad", "power_rating": 7, "keywords": ["INFANTRY"], "models": []})
    assert form.unit_values == {"power_rating": 7, "battlefield_role": None}
    data = form.unit_data()
    assert data["power_rating"] == 7 and data["keywords"] == ["INFANTRY"]
    assert (
        get_system("wh40k9").price(
            {
                **data,
                "models": [
                    {
                        "name": "M",
                        "count": 1,
                        "points": 10,
                        "m": 6,
                        "ws": 3,
                        "bs": 3,
                        "s": 4,
                        "t": 4,
                        "w": 2,
                        "a": 2,
                        "ld": 7,
                        "sv": 3,
                    }
                ],
            }
        )["power"]
        == 7
    )
