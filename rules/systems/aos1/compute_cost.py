"""What one AoS 1st attack costs to compute, predicted before it is queued.

The generic bound of `armybuilder.estimates.bounds` prices every matchup as a dense
allocation machine over the defender's models; the AoS engine (`combat`) has none: damage is
pooled over the whole attack (§2.4), so its work is one compound distribution per weapon
group, walked attack by attack, then per number of models slain a battleshock roll (§2.10):

    A_g      = models of group g × the most attacks of its weapon (its attacks PMF's length − 1)
    cells_g  = Σ_{n=1..A_g} min(n × most damage + 1, pool + 1) × (most damage + 1)
    slain    = min(models, min(pool, Σ A_g × most damage + most mortal wounds) // Wounds) + 1
    seconds  = SECONDS_FIXED + Σ SECONDS_PER[k] × k over groups, Σ A_g, Σ cells_g, models, pool
               and slain
    bytes    = BYTES_FIXED + BYTES_PER_WEAPON × groups + BYTES_PER_ATTACK × Σ A_g
               + BYTES_PER_MODEL × models + BYTES_PER_WOUND × pool

with `pool` the target's pooled wounds (its largest group's models × Wounds) and `models` the
pooled models. `slain` counts the numbers of models slain the damage can reach: for each the
battleshock tables take a step in Python with exact fractions, which on one-wound hordes is
most of the work. Every distribution is folded at the pool, and the outcome lists (each a Python
list of floats: the per-model term) are as long as the pool and the models, so memory is
linear in them.

The seconds are the reference machine's (`armybuilder.estimates.machine_speed`): fitted by
least squares on relative error against 360 accepted inputs of `bench/bench_cost_models.py`'s
sweep (seeds 11–13; CPU seconds, best of three, divided by the machine factor measured in the
same process), checked on seed 1, and rounded up by about 30%; the cells term is kept though
the sweep barely weighs it, for inputs of large damage into a large pool. The bytes were fitted
on `tracemalloc` peaks of the job's own function, the result lists included, and err on the
high side.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from rules.systems.aos1.combat import MAX_ATTACKS, MAX_POOL_WOUNDS, Situation, _pool
from rules.systems.fantasy_combat.units import dice_pmf

SECONDS_FIXED = 4e-5
SECONDS_PER = {"groups": 2.5e-5, "attacks": 2.2e-6, "cells": 7e-10, "models": 1.6e-7, "pool": 0.0,
               "slain": 5.4e-6}
BYTES_FIXED = 3 * 1024
BYTES_PER_WEAPON = 600
BYTES_PER_ATTACK = 40
BYTES_PER_MODEL = 200
BYTES_PER_WOUND = 4
#: The same for a list job's cell (`combat.matrix_attack`: no per-weapon figures, no
#: battleshock distributions, one holding chance summed in integers): seconds fitted the same
#: way on 300 cells of `bench/bench_cost_models.py --cells`'s inputs (seeds 11–13; units
#: prepared outside the clock, load ~7 on two cores; fitted ratios 0.28–1.6, the lowest on
#: 0.1 ms inputs) and rounded up by about 30%. The fit put nothing on `slain` (the holding
#: chance is one integer term per number slain, ~0.3 µs, held at that) nor on the pool; the
#: cells term is `attack`'s (the same convolutions). Bytes: the peaks grow with the pooled
#: models (the slain arrays), hardly with the pool (the damage reaches a small part of it).
CELL_SECONDS_FIXED = 4e-5
CELL_SECONDS_PER = {"groups": 3.5e-5, "attacks": 2e-6, "cells": 7e-10, "models": 4e-8, "pool": 0.0,
                    "slain": 3e-7}
CELL_BYTES = {"fixed": 1600, "groups": 1100, "attacks": 20, "models": 36, "pool": 2}


def _most(expression: Any) -> int:
    """The largest value of a dice value ("D6" is 6, 3 is 3)."""
    return len(dice_pmf(expression)) - 1


class Work(NamedTuple):
    """What `combat.attack` walks on one input, counted as the engine walks it."""

    groups: int  #: weapon groups (one compound distribution each)
    attacks: int  #: attacks walked, over all groups
    cells: int  #: cells convolved, over all groups
    models: int  #: the pooled models
    pool: int  #: the pooled wounds
    slain: int  #: numbers of models slain the damage can reach: each is a battleshock step


def attack_work(attacker: Mapping[str, Any], defender: Mapping[str, Any], situation: Situation) -> Work:
    """The `Work` of `combat.attack` on these inputs; ValueError past the engine's own limits
    (the same messages)."""
    a_models = [m for m in attacker.get("models") or () if isinstance(m, Mapping)]
    d_models = [m for m in defender.get("models") or () if isinstance(m, Mapping)]
    if not a_models or not d_models:
        raise ValueError("models: a unit needs at least one model")
    count, wounds, _save = _pool(d_models)
    limit = count * wounds
    if limit > MAX_POOL_WOUNDS:
        raise ValueError(
            f"models: at most {MAX_POOL_WOUNDS} wounds in the target's models for an exact estimate")
    kind = "missile" if situation.mode == "shooting" else "melee"
    slots = situation.fighting_models or sum(int(m.get("count", 1)) for m in a_models)
    groups = attacks = cells = 0
    reach = _most(situation.mortal_wounds)
    for model in a_models:
        n = min(slots, int(model.get("count", 1)))
        slots -= n
        for weapon in model.get("weapons") or ():
            if weapon.get("type", "melee") != kind or (
                kind == "missile" and int(weapon.get("range") or 0) < situation.range_inches
            ):
                continue
            most = n * _most(weapon.get("attacks", 1))
            if most > MAX_ATTACKS:
                raise ValueError(f"models: at most {MAX_ATTACKS} attacks per weapon for an exact estimate")
            damage = _most(weapon.get("damage", 1))
            groups += 1
            attacks += most
            reach += most * damage
            # Σ_{n=1..most} min(n × damage + 1, limit + 1): the terms grow until they reach the pool.
            rising = min(most, limit // max(1, damage))
            cells += (damage + 1) * (rising * (rising + 1) // 2 * damage + rising
                                     + (most - rising) * (limit + 1))
    slain = min(count, min(reach, limit) // wounds) + 1
    return Work(groups, attacks, cells, count, limit, slain)


def _work(attacker: Mapping[str, Any], defender: Mapping[str, Any],
          situation: Mapping[str, Any] | None) -> Work:
    sit = situation if isinstance(situation, Situation) else Situation.from_dict(situation)
    try:
        return attack_work(attacker, defender, sit)
    except (TypeError, KeyError) as exc:  # a malformed value: the engine says the same
        raise ValueError(f"models: {exc}") from None


def estimate_cell_cost(attacker: Mapping[str, Any], defender: Mapping[str, Any],
                       situation: Mapping[str, Any] | None) -> tuple[float, int]:
    """The registry's `estimate_cell_cost` for AoS 1st: predicted (seconds, bytes) of
    `matrix_attack`, a list job's cell (the same work counted, a cell's prices, never above
    `attack`'s: a cell does no more), or ValueError naming the engine's limit the inputs pass."""
    work = _work(attacker, defender, situation)
    seconds = CELL_SECONDS_FIXED + sum(CELL_SECONDS_PER[key] * value for key, value in work._asdict().items())
    size = CELL_BYTES["fixed"] + sum(CELL_BYTES[key] * getattr(work, key)
                                     for key in ("groups", "attacks", "models", "pool"))
    full_seconds, full_size = _priced(work)
    return min(seconds, full_seconds), min(int(size), full_size)


def estimate_cost(attacker: Mapping[str, Any], defender: Mapping[str, Any],
                  situation: Mapping[str, Any] | None) -> tuple[float, int]:
    """The registry's `estimate_cost` for AoS 1st: predicted (seconds, bytes) of `attack`, or
    ValueError naming the engine's limit the inputs pass."""
    return _priced(_work(attacker, defender, situation))


def _priced(work: Work) -> tuple[float, int]:
    seconds = SECONDS_FIXED + sum(SECONDS_PER[key] * value for key, value in work._asdict().items())
    size = (BYTES_FIXED + BYTES_PER_WEAPON * work.groups + BYTES_PER_ATTACK * work.attacks
            + BYTES_PER_MODEL * work.models + BYTES_PER_WOUND * work.pool)
    return seconds, size
