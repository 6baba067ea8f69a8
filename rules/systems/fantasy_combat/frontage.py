"""Who fights (`000_whfb6.md` §6.2, §12.3; the RU chapter uses the core rule): the models
whose bases touch an enemy base, derived from the two units' frontages, ranks and bases.

**Decision** (the spec says "corner to corner is enough" but not how the units line up): the
attacker's front is centred on the part of the defender it fights — the defender's front
rank, the side of its full ranks (one model per rank, §6.2 "contact on the side of the
base") or its rear rank — and a model fights when its base's edge overlaps or touches (a
corner is enough) the enemy's edge. Each unit's front rank holds `width` models (fewer if
the unit is smaller), ranks are filled from the front, and an incomplete rear rank stands
centred behind the others. Bases are the rank and file's (`units.Model.base`). The counts
are taken at the start of the round; casualties come off the rear (§6.6), so the models in
contact keep fighting while the unit is larger than them (`combat.Side`). An explicit
number in the situation overrides the derived one.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.systems.fantasy_combat.units import Unit


@dataclass(frozen=True)
class Contact:
    """Models in base contact on each side, and whether each faces the enemy with its front
    (§12.3: spears add a rank only against enemies to the front)."""

    attacker: int
    defender: int
    defender_front: bool


def _touching(count: int, step: int, start: int, low: int, high: int) -> int:
    """How many of `count` segments [start + i·step, start + (i+1)·step] touch [low, high]."""
    return sum(1 for i in range(count) if start + i * step <= high and start + (i + 1) * step >= low)


def _models(unit: Unit) -> int:
    return sum(m.count for m in unit.models)


def contact(
    attacker: Unit, defender: Unit, *, attacker_width: int, defender_width: int, facing: str
) -> Contact:
    """Models in base contact when the attacker fights the defender's `facing` (front, flank
    or rear). Lengths are in doubled millimetres so that centring stays whole."""
    a_models, d_models = _models(attacker), _models(defender)
    a_front = min(attacker_width, a_models)
    d_front = min(defender_width, d_models)
    a_base_w = attacker.target.base[0]
    d_base_w, d_base_d = defender.target.base
    a_span = a_front * a_base_w
    if facing == "flank":
        full_ranks = d_models // d_front  # an incomplete rear rank stands centred, off the side
        d_span, d_count, d_step = full_ranks * d_base_d, full_ranks, 2 * d_base_d
    elif facing == "rear":
        ranks = -(-d_models // d_front)
        d_count = d_models - (ranks - 1) * d_front
        d_span, d_step = d_count * d_base_w, 2 * d_base_w
    else:
        d_span, d_count, d_step = d_front * d_base_w, d_front, 2 * d_base_w
    attackers = _touching(a_front, 2 * a_base_w, -a_span, -d_span, d_span)
    defenders = _touching(d_count, d_step, -d_span, -a_span, a_span)
    return Contact(attacker=attackers, defender=defenders, defender_front=facing == "front")
