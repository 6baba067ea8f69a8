"""The one-page list editor: htmx answers with fragments, plain posts redirect."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from armybuilder.models import ArmyList, ListUnit
from tests.factories.army_lists import INFANTRY_POINTS, make_faction, make_list, make_unit, make_user

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def setup(client):
    owner = make_user()
    faction = make_faction()
    infantry = make_unit(faction=faction)
    army_list = make_list(owner=owner, faction=faction)
    client.force_login(owner)
    return army_list, infantry


def test_editor_page_shows_units_to_add_settings_and_summary(client, setup):
    army_list, infantry = setup
    response = client.get(reverse("lists:detail", args=[army_list.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    assert 'id="list-summary"' in html and 'id="unit-rows"' in html
    assert f'name="unit" value="{infantry.pk}"' in html
    assert 'data-version="1"' in html
    assert "js/list_editor.js" in html
    assert "Army structure rules" in html


def test_htmx_add_returns_the_row_and_the_summary_out_of_band(client, setup):
    army_list, infantry = setup
    response = client.post(
        reverse("lists:unit_add", args=[army_list.pk]), {"unit": infantry.pk, "version": 1}, **HTMX
    )
    html = response.content.decode()
    assert response.status_code == 200
    unit = ListUnit.objects.get(army_list=army_list)
    assert html.startswith(f'<li id="unit-{unit.pk}"')
    assert f"{INFANTRY_POINTS} pts" in html
    assert '<div id="list-summary" hx-swap-oob="innerHTML">' in html
    assert f'<span id="list-total" class="points">{INFANTRY_POINTS}</span>' in html
    assert 'data-version="2"' in html
    assert '<div id="editor-alert" hx-swap-oob="innerHTML"></div>' in html


def test_the_version_header_wins_over_the_form_field(client, setup):
    """The page's script sends the current version as a header; hidden fields may be older."""
    army_list, infantry = setup
    client.post(reverse("lists:unit_add", args=[army_list.pk]), {"unit": infantry.pk, "version": 1}, **HTMX)
    response = client.post(
        reverse("lists:unit_add", args=[army_list.pk]),
        {"unit": infantry.pk, "version": 1},
        HTTP_X_LIST_VERSION="2",
        **HTMX,
    )
    assert response.status_code == 200
    assert ArmyList.objects.get(pk=army_list.pk).unit_count == 2


def test_htmx_option_change_rerenders_the_row_open_with_new_points(client, setup):
    army_list, infantry = setup
    client.post(reverse("lists:unit_add", args=[army_list.pk]), {"unit": infantry.pk, "version": 1}, **HTMX)
    unit = ListUnit.objects.get(army_list=army_list)
    response = client.post(
        reverse("lists:unit_options", args=[army_list.pk, unit.pk]),
        {"option-plasma": "1", "option-extra": "3", "version": 2},
        **HTMX,
    )
    html = response.content.decode()
    assert response.status_code == 200
    unit.refresh_from_db()
    assert unit.chosen_options == {"plasma": 1, "extra": 3}
    assert '<details class="unit-options" open>' in html
    assert f"{unit.points} pts" in html
    assert f'id="unit-{unit.pk}-option-plasma" name="option-plasma" value="1" checked' in html
    assert "Upgrades: Replace Rifle with Plasma Gun, 3x Extra trooper" in html


def test_duplicate_move_and_remove_through_htmx(client, setup):
    army_list, infantry = setup
    client.post(reverse("lists:unit_add", args=[army_list.pk]), {"unit": infantry.pk, "version": 1}, **HTMX)
    first = ListUnit.objects.get(army_list=army_list)
    response = client.post(
        reverse("lists:unit_duplicate", args=[army_list.pk, first.pk]), {"version": 2}, **HTMX
    )
    copy = ListUnit.objects.exclude(pk=first.pk).get(army_list=army_list)
    assert response.content.decode().startswith(f'<li id="unit-{copy.pk}"')
    response = client.post(
        reverse("lists:unit_move", args=[army_list.pk, copy.pk]), {"direction": "up", "version": 3}, **HTMX
    )
    order = re.findall(r'<li id="unit-(\d+)"', response.content.decode())
    assert order == [str(copy.pk), str(first.pk)]
    response = client.post(reverse("lists:unit_remove", args=[army_list.pk, copy.pk]), {"version": 4}, **HTMX)
    assert response.status_code == 200
    assert "<li" not in response.content.decode()
    assert list(ListUnit.objects.filter(army_list=army_list)) == [first]


def test_without_javascript_changes_post_and_redirect_back(client, setup):
    army_list, infantry = setup
    response = client.post(
        reverse("lists:unit_add", args=[army_list.pk]), {"unit": infantry.pk, "version": 1}
    )
    unit = ListUnit.objects.get(army_list=army_list)
    assert response.status_code == 302
    assert response["Location"] == reverse("lists:detail", args=[army_list.pk]) + f"#unit-{unit.pk}"
    response = client.post(
        reverse("lists:unit_options", args=[army_list.pk, unit.pk]),
        {"option-plasma": "1", "option-extra": "0", "version": 2},
    )
    assert response.status_code == 302
    unit.refresh_from_db()
    assert unit.chosen_options == {"plasma": 1}


def test_settings_change_updates_title_and_summary_in_place(client, setup):
    army_list, _infantry = setup
    response = client.post(
        reverse("lists:update", args=[army_list.pk]),
        {
            "name": "Renamed",
            "points_limit": "1500",
            "version": 1,
            "structure-army_structure": "on",
            "structure-max_units_per_200": "on",
        },
        **HTMX,
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert '<h1 id="list-title" hx-swap-oob="true">Renamed</h1>' in html
    assert "1500 points left" in html
    army_list.refresh_from_db()
    assert army_list.points_limit == 1500
    assert army_list.structure_options == {
        "unit_cost_bounds": False,
        "hero_limits": False,
        "unit_balance": False,
        "ability_markers": False,
    }


def test_create_list_form_offers_the_systems_structure_rules(client, setup):
    army_list, _infantry = setup
    response = client.get(reverse("lists:create"))
    html = response.content.decode()
    assert 'name="structure-unit_balance"' in html
    response = client.post(
        reverse("lists:create"),
        {
            "system": "opr",
            "faction": army_list.faction_id,
            "name": "Second",
            "points_limit": "1000",
            "structure-max_units_per_200": "on",
        },
    )
    created = ArmyList.objects.get(name="Second")
    assert response.status_code == 302
    assert response["Location"] == reverse("lists:detail", args=[created.pk])
    assert created.structure_options["unit_balance"] is False
    assert "max_units_per_200" not in created.structure_options


def test_my_lists_page_searches_by_name(client, setup):
    army_list, _infantry = setup
    make_list(owner=army_list.owner, faction=army_list.faction, name="Dragons")
    html = client.get(reverse("lists:mine"), {"q": "drag"}).content.decode()
    assert "Dragons" in html and "Patrol" not in html
    html = client.get(reverse("lists:mine")).content.decode()
    assert "Dragons" in html and "Patrol" in html and "valid" in html


def test_delete_asks_for_confirmation_first(client, setup):
    army_list, _infantry = setup
    response = client.get(reverse("lists:delete", args=[army_list.pk]))
    assert response.status_code == 200
    assert ArmyList.objects.filter(pk=army_list.pk).exists()
    response = client.post(reverse("lists:delete", args=[army_list.pk]), {"version": army_list.version})
    assert response.status_code == 302
    assert not ArmyList.objects.filter(pk=army_list.pk).exists()


def test_gallery_lists_only_public_lists(client, setup):
    army_list, _infantry = setup
    public = make_list(owner=make_user(), faction=army_list.faction, name="Show-off", is_public=True)
    html = client.get(reverse("lists:gallery")).content.decode()
    assert public.name in html and army_list.name not in html


def test_settings_without_javascript_save_and_redirect(client, setup):
    army_list, _infantry = setup
    response = client.post(
        reverse("lists:update", args=[army_list.pk]),
        {"name": "Plain form", "points_limit": "750", "is_public": "on", "version": 1},
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("lists:detail", args=[army_list.pk])
    army_list.refresh_from_db()
    assert (army_list.name, army_list.points_limit, army_list.is_public) == ("Plain form", 750, True)


def test_admin_lists_army_lists_read_only(admin_client, setup):
    army_list, _infantry = setup
    response = admin_client.get(reverse("admin:armybuilder_armylist_changelist"))
    assert response.status_code == 200 and army_list.name in response.content.decode()
