"""Who fights (`docs/rules/whfb6.md` §6.2, §12.3; the RU chapter uses the core rule): the models
whose bases touch an enemy base, derived from the two units' frontages, ranks and bases.

**Decision** (the spec says "corner to corner is enough" and that a charge brings "as many
models into contact as possible", §6.2, §5 "Charge", but not how the units line up): the
attacker's front slides along the part of the defender it fights — the defender's front
rank, the side of its full ranks (one model per rank, §6.2 "contact on the side of the
base") or its rear rank — to the place that brings the most models of **both** sides into
contact, and of those the most of its own; a model fights when its base's edge overlaps or
touches (a corner is enough) the enemy's edge. Such a place always lines an attacker's base
edge up with a defender's, so only those places are tried. Each unit's front rank holds
`width` models (fewer if the unit is smaller), ranks are filled from the front, and an
incomplete rear rank stands behind the others (its models are the rear face). Bases are the
rank and file's (`units.Model.base`). The counts are taken at the start of the round;
casualties come off the rear (§6.6), so the models in contact keep fighting while the unit
is larger than them (`combat.Side`). An explicit number in the situation overrides the
derived one. See the repository's `docs/rules/fantasy.md`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from rules.systems.fantasy_combat.units import Unit


@dataclass(frozen=True)
class Contact:
    """Models in base contact on each side, and whether each faces the enemy with its front
    (§12.3: spears add a rank only against enemies to the front)."""

    attacker: int
    defender: int
    defender_front: bool


def _touching(offsets: np.ndarray, count: int, step: int, low: int, high: int) -> np.ndarray:
    """Per offset o, how many of `count` segments [o + i·step, o + (i+1)·step] touch [low, high]
    (closed intervals: a shared end point, a corner, is contact)."""
    first = np.maximum(0, -((offsets - low) // step) - 1)  # the first i with o + (i+1)·step ≥ low
    last = np.minimum(count - 1, (high - offsets) // step)  # the last i with o + i·step ≤ high
    return np.maximum(0, last - first + 1)


def _models(unit: Unit) -> int:
    return sum(m.count for m in unit.models)


def contact(
    attacker: Unit, defender: Unit, *, attacker_width: int, defender_width: int, facing: str
) -> Contact:
    """Models in base contact when the attacker fights the defender's `facing` (front, flank
    or rear), lined up to bring the most models into contact (module docstring). Lengths in mm."""
    a_models, d_models = _models(attacker), _models(defender)
    return _contact(a_models, min(attacker_width, a_models), attacker.target.base[0], d_models,
                    min(defender_width, d_models), *defender.target.base, facing)


@lru_cache(maxsize=4096)
def _contact(a_models: int, a_front: int, a_step: int, d_models: int, d_front: int, d_base_w: int,
             d_base_d: int, facing: str) -> Contact:
    """`contact` on the numbers it reads, kept: a job's units line up the same few ways."""
    if facing == "flank":
        d_count, d_step = d_models // d_front, d_base_d  # the full ranks' side, one model each
    elif facing == "rear":
        ranks = -(-d_models // d_front)
        d_count, d_step = d_models - (ranks - 1) * d_front, d_base_w
    else:
        d_count, d_step = d_front, d_base_w
    d_span, a_span = d_count * d_step, a_front * a_step
    # The defender's face is [0, d_span]; the attacker's front starts at an offset that lines
    # one of its base edges up with one of the defender's.
    offsets = np.unique(
        (np.arange(d_count + 1) * d_step)[:, None] - (np.arange(a_front + 1) * a_step)[None, :]
    )
    attackers = _touching(offsets, a_front, a_step, 0, d_span)
    defenders = _touching(-offsets, d_count, d_step, 0, a_span)  # the defender seen from the attacker
    best = int(np.lexsort((attackers, attackers + defenders))[-1])  # most in all, then most attackers
    return Contact(
        attacker=int(attackers[best]), defender=int(defenders[best]), defender_front=facing == "front"
    )
