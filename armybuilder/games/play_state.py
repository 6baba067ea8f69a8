"""A game's state as a fold of its taps: the core of play mode (no database, no requests).

A game keeps its two armies as they were when it started and an append-only list of
actions — every tap (a model removed, a wound, a state marked, the round, the phase, victory
points, an undo) and every odds asked. The state is `replay(armies, actions)`: nothing else
is stored, so the server, the API and the browser's offline copy agree on the state when they
agree on the actions, a sync is "append what the other side has not seen", and an undo is one
more action (the log keeps both the tap and its undo).

Actions (`op` and its fields; `at`, `battle_round` and `phase` are added when recorded):

    {"op": "lose",  "side": 0|1, "unit": i, "model": j}   one model of entry j removed
    {"op": "wound", "side": 0|1, "unit": i, "model": j}   one wound on entry j (a full model: removed)
    {"op": "state", "side": 0|1, "unit": i, "state": key, "on": bool}
    {"op": "battle_round", "value": n}
    {"op": "phase", "value": key}
    {"op": "vp",    "side": 0|1, "delta": n}
    {"op": "undo"}                                          cancels the last tap not yet undone
    {"op": "odds",  ...}                                    the log of an odds asked; no effect

`check_action` refuses (`GameActionError`, naming the field) an action the game cannot take,
in a player's words; `replay` trusts actions already checked.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from rules.systems.play import PlayRules, model_wounds

#: Taps one game may hold (with their undos and the odds asked): a long game is a few hundred.
MAX_ACTIONS = 3000
MAX_ROUNDS = 20
#: Victory points a side may have, and the most one tap may add or take.
MAX_VP = 9999
MAX_VP_STEP = 100
#: Ops a player taps (the odds are recorded by the server when they are asked).
TAP_OPS = ("lose", "wound", "state", "battle_round", "phase", "vp", "undo")
SIDES = (0, 1)


class GameActionError(ValueError):
    """The action cannot be taken; `errors` maps a field to its messages (a 400's details)."""

    def __init__(self, errors: Mapping[str, Sequence[str]]):
        self.errors = {key: list(value) for key, value in errors.items()}
        super().__init__("; ".join(m for messages in self.errors.values() for m in messages))


@dataclass
class UnitState:
    """One unit as it stands: models lost and wounds on the damaged model, per model entry,
    and the states it is marked with."""

    lost: list[int]
    wounds: list[int]
    states: list[str]

    def as_dict(self) -> dict[str, Any]:
        return {"lost": list(self.lost), "wounds": list(self.wounds), "states": list(self.states)}


@dataclass
class GameState:
    battle_round: int
    phase: str
    vp: list[int]
    units: list[list[UnitState]]

    def as_dict(self) -> dict[str, Any]:
        return {
            "battle_round": self.battle_round,
            "phase": self.phase,
            "vp": list(self.vp),
            "units": [[unit.as_dict() for unit in side] for side in self.units],
        }


def _models(armies: Sequence[Mapping[str, Any]], side: int, unit: int) -> list[Mapping[str, Any]]:
    return list(armies[side]["units"][unit]["unit"].get("models") or ())


def initial_state(armies: Sequence[Mapping[str, Any]], play: PlayRules) -> GameState:
    """Round 1, the first phase, no victory points, nothing lost."""
    units = [
        [
            UnitState([0] * len(_models(armies, side, i)), [0] * len(_models(armies, side, i)), [])
            for i in range(len(armies[side]["units"]))
        ]
        for side in SIDES
    ]
    return GameState(1, play.phases[0].key, [0, 0], units)


def models_left(armies: Sequence[Mapping[str, Any]], state: GameState, side: int, unit: int) -> int:
    """Models of the unit still on the table."""
    models = _models(armies, side, unit)
    lost = state.units[side][unit].lost
    return sum(int(m.get("count") or 0) - lost[j] for j, m in enumerate(models))


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _unit_ref(action: Mapping[str, Any], armies: Sequence[Mapping[str, Any]]) -> tuple[int, int]:
    side, unit = _int(action.get("side")), _int(action.get("unit"))
    if side not in SIDES:
        raise GameActionError({"side": [_("Choose side 0 (first army) or 1 (second army).")]})
    if unit is None or not 0 <= unit < len(armies[side]["units"]):
        raise GameActionError({"unit": [_("No such unit in this army.")]})
    return side, unit


def _model_ref(action: Mapping[str, Any], armies: Sequence[Mapping[str, Any]]) -> tuple[int, int, int]:
    side, unit = _unit_ref(action, armies)
    model = _int(action.get("model"))
    if model is None or not 0 <= model < len(_models(armies, side, unit)):
        raise GameActionError({"model": [_("No such model in this unit.")]})
    return side, unit, model


def check_action(
    action: Any,
    *,
    armies: Sequence[Mapping[str, Any]],
    play: PlayRules,
    state: GameState,
    actions: Sequence[Mapping[str, Any]],
) -> dict[str, Any]:
    """The action as it will be stored (its fields only), if the game as it stands can take it."""
    if not isinstance(action, Mapping):
        raise GameActionError({"op": [_("An action must be a JSON object.")]})
    op = action.get("op")
    if op not in TAP_OPS:
        raise GameActionError(
            {"op": [_("Unknown action: use one of %(ops)s.") % {"ops": ", ".join(TAP_OPS)}]}
        )
    if op in ("lose", "wound"):
        side, unit, model = _model_ref(action, armies)
        entry = _models(armies, side, unit)[model]
        if int(entry.get("count") or 0) - state.units[side][unit].lost[model] <= 0:
            raise GameActionError({"model": [_("No model of this kind is left in the unit.")]})
        if op == "wound" and model_wounds(entry, play.wounds_field) <= 1:
            raise GameActionError({"model": [_("These models have one wound each: remove a model instead.")]})
        return {"op": op, "side": side, "unit": unit, "model": model}
    if op == "state":
        side, unit = _unit_ref(action, armies)
        key, on = action.get("state"), action.get("on")
        if not isinstance(key, str) or play.state(key) is None:
            raise GameActionError(
                {
                    "state": [
                        _("This game system has no such state: use one of %(states)s.")
                        % {"states": ", ".join(s.key for s in play.states)}
                    ]
                }
            )
        if not isinstance(on, bool):
            raise GameActionError({"on": [_("Must be true or false.")]})
        return {"op": op, "side": side, "unit": unit, "state": key, "on": on}
    if op == "battle_round":
        value = _int(action.get("value"))
        if value is None or not 1 <= value <= MAX_ROUNDS:
            raise GameActionError(
                {"value": [_("A round is a whole number from 1 to %(max)d.") % {"max": MAX_ROUNDS}]}
            )
        return {"op": op, "value": value}
    if op == "phase":
        value = action.get("value")
        if not isinstance(value, str) or play.phase(value) is None:
            raise GameActionError(
                {
                    "value": [
                        _("This game system has no such phase: use one of %(phases)s.")
                        % {"phases": ", ".join(p.key for p in play.phases)}
                    ]
                }
            )
        return {"op": op, "value": value}
    if op == "vp":
        if _int(action.get("side")) not in SIDES:
            raise GameActionError({"side": [_("Choose side 0 (first army) or 1 (second army).")]})
        delta = _int(action.get("delta"))
        if delta is None or delta == 0 or abs(delta) > MAX_VP_STEP:
            raise GameActionError(
                {
                    "delta": [
                        _("Add or take from 1 to %(max)d victory points at a time.") % {"max": MAX_VP_STEP}
                    ]
                }
            )
        side = int(action["side"])
        if not 0 <= state.vp[side] + delta <= MAX_VP:
            raise GameActionError(
                {"delta": [_("Victory points stay between 0 and %(max)d.") % {"max": MAX_VP}]}
            )
        return {"op": op, "side": side, "delta": delta}
    if not effective_taps(actions):
        raise GameActionError({"op": [_("Nothing to undo.")]})
    return {"op": "undo"}


def apply_action(
    state: GameState, action: Mapping[str, Any], armies: Sequence[Mapping[str, Any]], play: PlayRules
) -> None:
    """Change `state` by one checked tap (never an undo: that needs the replay)."""
    op = action["op"]
    if op in ("lose", "wound"):
        unit = state.units[action["side"]][action["unit"]]
        j = action["model"]
        if op == "lose":
            unit.lost[j] += 1
            entry_left = (
                int(_models(armies, action["side"], action["unit"])[j].get("count") or 0) - unit.lost[j]
            )
            if entry_left <= 0:
                unit.wounds[j] = 0
        else:
            unit.wounds[j] += 1
            if unit.wounds[j] >= model_wounds(
                _models(armies, action["side"], action["unit"])[j], play.wounds_field
            ):
                unit.wounds[j] = 0
                unit.lost[j] += 1
    elif op == "state":
        states = state.units[action["side"]][action["unit"]].states
        if action["on"] and action["state"] not in states:
            states.append(action["state"])
        elif not action["on"] and action["state"] in states:
            states.remove(action["state"])
    elif op == "battle_round":
        state.battle_round = action["value"]
    elif op == "phase":
        state.phase = action["value"]
    elif op == "vp":
        state.vp[action["side"]] += action["delta"]


def effective_taps(actions: Sequence[Mapping[str, Any]]) -> list[int]:
    """Indices of the taps that stand (each undo cancels the last tap still standing)."""
    stack: list[int] = []
    for i, action in enumerate(actions):
        if action.get("op") == "undo":
            if stack:
                stack.pop()
        elif action.get("op") in TAP_OPS:
            stack.append(i)
    return stack


def replay(
    armies: Sequence[Mapping[str, Any]], actions: Sequence[Mapping[str, Any]], play: PlayRules
) -> GameState:
    """The state after `actions` (already checked), from the start of the game."""
    state = initial_state(armies, play)
    for i in effective_taps(actions):
        apply_action(state, actions[i], armies, play)
    return state
