"""Benchmark of the exact dice engine: a 20 × 20 list-vs-list matrix, exact vs Monte-Carlo.

    .venv/bin/python bench/bench_estimates.py [--trials 100000] [--seed 7]

Builds two lists of 20 OPR units (2–3 weapons each, 1–20 models, mixed profiles and varied
rules) from a fixed seed, prices them with the points engine, then computes every matchup
of list A shooting at list B:
- exactly (`rules.systems.opr.estimate.estimate_matrix`, cold caches), target ≤ 1 s;
- by Monte-Carlo with `--trials` trials per matchup (the vectorised numpy simulation the
  tests use as their oracle, `tests/rules/opr_simulation.py`), same inputs.
Prints both times, the speed ratio (target ≥ 100×), and the largest difference in expected
kills, also in Monte-Carlo standard errors (it should be Monte-Carlo error only).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from points.unit import Model, Rule, Unit, Weapon  # noqa: E402
from rules.systems.opr import combat  # noqa: E402
from rules.systems.opr.estimate import estimate_matrix  # noqa: E402
from rules.systems.opr.situation import Situation  # noqa: E402
from rules.systems.opr.unit_prices import points_engine_prices  # noqa: E402
from tests.rules.opr_simulation import simulate  # noqa: E402

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
    """Cold start: the exact engine's caches (odds, state spaces) and the unit prices."""
    combat._wounds.cache_clear()
    combat._defender_space.cache_clear()
    points_engine_prices.cache_clear()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--trials", type=int, default=100_000, help="Monte-Carlo trials per matchup")
    parser.add_argument("--seed", type=int, default=7, help="seed of the generated lists and the simulation")
    args = parser.parse_args()

    list_a, list_b = make_lists(args.seed)
    models = [u.model_count for u in list_a + list_b]
    print(f"lists: {UNITS_PER_LIST} × {UNITS_PER_LIST} units, {min(models)}–{max(models)} models each")
    print(f"situation: {SITUATION.as_dict()}")

    for u in list_a + list_b:  # price once outside the timings, so import costs do not count
        points_engine_prices(u)
    clear_caches()
    start = time.perf_counter()
    matrix = estimate_matrix(list_a, list_b, SITUATION)
    exact_seconds = time.perf_counter() - start

    rng = np.random.default_rng(args.seed)
    worst = worst_in_errors = 0.0
    start = time.perf_counter()
    simulated = []
    for attacker in list_a:
        for defender in list_b:
            costs = list(points_engine_prices(defender).model_costs)
            simulated.append(simulate(attacker, defender, SITUATION, costs, args.trials, rng).kills)
    mc_seconds = time.perf_counter() - start

    for k, kills in enumerate(simulated):
        exact_kills = matrix[k // UNITS_PER_LIST][k % UNITS_PER_LIST]["expected"]["kills"]
        difference = abs(float(kills.mean()) - exact_kills)
        error = float(kills.std(ddof=1)) / np.sqrt(len(kills))
        worst = max(worst, difference)
        if error > 0:
            worst_in_errors = max(worst_in_errors, difference / error)

    matchups = UNITS_PER_LIST * UNITS_PER_LIST
    each = 1000 * exact_seconds / matchups
    print(f"exact:       {exact_seconds:8.3f} s for {matchups} matchups ({each:.2f} ms each)")
    print(f"monte-carlo: {mc_seconds:8.3f} s for {matchups} matchups × {args.trials} trials")
    print(f"speed ratio: {mc_seconds / exact_seconds:8.1f} ×")
    print(f"largest difference in expected kills: {worst:.4f} ({worst_in_errors:.2f} standard errors)")


if __name__ == "__main__":
    main()
