"""The expected-damage estimate of `docs/rules/opr-combat.md` ("Outputs") as JSON-ready data.

`estimate` turns the exact outcome of `combat.resolve_attack` into the result shape of
`docs/unit-format.md` (used by the `estimate` command, the API and the jobs);
`attack` is the system's entry in the registry (units and situation as plain dicts or
dataclasses); `estimate_matrix` is list against list.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import accumulate
from typing import Any

from points.opr.unit import Unit
from rules.dice.pmf import mean
from rules.matchups import Progress, matchup_matrix
from rules.systems.opr import aftermath
from rules.systems.opr.combat import AttackOutcome, WeaponOutcome, resolve_attack
from rules.systems.opr.situation import Situation
from rules.systems.opr.unit_prices import Pricing, points_engine_prices

#: Points efficiency is "expected points destroyed per this many points of the attacker".
EFFICIENCY_PER_POINTS = 100


def _weapon_result(outcome: WeaponOutcome) -> dict[str, Any]:
    group = outcome.group
    return {
        "name": group.weapon.name,
        "model": group.model.name,
        "models": group.models,
        "melee": group.melee,
        "expected": {
            "attacks": outcome.attacks,
            "hits": outcome.hits,
            "wounds": outcome.wounds,
            "kills": outcome.kills,
        },
    }


def result_of(
    outcome: AttackOutcome,
    *,
    attacker: Unit,
    defender: Unit,
    situation: Situation,
    attacker_points: float,
    defender_points: float,
    model_costs: Sequence[float],
) -> dict[str, Any]:
    """The JSON-ready estimate: expectations per weapon and in total, the distributions of
    wounds (0 … the defender's total toughness) and kills (0 … its models), P(destroyed),
    expected points destroyed and points efficiency (per 100 points of the attacker;
    null for an attacker that costs nothing)."""
    kills = outcome.kills
    wounds = outcome.wounds
    attacks = hits = 0.0
    for weapon in outcome.weapons:  # one loop, not two sums: once a matchup, on a cold cache
        attacks += weapon.attacks
        hits += weapon.hits
    kills_list = kills.tolist()
    # P(at least k): `rules.dice.pmf.at_least`'s sums in its order (the same bits), on the list
    # the result holds anyway: one numpy call fewer, ten times its cost on a cold cache (issue 42)
    kills_at_least = list(accumulate(reversed(kills_list)))[::-1]
    points_destroyed = outcome.expected_points_destroyed(model_costs)
    efficiency = EFFICIENCY_PER_POINTS * points_destroyed / attacker_points if attacker_points > 0 else None
    return {
        "attacker": attacker.name,
        "defender": defender.name,
        "situation": situation.as_dict(),
        "expected": {
            "attacks": float(attacks),
            "hits": float(hits),
            "wounds": mean(wounds),
            "kills": mean(kills),
        },
        "wounds_distribution": wounds.tolist(),
        "kills_distribution": kills_list,
        "kills_at_least": kills_at_least,
        "p_destroyed": outcome.p_destroyed,
        "expected_points_destroyed": points_destroyed,
        "points_efficiency": efficiency,
        "attacker_points": attacker_points,
        "defender_points": defender_points,
        "weapons": [_weapon_result(w) for w in outcome.weapons],
    }


def estimate(
    attacker: Unit,
    defender: Unit,
    situation: Situation,
    *,
    prices: Pricing = points_engine_prices,
) -> dict[str, Any]:
    """What `attacker` does to `defender` in `situation`, exactly (docs/unit-format.md's result)."""
    attacker_prices = prices(attacker)
    defender_prices = prices(defender)
    outcome = resolve_attack(attacker, defender, situation, defender_prices.model_costs)
    result = result_of(
        outcome,
        attacker=attacker,
        defender=defender,
        situation=situation,
        attacker_points=attacker_prices.points,
        defender_points=defender_prices.points,
        model_costs=defender_prices.model_costs,
    )
    if situation.second_stage:
        stage = aftermath.second_stage(outcome, attacker=attacker, defender=defender, situation=situation,
                                       attacker_costs=attacker_prices.model_costs)
        result["outcomes"] = aftermath.outcomes(stage, melee=situation.melee,
                                                p_defender_destroyed=outcome.p_destroyed)
    return result


def _as_unit(unit: Unit | Mapping[str, Any]) -> Unit:
    if isinstance(unit, Unit):
        return unit
    from rules.systems.opr.unit_format import parse_unit  # the unit format's parser and its errors

    return parse_unit(unit)


def attack(
    attacker: Unit | Mapping[str, Any],
    defender: Unit | Mapping[str, Any],
    situation: Situation | Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The registry's `attack(attacker, defender, situation)` for OPR: units as dataclasses or
    unit-format dicts, the situation as a `Situation` or its dict; prices from the points engine."""
    if not isinstance(situation, Situation):
        situation = Situation.from_dict(situation or {})
    return estimate(_as_unit(attacker), _as_unit(defender), situation)


def estimate_matrix(
    attackers: Sequence[Unit],
    defenders: Sequence[Unit],
    situation: Situation,
    *,
    prices: Pricing = points_engine_prices,
    on_progress: Progress | None = None,
) -> list[list[dict[str, Any]]]:
    """Every attacker against every defender in one situation; `on_progress(done, total)`."""
    return matchup_matrix(
        attackers,
        defenders,
        lambda a, d: estimate(a, d, situation, prices=prices),
        on_progress=on_progress,
    )
