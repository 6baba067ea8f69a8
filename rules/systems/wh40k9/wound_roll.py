"""Step 2, the wound roll (docs/rules/wh40k9.md §5 Step 2, §6.1, §6.4): S against T, ±1 capped,
natural 1 fails and 6 wounds, re-rolls, and the 6s that add AP or mortal wounds."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.systems.wh40k9.abilities import of_type
from rules.systems.wh40k9.hit_roll import _reroll
from rules.systems.wh40k9.rolls import roll


def wound_target(strength: int, toughness: int) -> int:
    """§5 Step 2: S ≥ 2T → 2+, S > T → 3+, S = T → 4+, 2S ≤ T → 6+, else 5+."""
    if strength >= 2 * toughness:
        return 2
    if strength > toughness:
        return 3
    if strength == toughness:
        return 4
    if 2 * strength <= toughness:
        return 6
    return 5


@dataclass(frozen=True, slots=True)
class WoundRoll:
    """One hit's wound roll: P(no wound), P(a plain wound), P(a wound with the trigger)."""

    fail: float
    plain: float
    trigger: float

    @property
    def p_wound(self) -> float:
        return self.plain + self.trigger


def wound_roll(*, strength: int, toughness: int, modifier: int, abilities: Sequence[Mapping[str, Any]],
               context: Mapping[str, Any]) -> WoundRoll:
    """The wound roll of one hit; the trigger is the lowest `on` of the wound-roll triggers
    (`extra_ap`, `mortal_wounds` {roll: wound}) that apply, 7 (never) without one."""
    if not abilities:
        outcome = roll(wound_target(strength, toughness), modifier)
        return WoundRoll(fail=outcome.fail, plain=outcome.success, trigger=outcome.trigger)
    total = modifier + sum(int(a["value"]) for a in of_type(abilities, "modifier", context=context)
                           if a.get("roll") == "wound")
    triggers = [int(a.get("on", 6)) for a in of_type(abilities, "extra_ap", context=context)]
    triggers += [int(a.get("on", 6)) for a in of_type(abilities, "mortal_wounds", context=context)
                 if a.get("roll") == "wound"]
    outcome = roll(wound_target(strength, toughness), total, _reroll(abilities, "wound", context),
                   min(triggers) if triggers else 7)
    return WoundRoll(fail=outcome.fail, plain=outcome.success, trigger=outcome.trigger)
