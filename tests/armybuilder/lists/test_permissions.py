"""Who may read and change a list: another player's private list does not exist for them
(404, never 403, for pages, htmx endpoints and exports); share links are read-only and
stop working once revoked."""

from __future__ import annotations

import pytest
from django.urls import reverse

from armybuilder.lists import sharing
from armybuilder.models import ArmyList, ListUnit
from tests.factories.army_lists import make_faction, make_list, make_unit, make_user

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def private_list():
    faction = make_faction()
    infantry = make_unit(faction=faction)
    return make_list(owner=make_user("owner"), faction=faction, units=[infantry])


def read_urls(army_list: ArmyList) -> list[str]:
    return [
        reverse(name, args=[army_list.pk])
        for name in (
            "lists:detail",
            "lists:roster",
            "lists:roster_pdf",
            "lists:roster_text",
            "lists:export_json",
        )
    ]


def write_requests(army_list: ArmyList) -> list[tuple[str, dict]]:
    unit = ListUnit.objects.get(army_list=army_list)
    version = army_list.version
    return [
        (
            reverse("lists:update", args=[army_list.pk]),
            {"name": "Mine now", "points_limit": 500, "version": version},
        ),
        (reverse("lists:delete", args=[army_list.pk]), {"version": version}),
        (reverse("lists:share", args=[army_list.pk]), {"version": version}),
        (reverse("lists:unshare", args=[army_list.pk]), {"version": version}),
        (reverse("lists:unit_add", args=[army_list.pk]), {"unit": unit.template_id, "version": version}),
        (
            reverse("lists:unit_options", args=[army_list.pk, unit.pk]),
            {"option-plasma": "1", "version": version},
        ),
        (reverse("lists:unit_duplicate", args=[army_list.pk, unit.pk]), {"version": version}),
        (reverse("lists:unit_move", args=[army_list.pk, unit.pk]), {"direction": "down", "version": version}),
        (reverse("lists:unit_remove", args=[army_list.pk, unit.pk]), {"version": version}),
    ]


def test_another_players_private_list_is_404_to_read(client, private_list):
    client.force_login(make_user("intruder"))
    for url in read_urls(private_list):
        assert client.get(url).status_code == 404, url
    assert client.post(reverse("lists:fork", args=[private_list.pk])).status_code == 404


def test_another_players_private_list_is_404_to_change_with_and_without_htmx(client, private_list):
    client.force_login(make_user("intruder"))
    for url, data in write_requests(private_list):
        assert client.post(url, data).status_code == 404, url
        assert client.post(url, data, **HTMX).status_code == 404, url
    assert client.get(reverse("lists:delete", args=[private_list.pk])).status_code == 404
    unchanged = ArmyList.objects.get(pk=private_list.pk)
    assert (unchanged.version, unchanged.name, unchanged.unit_count) == (private_list.version, "Patrol", 1)


def test_anonymous_visitors_cannot_read_private_lists_nor_change_any(client, private_list):
    for url in read_urls(private_list):
        assert client.get(url).status_code == 404, url
    for url, data in write_requests(private_list):
        response = client.post(url, data)
        assert response.status_code == 302 and response["Location"].startswith(reverse("login")), url


def test_a_public_list_is_readable_by_everyone_but_writable_only_by_its_owner(
        client, private_list, inline_pdf_renders):
    private_list.is_public = True
    private_list.save()
    for url in read_urls(private_list):
        assert client.get(url).status_code == 200, url
    client.force_login(make_user("visitor"))
    html = client.get(reverse("lists:detail", args=[private_list.pk])).content.decode()
    assert "read-only" in html and "hx-post" not in html
    for url, data in write_requests(private_list):
        assert client.post(url, data, **HTMX).status_code == 404, url


def test_a_unit_of_another_list_is_404_even_in_my_own_list_url(client, private_list):
    me = make_user("me")
    mine = make_list(owner=me, faction=private_list.faction)
    foreign_unit = ListUnit.objects.get(army_list=private_list)
    client.force_login(me)
    response = client.post(
        reverse("lists:unit_remove", args=[mine.pk, foreign_unit.pk]), {"version": mine.version}, **HTMX
    )
    assert response.status_code == 404
    assert ListUnit.objects.filter(pk=foreign_unit.pk).exists()


def test_share_link_is_read_only_for_anyone_and_dies_when_revoked(client, private_list):
    token = sharing.army_list_share(army_list=private_list, expected_version=private_list.version)
    assert len(token) >= 43
    shared_urls = [
        reverse(name, args=[token])
        for name in (
            "lists:shared",
            "lists:shared_roster",
            "lists:shared_roster_text",
            "lists:shared_export_json",
        )
    ]
    for url in shared_urls:
        assert client.get(url).status_code == 200, url
    html = client.get(shared_urls[0]).content.decode()
    assert "read-only" in html and "hx-post" not in html and "Patrol" in html
    # The id URL stays private: the token opens only the token URLs.
    assert client.get(reverse("lists:detail", args=[private_list.pk])).status_code == 404

    sharing.army_list_unshare(army_list=private_list, expected_version=private_list.version)
    for url in shared_urls:
        assert client.get(url).status_code == 404, url
    again = sharing.army_list_share(army_list=private_list, expected_version=private_list.version)
    assert again != token
    assert client.get(reverse("lists:shared", args=[token])).status_code == 404


def test_forking_through_a_share_link_copies_the_list(client, private_list):
    token = sharing.army_list_share(army_list=private_list, expected_version=private_list.version)
    forker = make_user("forker")
    client.force_login(forker)
    response = client.post(reverse("lists:shared_fork", args=[token]))
    copy = ArmyList.objects.get(owner=forker)
    assert response.status_code == 302 and response["Location"] == reverse("lists:detail", args=[copy.pk])
    assert copy.forked_from_id == private_list.pk and copy.unit_count == 1


def test_unguessable_tokens_of_any_shape_are_just_404(client, private_list):
    for token in ("x", "a" * 64, "a" * 500, "%00", "../../etc"):
        assert client.get(f"/lists/shared/{token}/").status_code == 404


def test_forking_while_logged_out_sends_to_login_and_back_to_the_list(client, private_list):
    token = sharing.army_list_share(army_list=private_list, expected_version=private_list.version)
    response = client.post(reverse("lists:shared_fork", args=[token]))
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('login')}?next=%2Flists%2Fshared%2F{token}%2F"
    assert ArmyList.objects.count() == 1
