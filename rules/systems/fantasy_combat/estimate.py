"""The registry's `attack(attacker, defender, situation)` for WHFB 6th and the RU house rules.

Turns the exact distributions of `combat` and `resolution` into the estimates contract's
result (HELPERS.md, "The estimates contract"): expectations, the kills distribution of the
defender's rank and file, and the system's extra `outcomes` (combat result, win/draw,
break chances; panic after shooting).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from rules.dice.pmf import at_least, mean
from rules.systems.fantasy_combat.combat import (
    ATTACKER,
    DEFENDER,
    Side,
    Striker,
    fight_round,
    planned_work,
    shoot,
)
from rules.systems.fantasy_combat.resolution import resolve
from rules.systems.fantasy_combat.situation import MAX_WORK, Situation, _
from rules.systems.fantasy_combat.tables import two_d6_at_most
from rules.systems.fantasy_combat.units import Unit, read_unit
from rules.systems.fantasy_combat.variants import Variants
from rules.systems.fantasy_combat.wound_track import WoundTrack

#: Points efficiency is "expected points destroyed per this many points of the attacker".
EFFICIENCY_PER_POINTS = 100


def _weapon_entries(strikers: list[Striker], unit: Unit) -> list[dict[str, Any]]:
    counts = {m.name: m.count for m in unit.models}
    return [
        {
            "name": s.name,
            "model": s.model,
            "models": counts.get(s.model, 0),
            "melee": s.melee,
            "expected": {
                "attacks": s.expected_dice,
                "hits": s.expected_dice * s.blow.p_hit,
                "wounds": s.expected_dice * s.blow.p_wounding,
                "kills": s.expected_kills,
            },
        }
        for s in strikers
    ]


def _probability(key: str, label: str, value: float) -> dict[str, Any]:
    return {"key": key, "label": label, "kind": "probability", "value": value}


def _distribution(key: str, label: str, pmf: np.ndarray, offset: int = 0) -> dict[str, Any]:
    out = {
        "key": key,
        "label": label,
        "kind": "distribution",
        "value": pmf.tolist(),
        "expected": float(np.arange(offset, offset + len(pmf)) @ pmf),
    }
    if offset:
        out["offset"] = offset
    return out


def _panic_outcomes(kills: np.ndarray, defender: Unit, situation: Situation) -> list[dict[str, Any]]:
    """§5.6, §10.2 (5): 25 % casualties in one shooting phase force a panic test (2D6 ≤ Ld)."""
    starting = sum(m.count for m in defender.models)
    needed = -(-starting // 4)
    p_test = float(kills[needed:].sum())
    immune = defender.has("unbreakable") or defender.has("immune to psychology") or defender.has("frenzy")
    ld = max(defender.leadership, situation.defender_general_ld)
    p_fail = 0.0 if immune else p_test * float(1 - two_d6_at_most(ld))
    return [
        # xgettext:no-python-format
        _probability("p_panic_test", _("Target takes a panic test (25% casualties)"), p_test),
        _probability("p_panics", _("Target panics and flees"), p_fail),
    ]


#: Measured (`bench/bench_estimates_fantasy.py`): the largest accepted input, about `MAX_WORK` steps (1000
#: one-wound models a side, Killing Blow both ways), took 1.3 s of CPU and 100 MB.
SECONDS_PER_WORK = 1.3 / MAX_WORK
SECONDS_FIXED = 0.002
BYTES_PER_STATE_PAIR = 8 * 4


def estimate_cost(
    attacker: Mapping[str, Any],
    defender: Mapping[str, Any],
    situation: Mapping[str, Any] | None,
    *,
    variants: Variants,
) -> tuple[float, int]:
    """The registry's `estimate_cost`: predicted (seconds, bytes) of `attack`, from the same size
    check the engine makes, before any dice are rolled; ValueError names the limit passed."""
    sit = situation if isinstance(situation, Situation) else Situation.from_dict(situation, variants)
    _, tracks, sides = _sides(attacker, defender, sit)
    work = planned_work(sides, sit, variants)
    pairs = tracks[ATTACKER].size * tracks[DEFENDER].size
    return SECONDS_FIXED + SECONDS_PER_WORK * work, BYTES_PER_STATE_PAIR * pairs


def _sides(attacker: Mapping[str, Any], defender: Mapping[str, Any], sit: Situation) -> tuple:
    units = (read_unit(attacker), read_unit(defender))
    tracks = tuple(WoundTrack(u.pool_models, u.wounds_per_model) for u in units)
    sides = (
        Side(units[ATTACKER], tracks[ATTACKER], sit.melee and sit.charging, sit.fighting_models),
        Side(
            units[DEFENDER],
            tracks[DEFENDER],
            sit.melee and sit.defender_charged,
            sit.defender_fighting_models,
        ),
    )
    return units, tracks, sides


def attack(
    attacker: Mapping[str, Any],
    defender: Mapping[str, Any],
    situation: Mapping[str, Any] | None,
    *,
    variants: Variants,
) -> dict[str, Any]:
    """What `attacker` does to `defender` (unit-format dicts) in `situation`, exactly.

    Shooting: the attacker's shots. Close combat: one round, both sides striking in order,
    then combat resolution and break tests. ValueError names a bad field."""
    sit = situation if isinstance(situation, Situation) else Situation.from_dict(situation, variants)
    units, tracks, sides = _sides(attacker, defender, sit)
    outcomes: list[dict[str, Any]] = []
    returning: list[Striker] = []
    if sit.melee:
        dist, strikers, returning = fight_round(sides, sit, variants)
    else:
        dist, strikers = shoot(sides, sit, variants)
    td, ta = tracks[DEFENDER], tracks[ATTACKER]
    wounds = dist.sum(axis=0)
    kills = np.bincount(td.slain, weights=wounds, minlength=td.models + 1)
    if sit.melee:
        lost = np.bincount(ta.slain, weights=dist.sum(axis=1), minlength=ta.models + 1)
        result = resolve(dist, units[ATTACKER], units[DEFENDER], (ta, td), sit)
        outcomes += [
            _probability("p_win_combat", _("Attacker wins the combat"), result.p_attacker_wins),
            _probability("p_draw", _("Combat is a draw"), result.p_draw),
            _probability("p_lose_combat", _("Attacker loses the combat"), result.p_defender_wins),
            _probability("p_defender_breaks", _("Defender breaks or is destroyed"), result.p_defender_breaks),
            _probability("p_attacker_breaks", _("Attacker breaks or is destroyed"), result.p_attacker_breaks),
            _distribution(
                "combat_result", _("Combat result (attacker − defender)"), result.difference, result.offset
            ),
            _distribution("attacker_losses", _("Attacker's models slain by the return blows"), lost),
        ]
    else:
        outcomes += _panic_outcomes(kills, units[DEFENDER], sit)

    points_destroyed = float(sum(p * units[DEFENDER].points_of_losses(k) for k, p in enumerate(kills)))
    attacker_points = units[ATTACKER].points
    defender_points = units[DEFENDER].points
    return {
        "attacker": units[ATTACKER].name,
        "defender": units[DEFENDER].name,
        "situation": sit.as_dict(),
        "expected": {
            "attacks": float(sum(s.expected_dice for s in strikers)),
            "hits": float(sum(s.expected_dice * s.blow.p_hit for s in strikers)),
            "wounds": float(sum(s.expected_dice * s.blow.p_wounding for s in strikers)),
            "damage": mean(wounds),
            "kills": mean(kills),
        },
        "wounds_distribution": wounds.tolist(),
        "kills_distribution": kills.tolist(),
        "kills_at_least": at_least(kills).tolist(),
        "p_destroyed": float(kills[-1]),
        "expected_points_destroyed": points_destroyed if defender_points > 0 else None,
        "points_efficiency": EFFICIENCY_PER_POINTS * points_destroyed / attacker_points
        if attacker_points > 0 and defender_points > 0
        else None,
        "attacker_points": attacker_points if attacker_points > 0 else None,
        "defender_points": defender_points if defender_points > 0 else None,
        "weapons": _weapon_entries(strikers, units[ATTACKER]),
        "defender_weapons": _weapon_entries(returning, units[DEFENDER]),
        "outcomes": outcomes,
    }
