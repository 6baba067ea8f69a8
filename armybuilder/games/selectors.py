"""Reading games: whose they are, and the board a page draws of one.

A game is its owner's alone (both armies are played on one phone); anybody else asking for
it gets `None`, exactly as for a game that does not exist.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import QuerySet
from django.utils.translation import gettext as _

from armybuilder.estimates.inputs import estimable_in_list
from armybuilder.games.models import Game
from armybuilder.games.play_state import GameState, effective_taps, models_left, replay
from rules.systems.play import PlayRules, model_wounds
from rules.systems.registry import get_system

#: Games a player's list shows.
GAMES_SHOWN = 50


def games_of(*, user: AbstractBaseUser | AnonymousUser) -> QuerySet[Game]:
    """The player's games, most recently played first (none for a visitor)."""
    if not user.is_authenticated:
        return Game.objects.none()
    return Game.objects.filter(owner=user).defer("armies", "actions")


def game_get_for_user(*, user: AbstractBaseUser | AnonymousUser, game_id: Any) -> Game | None:
    """The game if it is `user`'s, else None."""
    if not user.is_authenticated:
        return None
    try:
        pk = uuid.UUID(str(game_id))
    except ValueError:
        return None
    return Game.objects.filter(owner=user, pk=pk).first()


def _unit_board(
    play: PlayRules,
    army: Mapping[str, Any],
    state: GameState,
    armies: Any,
    side: int,
    index: int,
    finished: bool,
) -> dict[str, Any]:
    entry = army["units"][index]
    standing = state.units[side][index]
    models = []
    for j, model in enumerate(entry["unit"].get("models") or ()):
        count = int(model.get("count") or 0)
        wounds = model_wounds(model, play.wounds_field)
        models.append(
            {
                "index": j,
                "name": model.get("name") or entry["name"],
                "count": count,
                "left": count - standing.lost[j],
                "wounds": wounds,
                "wounds_taken": standing.wounds[j],
                "disabled": finished or count - standing.lost[j] <= 0,
            }
        )
    marks = [{"key": s.key, "label": s.label, "on": s.key in standing.states} for s in play.states]
    left = models_left(armies, state, side, index)
    gone = left <= 0 or any(
        play.state(key) is not None and play.state(key).out_of_play for key in standing.states
    )
    return {
        "side": side,
        "index": index,
        "name": entry["name"],
        "points": entry.get("points"),
        "models": models,
        "states": marks,
        "left": left,
        "gone": gone,
        "estimable": estimable_in_list(entry["unit"]),
    }


def game_board(*, game: Game, state: GameState) -> dict[str, Any]:
    """What the play page draws: the round, the phases (the current one marked, with the attack
    modes it allows), victory points, both armies unit by unit with what is left of each, and
    whether there is a tap to undo."""
    system = get_system(game.system)
    play: PlayRules = system.play
    sides = []
    for side, army in enumerate(game.armies):
        sides.append(
            {
                "side": side,
                "name": army["name"],
                "vp": state.vp[side],
                "units": [
                    _unit_board(play, army, state, game.armies, side, i, game.finished is not None)
                    for i in range(len(army["units"]))
                ],
            }
        )
    phase = play.phase(state.phase)
    mode_labels = system.situation_schema.get("properties", {}).get("mode", {}).get("x-enum-labels", {})
    return {
        "game": game,
        "system_name": system.name,
        "battle_round": state.battle_round,
        "phases": [{"key": p.key, "label": p.label, "current": p.key == state.phase} for p in play.phases],
        "phase": phase,
        "modes": [{"key": m, "label": mode_labels.get(m, m)} for m in (phase.modes if phase else ())],
        "sides": sides,
        "undo_disabled": game.finished is not None or not effective_taps(game.actions),
        "finished": game.finished is not None,
        "result_label": game.get_result_display() if game.result else "",
    }


def game_log_lines(*, game: Game) -> list[str]:
    """The game's log as lines of text (for export): every tap, undo and odds asked, with its
    time, round and phase, in the reader's language."""
    system = get_system(game.system)
    play: PlayRules = system.play
    names = [[u["name"] for u in army["units"]] for army in game.armies]
    armies = [army["name"] for army in game.armies]
    lines = [
        game.name,
        _("%(system)s — %(first)s against %(second)s")
        % {"system": _(system.name), "first": armies[0], "second": armies[1]},
        "",
    ]
    for action in game.actions:
        op = action.get("op")
        phase = play.phase(action.get("phase", ""))
        head = _("%(at)s round %(number)d, %(phase)s: ") % {
            "at": action.get("at", ""),
            "number": action.get("battle_round", 0),
            "phase": _(phase.label) if phase else "",
        }
        if op in ("lose", "wound", "state"):
            unit = names[action["side"]][action["unit"]]
            who = f"{armies[action['side']]} · {unit}"
        if op == "lose":
            model = game.armies[action["side"]]["units"][action["unit"]]["unit"]["models"][action["model"]]
            text = _("%(who)s: one %(model)s removed") % {"who": who, "model": model.get("name") or unit}
        elif op == "wound":
            model = game.armies[action["side"]]["units"][action["unit"]]["unit"]["models"][action["model"]]
            text = _("%(who)s: one wound on %(model)s") % {"who": who, "model": model.get("name") or unit}
        elif op == "state":
            label = _(play.state(action["state"]).label) if play.state(action["state"]) else action["state"]
            text = (_("%(who)s: marked %(state)s") if action["on"] else _("%(who)s: no longer %(state)s")) % {
                "who": who,
                "state": label,
            }
        elif op == "battle_round":
            text = _("round %(value)d") % {"value": action["value"]}
        elif op == "phase":
            new = play.phase(action["value"])
            text = _("phase: %(phase)s") % {"phase": _(new.label) if new else action["value"]}
        elif op == "vp":
            text = _("%(army)s: %(delta)+d victory points") % {
                "army": armies[action["side"]],
                "delta": action["delta"],
            }
        elif op == "undo":
            text = _("undo of the last tap")
        elif op == "odds":
            a, d = action["attacker"], action["defender"]
            parts = []
            for (s1, u1), (s2, u2), figures in (
                ((a[0], a[1]), (d[0], d[1]), action["figures"][0]),
                ((d[0], d[1]), (a[0], a[1]), action["figures"][1]),
            ):
                if figures.get("summary"):
                    parts.append(
                        _("%(attacker)s on %(defender)s: %(kills).2f models slain, %(percent).0f%% destroyed")
                        % {
                            "attacker": names[s1][u1],
                            "defender": names[s2][u2],
                            "kills": figures["summary"]["expected_kills"],
                            "percent": 100 * figures["summary"]["p_destroyed"],
                        }
                    )
                elif figures.get("estimate"):
                    parts.append(
                        _("%(attacker)s on %(defender)s: computed on the worker (estimate %(id)s)")
                        % {"attacker": names[s1][u1], "defender": names[s2][u2], "id": figures["estimate"]}
                    )
                else:
                    parts.append(
                        _("%(attacker)s on %(defender)s: %(reason)s")
                        % {
                            "attacker": names[s1][u1],
                            "defender": names[s2][u2],
                            "reason": figures.get("reason", ""),
                        }
                    )
            text = _("odds (%(mode)s): %(parts)s") % {
                "mode": action.get("mode", ""),
                "parts": "; ".join(parts),
            }
        else:
            continue
        lines.append(head + text)
    if game.finished:
        final = replay(game.armies, game.actions, play)
        lines += [
            "",
            _("Finished %(when)s: %(result)s; victory points %(first)d – %(second)d")
            % {
                "when": game.finished.isoformat(timespec="minutes"),
                "result": game.get_result_display(),
                "first": final.vp[0],
                "second": final.vp[1],
            },
        ]
    return lines
