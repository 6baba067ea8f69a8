"""Locked versions ("Lock and share", `armybuilder.lists.locks`): a frozen copy with its own
link, time and fingerprint, which no later edit of the list changes."""

from __future__ import annotations

import pytest
from django.urls import reverse

from armybuilder.lists import services
from armybuilder.lists.locks import army_list_lock, army_list_locks, content_fingerprint
from armybuilder.lists.selectors import army_list_get_for_user, army_lists_owned_by
from armybuilder.models import ArmyList
from tests.factories.army_lists import (
    BRUTES,
    BRUTES_POINTS,
    INFANTRY_POINTS,
    make_faction,
    make_list,
    make_unit,
    make_user,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def player():
    return make_user("locksmith")


@pytest.fixture
def army(player):
    faction = make_faction()
    infantry = make_unit(faction=faction)
    return make_list(owner=player, faction=faction, name="Tournament", units=[infantry])


def test_a_lock_survives_edits_of_the_list_with_the_same_fingerprint(army):
    locked = army_list_lock(army_list=army, expected_version=army.version)
    fingerprint, points = locked.fingerprint, locked.total_points
    assert points == INFANTRY_POINTS
    brutes = make_unit(faction=army.faction, data=BRUTES, with_options=False)
    army.refresh_from_db()
    services.army_list_add_unit(army_list=army, unit=brutes, options={}, expected_version=army.version)
    army.refresh_from_db()
    assert army.total_points == INFANTRY_POINTS + BRUTES_POINTS

    again = ArmyList.objects.get(pk=locked.pk)
    assert again.total_points == INFANTRY_POINTS
    assert [unit.name for unit in again.units.all()] == ["Infantry"]
    from armybuilder.lists.interchange import army_list_to_dict

    assert content_fingerprint(army_list_to_dict(army_list=again)) == fingerprint == again.fingerprint


def test_the_fingerprint_follows_the_content_not_the_moment(army):
    first = army_list_lock(army_list=army, expected_version=army.version)
    second = army_list_lock(army_list=army, expected_version=army.version)
    assert first.share_token != second.share_token
    assert first.fingerprint == second.fingerprint
    assert len(first.fingerprint) == 19 and first.fingerprint.count("-") == 3
    army.refresh_from_db()
    services.army_list_update(army_list=army, expected_version=army.version, name="Tournament (final)")
    army.refresh_from_db()
    third = army_list_lock(army_list=army, expected_version=army.version)
    assert third.fingerprint != first.fingerprint


def test_a_lock_is_never_handed_out_for_editing_and_not_among_my_lists(army, player):
    locked = army_list_lock(army_list=army, expected_version=army.version)
    assert army_list_get_for_user(user=player, list_id=locked.pk, for_edit=True) is None
    assert army_list_get_for_user(user=player, list_id=locked.pk) is None
    assert list(army_lists_owned_by(user=player)) == [army]
    assert army_list_locks(army_list=army) == [locked]


def test_the_lock_button_makes_a_lock_and_the_editor_lists_its_history(client, army, player):
    client.force_login(player)
    response = client.post(reverse("lists:lock", args=[army.pk]), {"version": army.version})
    assert response.status_code == 302
    locked = army_list_locks(army_list=army)[0]
    page = client.get(reverse("lists:detail", args=[army.pk])).content.decode()
    assert reverse("lists:shared", args=[locked.share_token]) in page
    assert locked.fingerprint in page
    # The locked page says what it is, to anyone with the link, and offers no editing.
    client.logout()
    shared = client.get(reverse("lists:shared", args=[locked.share_token])).content.decode()
    assert locked.fingerprint in shared and "list-lock" in shared
    assert reverse("lists:unit_add", args=[locked.pk]) not in shared
    # Trying to change it by id is a 404, even for its owner.
    client.force_login(player)
    assert client.post(reverse("lists:update", args=[locked.pk]), {"name": "x"}).status_code == 404
    assert client.post(reverse("lists:lock", args=[locked.pk]), {"version": 1}).status_code == 404


def test_a_stale_lock_request_is_refused_and_makes_nothing(client, army, player):
    client.force_login(player)
    response = client.post(reverse("lists:lock", args=[army.pk]), {"version": army.version + 5})
    assert response.status_code == 409
    assert army_list_locks(army_list=army) == []


def test_the_roster_of_a_lock_prints_its_time_and_fingerprint(client, army):
    locked = army_list_lock(army_list=army, expected_version=army.version)
    page = client.get(reverse("lists:shared_roster", args=[locked.share_token])).content.decode()
    assert locked.fingerprint in page and "roster-lock" in page


def test_api_locks_a_list_lists_its_locks_and_reads_a_lock(client, army, player):
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(player)
    detail = api.get(f"/api/v1/lists/{army.pk}")
    created = api.post(f"/api/v1/lists/{army.pk}/locks", HTTP_IF_MATCH=detail["ETag"])
    assert created.status_code == 201, created.content
    body = created.json()
    assert set(body) == {"token", "url", "page_url", "locked_at", "fingerprint", "total_points", "unit_count"}
    assert body["total_points"] == INFANTRY_POINTS and body["unit_count"] == 1
    listed = api.get(f"/api/v1/lists/{army.pk}/locks").json()["results"]
    assert [row["token"] for row in listed] == [body["token"]]
    shared = APIClient().get(f"/api/v1/shared/{body['token']}").json()
    assert shared["fingerprint"] == body["fingerprint"] and shared["locked_at"]
    assert shared["total_points"] == INFANTRY_POINTS
    stale = api.post(f"/api/v1/lists/{army.pk}/locks", HTTP_IF_MATCH='"999"')
    assert stale.status_code in (409, 412)


def test_api_locks_of_someone_elses_public_list_are_not_shown(army):
    from rest_framework.test import APIClient

    army.is_public = True
    army.save(update_fields=["is_public"])
    army_list_lock(army_list=army, expected_version=army.version)
    api = APIClient()
    api.force_authenticate(make_user("stranger"))
    assert api.get(f"/api/v1/lists/{army.pk}/locks").status_code == 404
    assert api.post(f"/api/v1/lists/{army.pk}/locks").status_code in (403, 404, 428)
