"""No lost updates: a change made from a page that has not seen the latest version of the
list is refused (409) with a message and a reload link, and changes nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse

from armybuilder.lists.errors import StaleListError
from armybuilder.models import ArmyList, ListUnit
from tests.factories.army_lists import make_faction, make_list, make_unit, make_user

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def two_tabs(client):
    """One player, one list, and the version both tabs loaded it at."""
    owner = make_user()
    faction = make_faction()
    infantry = make_unit(faction=faction)
    army_list = make_list(owner=owner, faction=faction, units=[infantry])
    client.force_login(owner)
    return army_list, infantry, army_list.version


def test_the_stale_tab_gets_409_with_a_message_and_a_reload_link(client, two_tabs):
    army_list, infantry, seen = two_tabs
    fresh = client.post(
        reverse("lists:unit_add", args=[army_list.pk]), {"unit": infantry.pk, "version": seen}, **HTMX
    )
    assert fresh.status_code == 200
    stale = client.post(
        reverse("lists:unit_add", args=[army_list.pk]), {"unit": infantry.pk, "version": seen}, **HTMX
    )
    html = stale.content.decode()
    assert stale.status_code == 409
    assert stale["HX-Retarget"] == "#editor-alert" and stale["HX-Reswap"] == "innerHTML"
    assert "changed in another tab or window" in html
    assert f'href="{reverse("lists:detail", args=[army_list.pk])}"' in html and "Reload the list" in html
    assert ArmyList.objects.get(pk=army_list.pk).unit_count == 2


def test_every_kind_of_change_checks_the_version(client, two_tabs):
    army_list, infantry, seen = two_tabs
    unit = ListUnit.objects.get(army_list=army_list)
    client.post(
        reverse("lists:update", args=[army_list.pk]),
        {"name": "Changed elsewhere", "points_limit": 1000, "version": seen},
        **HTMX,
    )
    requests = [
        (reverse("lists:update", args=[army_list.pk]), {"name": "Mine", "points_limit": 900}),
        (reverse("lists:unit_add", args=[army_list.pk]), {"unit": infantry.pk}),
        (reverse("lists:unit_options", args=[army_list.pk, unit.pk]), {"option-plasma": "1"}),
        (reverse("lists:unit_duplicate", args=[army_list.pk, unit.pk]), {}),
        (reverse("lists:unit_move", args=[army_list.pk, unit.pk]), {"position": "0"}),
        (reverse("lists:unit_remove", args=[army_list.pk, unit.pk]), {}),
        (reverse("lists:share", args=[army_list.pk]), {}),
    ]
    for url, data in requests:
        assert client.post(url, {**data, "version": seen}, **HTMX).status_code == 409, url
    after = ArmyList.objects.get(pk=army_list.pk)
    assert (after.name, after.version, after.unit_count, after.share_token) == (
        "Changed elsewhere",
        seen + 1,
        1,
        None,
    )
    assert ListUnit.objects.get(pk=unit.pk).chosen_options == {}


def test_without_javascript_the_stale_page_comes_back_with_the_message(client, two_tabs):
    army_list, infantry, seen = two_tabs
    client.post(reverse("lists:unit_add", args=[army_list.pk]), {"unit": infantry.pk, "version": seen})
    response = client.post(
        reverse("lists:unit_add", args=[army_list.pk]), {"unit": infantry.pk, "version": seen}
    )
    html = response.content.decode()
    assert response.status_code == 409
    assert "changed in another tab or window" in html and "Reload the list" in html
    assert f'data-version="{seen + 1}"' in html  # the page shows the list as it is now


def test_deleting_from_a_stale_page_is_refused(client, two_tabs):
    army_list, _infantry, seen = two_tabs
    client.post(
        reverse("lists:update", args=[army_list.pk]), {"name": "New", "points_limit": 1000, "version": seen}
    )
    response = client.post(reverse("lists:delete", args=[army_list.pk]), {"version": seen})
    assert response.status_code == 409
    assert ArmyList.objects.filter(pk=army_list.pk).exists()


def test_a_change_racing_in_after_the_page_was_read_is_caught_at_save(two_tabs):
    """The view read the list at version v; another request commits v+1 before this one saves."""
    from armybuilder.lists import services

    army_list, infantry, seen = two_tabs
    as_read_by_this_request = ArmyList.objects.get(pk=army_list.pk)
    services.army_list_update(
        army_list=ArmyList.objects.get(pk=army_list.pk), expected_version=seen, name="Other"
    )
    with pytest.raises(StaleListError):
        services.army_list_add_unit(army_list=as_read_by_this_request, unit=infantry, expected_version=seen)
    assert ListUnit.objects.filter(army_list=army_list).count() == 1  # the insert was rolled back


def test_an_option_change_racing_in_after_the_unit_was_read_is_caught_at_the_lock(two_tabs):
    """The view read the unit and its list at version v; another request adds a unit (v+1)
    before this one locks the list and reads its units: refused, and the option not saved."""
    from armybuilder.lists import services

    army_list, infantry, seen = two_tabs
    unit = ListUnit.objects.select_related("army_list__system").get(army_list=army_list)
    assert unit.army_list.version == seen and not unit.chosen_options
    services.army_list_add_unit(
        army_list=ArmyList.objects.get(pk=army_list.pk), unit=infantry, expected_version=seen
    )
    with pytest.raises(StaleListError) as caught:
        services.army_list_unit_set_options(list_unit=unit, options={"plasma": 1}, expected_version=seen)
    assert caught.value.current_version == seen + 1
    assert ListUnit.objects.get(pk=unit.pk).chosen_options == {}


@pytest.mark.django_db(transaction=True)
def test_two_simultaneous_changes_from_the_same_version_one_wins():
    """Two requests in parallel (own threads, own database connections), both from version v."""
    import threading

    from django.db import connection

    from armybuilder.lists import services

    owner = make_user()
    faction = make_faction()
    infantry = make_unit(faction=faction)
    army_list = make_list(owner=owner, faction=faction)
    seen = army_list.version
    start = threading.Barrier(2)
    outcomes: list[str] = []

    def add() -> None:
        try:
            mine = ArmyList.objects.select_related("system").get(pk=army_list.pk)
            start.wait(timeout=10)
            services.army_list_add_unit(army_list=mine, unit=infantry, expected_version=seen)
            outcomes.append("saved")
        except StaleListError:
            outcomes.append("stale")
        finally:
            connection.close()

    threads = [threading.Thread(target=add) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(outcomes) == ["saved", "stale"]
    final = ArmyList.objects.get(pk=army_list.pk)
    assert (final.version, final.unit_count) == (seen + 1, 1)
    assert ListUnit.objects.filter(army_list=army_list).count() == 1
