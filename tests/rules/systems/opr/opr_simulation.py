"""A Monte-Carlo simulation of the OPR attack sequence: the test oracle (and the benchmark's
reference), written from `docs/rules/opr-combat.md` independently of the exact engine.

It reads the units as plain unit-format dicts (`docs/unit-format.md`) and the
situation as its plain dict, with its own reading of rule names ("Blast(3)" → Blast 3), so
no rule lookup, parser or situation logic of the engine is shared with the oracle. It rolls
dice: each attack's die (as counts of each face among the attack dice), each hit's defence
die, then places wounds one at a time on models. Vectorised over trials with numpy; never
used to answer, only to check the exact engine (spec: "A Monte-Carlo run … may exist as a
test oracle, never as the answer").
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

FACES = np.arange(1, 7)
#: The situation the spec assumes when nothing is said (docs/rules/opr-combat.md, "Inputs").
DEFAULT_SITUATION = {
    "mode": "shooting", "charging": False, "attacker_moved": False, "defender_in_cover": False,
    "range_inches": 12.0, "defender_activated": False, "enemies_within_12": False,
}


@dataclass
class Simulated:
    """Per trial: models killed, wounds taken, points lost; per weapon group: mean attacks/hits."""

    kills: np.ndarray
    wounds: np.ndarray
    points: np.ndarray
    weapon_hits: list[float]
    weapon_names: list[str]
    alive: np.ndarray | None = None  # trials × model profiles of the defender


def rule_values(entry: Mapping[str, Any]) -> dict[str, int]:
    """A model's or weapon's rules as {name: X} (1 for rules without a value): "Deadly(2)" → 2."""
    found: dict[str, int] = {}
    for written in entry.get("rules", []):
        match = re.fullmatch(r"\s*(.+?)\s*\((\d+)\)\s*", written)
        found[match[1] if match else written.strip()] = int(match[2]) if match else 1
    return found


def _plain(unit: Any) -> dict[str, Any]:
    """The unit as a unit-format dict (the benchmark still hands in parsed units)."""
    if isinstance(unit, Mapping):
        return dict(unit)
    from rules.systems.opr.unit_format.writer import unit_to_dict  # the published format, not the engine

    return unit_to_dict(unit)


def _situation(situation: Any) -> dict[str, Any]:
    given = situation if isinstance(situation, Mapping) else situation.as_dict()
    return {**DEFAULT_SITUATION, **given}


def _all_have(unit: Mapping[str, Any], rule: str) -> bool:
    return all(rule in rule_values(m) for m in unit["models"])


def _weapon_groups(attacker: Mapping, defender: Mapping, s: Mapping) -> list[tuple[dict, dict, int]]:
    """(weapon, attacking model, total attacks), in the order the engine resolves them."""
    found: dict[tuple, list] = {}
    for model in attacker["models"]:
        for weapon in model["weapons"]:
            w_rules = rule_values(weapon)
            if s["mode"] == "melee":
                usable = weapon["range"] == 0 or "Assault" in w_rules
            else:
                reach = weapon["range"]
                if _all_have(defender, "Aircraft") and "Lock-On" not in w_rules:
                    reach -= 12
                usable = weapon["range"] > 0 and s["range_inches"] <= reach
            if not usable or weapon["attacks"] * model["count"] == 0:
                continue
            key = (repr(sorted(weapon.items())), model["quality"], tuple(sorted(model.get("rules", []))))
            found.setdefault(key, [weapon, model, 0])[2] += weapon["attacks"] * model["count"]
    return [tuple(v) for v in found.values()]


def _hit_faces(model: Mapping, weapon: Mapping, defender: Mapping, s: Mapping, melee: bool) -> np.ndarray:
    """hits scored by each face 1..6 of one attack die."""
    m_rules, w_rules = rule_values(model), rule_values(weapon)
    shooting = s["mode"] == "shooting"
    q = model["quality"]
    if "Reliable" in w_rules:
        q = 2
    elif not melee and "Good Shot" in m_rules:
        q = 4
    elif not melee and "Bad Shot" in m_rules:
        q = 5
    plus = 0
    plus += 1 if "Lance" in w_rules and s["charging"] else 0
    cautious = shooting and s["range_inches"] > 12 and not s["enemies_within_12"]
    plus += 1 if "Cautious" in m_rules and cautious else 0
    plus += 1 if "Spearhead" in m_rules and not s["defender_activated"] else 0
    minus = 0
    if "Lock-On" not in w_rules:
        minus += 1 if _all_have(defender, "Stealth") and shooting and s["range_inches"] > 6 else 0
        minus += 1 if _all_have(defender, "Aircraft") and shooting else 0
    extra = int("Rending" in w_rules)
    extra += int("Furious" in m_rules and s["charging"])
    extra += int("Relentless" in m_rules and not melee and not s["attacker_moved"])
    hits = np.zeros(6, dtype=np.int64)
    for face in range(1, 7):
        ok = face == 6 or (face != 1 and face + plus - minus >= q)
        hits[face - 1] = (1 + (extra if face == 6 else 0)) if ok else 0
    return hits


def _defence_faces(target: Mapping, weapon: Mapping, s: Mapping) -> tuple[np.ndarray, bool]:
    """(a boolean per face 1..6: this defence die fails, the target regenerates)."""
    t_rules, w_rules = rule_values(target), rule_values(weapon)
    cover = s["defender_in_cover"] or "Shield" in t_rules
    if "No Cover" in w_rules or "Lock-On" in w_rules:
        cover = False
    mod = (2 if "Entrenched" in t_rules else 1) if cover else 0
    mod += 1 if "Spearhead" in t_rules and s["defender_activated"] else 0
    ap = weapon["ap"] + (1 if "Lance" in w_rules and s["charging"] else 0)
    fails = np.zeros(6, dtype=bool)
    for face in range(1, 7):
        automatic_six = face == 6 and "Corrosive" not in w_rules and "Delicate" not in t_rules
        automatic_five = face == 5 and "Resistant" in t_rules and "Corrosive" not in w_rules
        ok = face != 1 and (automatic_six or automatic_five or face + mod - ap >= target["defence"])
        fails[face - 1] = not ok
    return fails, "Regeneration" in t_rules and "Brutal" not in w_rules


def simulate(
    attacker: Any,
    defender: Any,
    situation: Any,
    model_costs: list[float],
    trials: int,
    rng: np.random.Generator,
) -> Simulated:
    """`trials` simulated attacks: units as unit-format dicts, the situation as a dict."""
    attacker, defender, situation = _plain(attacker), _plain(defender), _situation(situation)
    melee = situation["mode"] == "melee"
    profiles = defender["models"]
    toughness = np.array([m["toughness"] for m in profiles])
    costs = np.asarray(model_costs, dtype=float)
    n_profiles = len(profiles)
    # Defender picks the cheapest model, heroes after everyone else; Precise: dearest first.
    defender_pick = sorted(range(n_profiles), key=lambda i: ("Hero" in rule_values(profiles[i]), costs[i], i))
    precise_pick = sorted(range(n_profiles), key=lambda i: (-costs[i], i))

    alive = np.tile(np.array([m["count"] for m in profiles]), (trials, 1))
    current = np.full(trials, -1)  # profile of the damaged model, -1 when none is damaged
    damage = np.zeros(trials, dtype=np.int64)
    taken = np.zeros(trials, dtype=np.int64)
    weapon_hits: list[float] = []
    names: list[str] = []

    for weapon, model, n_attacks in _weapon_groups(attacker, defender, situation):
        w_rules = rule_values(weapon)
        names.append(weapon["name"])
        pick = precise_pick if "Precise" in w_rules else defender_pick
        living = alive.sum(axis=1) > 0
        # Which profile takes this weapon: the damaged model, else the first alive in `pick`.
        first_alive = np.array(pick)[np.argmax(alive[:, pick] > 0, axis=1)]
        taking = np.where(current >= 0, current, first_alive)

        attack_faces = rng.multinomial(n_attacks, [1 / 6] * 6, size=trials)
        hits = attack_faces @ _hit_faces(model, weapon, defender, situation, melee)
        blast = w_rules.get("Blast")
        if blast:
            hits = hits * np.minimum(blast, alive.sum(axis=1))
        hits = np.where(living, hits, 0)
        weapon_hits.append(float(hits.mean()))

        events = np.zeros(trials, dtype=np.int64)
        for p in range(n_profiles):
            rows = np.nonzero(taking == p)[0]
            if not len(rows):
                continue
            fails, regenerates = _defence_faces(profiles[p], weapon, situation)
            defence_faces = rng.multinomial(hits[rows], [1 / 6] * 6)
            failed = defence_faces[:, fails].sum(axis=1)
            sixes = defence_faces[:, 5] if regenerates else 0
            events[rows] = np.maximum(0, failed - sixes)

        per_event = w_rules.get("Deadly", 1)
        active = np.nonzero(events > 0)[0]
        while len(active):
            a = alive[active]
            fresh = np.array(pick)[np.argmax(a[:, pick] > 0, axis=1)]
            target = np.where(current[active] >= 0, current[active], fresh)
            has_target = a.sum(axis=1) > 0
            active, target = active[has_target], target[has_target]
            if not len(active):
                break
            room = toughness[target] - damage[active]
            dealt = np.minimum(per_event, room)
            taken[active] += dealt
            damage[active] += dealt
            dies = damage[active] >= toughness[target]
            dead_rows, dead_profiles = active[dies], target[dies]
            alive[dead_rows, dead_profiles] -= 1
            damage[dead_rows] = 0
            current[dead_rows] = -1
            current[active[~dies]] = target[~dies]
            events[active] -= 1
            active = active[events[active] > 0]

    killed = np.array([m["count"] for m in profiles]) - alive
    return Simulated(
        kills=killed.sum(axis=1),
        wounds=taken,
        points=killed @ costs,
        weapon_hits=weapon_hits,
        weapon_names=names,
        alive=alive,
    )


# --- the second stage: counter-attack and regroup (seed "Szarża", "Przegrupowanie") --------


@dataclass
class SimulatedSecondStage:
    """Per trial: wounds each side took, both units' failed regroup tests (0-3), destroyed."""

    dealt_by_attacker: np.ndarray
    dealt_by_defender: np.ndarray
    defender_failed: np.ndarray
    attacker_failed: np.ndarray
    defender_destroyed: np.ndarray
    attacker_destroyed: np.ndarray
    counter_attacked: np.ndarray  # seed "Szarża": it struck back, so it is exhausted
    attacker_won: np.ndarray | None = None  # seed "Przegrupowanie", with Fear ("Strach")
    defender_won: np.ndarray | None = None


def _every_model_has(unit: Mapping[str, Any], rule: str) -> bool:
    return all(rule in rule_values(m) for m in unit["models"])


def _tests(took: np.ndarray, won: np.ndarray, half: np.ndarray, melee: bool, fearless: bool) -> np.ndarray:
    """The seed's count: a quality test, +1 at half strength, +1 after melee, −1 Fearless; none
    for a unit that took no wounds or dealt at least as many as it took."""
    count = 1 + half.astype(int) + int(melee) - int(fearless)
    return np.where(took & ~won, np.maximum(count, 0), 0)


def _fear(unit: Mapping[str, Any], alive: np.ndarray) -> np.ndarray:
    """Seed, "Strach(X)": each model with Fear(X) "counts as having dealt +X wounds when checking
    who won the melee"; per trial, X summed over the models that fought (`alive`: trials ×
    profiles), as the repository's docs/rules/opr.md decides."""
    per_model = np.array([rule_values(m).get("Fear", 0) for m in unit["models"]])
    return alive @ per_model


def _half(unit: Mapping[str, Any], alive: np.ndarray, wounds: np.ndarray) -> np.ndarray:
    starting = sum(m["count"] for m in unit["models"])
    if starting == 1:
        toughness = unit["models"][0]["toughness"]
        return (toughness - wounds) * 2 <= toughness
    return alive.sum(axis=1) * 2 <= starting


def _failed(tests: np.ndarray, unit: Mapping[str, Any], rng: np.random.Generator) -> np.ndarray:
    """Roll `tests` quality tests per trial (a 6 passes, a 1 fails) and count the failures."""
    quality = min(m["quality"] for m in unit["models"])
    failed = np.zeros(len(tests), dtype=np.int64)
    for k in range(int(tests.max(initial=0))):
        die = rng.integers(1, 7, size=len(tests))
        passes = (die == 6) | ((die != 1) & (die >= quality))
        failed += (k < tests) & ~passes
    return failed


def simulate_second_stage(attacker: Any, defender: Any, situation: Any, attacker_costs: list[float],
                          defender_costs: list[float], trials: int, rng: np.random.Generator
                          ) -> SimulatedSecondStage:
    """The charge (or shot), the survivors' counter-attack in melee, and both regroup tests."""
    attacker, defender, s = _plain(attacker), _plain(defender), _situation(situation)
    melee = s["mode"] == "melee"
    first = simulate(attacker, defender, s, defender_costs, trials, rng)
    dealt_by_defender = np.zeros(trials, dtype=np.int64)
    attacker_alive = np.tile([m["count"] for m in attacker["models"]], (trials, 1))
    counter_attacked = np.zeros(trials, dtype=bool)
    if melee:
        back = {**DEFAULT_SITUATION, "mode": "melee", "range_inches": 0.0, "defender_activated": True}
        rows_by_survivors: dict[tuple[int, ...], list[int]] = {}
        for row, alive in enumerate(first.alive.tolist()):
            rows_by_survivors.setdefault(tuple(alive), []).append(row)
        for alive, rows in rows_by_survivors.items():
            if not any(alive):
                continue
            pairs = zip(defender["models"], alive, strict=True)
            striking = {**defender, "models": [{**m, "count": n} for m, n in pairs if n > 0]}
            armed = any(w.get("range", 0) == 0 for m in striking["models"] for w in m.get("weapons", []))
            counter_attacked[rows] = armed
            counter = simulate(striking, attacker, back, attacker_costs, len(rows), rng)
            dealt_by_defender[rows] = counter.wounds
            attacker_alive[rows] = counter.alive
    dealt_by_attacker = first.wounds
    defender_destroyed = first.alive.sum(axis=1) == 0
    attacker_destroyed = attacker_alive.sum(axis=1) == 0
    # Who won the melee: the wounds dealt plus Fear — all the charger's models struck, and the
    # defender's models that survived the charge struck back.
    attacker_score = dealt_by_attacker + (
        _fear(attacker, np.tile([m["count"] for m in attacker["models"]], (trials, 1))) if melee else 0)
    defender_score = dealt_by_defender + (_fear(defender, first.alive) if melee else 0)
    defender_tests = _tests(dealt_by_attacker > 0, melee & (defender_score >= attacker_score),
                            _half(defender, first.alive, dealt_by_attacker), melee,
                            _every_model_has(defender, "Fearless"))
    attacker_tests = _tests(dealt_by_defender > 0, attacker_score >= defender_score,
                            _half(attacker, attacker_alive, dealt_by_defender), melee,
                            _every_model_has(attacker, "Fearless"))
    defender_tests[defender_destroyed] = 0
    attacker_tests[attacker_destroyed] = 0
    return SimulatedSecondStage(
        dealt_by_attacker=dealt_by_attacker,
        dealt_by_defender=dealt_by_defender,
        defender_failed=_failed(defender_tests, defender, rng),
        attacker_failed=_failed(attacker_tests, attacker, rng),
        defender_destroyed=defender_destroyed,
        attacker_destroyed=attacker_destroyed,
        counter_attacked=counter_attacked,
        attacker_won=melee & (attacker_score >= defender_score),
        defender_won=melee & (defender_score >= attacker_score),
    )
