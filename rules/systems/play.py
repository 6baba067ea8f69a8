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
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
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
    #: Fields of the system's situation schema this state sets when the unit attacks (OPR
    #: pinned: it counts as having moved) ...
    attacking: Mapping[str, Any] = field(default_factory=dict)
    #: ... and when it is attacked (OPR shaken: it cannot strike back; 40k below Half-strength:
    #: its Combat Attrition flees on 1–2). The odds of a game feed them into the situation.
    defending: Mapping[str, Any] = field(default_factory=dict)
    #: The attack modes the effects hold in (a charge is melee); empty: every mode.
    modes: tuple[str, ...] = ()

    def effects(self, *, attacking: bool, mode: str) -> dict[str, Any]:
        """The situation fields this state sets for a unit in that role, in that mode."""
        if self.modes and mode not in self.modes:
            return {}
        return dict(self.attacking if attacking else self.defending)


@dataclass(frozen=True)
class PlayPhase:
    """A phase of a round and the attack modes (`situation["mode"]` values) it allows; none
    for a phase without attacks (movement). The odds are offered in the allowed modes only."""

    key: str
    label: str
    modes: tuple[str, ...] = ()
    #: English words and phrases that, in a rule's text (or name), say it matters in this
    #: phase ("Fight phase", "charge"): the rules reference groups a game's rules by phase
    #: from them. Whole words, any case; empty: no rule is placed in this phase by its text.
    rule_words: tuple[str, ...] = ()

    def mentions(self, text: str) -> int:
        """How often `text` (English) names this phase's business (`rule_words`)."""
        if not self.rule_words or not text:
            return 0
        return len(_words_pattern(self.rule_words).findall(text))


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

    def phases_of(self, *texts: str) -> list[str]:
        """The keys of the phases whose words the texts (a rule's name and English text) use,
        the phase named most first (then in turn order): the rule matters there first. Empty:
        the data ties the rule to no phase (it matters in any)."""
        joined = "\n".join(t for t in texts if t)
        hits = {phase.key: phase.mentions(joined) for phase in self.phases}
        order = {phase.key: i for i, phase in enumerate(self.phases)}
        return sorted((key for key, n in hits.items() if n), key=lambda key: (-hits[key], order[key]))

    def situation_of(
        self, *, attacker_states: Sequence[str], defender_states: Sequence[str], mode: str
    ) -> dict[str, Any]:
        """The situation fields the two units' marked states set for an attack in `mode`: what
        a game as it stands adds to the situation a player asked (unknown keys are ignored)."""
        fields: dict[str, Any] = {}
        for keys, attacking in ((attacker_states, True), (defender_states, False)):
            for key in keys:
                state = self.state(key)
                if state is not None:
                    fields.update(state.effects(attacking=attacking, mode=mode))
        return fields


#: What a system that cannot be played in play mode declares: no states, no phases.
NO_PLAY = PlayRules(states=(), phases=(), wounds_field="")


@lru_cache(maxsize=64)
def _words_pattern(words: tuple[str, ...]) -> re.Pattern[str]:
    alternatives = "|".join(re.escape(word) for word in sorted(words, key=len, reverse=True))
    return re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)", re.IGNORECASE)


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
