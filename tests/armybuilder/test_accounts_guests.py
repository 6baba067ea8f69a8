"""Building before signing up (issue 30, item 10): a visitor's list is kept in their session
as a guest's, and follows them when they sign up or log in."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils.formats import date_format

from armybuilder.accounts.guests import GUEST_DAYS, GUEST_PREFIX, guest_kept_until, is_guest
from armybuilder.models import ArmyList
from rules.models import Faction
from tests.factories.army_lists import PASSWORD, make_user

pytestmark = pytest.mark.django_db



@pytest.fixture
def visitor_with_a_list():
    """A visitor (no account) who created a list and added a unit to it."""
    call_command("load_catalogue", verbosity=0)
    client = Client()
    faction = Faction.objects.get(system__key="opr", slug="ashen-concord", owner__isnull=True)
    page = client.get(reverse("lists:create"))
    assert page.status_code == 200
    assert "No account needed" in page.content.decode()
    response = client.post(
        reverse("lists:create"), {"system": "opr", "faction": faction.pk, "name": "Before signing up",
                                  "points_limit": 1000},
    )
    assert response.status_code == 302
    army_list = ArmyList.objects.get(name="Before signing up")
    unit = faction.units.get(slug="concord-wardens")
    added = client.post(reverse("lists:unit_add", args=[army_list.pk]), {"unit": unit.pk, "version": 1})
    assert added.status_code == 302
    return client, army_list


def test_a_visitor_builds_a_list_as_a_guest_of_the_session(visitor_with_a_list):
    client, army_list = visitor_with_a_list
    guest = army_list.owner
    assert is_guest(guest) and guest.username.startswith(GUEST_PREFIX)
    assert not guest.has_usable_password()
    assert army_list.units.count() == 1
    # Kept in this browser for four weeks, across restarts, until the day the guest may be deleted.
    assert not client.session.get_expire_at_browser_close()
    assert client.session.get_expiry_date() == guest.date_joined + timedelta(days=GUEST_DAYS)
    assert GUEST_DAYS == 28
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    assert 27 * 86400 < int(cookie["max-age"]) <= 28 * 86400
    page = client.get(reverse("lists:detail", args=[army_list.pk])).content.decode()
    assert "Sign up to keep your lists" in page and guest.username not in page
    assert "Sign up to keep it everywhere" in page
    assert f"kept in this browser until {date_format(guest_kept_until(guest), 'DATE_FORMAT')}" in page
    # Another browser sees nothing of it, but is told why a list may not open there.
    other = Client().get(reverse("lists:detail", args=[army_list.pk]))
    assert other.status_code == 404
    assert "This list cannot be opened here" in other.content.decode()
    assert "kept only in the browser it was built in, for 28 days" in other.content.decode()
    assert "Before signing up" not in other.content.decode()


def test_signing_up_keeps_the_list_and_removes_the_guest(visitor_with_a_list):
    client, army_list = visitor_with_a_list
    guest = army_list.owner
    response = client.post(reverse("signup"), {
        "username": "newplayer", "email": "new@example.com", "password1": PASSWORD, "password2": PASSWORD,
        "next": reverse("lists:detail", args=[army_list.pk]),
    })
    assert response.status_code == 302
    assert response["Location"] == reverse("lists:detail", args=[army_list.pk])
    army_list.refresh_from_db()
    assert army_list.owner.username == "newplayer" and army_list.units.count() == 1
    assert not User.objects.filter(pk=guest.pk).exists()
    assert client.get(reverse("lists:detail", args=[army_list.pk])).status_code == 200


def test_logging_in_keeps_the_list_and_removes_the_guest(visitor_with_a_list):
    client, army_list = visitor_with_a_list
    guest = army_list.owner
    player = make_user("veteran")
    # The login page is shown to a guest (not skipped as for a player already logged in).
    assert client.get(reverse("login")).status_code == 200
    response = client.post(reverse("login"), {"username": "veteran", "password": PASSWORD})
    assert response.status_code == 302
    army_list.refresh_from_db()
    assert army_list.owner == player
    assert not User.objects.filter(pk=guest.pk).exists()
    assert list(player.army_lists.values_list("name", flat=True)) == ["Before signing up"]


def test_guest_names_are_kept_from_sign_up():
    response = Client().post(reverse("signup"), {
        "username": "guest-123", "email": "g@example.com", "password1": PASSWORD, "password2": PASSWORD,
    })
    assert response.status_code == 400
    assert "kept for visitors without an account" in response.content.decode()
    assert not User.objects.filter(username="guest-123").exists()


def test_a_refused_new_list_starts_no_guest():
    call_command("load_catalogue", verbosity=0)
    client = Client()
    response = client.post(reverse("lists:create"), {"system": "opr", "name": "", "points_limit": 1000})
    assert response.status_code == 400
    assert not User.objects.filter(username__startswith=GUEST_PREFIX).exists()


def test_stale_guests_are_deleted_with_their_lists_and_players_are_kept(visitor_with_a_list):
    from django.utils import timezone

    _client, army_list = visitor_with_a_list
    guest = army_list.owner
    player = make_user("guest-like-but-a-player")  # a usable password: never a guest
    # By default, only a guest whose cookie has expired (GUEST_DAYS after it began) goes.
    User.objects.filter(pk__in=[guest.pk, player.pk]).update(date_joined=timezone.now() - timedelta(days=27))
    call_command("delete_stale_guests", stdout=io.StringIO())
    assert User.objects.filter(pk=guest.pk).exists()  # its browser still opens its lists
    User.objects.filter(pk__in=[guest.pk, player.pk]).update(date_joined=timezone.now() - timedelta(days=29))
    call_command("delete_stale_guests", stdout=io.StringIO())
    assert not User.objects.filter(pk=guest.pk).exists()
    assert not ArmyList.objects.filter(pk=army_list.pk).exists()
    assert User.objects.filter(pk=player.pk).exists()
