"""The exact 40k attack of one unit on another (docs/rules/wh40k9.md §3–§5, §8.7) as the registry's
`attack(attacker, defender, situation)`, JSON-ready (the estimates contract).

Per weapon batch (`attacks`), in the order the attacker lists them (the order is the
attacker's choice, §4 "Resolution order"; the engine keeps the datasheet's), one attack is
a matrix over the defender's states (`damage`): its hit roll (`hit_roll`) gives 0, 1 or
1 + extra hits, each hit's wound roll (`wound_roll`, against the majority T) fails, wounds,
or wounds with its trigger (extra AP, mortal wounds in addition or instead), each wound is
saved or not by the model it is allocated to (`saves`), its damage lands on that model
with Feel No Pain and overkill lost; mortal wounds spill over. The attack count is a PMF,
so the state distribution after the batch is Σ_n P(n attacks)·v·Mⁿ — exact up to float64.
Morale and Combat Attrition (`morale`) follow as extra outcomes.

Input limits (every accepted input < 2 s, a few MB): the defender has at most
`damage.MAX_DEFENDER_WOUNDS` wounds in all (a bound of sanity: the cost model refuses
what is costly before it), a batch at most
`attacks.MAX_ATTACKS_PER_BATCH` attacks, a unit at most `MAX_BATCHES` weapon batches, and
the whole attack at most `MAX_COST` band passes (`estimated_cost`, checked before any).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from rules.dice.pmf import PMF, at_least, mean
from rules.systems.messages import gettext_noop
from rules.systems.wh40k9.abilities import keywords_of, of_type
from rules.systems.wh40k9.attacks import Batch, attacker_points, batches_for
from rules.systems.wh40k9.damage import (
    DENSE_STATES,
    SQUARING_STATES,
    Defender,
    ModelGroup,
    apply_attacks,
    check_defender,
    dense,
    majority_toughness,
    model_groups,
)
from rules.systems.wh40k9.dice_values import dice_pmf, maximum
from rules.systems.wh40k9.hit_roll import hit_roll, weapon_type_modifier
from rules.systems.wh40k9.morale import morale_losses
from rules.systems.wh40k9.situation import complete, situation_abilities
from rules.systems.wh40k9.wound_roll import wound_roll

#: Weapon batches one estimate resolves at most (a unit of 20 profiles × 10 weapons).
MAX_BATCHES = 60
#: The cost bound of one estimate, in band-row operations (one numpy pass over the states
#: per band width per attack step): calibrated so that the largest accepted input computes in
#: about a second on one slow core (`tests/rules/systems/wh40k9/test_attack.py` checks < 2 s).
MAX_COST = 120_000
#: Points efficiency: expected points destroyed per this many points of the attacker.
EFFICIENCY_PER = 100


def _context(situation: Mapping[str, Any], batch: Batch | None, target_keywords: frozenset[str]
             ) -> dict[str, Any]:
    return {"charged": situation["charged"], "moved": situation["moved"] or situation["advanced"],
            "melee": situation["mode"] == "melee", "half_range": bool(batch and batch.half_range),
            "target_keywords": target_keywords}


@dataclass(frozen=True)
class Step:
    """One attack of a batch as a step of the chain over the defender's states: `apply`
    maps v ↦ v·M with band passes (any number of states); `matrix()` builds M itself, dense,
    from the same parts (for few states, where one matrix product per attack is cheaper)."""

    apply: Callable[[np.ndarray], np.ndarray]
    matrix: Callable[[], np.ndarray]


def _per_attack(batch: Batch, defender: Defender, situation: Mapping[str, Any], toughness: int,
                context: Mapping[str, Any]) -> tuple[Step, dict[str, float]]:
    """The step v ↦ v·M of one attack of `batch`, and its expected hits and wounds per attack.
    The situation's re-rolls and wound modifier join the batch's own abilities."""
    extra = situation_abilities(situation)
    if extra:
        batch = replace(batch, abilities=(*batch.abilities, *extra))
    modifier = int(situation["hit_modifier"])
    if not batch.melee:
        modifier += weapon_type_modifier(kind=batch.kind, advanced=situation["advanced"],
                                         moved=situation["moved"], keywords=batch.keywords,
                                         engaged=situation["engaged"])
    hit = hit_roll(skill=batch.skill, modifier=modifier, abilities=batch.abilities, context=context)
    wound = wound_roll(strength=batch.strength, toughness=toughness, modifier=0, abilities=batch.abilities,
                       context=context)
    normal = defender.attack_band(ap=batch.ap, damage=batch.damage)
    extra_ap = of_type(batch.abilities, "extra_ap", context=context)
    six = defender.attack_band(ap=batch.ap + sum(int(a["ap"]) for a in extra_ap), damage=batch.damage) \
        if extra_ap else normal
    mortal = of_type(batch.abilities, "mortal_wounds", context=context)
    wound_mortal = [a for a in mortal if a.get("roll") == "wound"]
    hit_mortal = [a for a in mortal if a.get("roll") == "hit"]
    wound_ends = any(a.get("ends_attack") for a in wound_mortal)
    hit_ends = any(a.get("ends_attack") for a in hit_mortal)

    def mortal_wounds(v: np.ndarray, abilities: list[Mapping[str, Any]]) -> np.ndarray:
        for ability in abilities:
            v = defender.mortal_wounds(v, dice_pmf(ability.get("amount", 1)))
        return v

    def per_hit(v: np.ndarray) -> np.ndarray:
        out = wound.fail * v + wound.plain * normal.apply(v)
        if wound.trigger:  # an unmodified 6 (or `on`+) to wound: extra AP, mortal wounds
            out += wound.trigger * mortal_wounds(v if wound_ends else six.apply(v), wound_mortal)
        return out

    def per_attack(v: np.ndarray) -> np.ndarray:
        out = hit.fail * v + hit.success * per_hit(v)
        if hit.triggered:  # an unmodified 6 (or `on`+) to hit: its extra hits, its mortal wounds
            t = v
            for _ in range(hit.extra + (0 if hit_ends else 1)):
                t = per_hit(t)
            out = out + hit.triggered * mortal_wounds(t, hit_mortal)
        return out

    def matrix() -> np.ndarray:
        """`per_attack` applied to the identity, with the bands written out dense."""
        n = defender.states
        if not hit.triggered and not wound_mortal:  # (miss or fail) · I + hit and wound · N (or S on a 6)
            band = (hit.success * wound.plain) * normal.band  # all bands: summed as bands, written out once
            if wound.trigger:
                band += (hit.success * wound.trigger) * six.band
            band[:, 0] += hit.fail + hit.success * wound.fail
            return dense(band)
        per_hit_matrix = wound.plain * normal.dense()
        per_hit_matrix.reshape(-1)[:: n + 1] += wound.fail
        if wound.trigger:
            six_matrix = np.eye(n) if wound_ends else six.dense()
            per_hit_matrix += wound.trigger * mortal_wounds(six_matrix, wound_mortal)
        out = hit.success * per_hit_matrix
        out.reshape(-1)[:: n + 1] += hit.fail
        if hit.triggered:
            times = hit.extra + (0 if hit_ends else 1)
            t = np.eye(n) if not times else per_hit_matrix if times == 1 else \
                np.linalg.matrix_power(per_hit_matrix, times)
            out += hit.triggered * mortal_wounds(t, hit_mortal)
        return out

    hits = float(mean(hit.hits))
    return Step(per_attack, matrix), {"hits": hits, "wounds": hits * wound.p_wound,
                                      "self_destruct": hit.self_destruct}


def estimated_cost(batches: list[Batch], groups: list[ModelGroup]) -> int:
    """An upper bound of the band passes `attack` makes: per attack, every hit it may score
    (extra hits included) times the events a hit may cause (its damage, the 6s' second
    damage, each mortal wound), times the band's width plus the few vector operations
    around each pass."""
    width = max(g.wounds for g in groups) + 4
    total = 0
    for batch in batches:
        hits = 1 + sum(int(a.get("hits", 1)) for a in of_type(batch.abilities, "extra_hits"))
        events = 2 + sum(len(dice_pmf(a.get("amount", 1))) for a in of_type(batch.abilities, "mortal_wounds"))
        total += batch.most_attacks * hits * events * width
    return total


def reach(batches: list[Batch]) -> int:
    """The most wounds the batches can take from the unit in all: per attack, every hit it
    may score times (the damage's largest value plus the wound roll's mortal wounds), plus
    the hit roll's mortal wounds (reduction and Feel No Pain only lower it, and a killing
    blow moves the state by the model's remaining wounds, at most the damage). States past
    it keep probability 0, so the chain never computes them (`Defender`'s `states`)."""
    total = 0
    for batch in batches:
        hits = 1 + sum(int(a.get("hits", 1)) for a in of_type(batch.abilities, "extra_hits"))
        mortal = {"hit": 0, "wound": 0}
        for ability in of_type(batch.abilities, "mortal_wounds"):
            mortal[ability.get("roll", "hit")] += maximum(dice_pmf(ability.get("amount", 1)))
        per_attack = hits * (maximum(batch.damage) + mortal["wound"]) + mortal["hit"]
        total += batch.most_attacks * per_attack
    return total


def _planned(attacker: Mapping[str, Any], defender_unit: Mapping[str, Any], situation: Mapping[str, Any]
             ) -> tuple[list[Batch], list[ModelGroup]]:
    """The weapon batches and the defender's model groups `attack` would work with."""
    situation = complete(situation)
    groups = model_groups(defender_unit)
    check_defender(groups)
    models = sum(g.count for g in groups)
    target_keywords = keywords_of(defender_unit, *({"keywords": g.keywords} for g in groups))
    batches = list(batches_for(unit=attacker, situation=situation, defender_models=models,
                               context=_context(situation, None, target_keywords)))
    return batches, groups


def attack_cost(attacker: Mapping[str, Any], defender_unit: Mapping[str, Any], situation: Mapping[str, Any]
                ) -> tuple[int, int]:
    """(the estimated cost of `attack` on these inputs, `MAX_COST`), without computing it:
    for a check before a job is queued. Raises ValueError for inputs past the other limits."""
    batches, groups = _planned(attacker, defender_unit, situation)
    return estimated_cost(batches, groups), MAX_COST


def work_features(batches: list[Batch], groups: list[ModelGroup]) -> dict[str, float]:
    """What the chain really walks, per kind of step (`damage.apply_attacks`): with few states
    and several attacks, one matrix built per batch (band passes over the states) and one
    dense product per attack (states², or log₂ attacks products of states³ when squaring);
    otherwise every attack makes its band passes over the worked-on states. Plus the outcome
    lists, one entry per model and per state."""
    # `Defender(groups, states=reach + 1).states`, without building its per-state tables
    states = min(check_defender(groups) + 1, reach(batches) + 1)
    width = max(g.wounds for g in groups) + 4
    out = {"batches": float(len(batches)), "passes": 0.0, "pass_cells": 0.0, "products": 0.0,
           "product_cells": 0.0, "models": float(sum(g.count for g in groups)), "states": float(states)}
    # The morale table (`morale.morale_losses`): a row per kill count the states reach, a column per model.
    out["morale_cells"] = min(out["states"], out["models"] + 1) * out["models"]
    for batch in batches:
        hits = 1 + sum(int(a.get("hits", 1)) for a in of_type(batch.abilities, "extra_hits"))
        events = 2 + sum(len(dice_pmf(a.get("amount", 1))) for a in of_type(batch.abilities, "mortal_wounds"))
        attacks = len(batch.attacks) - 1
        passes = hits * events * width
        if attacks > 1 and states <= DENSE_STATES:
            out["passes"] += passes
            out["pass_cells"] += passes * states
            fixed = not batch.attacks[:-1].any()
            if states <= SQUARING_STATES and fixed:
                products = 2 * max(1, attacks.bit_length())
                out["products"] += products
                out["product_cells"] += products * states**3
            else:
                out["products"] += attacks
                out["product_cells"] += attacks * states**2
        else:
            out["passes"] += attacks * passes
            out["pass_cells"] += attacks * passes * states
    return out


#: The chain's cost per kind of step (`work_features`), in the reference machine's seconds
#: (`armybuilder.estimates.machine_speed`): fitted by least squares on relative error against
#: 360 accepted inputs of `bench/bench_cost_models.py`'s sweep (seeds 11–13; CPU seconds, best of
#: three, divided by the machine factor measured in the same process), checked on seed 1, and
#: rounded up by about 30%; the morale table's cells (6–11 ns each, measured on defenders of
#: 20,000–200,000 models, where it is most of the work) were added since. The engine's own
#: refusal stays `MAX_COST` band passes.
SECONDS_FIXED = 5.4e-5
SECONDS_PER = {"batches": 6.7e-5, "passes": 1e-7, "pass_cells": 1.9e-9, "products": 9.1e-7,
               "product_cells": 5e-11, "models": 1.5e-7, "states": 1.0e-6, "morale_cells": 1.2e-8}
#: Bytes: the result's lists (per model, per state), a batch's step and its tables, and the
#: joint tables of kills × models (morale) and the dense matrix (states²).
BYTES_FIXED = 4 * 1024
BYTES_PER = {"batches": 3400, "models": 190, "states": 340}
#: The dense one-attack matrix (states², only where a batch takes the dense path) and the morale
#: table (the kills the states can reach × models fled).
BYTES_PER_STATE_PAIR = 5
BYTES_PER_MODEL_PAIR = 11


def estimate_cost(attacker: Mapping[str, Any], defender_unit: Mapping[str, Any],
                  situation: Mapping[str, Any]) -> tuple[float, int]:
    """The registry's `estimate_cost`: predicted (seconds, bytes) of `attack`, or ValueError
    naming the engine's limit the inputs pass (checked before a job is queued)."""
    batches, groups = _planned(attacker, defender_unit, situation)
    cost = estimated_cost(batches, groups)
    if cost > MAX_COST:
        raise ValueError(f"This attack is too big to estimate exactly ({cost} steps, at most {MAX_COST}): "
                         "use fewer models or attacks.")
    work = work_features(batches, groups)
    seconds = SECONDS_FIXED + sum(SECONDS_PER[key] * work[key] for key in SECONDS_PER)
    size = (BYTES_FIXED + sum(BYTES_PER[key] * work[key] for key in BYTES_PER)
            + (BYTES_PER_STATE_PAIR * work["states"] ** 2 if work["products"] else 0)
            + BYTES_PER_MODEL_PAIR * work["morale_cells"])
    return seconds, int(size)


def situational_groups(groups: list[ModelGroup], situation: Mapping[str, Any]) -> list[ModelGroup]:
    """The defender's profiles with the situation's Feel No Pain (the better of it and a
    model's own, §5 "Ignoring wounds": one such rule per wound) and, shooting, light cover:
    +1 to the armour save (a better Sv by one; an unmodified 1 still fails), never to the
    invulnerable save (the Decision in `situation`)."""
    fnp = int(situation.get("defender_feel_no_pain") or 0)
    cover = bool(situation.get("cover")) and situation["mode"] == "shooting"
    if not fnp and not cover:
        return groups
    out = []
    for group in groups:
        if fnp:
            group = replace(group, fnp=min(fnp, group.fnp) if group.fnp else fnp)
        if cover and group.save is not None:
            group = replace(group, save=int(group.save) - 1)
        out.append(group)
    return out


def _self_destroyed(batch: Batch, p_one: float) -> float:
    """Expected bearers lost to an unmodified 1 (Supercharge): per bearer, P(at least one
    kept 1 among its attacks), its attacks being the batch's spread evenly (exact for
    fixed shots, the mean over bearers otherwise)."""
    if not p_one or not batch.models:
        return 0.0
    per_bearer_attacks = batch.most_attacks // batch.models
    return batch.models * (1 - (1 - p_one) ** per_bearer_attacks)


def attack(attacker: Mapping[str, Any], defender_unit: Mapping[str, Any], situation: Mapping[str, Any]
           ) -> dict[str, Any]:
    """What `attacker` does to `defender_unit` in `situation` (defaults filled in), exactly."""
    situation = complete(situation)
    groups = situational_groups(model_groups(defender_unit), situation)
    models = sum(g.count for g in groups)
    target_keywords = keywords_of(defender_unit, *({"keywords": g.keywords} for g in groups))
    context = _context(situation, None, target_keywords)
    batches = list(batches_for(unit=attacker, situation=situation, defender_models=models, context=context))
    defender = Defender(groups, states=reach(batches) + 1)
    if len(batches) > MAX_BATCHES:
        raise ValueError(f"{len(batches)} weapon batches; at most {MAX_BATCHES} can be estimated")
    cost = estimated_cost(batches, groups)
    if cost > MAX_COST:
        raise ValueError(f"this attack is too big to estimate exactly ({cost} steps, at most {MAX_COST}): "
                         "fewer attacks or a smaller target")
    toughness = majority_toughness(groups)
    v = defender.start()
    wounds_lost, dead = np.arange(defender.states), defender.dead
    weapons: list[dict[str, Any]] = []
    totals = {"attacks": 0.0, "hits": 0.0, "wounds": 0.0, "damage": 0.0, "kills": 0.0}
    self_destroyed = 0.0
    for batch in batches:
        batch_context = _context(situation, batch, target_keywords)
        step, per = _per_attack(batch, defender, situation, toughness, batch_context)
        v = apply_attacks(v, step.apply, batch.attacks, matrix=step.matrix,
                          last_is_dead=not defender.truncated)
        attacks = float(mean(batch.attacks))
        damage, kills = float(v @ wounds_lost), float(v @ dead)  # so far, all batches
        expected = {"attacks": attacks, "hits": attacks * per["hits"], "wounds": attacks * per["wounds"],
                    "damage": damage - totals["damage"], "kills": kills - totals["kills"]}
        for key in ("attacks", "hits", "wounds"):
            totals[key] += expected[key]
        totals["damage"], totals["kills"] = damage, kills
        self_destroyed += _self_destroyed(batch, per["self_destruct"])
        weapons.append({"name": batch.name, "model": batch.model, "models": batch.models,
                        "melee": batch.melee, "expected": expected})
    return _result(attacker, defender_unit, situation, defender, groups, v, totals, weapons, self_destroyed)


def _result(attacker: Mapping[str, Any], defender_unit: Mapping[str, Any], situation: Mapping[str, Any],
            defender: Defender, groups: list, v: PMF, totals: dict[str, float], weapons: list,
            self_destroyed: float) -> dict[str, Any]:
    kills = defender.kills(v)
    leadership = max(g.leadership for g in groups)
    possible = int(defender.dead[-1]) + 1  # more kills than the last worked-on state's: P = 0
    morale = morale_losses(kills[:possible], models=defender.models, leadership=leadership,
                           below_half=bool(situation.get("defender_below_half")))
    fled_mean, lost_mean = (morale @ np.arange(defender.models + 1)).tolist()
    fled, lost = morale.tolist()
    kills_list = kills.tolist()
    points_attacker = attacker_points(attacker)
    points_defender = float(sum(g.points * g.count for g in groups))
    points_destroyed = float(v @ defender.points_lost)
    efficiency = EFFICIENCY_PER * points_destroyed / points_attacker if points_attacker > 0 else None
    outcomes = [
        {"key": "p_morale_failed", "label": gettext_noop("Defender fails its Morale test"),
         "kind": "probability", "value": float(morale[0, 1:].sum())},
        {"key": "models_fled", "label": gettext_noop("Models fled (Morale and Combat Attrition)"),
         "kind": "distribution", "value": fled, "expected": fled_mean},
        {"key": "models_lost", "label": gettext_noop("Models lost in all (killed and fled)"),
         "kind": "distribution", "value": lost, "expected": lost_mean},
        {"key": "p_wiped_with_morale", "label": gettext_noop("Unit gone after the Morale phase"),
         "kind": "probability", "value": lost[-1]},
    ]
    if self_destroyed:
        outcomes.append({"key": "attackers_self_destroyed",
                         "label": gettext_noop("Attacking models destroyed by their own weapons"),
                         "kind": "number", "value": self_destroyed})
    return {
        "attacker": str(attacker.get("name", "")),
        "defender": str(defender_unit.get("name", "")),
        "situation": dict(situation),
        "expected": totals,
        "wounds_distribution": defender.full(v).tolist(),
        "kills_distribution": kills_list,
        "kills_at_least": at_least(kills).tolist(),
        "p_destroyed": kills_list[-1],
        "expected_points_destroyed": points_destroyed,
        "points_efficiency": efficiency,
        "attacker_points": points_attacker,
        "defender_points": points_defender,
        "weapons": weapons,
        "outcomes": outcomes,
    }
