"""Games over the API (`armybuilder/games/api.py`): start from a list and a share link, tap,
sync taps made offline (a stale count of actions seen is a 409), the odds, finish; errors in the
API's shape."""

from __future__ import annotations

from armybuilder.lists.sharing import army_list_share
from tests.factories.army_lists import make_user, token_client


def started(client, examples, system="opr") -> dict:
    token = army_list_share(army_list=examples[system], expected_version=None)
    link = f"https://example.org/lists/shared/{token}/"
    response = client.post(
        "/api/v1/games", {"first": {"list": examples[system].pk}, "second": {"link": link}}, format="json"
    )
    assert response.status_code == 201, response.json()
    return response.json()


def test_a_game_is_started_tapped_synced_and_finished(examples, player):
    client = token_client(player)
    game = started(client, examples)
    url = f"/api/v1/games/{game['id']}"
    assert game["state"]["battle_round"] == 1 and game["play"]["phases"][0]["key"] == "activations"
    assert [s["key"] for s in game["play"]["states"]] == ["shaken", "pinned", "charged", "destroyed"]
    tapped = client.post(f"{url}/actions", {"op": "lose", "side": 1, "unit": 1, "model": 0}, format="json")
    assert tapped.status_code == 200 and tapped.json()["state"]["units"][1][1]["lost"][0] == 1
    synced = client.post(
        f"{url}/sync",
        {
            "seen": 1,
            "actions": [
                {"op": "state", "side": 1, "unit": 1, "state": "shaken", "on": True},
                {"op": "battle_round", "value": "2"},
                {"op": "vp", "side": 0, "delta": 2},
            ],
        },
        format="json",
    )
    assert synced.status_code == 200, synced.json()
    state = synced.json()["state"]
    assert (state["battle_round"], state["vp"], state["units"][1][1]["states"]) == (2, [2, 0], ["shaken"])
    assert synced.json()["version"] == 4
    stale = client.post(f"{url}/sync", {"seen": 1, "actions": [{"op": "undo"}]}, format="json")
    assert stale.status_code == 409 and stale.json()["code"] == "conflict"
    odds = client.post(
        f"{url}/odds", {"attacker": [0, 0], "defender": [1, 1], "mode": "melee"}, format="json"
    )
    assert odds.status_code == 200
    # The shaken unit cannot attack (seed 002, "Wyczerpana"), and does not strike back.
    assert [d["status"] for d in odds.json()["directions"]] == ["done", "refused"]
    assert odds.json()["directions"][0]["situation"]["defender_exhausted"] is True
    finished = client.post(f"{url}/finish", {"result": "first"}, format="json")
    assert finished.status_code == 200 and finished.json()["result"] == "first"
    assert client.get("/api/v1/games").json()["results"][0]["id"] == game["id"]


def test_a_refused_tap_is_a_400_naming_its_field(examples, player):
    client = token_client(player)
    game = started(client, examples)
    response = client.post(
        f"/api/v1/games/{game['id']}/actions", {"op": "phase", "value": "fight"}, format="json"
    )
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid" and list(body["details"]) == ["value"]
    odds = client.post(
        f"/api/v1/games/{game['id']}/odds", {"attacker": [0, 0], "defender": [0, 1]}, format="json"
    )
    assert odds.status_code == 400 and list(odds.json()["details"]) == ["defender"]


def test_another_players_game_is_a_404(examples, player):
    game = started(token_client(player), examples)
    other = token_client(make_user("other"))
    assert other.get(f"/api/v1/games/{game['id']}").status_code == 404
    assert other.post(f"/api/v1/games/{game['id']}/actions", {"op": "undo"}, format="json").status_code == 404


def test_too_many_odds_are_a_429_with_retry_after(examples, player, settings):
    from tests.factories.throttle_rates import set_rates

    set_rates(settings, game_odds="1/min")
    client = token_client(player)
    game = started(client, examples)
    body = {"attacker": [0, 0], "defender": [1, 0]}
    assert client.post(f"/api/v1/games/{game['id']}/odds", body, format="json").status_code == 200
    limited = client.post(f"/api/v1/games/{game['id']}/odds", body, format="json")
    assert limited.status_code == 429 and int(limited["Retry-After"]) >= 1


def test_the_odds_take_the_attackers_situation_and_refuse_a_field_the_system_lacks(examples, player):
    client = token_client(player)
    game = started(client, examples)
    url = f"/api/v1/games/{game['id']}/odds"
    body = {"attacker": [0, 0], "defender": [1, 1], "mode": "melee", "situation": {"charging": True}}
    odds = client.post(url, body, format="json")
    assert odds.status_code == 200, odds.json()
    forward, back = odds.json()["directions"]
    assert (
        forward["result"]["situation"]["charging"] is True
        and back["result"]["situation"]["charging"] is False
    )
    wrong = client.post(url, {**body, "situation": {"flying": True}}, format="json")
    assert wrong.status_code == 400 and list(wrong.json()["details"]) == ["situation.flying"]
