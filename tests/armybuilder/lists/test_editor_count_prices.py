"""An option priced by count (`payload.costs`: the whole price at each count taken) shows what
the next take costs at the count taken, in the editor's picker and the API, with its table."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from armybuilder.lists import services
from armybuilder.models import ListUnit
from rules.models import GameSystem, UnitTemplate, UpgradeOption
from rules.systems.registry import get_system, unit_points
from tests.factories.army_lists import make_faction, make_list, make_user, token_client
from tests.factories.fantasy_units import unit as fantasy_unit

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def setup(client):
    owner = make_user()
    system, _created = GameSystem.objects.get_or_create(key="whfb6", defaults={"name": "Warhammer Fantasy"})
    faction = make_faction(system=system)
    data = fantasy_unit("Trooper", 10, points=5)
    points = unit_points(get_system("whfb6"), data)
    squad = UnitTemplate.objects.create(
        faction=faction, slug="troopers", name="Trooper", data=data, points=points
    )
    # 5 more troopers 50, 10 more 80, 15 more 140 (invented numbers: the unit format prices them)
    UpgradeOption.objects.create(
        unit=squad, key="more", group="Models", label="5 more troopers", kind="add_models",
        applies_to="Trooper", payload={"count": 5, "costs": [50, 80, 140]},
        min_count=0, max_count=3, cost=50, position=1,
    )
    army_list = make_list(owner=owner, faction=faction, units=[squad])
    client.force_login(owner)
    return owner, army_list, ListUnit.objects.get(army_list=army_list)


def price_label(html: str, unit: ListUnit) -> str:
    found = re.search(rf'<label for="unit-{unit.pk}-option-more">5 more troopers <span class="option-points">'
                      r"\(([^)]*)\)</span>", html)
    assert found, html
    return found.group(1)


def test_the_picker_shows_the_next_takes_price_and_the_table(client, setup):
    _owner, army_list, unit = setup
    html = client.get(reverse("lists:detail", args=[army_list.pk])).content.decode()
    assert price_label(html, unit) == "+50 pts for the next one"
    assert "Price by count:" in html and "×1 50</span> · " in html and "×3 140</span>" in html
    army_list.refresh_from_db()
    answer = client.post(
        reverse("lists:unit_options", args=[army_list.pk, unit.pk]),
        {"option-more": "1", "version": army_list.version}, **HTMX,
    )
    html = answer.content.decode()
    assert price_label(html, unit) == "+30 pts for the next one"  # 80 for ten less the 50 paid
    assert '<span class="option-step is-taken">×1 50</span>' in html
    army_list.refresh_from_db()
    answer = client.post(
        reverse("lists:unit_options", args=[army_list.pk, unit.pk]),
        {"option-more": "3", "version": army_list.version}, **HTMX,
    )
    assert price_label(answer.content.decode(), unit) == "140 pts for 3"  # at its maximum: what it costs


def test_the_api_gives_the_next_takes_price(setup):
    owner, army_list, unit = setup
    api = token_client(owner)
    url = f"/api/v1/lists/{army_list.pk}"
    assert api.get(url).json()["units"][0]["option_points"]["more"] == 50
    army_list.refresh_from_db()
    unit.army_list = army_list
    version = army_list.version
    services.army_list_unit_set_options(list_unit=unit, options={"more": 2}, expected_version=version)
    assert api.get(url).json()["units"][0]["option_points"]["more"] == 60  # 140 for fifteen, 80 paid
    army_list.refresh_from_db()
    unit.refresh_from_db()
    unit.army_list = army_list
    version = army_list.version
    services.army_list_unit_set_options(list_unit=unit, options={"more": 3}, expected_version=version)
    assert api.get(url).json()["units"][0]["option_points"]["more"] == 60  # at its maximum: the last take
