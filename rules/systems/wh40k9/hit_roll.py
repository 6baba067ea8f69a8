"""Step 1, the hit roll (docs/rules/wh40k9.md §5 Step 1, §3 weapon types, §6.1, §6.4).

Per attack: the PMF of hits it scores (0, 1, or 1 + extra hits on an unmodified 6), the
chance of the hit-roll trigger (mortal wounds on a 6 to hit) and of keeping an unmodified
1 (Supercharge). Modifiers: the situation's, the weapon type's (Assault after Advancing,
Heavy after moving for INFANTRY, Heavy with enemies in Engagement Range for VEHICLE and
MONSTER), and the abilities' `modifier` {roll: hit}; capped at ±1 together.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from rules.dice.pmf import PMF
from rules.systems.wh40k9.abilities import of_type
from rules.systems.wh40k9.rolls import RollOutcome, roll


@dataclass(frozen=True, slots=True)
class HitRoll:
    """What one attack's hit roll gives: `hits[k]` = P(k hits); `trigger` = P(a hit with an
    unmodified `on`+ for mortal wounds); `self_destruct` = P(kept unmodified 1 or less)."""

    hits: PMF
    trigger: float
    p_hit: float
    self_destruct: float
    fail: float = 0.0
    success: float = 0.0
    triggered: float = 0.0
    extra: int = 0


def weapon_type_modifier(*, kind: str, advanced: bool, moved: bool, keywords: frozenset[str],
                         engaged: bool) -> int:
    """§3: Assault −1 after Advancing; Heavy −1 for INFANTRY that moved; §4 Big Guns Never
    Tire: Heavy −1 for VEHICLE/MONSTER with enemies in Engagement Range."""
    modifier = 0
    if kind == "Assault" and advanced:
        modifier -= 1
    if kind == "Heavy":
        infantry_moved = "INFANTRY" in keywords and (moved or advanced)
        big_gun_engaged = engaged and bool(keywords & {"VEHICLE", "MONSTER"})
        if infantry_moved or big_gun_engaged:
            modifier -= 1
    return modifier


def _reroll(abilities: Sequence[Mapping[str, Any]], roll_name: str, context: Mapping[str, Any]) -> str | None:
    which = {a["which"] for a in of_type(abilities, "reroll", context=context) if a.get("roll") == roll_name}
    return "failed" if "failed" in which else "ones" if "ones" in which else None


#: The ability kinds a hit roll reads; with none of them, it is the plain roll.
_HIT_ROLL_KINDS = frozenset({"auto_hit", "modifier", "extra_hits", "mortal_wounds", "self_destruct",
                             "reroll"})


def hit_roll(*, skill: int | None, modifier: int, abilities: Sequence[Mapping[str, Any]],
             context: Mapping[str, Any]) -> HitRoll:
    """The hit roll of one attack at `skill`+ (BS or WS) with the situation's `modifier`."""
    plain = not any(a.get("type") in _HIT_ROLL_KINDS for a in abilities)  # (a wound-roll kind: still plain)
    if plain and skill is not None:  # the plain roll: no re-roll, trigger or 6s
        outcome = roll(skill, modifier)
        return HitRoll(hits=np.array([outcome.fail, outcome.success]), trigger=0.0, p_hit=outcome.p_success,
                       self_destruct=0.0, fail=outcome.fail, success=outcome.success)
    if of_type(abilities, "auto_hit", context=context):
        return HitRoll(hits=np.array([0.0, 1.0]), trigger=0.0, p_hit=1.0, self_destruct=0.0, success=1.0)
    if skill is None:  # "-": cannot make this kind of attack (§1.1)
        return HitRoll(hits=np.array([1.0]), trigger=0.0, p_hit=0.0, self_destruct=0.0, fail=1.0)
    total = modifier + sum(int(a["value"]) for a in of_type(abilities, "modifier", context=context)
                           if a.get("roll") == "hit")
    exploding = of_type(abilities, "extra_hits", context=context)
    mortal = [a for a in of_type(abilities, "mortal_wounds", context=context) if a.get("roll") == "hit"]
    triggers = [int(a.get("on", 6)) for a in exploding + mortal]
    trigger_on = min(triggers) if triggers else 7
    low = max((int(a.get("on", 1)) for a in of_type(abilities, "self_destruct", context=context)), default=0)
    outcome: RollOutcome = roll(skill, total, _reroll(abilities, "hit", context), trigger_on, low)
    extra = sum(int(a.get("hits", 1)) for a in exploding)
    hits = np.zeros(2 + extra)
    hits[0] = outcome.fail
    hits[1] += outcome.success
    hits[1 + extra] += outcome.trigger
    return HitRoll(hits=hits, trigger=outcome.trigger if mortal else 0.0, p_hit=outcome.p_success,
                   self_destruct=outcome.low, fail=outcome.fail, success=outcome.success,
                   triggered=outcome.trigger, extra=extra)
