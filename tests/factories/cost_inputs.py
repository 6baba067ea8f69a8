"""Random accepted estimate inputs for every game system, and what one costs when it runs.

The cost models (`GameSystem.estimate_cost`) are judged on inputs a player could send: units
of the system's own bundled catalogue and reference targets, resized (1 to a few hundred
models), with fields carried over from other units of the same system (a weapon's rules, its
attacks, a model's profile) and a situation drawn from the system's schema. An input counts
only when the real request path accepts it (`estimates.inputs.unit_vs_unit_inputs`: the unit
checks, the situation checks and the cost limit), so every sample is one a job would run.

`measure_memory` and `measure_seconds` run the job's own function (`compute.unit_vs_unit`)
with the dice engine's caches emptied, so a sample pays its whole cost (a list job's cell:
`GameSystem.cell_attack` on units prepared outside the measurement); `measure_calls`
counts the interpreter's function calls instead of timing them (a count the CI may assert).

Shared by `bench/bench_cost_models.py`, `bench/bench_adversarial_costs.py` and
`tests/armybuilder/estimates/test_cost_models_adversarial.py`.
"""

from __future__ import annotations

import copy
import random
import sys
import time
import tracemalloc
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from armybuilder.estimates.bounds import cell_cost, matchup_cost, over_limit
from armybuilder.estimates.compute import matrix_cell, unit_vs_unit
from armybuilder.estimates.inputs import (
    EstimateRequestError,
    situation_clean,
    unit_check,
    unit_vs_unit_inputs,
)
from armybuilder.estimates.machine_speed import clear_engine_caches, machine_factor
from rules.systems.registry import GameSystem, get_system

#: The systems whose estimates run on a job (every registered system with an `attack`).
SYSTEM_KEYS = ("opr", "whfb6", "ru_whfb", "wh40k9", "aos1")
#: The largest model count a sample gets for a group of its units.
MAX_SAMPLE_COUNT = 300
#: Weapon rules an OPR weapon may gain while searching (the engine's costly ones among them).
OPR_WEAPON_RULES = ("Deadly(3)", "Deadly(6)", "Blast(3)", "Blast(6)", "Corrosive", "Rending", "Precise",
                    "Reliable", "Lock-On", "Brutal", "Lance", "No Cover")


@dataclass(frozen=True)
class Sample:
    """One accepted input: the system, both units and the full situation, with its predicted
    (seconds, bytes)."""

    system: str
    attacker: dict[str, Any]
    defender: dict[str, Any]
    situation: dict[str, Any]
    predicted_seconds: float
    predicted_bytes: int
    #: A list job's cell (`GameSystem.cell_attack` on prepared units, priced by `cell_cost`)
    #: rather than a unit-vs-unit job's full `attack`.
    cell: bool = False

    @property
    def reference_seconds(self) -> float:
        """The prediction in the cost model's own seconds (the reference machine's, before
        `machine_factor` scales it to this one): what interpreter calls are compared with."""
        return self.predicted_seconds / machine_factor()

    @property
    def inputs(self) -> dict[str, Any]:
        return {"attacker": self.attacker, "defender": self.defender, "situation": self.situation}


@cache
def catalogue_units(system_key: str) -> tuple[dict[str, Any], ...]:
    """Every unit of the system's bundled catalogue and its reference targets, in the unit format."""
    plan = _catalogue_plan()
    units = [copy.deepcopy(u.values["data"]) for f in plan.factions if f.system_key == system_key
             for u in f.units if isinstance(u.values.get("data"), Mapping)]
    units += [copy.deepcopy(dict(t)) for t in get_system(system_key).reference_targets.values()]
    return tuple(u for u in units if u.get("models"))


@cache
def _catalogue_plan() -> Any:
    from rules.catalogue_files import read_catalogue

    return read_catalogue()


def armed_units(system_key: str) -> tuple[dict[str, Any], ...]:
    """The catalogue's units with at least one weapon (the attackers worth sampling)."""
    return tuple(u for u in catalogue_units(system_key)
                 if any(m.get("weapons") for m in u["models"] if isinstance(m, Mapping)))


def _weapons(system_key: str) -> list[dict[str, Any]]:
    return [w for u in catalogue_units(system_key) for m in u["models"] for w in m.get("weapons") or ()
            if isinstance(w, Mapping)]


def _situation(system: GameSystem, rng: random.Random) -> dict[str, Any]:
    """A situation drawn from the schema: an enum's or a boolean's any value, a number at its
    default or within a small step of it."""
    out: dict[str, Any] = {}
    for name, spec in (system.situation_schema or {}).get("properties", {}).items():
        if "enum" in spec:
            out[name] = rng.choice(spec["enum"])
        elif spec.get("type") == "boolean":
            out[name] = rng.random() < 0.3
        elif spec.get("type") in ("integer", "number") and rng.random() < 0.3:
            low, high = spec.get("minimum", 0), spec.get("maximum", 24)
            value = min(high, max(low, int(spec.get("default") or 0) + rng.randint(-6, 6)))
            out[name] = float(value) if spec["type"] == "number" else value
    return out


def resized(unit: Mapping[str, Any], rng: random.Random, *,
            largest: int = MAX_SAMPLE_COUNT) -> dict[str, Any]:
    """`unit` with each model group's count drawn anew (mostly small, sometimes up to `largest`)."""
    out = copy.deepcopy(dict(unit))
    for model in out["models"]:
        if rng.random() < 0.6:
            model["count"] = rng.choice([1, 2, 3, 5, 10, 20, 30, 50, 100, 150, 200, largest])
            model["count"] = max(1, min(largest, int(model["count"] * rng.uniform(0.6, 1.2))))
    return out


def mutate(system_key: str, unit: Mapping[str, Any], rng: random.Random) -> dict[str, Any]:
    """One small change a player could make: a group resized, a weapon replaced by another of
    the system's, a weapon copied to a second model group, or (OPR) a weapon rule added."""
    out = copy.deepcopy(dict(unit))
    models = [m for m in out["models"] if isinstance(m, dict)]
    model = rng.choice(models)
    choice = rng.random()
    weapons = _weapons(system_key)
    if choice < 0.4:
        grown = int(model.get("count", 1) * rng.choice([0.5, 1.5, 2, 3])) + rng.choice([0, 1])
        model["count"] = max(1, min(MAX_SAMPLE_COUNT, grown))
    elif choice < 0.65 and weapons:
        held = model.setdefault("weapons", [])
        new = copy.deepcopy(rng.choice(weapons))
        if held and rng.random() < 0.5:
            held[rng.randrange(len(held))] = new
        elif len(held) < 4:
            held.append(new)
    elif choice < 0.8 and len(models) < 4:
        twin = copy.deepcopy(model)
        twin["name"] = f"{model.get('name', 'Model')} {len(models) + 1}"
        twin["count"] = rng.choice([1, 2, 5, 10, 30])
        out["models"].append(twin)
    elif system_key == "opr" and model.get("weapons"):
        weapon = rng.choice(model["weapons"])
        rules = [r for r in weapon.get("rules") or () if isinstance(r, str)]
        rule = rng.choice(OPR_WEAPON_RULES)
        if rule.split("(")[0] not in {r.split("(")[0] for r in rules}:
            weapon["rules"] = [*rules, rule]
        weapon["attacks"] = min(10, int(weapon.get("attacks") or 1) + rng.choice([0, 1]))
    else:
        model["count"] = max(1, int(model.get("count", 1)) + rng.choice([-5, -1, 1, 5, 20]))
    return out


def accept(system_key: str, attacker: Mapping[str, Any], defender: Mapping[str, Any],
           situation: Mapping[str, Any], *, cell: bool = False) -> Sample | None:
    """The sample if the request path accepts it (units, situation, cost limit), else None.
    `cell`: as a list job's cell, priced and limited by `bounds.cell_cost` (the units and the
    situation are checked the same way)."""
    try:
        if cell:  # the list job's checks: each unit and the situation, the cost limit below
            checked = unit_check(attacker, path="attacker")
            unit_check(defender, path="defender")
            key, inputs = checked.key, {"attacker": dict(attacker), "defender": dict(defender),
                                        "situation": situation_clean(situation, system=checked)}
        else:
            key, inputs = unit_vs_unit_inputs(attacker=attacker, defender=defender, situation=situation)
    except (EstimateRequestError, ValueError):
        return None
    system = get_system(key)
    price = cell_cost if cell else matchup_cost
    try:
        seconds, size = price(system, inputs["attacker"], inputs["defender"], inputs["situation"])
    except ValueError:  # past a limit of the system's own engine
        return None
    if over_limit(seconds, size):
        return None
    return Sample(key, inputs["attacker"], inputs["defender"], inputs["situation"], seconds, size, cell)


def random_samples(system_key: str, rng: random.Random, *, tries: int = 10_000,
                   cell: bool = False) -> Iterator[Sample]:
    """Accepted inputs of the system, each from two random catalogue units resized, one change
    of `mutate` in half of them, and a random situation; refused draws are skipped. `cell`: as
    list jobs' cells (`accept`)."""
    system = get_system(system_key)
    attackers, defenders = armed_units(system_key), catalogue_units(system_key)
    for _ in range(tries):
        attacker = resized(rng.choice(attackers), rng)
        defender = resized(rng.choice(defenders), rng)
        if rng.random() < 0.5:
            attacker = mutate(system_key, attacker, rng)
        sample = accept(system_key, attacker, defender, _situation(system, rng), cell=cell)
        if sample is not None:
            yield sample


_WARM: set[str] = set()


def _job(sample: Sample) -> Callable[[], Any]:
    """The computation a sample measures, ready to run: the unit-vs-unit job's function, or
    (`cell`) one list job's cell as `compute.list_vs_list` computes it, on units and a
    situation prepared beforehand (once per job there, not per cell)."""
    if not sample.cell:
        return lambda: unit_vs_unit(sample.system, sample.inputs)
    system = get_system(sample.system)
    attacker, defender = system.prepare_unit(sample.attacker), system.prepare_unit(sample.defender)
    situation = system.prepare_situation(sample.situation)
    return lambda: matrix_cell(system.cell_attack(attacker, defender, situation))


def _run(sample: Sample) -> None:
    _job(sample)()


def _warm(sample: Sample, *, always: bool = False) -> None:
    """Run the attack untraced first: a code path's first run in a process imports modules
    (numpy.ma: 1 MB) that no later attack pays for. Once per system, or (`always`) for this
    very sample, whose path may import what the system's first sample did not."""
    if always or sample.system not in _WARM:
        _run(sample)
        _WARM.add(sample.system)


def measure_memory(sample: Sample) -> int:
    """The traced peak of bytes (numpy's arrays included) of the job's computation."""
    _warm(sample, always=True)
    run = _job(sample)
    clear_engine_caches()
    tracemalloc.start()
    try:
        run()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def measure_seconds(sample: Sample, *, rounds: int = 3,
                    clock: Callable[[], float] = time.process_time) -> float:
    """The best of `rounds` CPU times of the job's computation, caches emptied before each."""
    _warm(sample)
    best = float("inf")
    for _ in range(rounds):
        run = _job(sample)  # units prepared anew: nothing a cell kept on them is reused
        clear_engine_caches()
        started = clock()
        run()
        best = min(best, clock() - started)
    return best


def measure_calls(sample: Sample) -> int:
    """Function calls (Python and C, numpy's included) the job's computation makes: a count of
    its work that a loaded machine does not change."""
    calls = 0

    def count(_frame: Any, event: str, _arg: Any) -> None:
        nonlocal calls
        if event in ("call", "c_call"):
            calls += 1

    _warm(sample, always=True)
    run = _job(sample)
    clear_engine_caches()
    previous = sys.getprofile()
    sys.setprofile(count)
    try:
        run()
    finally:
        sys.setprofile(previous)
    return calls


def hill_climb(system_key: str, rng: random.Random, *, evaluations: int, score: Callable[[Sample], float],
               restarts: int = 4, cell: bool = False) -> list[tuple[float, Sample]]:
    """Search accepted inputs for a high `score` (measured over predicted): from `restarts`
    random starts, keep a change of `mutate` (to either unit) when it scores at least as high;
    `evaluations` scores in all. Returns every (score, sample) evaluated, highest first.
    `cell`: list jobs' cells (`accept`)."""
    seen: list[tuple[float, Sample]] = []
    starts = random_samples(system_key, rng, cell=cell)
    per_start = max(1, evaluations // max(1, restarts))
    while len(seen) < evaluations:
        best = next(starts)
        best_score = score(best)
        seen.append((best_score, best))
        for _ in range(min(per_start, evaluations - len(seen))):
            role = rng.choice(("attacker", "defender"))
            attacker = mutate(system_key, best.attacker, rng) if role == "attacker" else best.attacker
            defender = mutate(system_key, best.defender, rng) if role == "defender" else best.defender
            candidate = accept(system_key, attacker, defender, best.situation, cell=cell)
            if candidate is None:
                continue
            value = score(candidate)
            seen.append((value, candidate))
            if value >= best_score:
                best, best_score = candidate, value
    return sorted(seen, key=lambda pair: -pair[0])


#: Interpreter calls one CPU second makes at most on the engines' own code (measured by
#: `bench/bench_adversarial_costs.py`: 3–5 million on the development machine): a count
#: past `WITHIN` × this × the predicted seconds is work the cost model did not see.
CALLS_PER_SECOND = 5_000_000
#: How far a measurement may pass its prediction before the search reports it.
WITHIN = 3.0


def overshoot(sample: Sample) -> float:
    """How far the sample's real cost passes its prediction, by measures a loaded machine does
    not change: the larger of traced peak / (WITHIN × predicted bytes) and interpreter calls /
    (WITHIN × predicted seconds × CALLS_PER_SECOND). Past 1.0, the cost model is wrong."""
    memory = measure_memory(sample) / (WITHIN * sample.predicted_bytes)
    calls = measure_calls(sample) / (WITHIN * sample.reference_seconds * CALLS_PER_SECOND)
    return max(memory, calls)


def deadly_corrosive_samples(rng: random.Random, *, tries: int = 20_000) -> Iterator[Sample]:
    """The OPR family the cost model was once wrong on (2× under, then 24× over in memory): 50
    models with three weapons of Deadly(6) and Corrosive (sometimes one more rule) against a
    large mixed unit of 2–6 profiles; only the accepted ones costing 30 MB or more by their
    prediction."""
    for _ in range(tries):
        extra = ["Rending", "Precise", "Blast(3)", "Reliable", "Brutal"]
        weapons = [{"name": f"Weapon {i + 1}", "range": rng.choice([0, 24]), "attacks": rng.randint(1, 3),
                    "ap": rng.randint(0, 2),
                    "rules": ["Deadly(6)", "Corrosive", *rng.sample(extra, rng.choice([0, 0, 1]))]}
                   for i in range(3)]
        attacker = {"format": 1, "system": "opr", "name": "Fifty", "models": [{
            "name": "Trooper", "count": 50, "quality": rng.randint(3, 5), "defence": 4, "toughness": 1,
            "rules": [], "weapons": weapons}]}
        defender = {"format": 1, "system": "opr", "name": "Mixed", "models": [{
            "name": f"Profile {i + 1}", "count": rng.choice([1, 3, 5, 10, 20, 30, 50, 80]), "quality": 4,
            "defence": rng.randint(2, 6), "toughness": rng.choice([1, 1, 2, 3, 3, 6, 12]),
            "rules": rng.sample(["Hero", "Regeneration", "Resistant", "Shield"], rng.choice([0, 0, 1])),
            "weapons": []} for i in range(rng.randint(2, 6))]}
        situation = {"mode": rng.choice(["shooting", "melee"]), "range_inches": 12.0}
        sample = accept("opr", attacker, defender, situation)
        if sample is not None and sample.predicted_bytes >= 30 * 2**20:
            yield sample
