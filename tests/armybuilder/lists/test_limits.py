"""Limits: at most 200 units a list, bounded names; oversized or malformed requests get a
4xx whose message names the field, never a 500."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from armybuilder.lists import services
from armybuilder.lists.errors import ArmyListError
from armybuilder.models import MAX_UNITS_PER_LIST, ArmyList, ListUnit
from tests.factories.army_lists import make_faction, make_list, make_unit, make_user

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def setup(client):
    owner = make_user()
    faction = make_faction()
    infantry = make_unit(faction=faction)
    army_list = make_list(owner=owner, faction=faction, units=[infantry])
    client.force_login(owner)
    return army_list, infantry


def fill_to(army_list: ArmyList, count: int) -> None:
    """Copies of the list's first unit up to `count` units (bulk, then re-evaluated once)."""
    first = ListUnit.objects.get(army_list=army_list, position=0)
    ListUnit.objects.bulk_create(
        services.copy_list_unit(first, army_list=army_list, position=position) for position in range(1, count)
    )
    services.army_list_update(army_list=army_list, expected_version=army_list.version, name=army_list.name)


def test_the_201st_unit_is_refused_by_add_and_duplicate(client, setup):
    army_list, infantry = setup
    fill_to(army_list, MAX_UNITS_PER_LIST)
    assert army_list.unit_count == MAX_UNITS_PER_LIST
    response = client.post(
        reverse("lists:unit_add", args=[army_list.pk]),
        {"unit": infantry.pk, "version": army_list.version},
        **HTMX,
    )
    assert response.status_code == 400
    assert "units" in response.content.decode() and "at most 200 units" in response.content.decode()
    last = ListUnit.objects.get(army_list=army_list, position=199)
    response = client.post(
        reverse("lists:unit_duplicate", args=[army_list.pk, last.pk]), {"version": army_list.version}, **HTMX
    )
    assert response.status_code == 400
    assert ListUnit.objects.filter(army_list=army_list).count() == MAX_UNITS_PER_LIST
    with pytest.raises(ArmyListError):
        services.army_list_add_unit(army_list=army_list, unit=infantry, expected_version=None)


def test_the_database_itself_refuses_a_201st_unit(setup):
    army_list, _infantry = setup
    first = ListUnit.objects.get(army_list=army_list)
    with pytest.raises(IntegrityError), transaction.atomic():
        services.copy_list_unit(first, army_list=army_list, position=MAX_UNITS_PER_LIST).save()


@pytest.mark.parametrize("name", ["x" * 101, "", "   "])
def test_bad_list_names_are_400_naming_the_field(client, setup, name):
    army_list, _infantry = setup
    response = client.post(
        reverse("lists:update", args=[army_list.pk]),
        {"name": name, "points_limit": 1000, "version": army_list.version},
        **HTMX,
    )
    assert response.status_code == 400
    assert "<code>name</code>" in response.content.decode()
    response = client.post(
        reverse("lists:update", args=[army_list.pk]),
        {"name": name, "points_limit": 1000, "version": army_list.version},
    )
    assert response.status_code == 400
    assert ArmyList.objects.get(pk=army_list.pk).name == "Patrol"


def test_an_oversized_name_on_create_is_400_with_the_field_error(client, setup):
    army_list, _infantry = setup
    response = client.post(
        reverse("lists:create"),
        {"system": "opr", "faction": army_list.faction_id, "name": "x" * 5000, "points_limit": 1000},
    )
    assert response.status_code == 400
    assert "at most 100 characters" in response.content.decode()
    assert ArmyList.objects.count() == 1


@pytest.mark.parametrize(
    ("url_name", "data", "field"),
    [
        ("lists:unit_add", {"unit": "abc"}, "unit"),
        ("lists:unit_add", {"unit": "99999999"}, "unit"),
        ("lists:unit_add", {"unit": "1", "version": "x"}, "version"),
        ("lists:unit_add", {"unit": "1", "version": ""}, "version"),
        ("lists:update", {"name": "Ok", "points_limit": "lots"}, "points_limit"),
        ("lists:update", {"name": "Ok", "points_limit": "0"}, "points_limit"),
        ("lists:update", {"name": "Ok", "points_limit": "100001"}, "points_limit"),
    ],
)
def test_malformed_list_requests_are_400_naming_the_field(client, setup, url_name, data, field):
    army_list, _infantry = setup
    data = {"version": army_list.version, **data}
    response = client.post(reverse(url_name, args=[army_list.pk]), data, **HTMX)
    assert response.status_code == 400, response.content
    assert f"<code>{field}</code>" in response.content.decode()


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"option-extra": "lots"}, "options.extra"),
        ({"option-extra": "-1"}, "options.extra"),
        ({"option-extra": "99999999999999999999"}, "options.extra"),
        ({"option-extra": "6"}, "options.extra"),
        ({"direction": "sideways"}, "direction"),
        ({"position": "500"}, "position"),
    ],
)
def test_malformed_unit_requests_are_400_naming_the_field(client, setup, data, field):
    army_list, _infantry = setup
    unit = ListUnit.objects.get(army_list=army_list)
    url_name = "lists:unit_options" if any(key.startswith("option-") for key in data) else "lists:unit_move"
    response = client.post(
        reverse(url_name, args=[army_list.pk, unit.pk]), {"version": army_list.version, **data}, **HTMX
    )
    assert response.status_code == 400, response.content
    html = response.content.decode()
    if field.startswith("options."):
        # An option's problem is said beside that option, in a player's words (no field path).
        assert "see the marked options" in html and "Extra trooper" in html
        assert "options.extra" not in html
    else:
        assert f"<code>{field}</code>" in html


def test_an_oversized_body_is_413_with_a_message(client, setup):
    army_list, _infantry = setup
    response = client.post(
        reverse("lists:update", args=[army_list.pk]),
        {"name": "x" * (3 * 1024 * 1024), "points_limit": 1000, "version": army_list.version},
    )
    assert response.status_code == 413  # too large, said in a player's words (test_request_limits.py)


def test_too_many_fields_is_400(client, setup):
    army_list, _infantry = setup
    unit = ListUnit.objects.get(army_list=army_list)
    data = {f"option-{i}": "1" for i in range(5000)}
    response = client.post(reverse("lists:unit_options", args=[army_list.pk, unit.pk]), data, **HTMX)
    assert response.status_code == 400


def test_search_with_a_nul_character_is_not_a_500(client, setup):
    assert client.get(reverse("lists:mine"), {"q": "a\x00b"}).status_code == 200
    assert client.get(reverse("lists:gallery"), {"q": "\x00"}).status_code == 200


def test_ids_beyond_any_database_id_are_404_not_500(client, setup):
    army_list, _infantry = setup
    huge = "9" * 30
    assert client.get(f"/lists/{huge}/").status_code == 404
    assert client.get(f"/lists/{huge}/roster.pdf").status_code == 404
    assert client.post(f"/lists/{army_list.pk}/units/{huge}/remove/", {"version": 1}).status_code == 404
