"""One D6 roll of the attack sequence with its modifiers, re-rolls and 6s (docs/rules/wh40k9.md §5, §6.4).

A roll succeeds when it is not an unmodified 1 and either is an unmodified 6 or the
modified result reaches the target; modifiers together are capped at ±1 (§5 Steps 1–2).
A re-roll happens before modifiers, at most once per die, and "unmodified X" triggers are
judged on the die that stays (§6.4). Exact: sums over the 36 face pairs.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

FACES = range(1, 7)


@dataclass(frozen=True, slots=True)
class RollOutcome:
    """Probabilities of one die after re-rolls: failed, succeeded without the trigger,
    succeeded with the trigger (unmodified `on`+), and kept an unmodified face ≤ `low`."""

    fail: float
    success: float
    trigger: float
    low: float = 0.0

    @property
    def p_success(self) -> float:
        return self.success + self.trigger


def capped(modifier: int) -> int:
    """§5: a net modifier below −1 counts as −1, above +1 as +1."""
    return max(-1, min(1, modifier))


def succeeds(face: int, target: int, modifier: int) -> bool:
    """§5: an unmodified 1 fails, an unmodified 6 succeeds, otherwise face + modifier ≥ target."""
    if face == 1:
        return False
    if face == 6:
        return True
    return face + capped(modifier) >= target


@lru_cache(maxsize=1024)
def roll(target: int, modifier: int = 0, reroll: str | None = None, trigger_on: int = 7,
         low: int = 0) -> RollOutcome:
    """The outcome of one die needing `target`+ with `modifier`, re-rolling 1s (`"ones"`)
    or every failure (`"failed"`); `trigger_on` 7 means no trigger; `low` counts kept
    unmodified faces ≤ low (self-destruction on a 1).

    One pass over the six faces: the first die's outcome, then the re-rolled share (the
    faces re-rolled, each 1/6) kept as a second die's outcome, which is the same single-die
    distribution (so Σ over 36 face pairs is never spelled out)."""
    fail = success = trigger = low_p = 0.0
    again = 0  # faces of the first die that are re-rolled
    for face in FACES:
        failed = not succeeds(face, target, modifier)
        if (reroll == "ones" and face == 1) or (reroll == "failed" and failed):
            again += 1
            continue
        if face <= low:
            low_p += 1
        if failed:
            fail += 1
        elif face >= trigger_on:
            trigger += 1
        else:
            success += 1
    if again:  # a re-rolled die is kept whatever it shows: the single-die odds, once more
        single = roll(target, modifier, None, trigger_on, low)
        share = again / 6
        return RollOutcome(fail / 6 + share * single.fail, success / 6 + share * single.success,
                           trigger / 6 + share * single.trigger, low_p / 6 + share * single.low)
    return RollOutcome(fail / 6, success / 6, trigger / 6, low_p / 6)
