"""A feature asked of a list it does not apply to answers with a page that says why (issue 43):
still a 404, in the reader's language, with the reason and a link back to the list; the API
keeps its JSON 404 with the reason, and a list that does not exist keeps its own page."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command
from django.urls import reverse

from armybuilder.lists.services import army_list_create
from armybuilder.lists.sharing import army_list_share
from armybuilder.models import ArmyList
from rules.models import Faction, GameSystem
from tests.factories.army_lists import make_user, token_client

pytestmark = pytest.mark.django_db

AUDIT_REASON = "This game system prices units from its book: there is no formula to audit them against."
ARMY_FORGE_REASON = "Army Forge has no lists of this game system."
FORCE_REASON = ("This list is not built in a BattleScribe force, so it has no other force to move to: forces "
                "come with factions imported from BattleScribe data.")


@pytest.fixture
def player(db: None) -> Any:
    call_command("load_catalogue", verbosity=0)
    return make_user("player")


def whfb_list(owner: Any) -> ArmyList:
    return army_list_create(owner=owner, system=GameSystem.objects.get(key="whfb6"), faction=None,
                            name="Old world", points_limit=2000)


def opr_list(owner: Any) -> ArmyList:
    faction = Faction.objects.get(slug="ashen-concord", owner=None)
    return army_list_create(owner=owner, system=faction.system, faction=faction, name="Patrol",
                            points_limit=1000)


def page(response: Any) -> str:
    assert response["Content-Type"].startswith("text/html")
    return response.content.decode()


@pytest.mark.parametrize("url_name, reason", [("lists:audit", AUDIT_REASON),
                                               ("lists:export_army_forge", ARMY_FORGE_REASON)])
def test_a_feature_of_another_system_says_why_with_a_link_back(client, player, url_name, reason):
    army_list = whfb_list(player)
    client.force_login(player)

    response = client.get(reverse(url_name, args=[army_list.pk]))

    assert response.status_code == 404
    html = page(response)
    assert "<h1>Not available for this list</h1>" in html
    assert f'<p class="reason">{reason}</p>' in html
    back = reverse("lists:detail", args=[army_list.pk])
    assert f'<a class="button" href="{back}">Back to the list</a>' in html


def test_through_a_share_link_the_way_back_is_the_share_link(client, player):
    army_list = whfb_list(player)
    token = army_list_share(army_list=army_list, expected_version=None)

    html = page(client.get(reverse("lists:shared_export_army_forge", args=[token])))

    assert f'href="{reverse("lists:shared", args=[token])}">Back to the list</a>' in html


def test_the_page_reads_in_the_players_language(client, player):
    army_list = whfb_list(player)
    client.force_login(player)

    response = client.get(reverse("lists:audit", args=[army_list.pk]), HTTP_ACCEPT_LANGUAGE="pl")

    assert response.status_code == 404
    html = page(response)
    assert '<html lang="pl"' in html
    assert "<h1>Niedostępne dla tej rozpiski</h1>" in html
    assert '<p class="reason">Ten system gry wycenia jednostki według podręcznika' in html
    assert ">Wróć do rozpiski</a>" in html


def test_another_force_for_a_list_not_built_in_one_says_why(client, player):
    army_list = opr_list(player)
    client.force_login(player)

    response = client.post(reverse("lists:roster_force", args=[army_list.pk]), {"force": "anything"})

    assert response.status_code == 404
    assert f'<p class="reason">{FORCE_REASON}</p>' in page(response)


def test_the_api_keeps_its_json_404_with_the_reason(player):
    army_list = whfb_list(player)

    response = token_client(player).get(f"/api/v1/lists/{army_list.pk}/audit")

    assert response.status_code == 404
    assert response.json()["message"] == AUDIT_REASON


def test_a_list_that_is_not_there_is_not_this_page(client, player):
    client.force_login(player)

    response = client.get(reverse("lists:audit", args=[999999]))

    assert response.status_code == 404
    assert "Not available for this list" not in response.content.decode()
