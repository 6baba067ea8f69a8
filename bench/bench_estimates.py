"""Benchmark of an estimate job through the path a job takes, exact vs Monte-Carlo.

    .venv/bin/python bench/bench_estimates.py [--quick] [--rounds 3] [--trials 20000] [--seed 7]
        [--no-scaling]

Builds two lists of 20 OPR units (2–3 weapons each, 1–20 models, mixed profiles and varied
rules) from a seed, *a different seed each round*, writes them as unit-format JSON and times
what a list-vs-list job does with them (`armybuilder.estimates.compute.list_vs_list`: every
unit of A against every unit of B and back, from JSON, prices included), with every cache
of the dice engine, the prices and the reader cleared before each round. That real-path
figure is the one judged (target: ≤ 2 s for the 2 × 400 matchups) and the exit status
follows it. Beside it, in the same run:
- warm: the same job again with its caches warm (printed only, never judged);
- the independent baseline: Monte-Carlo (`tests/rules/systems/opr/opr_simulation.py`, the vectorised
  simulation the tests use as their oracle) on the same matchups of A against B, with the
  speed ratio and the largest difference in expected kills in standard errors;
- a scaling table of one matchup through the registry's `attack` (unit dicts in), against
  1–1000 models, 1–32 weapons, 1–50 model profiles, with the cost model's prediction
  (`GameSystem.estimate_cost`) beside the measurement; inputs the cost model refuses
  (past 2 s or 300 MB) are shown as refused, not run.
Times are CPU seconds of this process (`BENCH_CLOCK=wall` for wall clock): the machine is
shared.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
# The engines word their outcomes with Django's `gettext_noop`, which reads the settings: the
# project's, as in the job (the bench failed with ImproperlyConfigured without it).
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "armybuilder.settings")

from points.opr import clear_caches as clear_price_caches  # noqa: E402
from points.opr.unit import Model, Rule, Unit, Weapon  # noqa: E402
from rules.systems.opr import combat  # noqa: E402
from rules.systems.opr.situation import Situation  # noqa: E402
from rules.systems.opr.unit_format import reader  # noqa: E402
from rules.systems.opr.unit_format.writer import unit_to_dict  # noqa: E402
from rules.systems.opr.unit_prices import points_engine_prices  # noqa: E402
from rules.systems.registry import get_system  # noqa: E402
from tests.rules.systems.opr.opr_simulation import simulate  # noqa: E402

CLOCK = time.perf_counter if os.environ.get("BENCH_CLOCK") == "wall" else time.process_time
TARGET_JOB_SECONDS = 2.0
MAX_SECONDS, MAX_BYTES = 2.0, 300 * 2**20

UNITS_PER_LIST = 20
SITUATION = Situation(mode="shooting", range_inches=12)

WEAPON_RULES = [
    "Rending",
    "Blast(3)",
    "Deadly(3)",
    "Lock-On",
    "Reliable",
    "Precise",
    "Corrosive",
    "Brutal",
    "No Cover",
]
SHOOTER_RULES = ["Relentless", "Good Shot", "Bad Shot", "Spearhead", "Cautious"]
DEFENSIVE_RULES = ["Regeneration", "Resistant", "Stealth", "Shield", "Delicate", "Entrenched", "Fearless"]
# (count range, toughness, defence range) of typical unit kinds: infantry, elites, bikes, vehicles.
KINDS = [((5, 20), 1, (4, 6)), ((3, 10), 2, (3, 5)), ((2, 6), 3, (2, 4)), ((1, 3), 6, (2, 3))]


def _rule(text: str) -> Rule:
    if "(" in text:
        name, value = text.rstrip(")").split("(")
        return Rule(name, int(value))
    return Rule(text)


def _weapon(rng: random.Random, name: str) -> Weapon:
    rules = tuple(_rule(r) for r in rng.sample(WEAPON_RULES, rng.choice([0, 1, 1, 2])))
    return Weapon(name, rng.choice([12, 18, 24, 30]), rng.randint(1, 3), rng.choice([0, 0, 1, 2, 3]), rules)


def make_unit(rng: random.Random, index: int) -> Unit:
    """A unit of 1–20 models with 2–3 weapons; sometimes a sergeant profile or a hero."""
    (low, high), toughness, (d_low, d_high) = rng.choice(KINDS)
    if index % 10 == 0:  # some units at the benchmark's full size of 20 models
        (low, high), toughness, (d_low, d_high) = (20, 20), 1, (4, 5)
    quality, defence = rng.randint(3, 5), rng.randint(d_low, d_high)
    rules = tuple(
        _rule(r)
        for r in rng.sample(SHOOTER_RULES, rng.choice([0, 1]))
        + rng.sample(DEFENSIVE_RULES, rng.choice([0, 1]))
    )
    weapons = tuple(_weapon(rng, f"Weapon {i + 1}") for i in range(rng.choice([2, 3])))
    count = rng.randint(low, high)
    models = [Model("Trooper", count, quality, defence, toughness, rules, weapons)]
    extra = rng.random()
    if extra < 0.3 and count > 2:  # a sergeant with a better profile and a special weapon
        models[0] = Model("Trooper", count - 1, quality, defence, toughness, rules, weapons[:2])
        models.append(
            Model(
                "Sergeant",
                1,
                quality - 1,
                defence,
                toughness + 1,
                rules,
                (weapons[0], _weapon(rng, "Special")),
            )
        )
    elif extra < 0.45 and count < 20:  # a joined hero
        hero_rules = (*rules, Rule("Hero"))
        models.append(Model("Hero", 1, 3, max(2, defence - 1), max(3, toughness), hero_rules, weapons[:2]))
    return Unit(f"Unit {index + 1}", tuple(models))


def make_lists(seed: int) -> tuple[list[Unit], list[Unit]]:
    rng = random.Random(seed)
    units = [make_unit(rng, i) for i in range(2 * UNITS_PER_LIST)]
    return units[:UNITS_PER_LIST], units[UNITS_PER_LIST:]


def clear_caches() -> None:
    """Cold start: the exact engine's wound PMFs and allocation machines, the unit prices, the
    points engine's and the reader's caches."""
    combat.WOUNDS_CACHE.clear()
    combat.SPACES.clear()
    points_engine_prices.cache_clear()
    clear_price_caches()
    reader.clear_caches()
    from rules.systems.opr import compute_cost

    compute_cost._parsed.cache_clear()


def job_inputs(list_a: list[Unit], list_b: list[Unit]) -> dict:
    """The list-vs-list job's inputs as the inputs builder stores them (JSON round trip)."""
    def side(name: str, units: list[Unit]) -> dict:
        return {"name": name, "units": [{"name": u.name, "unit": unit_to_dict(u)} for u in units]}

    return json.loads(json.dumps({"list_a": side("A", list_a), "list_b": side("B", list_b),
                                  "situation": SITUATION.as_dict()}))


def run_job(inputs: dict) -> tuple[float, dict]:
    from armybuilder.estimates.compute import list_vs_list

    start = CLOCK()
    result = list_vs_list("opr", inputs)
    return CLOCK() - start, result


def scaled_units(models: int, weapons: int, profiles: int) -> tuple[dict, dict]:
    """An attacker of 10 models with `weapons` weapons (half Precise, with Rending, Deadly,
    Blast), and a defender of `models` models over `profiles` profiles of toughness 1–3."""
    kinds = [["Rending"], ["Deadly(3)"], ["Blast(3)"], []]
    arms = [{"name": f"W{i}", "range": 24, "attacks": 1 + i % 3, "ap": i % 3,
             "rules": (["Precise"] if i % 2 else []) + kinds[i % 4]} for i in range(weapons)]
    attacker = {"format": 1, "system": "opr", "name": "Shooters", "models": [
        {"name": "Shooter", "count": 10, "quality": 4, "defence": 4, "toughness": 1, "rules": [],
         "weapons": arms}]}
    counts = [models // profiles + (1 if p < models % profiles else 0) for p in range(profiles)]
    defender = {"format": 1, "system": "opr", "name": "Targets", "models": [
        {"name": f"P{p}", "count": max(1, c), "quality": 4, "defence": 3 + p % 3, "toughness": 1 + p % 3,
         "rules": [], "weapons": []} for p, c in enumerate(counts)]}
    return attacker, defender


def scaling_table(quick: bool) -> None:
    system = get_system("opr")
    situation = SITUATION.as_dict()
    grid = ([(m, 2, 1) for m in (1, 10, 100, 1000)] + [(20, w, 2) for w in (1, 4, 16, 32)]
            + [(50, 2, p) for p in (1, 5, 20, 50)])
    print()
    print("scaling: one matchup through the registry (JSON dicts in), caches cleared")
    print(f"  {'models':>7} {'weapons':>8} {'profiles':>9} {'predicted s':>12} {'measured s':>11} "
          f"{'predicted MB':>13}")
    for models, weapons, profiles in grid:
        if quick and models * weapons > 400:
            continue
        attacker, defender = scaled_units(models, weapons, profiles)
        clear_caches()
        seconds, size = system.estimate_cost(attacker, defender, situation)
        if seconds > MAX_SECONDS or size > MAX_BYTES:
            measured = "refused"
        else:
            clear_caches()
            start = CLOCK()
            system.attack(attacker, defender, situation)
            measured = f"{CLOCK() - start:11.4f}"
        print(f"  {models:>7} {weapons:>8} {profiles:>9} {seconds:12.4f} {measured:>11} {size / 2**20:13.1f}")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--trials", type=int, default=20_000, help="Monte-Carlo trials per matchup")
    parser.add_argument("--seed", type=int, default=7, help="seed of the first round's lists")
    parser.add_argument("--rounds", type=int, default=3, help="rounds, each on lists of a different seed")
    parser.add_argument("--quick", action="store_true", help="5 × 5 lists, one round, fewer trials")
    parser.add_argument("--no-scaling", action="store_true", help="skip the scaling table")
    args = parser.parse_args()
    global UNITS_PER_LIST
    if args.quick:
        UNITS_PER_LIST, args.rounds, args.trials = 5, 1, min(args.trials, 2000)

    print(f"lists: {UNITS_PER_LIST} × {UNITS_PER_LIST} units, a new pair each round; situation: "
          f"{SITUATION.as_dict()}")
    get_system("opr").estimate_cost(*scaled_units(1, 1, 1), SITUATION.as_dict())  # imports, untimed
    real = []
    for round_ in range(args.rounds):
        list_a, list_b = make_lists(args.seed + round_)
        inputs = job_inputs(list_a, list_b)
        clear_caches()
        seconds, result = run_job(inputs)
        real.append(seconds)
    warm, _ = run_job(inputs)
    job_seconds = sorted(real)[len(real) // 2]
    matchups = 2 * UNITS_PER_LIST * UNITS_PER_LIST

    # The independent baseline: Monte-Carlo on the last round's A-against-B matchups.
    rng = np.random.default_rng(args.seed)
    worst = worst_in_errors = 0.0
    start = CLOCK()
    simulated = []
    for attacker in list_a:
        for defender in list_b:
            costs = list(points_engine_prices(defender).model_costs)
            simulated.append(simulate(attacker, defender, SITUATION, costs, args.trials, rng).kills)
    mc_seconds = CLOCK() - start
    for k, kills in enumerate(simulated):
        exact_kills = result["a_vs_b"][k // UNITS_PER_LIST][k % UNITS_PER_LIST]["expected_kills"]
        difference = abs(float(kills.mean()) - exact_kills)
        error = float(kills.std(ddof=1)) / np.sqrt(len(kills))
        worst = max(worst, difference)
        if error > 0:
            worst_in_errors = max(worst_in_errors, difference / error)

    half = matchups // 2
    print(f"real path (the job from JSON, both directions, caches cleared, median of {len(real)}): "
          f"{job_seconds:.3f} s for {matchups} matchups = {job_seconds / TARGET_JOB_SECONDS:.2f} × the "
          f"{TARGET_JOB_SECONDS:.0f} s target   (warm, same job again: {warm:.3f} s, not judged)")
    exact_half = job_seconds / 2
    print(f"monte-carlo baseline: {mc_seconds:.3f} s for {half} matchups × {args.trials} trials; "
          f"the exact job is {mc_seconds / exact_half:.1f} × faster per matchup")
    print(f"largest difference in expected kills: {worst:.4f} ({worst_in_errors:.2f} standard errors)")
    if not args.no_scaling:
        scaling_table(args.quick)
    met = job_seconds <= TARGET_JOB_SECONDS
    print()
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f} "
          f"({os.cpu_count()} CPUs)")
    print("target met (real path)" if met else "TARGET MISSED (real path)")
    return 0 if met else 1


if __name__ == "__main__":
    raise SystemExit(main())
