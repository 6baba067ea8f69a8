"""Every change to a game: start it from two lists, record a tap, sync taps made offline,
ask the odds of a fight as it stands, finish it.

The pages and the API call these same functions. Lists are read through the builder's own
readers (`armybuilder.estimates.sources.list_source`: the list selectors' visibility, the
export's unit format), the game system's play rules and its estimate engine through the
registry; nothing here names a system or a kind of list.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from armybuilder.api.throttling import SharedCacheThrottle
from armybuilder.estimates import compute
from armybuilder.estimates.bounds import matchup_cost
from armybuilder.estimates.inputs import (
    EstimateRequestError,
    estimable_in_list,
    situation_clean,
    unit_vs_unit_inputs,
)
from armybuilder.estimates.services import QueueUnavailable, estimate_request
from armybuilder.estimates.sources import ListSource, list_source
from armybuilder.games.models import Game
from armybuilder.games.play_state import (
    MAX_ACTIONS,
    GameActionError,
    GameState,
    apply_action,
    check_action,
    models_left,
    replay,
)
from armybuilder.lists.evaluation import unit_points
from rules.systems.play import PlayRules, survivors
from rules.systems.registry import GameSystem, get_system

#: The most both armies of a game may weigh as JSON: a game's state is bounded by its armies
#: and its actions (`play_state.MAX_ACTIONS`).
MAX_ARMIES_BYTES = 2 * 2**20
#: Taps one sync may carry (a phone offline for a whole game sends a few hundred).
MAX_SYNC_ACTIONS = 500
_SHARE_LINK = re.compile(r"/shared/([A-Za-z0-9_-]+)")


class GameStartError(ValueError):
    """The game cannot start; `errors` maps a field to its messages."""

    def __init__(self, errors: Mapping[str, Sequence[str]]):
        self.errors = {key: list(value) for key, value in errors.items()}
        super().__init__("; ".join(m for messages in self.errors.values() for m in messages))


class GameConflict(Exception):
    """A sync that starts from an older version than the game's: the client must take the
    server's actions first (`game.version` says how many there are)."""


class OddsLimited(Exception):
    """Too many odds asked in the last minute; `wait` is the seconds until the next window."""

    def __init__(self, wait: float):
        self.wait = wait
        super().__init__(
            _("Too many odds asked; try again in %(seconds)d seconds.") % {"seconds": int(wait) + 1}
        )


class GameOddsThrottle(SharedCacheThrottle):
    """The odds asked per account and minute (`game_odds` rate), for the page and the API alike.
    Each is an exact estimate (two, both ways), so it is rated like the other costly actions."""

    scope = "game_odds"

    def allow_ident(self, ident: str) -> bool:
        if self.rate is None:
            return True
        window = int(self.timer() // self.duration)
        self.window_ends = (window + 1) * self.duration
        return self._count(f"throttle_game_odds_{ident}:{window}") <= self.num_requests


# ------------------------------------------------------------------------------ starting


def share_token_of(link: str) -> str:
    """The share token of a list's link (`…/lists/shared/<token>/`) or of a bare token."""
    text = (link or "").strip()
    found = _SHARE_LINK.search(text)
    if found:
        return found.group(1)
    return text if re.fullmatch(r"[A-Za-z0-9_-]{1,64}", text) else ""


def army_source(*, user: AbstractBaseUser, list_id: Any = None, link: str = "", field: str) -> ListSource:
    """One army of a game: a list of the player's (by id) or any list or locked version behind a
    share link (the opponent's), read as the builder exports it."""
    token = share_token_of(link) if link else ""
    if link and not token:
        raise GameStartError({field: [_("Paste the list's share link (it contains /shared/).")]})
    if not token and not list_id:
        raise GameStartError({field: [_("Choose a list or paste a share link.")]})
    source = list_source(user=user, list_id=None if token else list_id, share_token=token)
    if source is None:
        raise GameStartError({field: [_("No such list, or it is not yours to see.")]})
    return source


def _army(source: ListSource) -> dict[str, Any]:
    units = []
    for name, unit in source.units:
        if not unit.get("models"):
            continue  # a roster's configuration entry: nothing on the table
        try:
            points: int | None = unit_points(system_key=source.system_key, unit=unit)
        except ValueError:
            points = None
        units.append({"name": name, "unit": dict(unit), "points": points})
    return {"name": source.name, "list_id": source.list_id, "units": units}


def playable_system(key: str) -> GameSystem:
    system = get_system(key)
    if not system.playable:
        raise GameStartError(
            {"first": [_("%(system)s cannot be played in play mode yet.") % {"system": _(system.name)}]}
        )
    return system


def game_start(*, user: AbstractBaseUser, first: ListSource, second: ListSource, name: str = "") -> Game:
    """A new game of `first` against `second` (the same game system), at round 1."""
    if first.system_key != second.system_key:
        raise GameStartError({"second": [_("Both armies must be of the same game system.")]})
    playable_system(first.system_key)
    armies = [_army(first), _army(second)]
    for field, army in zip(("first", "second"), armies, strict=True):
        if not army["units"]:
            raise GameStartError({field: [_("This list has no units to play.")]})
    if len(json.dumps(armies)) > MAX_ARMIES_BYTES:
        raise GameStartError({"second": [_("These lists are too large to play together.")]})
    title = (name or "").strip()[:200] or _("%(first)s vs %(second)s") % {
        "first": first.name,
        "second": second.name,
    }
    return Game.objects.create(owner=user, system=first.system_key, name=title[:200], armies=armies)


# ------------------------------------------------------------------------------ playing


def game_play_rules(game: Game) -> PlayRules:
    return playable_system(game.system).play


def game_state(*, game: Game) -> GameState:
    """The game as it stands (the replay of its actions)."""
    return replay(game.armies, game.actions, game_play_rules(game))


def _stamped(action: dict[str, Any], state: GameState) -> dict[str, Any]:
    return {
        **action,
        "at": timezone.now().isoformat(timespec="seconds"),
        "battle_round": state.battle_round,
        "phase": state.phase,
    }


def _locked(game: Game) -> Game:
    return Game.objects.select_for_update().get(pk=game.pk)


def _refuse_if_finished(game: Game) -> None:
    if game.finished is not None:
        raise GameActionError({"game": [_("This game is finished: start a new one to play again.")]})


def _append(game: Game, actions: Sequence[Mapping[str, Any]]) -> GameState:
    """Check each action against the game as it stands, stamp it, keep it; the new state."""
    play = game_play_rules(game)
    state = replay(game.armies, game.actions, play)
    if len(game.actions) + len(actions) > MAX_ACTIONS:
        raise GameActionError(
            {
                "actions": [
                    _("A game holds at most %(max)d taps: finish this one and start a new game.")
                    % {"max": MAX_ACTIONS}
                ]
            }
        )
    for action in actions:
        checked = check_action(action, armies=game.armies, play=play, state=state, actions=game.actions)
        game.actions.append(_stamped(checked, state))
        if checked["op"] == "undo":  # the tap it cancels may be anywhere: the game is replayed
            state = replay(game.armies, game.actions, play)
        else:  # one more tap on the state as it stands (a sync of 500 taps stays linear)
            apply_action(state, checked, game.armies, play)
    game.version = len(game.actions)
    game.save(update_fields=["actions", "version", "updated"])
    return state


@transaction.atomic
def game_act(*, game: Game, action: Mapping[str, Any]) -> tuple[Game, GameState]:
    """Record one tap (or an undo); the game and its new state."""
    game = _locked(game)
    _refuse_if_finished(game)
    state = _append(game, [action])
    return game, state


@transaction.atomic
def game_sync(*, game: Game, base: int, actions: Sequence[Mapping[str, Any]]) -> tuple[Game, GameState]:
    """Taps made on a client that had seen the first `base` actions: kept in order, each checked
    as if tapped now. A client behind the server (`base` < `version`) gets `GameConflict`: it
    takes the server's actions, replays its own taps on top and syncs again."""
    if len(actions) > MAX_SYNC_ACTIONS:
        raise GameActionError(
            {"actions": [_("Send at most %(max)d taps at a time.") % {"max": MAX_SYNC_ACTIONS}]}
        )
    game = _locked(game)
    if base != game.version:
        raise GameConflict()
    if actions:
        _refuse_if_finished(game)
        return game, _append(game, actions)
    return game, replay(game.armies, game.actions, game_play_rules(game))


@transaction.atomic
def game_finish(*, game: Game, result: str) -> Game:
    """Keep the game with its result (first, second or draw); it takes no more taps."""
    if result not in Game.Result.values:
        raise GameActionError({"result": [_("Choose the result: first, second or draw.")]})
    game = _locked(game)
    _refuse_if_finished(game)
    game.result = result
    game.finished = timezone.now()
    game.save(update_fields=["result", "finished", "updated"])
    return game


# ------------------------------------------------------------------------------ odds


def unit_as_it_stands(*, game: Game, state: GameState, side: int, unit: int) -> dict[str, Any]:
    """The unit of the game with its survivors as they are now (models, wounds)."""
    play = game_play_rules(game)
    standing = state.units[side][unit]
    return survivors(
        game.armies[side]["units"][unit]["unit"],
        lost=standing.lost,
        wounds=standing.wounds,
        wounds_field=play.wounds_field,
    )


def _why_not(game: Game, state: GameState, side: int, unit: int, *, attacking: bool) -> str:
    """Why the unit can take no part in a fight now (as attacker or target), or ""."""
    play = game_play_rules(game)
    name = game.armies[side]["units"][unit]["name"]
    if models_left(game.armies, state, side, unit) <= 0:
        return _("%(unit)s has no models left.") % {"unit": name}
    if not estimable_in_list(game.armies[side]["units"][unit]["unit"]):
        return _("%(unit)s has no profile to roll with.") % {"unit": name}
    for key in state.units[side][unit].states:
        marked = play.state(key)
        if marked is not None and (marked.out_of_play or (attacking and not marked.can_attack)):
            return _("%(unit)s is marked “%(state)s”.") % {"unit": name, "state": _(marked.label)}
    return ""


def _unit_ref(game: Game, ref: Any, field: str) -> tuple[int, int]:
    if (
        not isinstance(ref, Sequence)
        or isinstance(ref, str)
        or len(ref) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in ref)
        or ref[0] not in (0, 1)
        or not 0 <= ref[1] < len(game.armies[ref[0]]["units"])
    ):
        raise GameActionError({field: [_("Choose a unit of the game.")]})
    return int(ref[0]), int(ref[1])


def odds_modes(*, game: Game, state: GameState) -> tuple[str, ...]:
    """The attack modes the current phase allows."""
    phase = game_play_rules(game).phase(state.phase)
    return phase.modes if phase is not None else ()


def _summary(result: Mapping[str, Any]) -> dict[str, Any]:
    """The figures of one direction a log line and the page show: expected models slain, the
    chance to destroy, and each second-stage chance (and expected number) the system reports."""
    figures = [
        {
            "key": o["key"],
            "label": o.get("label", o["key"]),
            "kind": o["kind"],
            "value": o["value"] if o["kind"] != "distribution" else o.get("expected"),
        }
        for o in result.get("outcomes") or ()
        if o.get("kind") in ("probability", "number", "distribution")
    ]
    return {
        "expected_kills": result["expected"]["kills"],
        "p_destroyed": result["p_destroyed"],
        "outcomes": figures,
    }


def situation_of_states(
    *, game: Game, state: GameState, attacker: tuple[int, int], defender: tuple[int, int], mode: str
) -> dict[str, Any]:
    """The situation fields the two units' marked states set (the system's play declaration:
    a shaken defender that cannot strike back, a defender below Half-strength, a unit that
    charged), keeping only fields of the system's situation schema. They override the fields
    a player asked: the marks on the board are the game as it stands."""
    fields = game_play_rules(game).situation_of(
        attacker_states=state.units[attacker[0]][attacker[1]].states,
        defender_states=state.units[defender[0]][defender[1]].states,
        mode=mode,
    )
    known = (get_system(game.system).situation_schema or {}).get("properties") or {}
    return {key: value for key, value in fields.items() if key in known}


def _direction(
    game: Game,
    state: GameState,
    user: AbstractBaseUser,
    attacker: tuple[int, int],
    defender: tuple[int, int],
    situation: Mapping[str, Any],
) -> dict[str, Any]:
    side_a, unit_a = attacker
    side_d, unit_d = defender
    answer: dict[str, Any] = {
        "attacker": {"side": side_a, "unit": unit_a, "name": game.armies[side_a]["units"][unit_a]["name"]},
        "defender": {"side": side_d, "unit": unit_d, "name": game.armies[side_d]["units"][unit_d]["name"]},
        "status": "refused",
        "reason": "",
        "result": None,
        "summary": None,
        "estimate": None,
        "situation": dict(situation),
    }
    reason = _why_not(game, state, side_a, unit_a, attacking=True) or _why_not(
        game, state, side_d, unit_d, attacking=False
    )
    if reason:
        answer["reason"] = reason
        return answer
    a = unit_as_it_stands(game=game, state=state, side=side_a, unit=unit_a)
    d = unit_as_it_stands(game=game, state=state, side=side_d, unit=unit_d)
    marked = situation_of_states(
        game=game, state=state, attacker=attacker, defender=defender, mode=str(situation.get("mode", ""))
    )
    situation = {**situation, **marked}
    answer["situation"] = situation
    try:
        key, inputs = unit_vs_unit_inputs(attacker=a, defender=d, situation=situation)
    except EstimateRequestError as exc:
        answer["reason"] = " ".join(m for messages in exc.errors.values() for m in messages)
        return answer
    system = get_system(key)
    seconds, _size = matchup_cost(system, inputs["attacker"], inputs["defender"], inputs["situation"])
    if seconds <= settings.GAME_ODDS_INLINE_SECONDS:
        from armybuilder.celery import memory_bound

        try:
            with memory_bound(settings.ESTIMATE_JOB_MEMORY_MB * 2**20):
                result = compute.unit_vs_unit(key, inputs)
        except MemoryError:
            answer["reason"] = _("This fight needs more memory than one estimate may use.")
            return answer
        answer.update(status="done", result=result, summary=_summary(result), situation=inputs["situation"])
        return answer
    try:
        estimate = estimate_request(kind="unit_vs_unit", system=key, inputs=inputs, user=user)
    except QueueUnavailable as exc:
        answer["reason"] = _(str(exc))
        return answer
    answer.update(status=estimate.status, estimate=str(estimate.pk), situation=inputs["situation"])
    if estimate.status == estimate.Status.DONE and estimate.result:
        answer.update(result=estimate.result, summary=_summary(estimate.result))
    return answer


def game_odds(
    *,
    game: Game,
    user: AbstractBaseUser,
    attacker: Any,
    defender: Any,
    mode: str | None = None,
    situation: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The exact odds of a fight as it stands: `attacker` (side, unit) on `defender` and back,
    in `mode` (default: the first the phase allows), with the survivors as they are now and the
    system's second-stage figures. `situation` (fields of the system's situation schema, say a
    charge or cover) is the attacker's; the blow back is asked in the mode alone, since the
    situation's fields speak of the attacker. Cheap fights (the system's cost model) are
    answered here; others are queued as estimate jobs and named by their id. Rated per account
    and minute."""
    state = game_state(game=game)
    a, d = _unit_ref(game, attacker, "attacker"), _unit_ref(game, defender, "defender")
    if a[0] == d[0]:
        raise GameActionError({"defender": [_("Choose a unit of the other army.")]})
    modes = odds_modes(game=game, state=state)
    if not modes:
        raise GameActionError(
            {"mode": [_("Nobody attacks in this phase: move on to a phase with shooting or combat.")]}
        )
    chosen = mode or modes[0]
    if chosen not in modes:
        raise GameActionError(
            {"mode": [_("This phase allows only: %(modes)s.") % {"modes": ", ".join(modes)}]}
        )
    if situation is not None and not isinstance(situation, Mapping):
        raise GameActionError({"situation": [_("Must be an object.")]})
    try:
        asked = situation_clean({**(situation or {}), "mode": chosen}, system=get_system(game.system))
    except EstimateRequestError as exc:
        raise GameActionError(exc.errors) from None
    throttle = GameOddsThrottle()
    if not throttle.allow_ident(f"user{user.pk}"):
        raise OddsLimited(throttle.wait())
    directions = [
        _direction(game, state, user, a, d, asked),
        _direction(game, state, user, d, a, {"mode": chosen}),
    ]
    with transaction.atomic():
        locked = _locked(game)
        if len(locked.actions) < MAX_ACTIONS:
            locked.actions.append(
                _stamped(
                    {
                        "op": "odds",
                        "attacker": list(a),
                        "defender": list(d),
                        "mode": chosen,
                        "situation": asked,
                        "figures": [
                            {
                                "status": x["status"],
                                "summary": x["summary"],
                                "reason": x["reason"],
                                "estimate": x["estimate"],
                                "situation": x["situation"],
                            }
                            for x in directions
                        ],
                    },
                    state,
                )
            )
            locked.version = len(locked.actions)
            locked.save(update_fields=["actions", "version", "updated"])
            game.actions, game.version = locked.actions, locked.version
    return {
        "mode": chosen,
        "battle_round": state.battle_round,
        "phase": state.phase,
        "directions": directions,
    }


def odds_job_direction(*, game: Game, user: AbstractBaseUser, estimate_id: str) -> dict[str, Any] | None:
    """One way of an odds asked of this game that runs on the worker, as it stands now: the
    direction as the odds gave it (attacker, defender, the situation), with the job's status
    and, once it is done, its summary; failed: the job's reason. None: no odds of this game
    named that job, or the player may not read it. The play page polls this until it is done."""
    from armybuilder.estimates.selectors import estimate_get

    for action in reversed(game.actions):
        if action.get("op") != "odds":
            continue
        for index, figures in enumerate(action.get("figures") or ()):
            if figures.get("estimate") != str(estimate_id):
                continue
            estimate = estimate_get(estimate_id=estimate_id, user=user)
            if estimate is None:
                return None
            a, d = (action["attacker"], action["defender"])[:: 1 if index == 0 else -1]
            direction: dict[str, Any] = {
                "attacker": {"side": a[0], "unit": a[1], "name": game.armies[a[0]]["units"][a[1]]["name"]},
                "defender": {"side": d[0], "unit": d[1], "name": game.armies[d[0]]["units"][d[1]]["name"]},
                "status": estimate.status,
                "reason": "",
                "result": None,
                "summary": None,
                "estimate": str(estimate.pk),
                "situation": figures.get("situation") or {},
            }
            if estimate.status == estimate.Status.DONE and estimate.result:
                direction.update(result=estimate.result, summary=_summary(estimate.result))
            elif estimate.status == estimate.Status.FAILED:
                direction["reason"] = estimate.error or _("The worker could not work these odds out.")
            return direction
    return None
