"""Play mode's services (`armybuilder/games/services.py`): a game of two lists, its taps and
undos, and the odds of a fight as it stands, which must equal `manage.py estimate` run on the
same survivors (issue 44, "Done when")."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from armybuilder.estimates.models import Estimate
from armybuilder.estimates.sources import list_source
from armybuilder.games import services
from armybuilder.games.play_state import GameActionError
from armybuilder.games.selectors import game_board, game_log_lines
from rules.systems.play import model_wounds
from rules.systems.registry import get_system
from tests.armybuilder.estimates.test_estimate_command import command_env

ROOT = Path(__file__).resolve().parents[3]
SYSTEMS = ["opr", "whfb6", "wh40k9", "aos1", "ru_whfb"]


def start(player: Any, army_list: Any) -> Any:
    source = list_source(user=player, list_id=army_list.pk)
    return services.game_start(user=player, first=source, second=source)


def multi_wound_unit(game: Any, side: int) -> tuple[int, int] | None:
    """(unit, model entry) of the first model of the side with more than one wound."""
    play = get_system(game.system).play
    for i, entry in enumerate(game.armies[side]["units"]):
        for j, model in enumerate(entry["unit"]["models"]):
            if model_wounds(model, play.wounds_field) > 1 and model["count"] >= 1:
                return i, j
    return None


def largest_unit(game: Any, side: int) -> int:
    units = game.armies[side]["units"]
    return max(range(len(units)), key=lambda i: (sum(m["count"] for m in units[i]["unit"]["models"]), -i))


def estimate_command(tmp_path: Path, attacker: dict, defender: dict, mode: str) -> dict:
    files = []
    for name, unit in (("attacker.json", attacker), ("defender.json", defender)):
        (tmp_path / name).write_text(json.dumps(unit), encoding="utf-8")
        files.append(str(tmp_path / name))
    run = subprocess.run(
        [sys.executable, "manage.py", "estimate", *files, "--situation", f"mode={mode}"],
        cwd=ROOT,
        env=command_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def test_taps_remove_models_and_wounds_and_undo_takes_each_back(examples, player):
    game = start(player, examples["wh40k9"])
    target = largest_unit(game, 1)
    game, state = services.game_act(game=game, action={"op": "lose", "side": 1, "unit": target, "model": 0})
    assert state.units[1][target].lost[0] == 1
    wounded = multi_wound_unit(game, 1)
    assert wounded is not None
    unit, model = wounded
    game, state = services.game_act(
        game=game, action={"op": "wound", "side": 1, "unit": unit, "model": model}
    )
    assert state.units[1][unit].wounds[model] == 1
    game, state = services.game_act(
        game=game, action={"op": "state", "side": 1, "unit": unit, "state": "battle_shocked", "on": True}
    )
    assert state.units[1][unit].states == ["battle_shocked"]
    game, state = services.game_act(game=game, action={"op": "vp", "side": 0, "delta": 3})
    game, state = services.game_act(game=game, action={"op": "battle_round", "value": 2})
    game, state = services.game_act(game=game, action={"op": "phase", "value": "fight"})
    assert (state.battle_round, state.phase, state.vp) == (2, "fight", [3, 0])
    game, state = services.game_act(game=game, action={"op": "undo"})
    assert state.phase == "command"
    for _ in range(4):
        game, state = services.game_act(game=game, action={"op": "undo"})
    assert state.units[1][unit].wounds[model] == 0 and state.units[1][target].lost[0] == 1
    game, state = services.game_act(game=game, action={"op": "undo"})
    assert state.as_dict() == {
        "battle_round": 1,
        "phase": "command",
        "vp": [0, 0],
        "units": [
            [
                {
                    "lost": [0] * len(u["unit"]["models"]),
                    "wounds": [0] * len(u["unit"]["models"]),
                    "states": [],
                }
                for u in army["units"]
            ]
            for army in game.armies
        ],
    }
    with pytest.raises(GameActionError) as refused:
        services.game_act(game=game, action={"op": "undo"})
    assert refused.value.errors == {"op": ["Nothing to undo."]}
    assert game.version == 12
    assert [a["op"] for a in game.actions].count("undo") == 6


def test_a_tap_the_game_cannot_take_is_refused_by_its_field(examples, player):
    game = start(player, examples["opr"])
    for action, field in [
        ({"op": "lose", "side": 2, "unit": 0, "model": 0}, "side"),
        ({"op": "lose", "side": 0, "unit": 99, "model": 0}, "unit"),
        ({"op": "state", "side": 0, "unit": 0, "state": "fleeing", "on": True}, "state"),
        ({"op": "phase", "value": "fight"}, "value"),
        ({"op": "vp", "side": 1, "delta": -1}, "delta"),
        ({"op": "battle_round", "value": 0}, "value"),
        ({"op": "teleport"}, "op"),
    ]:
        with pytest.raises(GameActionError) as refused:
            services.game_act(game=game, action=action)
        assert list(refused.value.errors) == [field]
    game.refresh_from_db()
    assert game.actions == []


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_odds_as_it_stands_equal_the_estimate_command_on_the_survivors(
    examples, player, tmp_path, system
):
    """Casualties, a wound and a state on the board; the odds of the fight both ways equal
    `manage.py estimate` run on the survivors written out (models removed, the damaged model
    with its wounds less), with the system's second-stage outcomes."""
    game = start(player, examples[system])
    play = get_system(system).play
    defender = largest_unit(game, 1)
    attacker = largest_unit(game, 0)
    game, _ = services.game_act(game=game, action={"op": "lose", "side": 1, "unit": defender, "model": 0})
    wounded = multi_wound_unit(game, 0)
    if wounded is not None:
        attacker = wounded[0]
        game, _ = services.game_act(
            game=game, action={"op": "wound", "side": 0, "unit": wounded[0], "model": wounded[1]}
        )
    melee = next(p for p in play.phases if "melee" in p.modes)
    game, state = services.game_act(game=game, action={"op": "phase", "value": melee.key})
    answer = services.game_odds(
        game=game, user=player, attacker=[0, attacker], defender=[1, defender], mode="melee"
    )
    assert answer["mode"] == "melee"
    for direction, (a, d) in zip(
        answer["directions"], [((0, attacker), (1, defender)), ((1, defender), (0, attacker))], strict=True
    ):
        assert direction["status"] == "done", direction["reason"]
        a_unit = services.unit_as_it_stands(game=game, state=state, side=a[0], unit=a[1])
        d_unit = services.unit_as_it_stands(game=game, state=state, side=d[0], unit=d[1])
        command = estimate_command(tmp_path, a_unit, d_unit, "melee")
        result = json.loads(json.dumps({k: v for k, v in direction["result"].items() if k != "not_used"}))
        assert result == command
    survivors = services.unit_as_it_stands(game=game, state=state, side=1, unit=defender)
    original = game.armies[1]["units"][defender]["unit"]
    assert sum(m["count"] for m in survivors["models"]) == sum(m["count"] for m in original["models"]) - 1
    if wounded is not None:
        damaged = services.unit_as_it_stands(game=game, state=state, side=0, unit=attacker)["models"]
        full = game.armies[0]["units"][attacker]["unit"]["models"][wounded[1]]
        assert damaged[wounded[1]][play.wounds_field] == full[play.wounds_field] - 1
        assert damaged[wounded[1]]["count"] == 1
    assert game.actions[-1]["op"] == "odds"
    assert (
        game.actions[-1]["figures"][0]["summary"]["expected_kills"]
        == answer["directions"][0]["result"]["expected"]["kills"]
    )


def test_a_costly_fight_is_queued_as_an_estimate_job(examples, player, settings):
    settings.GAME_ODDS_INLINE_SECONDS = 0.0
    settings.CELERY_TASK_ALWAYS_EAGER = True
    game = start(player, examples["opr"])
    answer = services.game_odds(game=game, user=player, attacker=[0, 0], defender=[1, 0], mode="shooting")
    ids = [d["estimate"] for d in answer["directions"]]
    assert all(ids)
    assert set(Estimate.objects.filter(owner=player).values_list("kind", flat=True)) == {"unit_vs_unit"}


def test_the_odds_are_rated_per_minute(examples, player, settings):
    from tests.factories.throttle_rates import set_rates

    set_rates(settings, game_odds="2/min")
    game = start(player, examples["opr"])
    for _ in range(2):
        services.game_odds(game=game, user=player, attacker=[0, 0], defender=[1, 0], mode="shooting")
    with pytest.raises(services.OddsLimited):
        services.game_odds(game=game, user=player, attacker=[0, 0], defender=[1, 0], mode="shooting")


def test_a_fleeing_unit_is_not_offered_as_attacker(examples, player):
    game = start(player, examples["whfb6"])
    game, _ = services.game_act(game=game, action={"op": "phase", "value": "close_combat"})
    game, _ = services.game_act(
        game=game, action={"op": "state", "side": 1, "unit": 0, "state": "fleeing", "on": True}
    )
    answer = services.game_odds(game=game, user=player, attacker=[0, 0], defender=[1, 0])
    forward, back = answer["directions"]
    assert forward["status"] == "done"
    assert back["status"] == "refused" and "Fleeing" in back["reason"]


def test_the_log_exports_every_tap_and_the_finished_result(examples, player):
    game = start(player, examples["aos1"])
    game, _ = services.game_act(game=game, action={"op": "lose", "side": 1, "unit": 0, "model": 0})
    game, _ = services.game_act(game=game, action={"op": "vp", "side": 0, "delta": 2})
    game = services.game_finish(game=game, result="first")
    lines = game_log_lines(game=game)
    model = game.armies[1]["units"][0]["unit"]["models"][0]["name"]
    assert any(
        line.endswith(f"{game.armies[1]['name']} · {game.armies[1]['units'][0]['name']}: one {model} removed")
        for line in lines
    )
    assert lines[-1].endswith(f"{game.get_result_display()}; victory points 2 – 0")
    with pytest.raises(GameActionError):
        services.game_act(game=game, action={"op": "undo"})
    board = game_board(game=game, state=services.game_state(game=game))
    assert board["finished"] and board["undo_disabled"]


def test_a_game_is_bounded_in_taps_and_in_the_size_of_its_armies(examples, player, monkeypatch):
    game = start(player, examples["opr"])
    monkeypatch.setattr(services, "MAX_ACTIONS", 2)
    for value in (2, 3):
        game, _ = services.game_act(game=game, action={"op": "battle_round", "value": value})
    with pytest.raises(GameActionError) as refused:
        services.game_act(game=game, action={"op": "battle_round", "value": 4})
    assert refused.value.errors == {
        "actions": ["A game holds at most 2 taps: finish this one and start a new game."]
    }
    monkeypatch.setattr(services, "MAX_ARMIES_BYTES", 1000)
    with pytest.raises(services.GameStartError) as too_large:
        start(player, examples["opr"])
    assert too_large.value.errors == {"second": ["These lists are too large to play together."]}


def test_a_sync_from_an_older_version_is_a_conflict_and_keeps_nothing(examples, player):
    game = start(player, examples["opr"])
    game, _ = services.game_act(game=game, action={"op": "vp", "side": 0, "delta": 1})
    with pytest.raises(services.GameConflict):
        services.game_sync(game=game, base=0, actions=[{"op": "vp", "side": 1, "delta": 1}])
    game, state = services.game_sync(game=game, base=1, actions=[{"op": "vp", "side": 1, "delta": 1}])
    assert state.vp == [1, 1] and game.version == 2
    many = [{"op": "lose", "side": 1, "unit": largest_unit(game, 1), "model": 0}] * 3 + [
        {"op": "state", "side": 0, "unit": 0, "state": "shaken", "on": True},
        {"op": "undo"},
        {"op": "vp", "side": 0, "delta": 5},
    ]
    game, state = services.game_sync(game=game, base=2, actions=many)
    assert state.as_dict() == services.game_state(game=game).as_dict()  # one tap at a time = the replay
    assert state.units[1][largest_unit(game, 1)].lost[0] == 3 and state.vp == [6, 1]


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_unit_with_casualties_and_a_wound_can_still_be_estimated(examples, player, system):
    """Survivors below a unit's minimum size, or with a damaged model split off, are still units
    the estimate accepts: every unit of the example list, down a model and a wound, is a target."""
    game = start(player, examples[system])
    play = get_system(system).play
    for i, entry in enumerate(game.armies[1]["units"]):
        for j, model in enumerate(entry["unit"]["models"]):
            if model["count"] > 1:
                game, _ = services.game_act(
                    game=game, action={"op": "lose", "side": 1, "unit": i, "model": j}
                )
            if model_wounds(model, play.wounds_field) > 1:
                game, _ = services.game_act(
                    game=game, action={"op": "wound", "side": 1, "unit": i, "model": j}
                )
    attacker = largest_unit(game, 0)
    for phase in (p for p in play.phases if p.modes):
        game, _ = services.game_act(game=game, action={"op": "phase", "value": phase.key})
        for mode in phase.modes:
            for i in range(len(game.armies[1]["units"])):
                answer = services.game_odds(
                    game=game, user=player, attacker=[0, attacker], defender=[1, i], mode=mode
                )
                assert [d["status"] for d in answer["directions"]] == ["done", "done"], (
                    mode,
                    game.armies[1]["units"][i]["name"],
                    [d["reason"] for d in answer["directions"]],
                )
