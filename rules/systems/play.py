"""What a game system declares for play at the table (play mode, `armybuilder/games/`).

A game in progress tracks, per unit, the models removed, the wounds on a damaged model and
the states the system knows (OPR shaken, WHFB fleeing, AoS fled, ...); a round runs through
the system's phases, each allowing some kinds of attack. The product never names a system's
state, phase or profile field: it reads them from `GameSystem.play` (a `PlayRules`), and
turns a unit and its losses into the survivors an estimate takes with `survivors` below.

Pure Python (no Django): labels are English, marked with `gettext_noop`, translated on display.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.systems.messages import gettext_noop


@dataclass(frozen=True)
class PlayState:
    """A state a unit can be marked with during a game.

    `can_attack` False: a unit in this state is not offered as the attacker of the odds (a
    fleeing unit does not fight); `out_of_play` True: it is neither attacker nor target (a
    destroyed or fled unit). Either way the mark is the player's: nothing sets it by itself.
    """

    key: str
    label: str
    can_attack: bool = True
    out_of_play: bool = False


@dataclass(frozen=True)
class PlayPhase:
    """A phase of a round and the attack modes (`situation["mode"]` values) it allows; none
    for a phase without attacks (movement). The odds are offered in the allowed modes only."""

    key: str
    label: str
    modes: tuple[str, ...] = ()


@dataclass(frozen=True)
class PlayRules:
    """A system's play declaration: its per-unit states, its phases in order, and the profile
    field of a model that holds its wounds (toughness, W, Wounds), for the wound track."""

    states: tuple[PlayState, ...]
    phases: tuple[PlayPhase, ...]
    wounds_field: str

    def state(self, key: str) -> PlayState | None:
        return next((state for state in self.states if state.key == key), None)

    def phase(self, key: str) -> PlayPhase | None:
        return next((phase for phase in self.phases if phase.key == key), None)


def model_wounds(model: Mapping[str, Any], wounds_field: str) -> int:
    """The wounds one model of this profile entry has (at least 1)."""
    value = model.get(wounds_field)
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 1 else 1


def survivors(
    unit: Mapping[str, Any], *, lost: Sequence[int], wounds: Sequence[int], wounds_field: str
) -> dict[str, Any]:
    """The unit as it stands: each model entry `i` less its `lost[i]` models, and a model of
    it carrying `wounds[i]` wounds split off as its own entry of one model with that many
    wounds fewer (placed first, so it is the model that takes the next wounds). Entries with
    no model left are dropped. The unit's other fields are kept as they are."""
    result = copy.deepcopy(dict(unit))
    models: list[dict[str, Any]] = []
    for i, model in enumerate(unit.get("models") or ()):
        count = int(model.get("count") or 0) - (lost[i] if i < len(lost) else 0)
        taken = wounds[i] if i < len(wounds) else 0
        if count <= 0:
            continue
        if taken > 0:
            damaged = copy.deepcopy(dict(model))
            damaged["count"] = 1
            damaged[wounds_field] = max(1, model_wounds(model, wounds_field) - taken)
            models.append(damaged)
            count -= 1
            if count <= 0:
                continue
        rest = copy.deepcopy(dict(model))
        rest["count"] = count
        models.append(rest)
    result["models"] = models
    return result


#: States and phases several systems share, spelled once.
DESTROYED = PlayState("destroyed", gettext_noop("Destroyed"), can_attack=False, out_of_play=True)
