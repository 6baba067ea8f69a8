"""Play-mode pages (`armybuilder/games/views.py`): start a game from a list and a share link,
tap without JavaScript (post and redirect) and with htmx (the board fragment), ask the odds,
export the log; another player's game is a 404."""

from __future__ import annotations

import re

from django.test import Client

from armybuilder.games.models import Game
from armybuilder.lists.sharing import army_list_share
from tests.factories.army_lists import PASSWORD, make_user


def signed_in(user) -> Client:
    client = Client()
    assert client.login(username=user.username, password=PASSWORD)
    return client


def test_a_game_starts_from_a_list_and_an_opponents_share_link(examples, player):
    opponent_list = examples["opr"]
    token = army_list_share(army_list=opponent_list, expected_version=None)
    client = signed_in(player)
    response = client.post(
        "/games/new/",
        {"first_list": str(opponent_list.pk), "second_link": f"https://example.org/lists/shared/{token}/"},
    )
    game = Game.objects.get(owner=player)
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    assert game.armies[1]["list_id"] == opponent_list.pk
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert 'id="board"' in page and "Odds as it stands" in page
    assert page.count('data-tap="lose"') == sum(
        len(u["unit"]["models"]) for a in game.armies for u in a["units"]
    )


def test_a_start_without_lists_names_each_missing_army(player, db):
    response = signed_in(player).post("/games/new/", {"second_link": "not a link at all"})
    assert response.status_code == 400
    body = response.content.decode()
    assert "Choose a list or paste a share link." in body
    assert "Paste the list&#x27;s share link (it contains /shared/)." in body


def test_taps_post_and_redirect_and_htmx_gets_the_board(examples, player):
    client = signed_in(player)
    client.post("/games/new/", {"first_list": examples["whfb6"].pk, "second_list": examples["whfb6"].pk})
    game = Game.objects.get(owner=player)
    response = client.post(f"/games/{game.pk}/act/", {"op": "lose", "side": "1", "unit": "0", "model": "0"})
    assert response.status_code == 302
    response = client.post(
        f"/games/{game.pk}/act/",
        {"op": "state", "side": "1", "unit": "0", "state": "fleeing", "on": "1"},
        HTTP_HX_REQUEST="true",
    )
    body = response.content.decode()
    assert response.status_code == 200 and body.lstrip().startswith('<div id="board"')
    assert re.search(r'aria-pressed="true"[^>]*data-tap="state-fleeing"', body)
    refused = client.post(f"/games/{game.pk}/act/", {"op": "phase", "value": "fight"}, HTTP_HX_REQUEST="true")
    assert refused.status_code == 400
    assert "This game system has no such phase" in refused.content.decode()
    client.post(f"/games/{game.pk}/act/", {"op": "phase", "value": "close_combat"})
    odds = client.post(
        f"/games/{game.pk}/odds/", {"mine": "0", "theirs": "1", "mode": "melee"}, HTTP_HX_REQUEST="true"
    )
    assert odds.status_code == 200
    assert odds.content.decode().count('data-status="done"') == 2
    log = client.get(f"/games/{game.pk}/log.txt")
    assert log["Content-Type"] == "text/plain; charset=utf-8"
    assert "marked Fleeing" in log.content.decode() and "odds (melee)" in log.content.decode()


def test_another_players_game_is_not_found(examples, player):
    client = signed_in(player)
    client.post("/games/new/", {"first_list": examples["aos1"].pk, "second_list": examples["aos1"].pk})
    game = Game.objects.get(owner=player)
    other = signed_in(make_user("other"))
    assert other.get(f"/games/{game.pk}/").status_code == 404
    assert other.post(f"/games/{game.pk}/act/", {"op": "undo"}).status_code == 404
