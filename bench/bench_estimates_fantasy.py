"""Benchmark of the exact Warhammer Fantasy engine: a 20 × 20 WHFB 6th list-vs-list close
combat matrix with combat resolution and break tests, exact vs Monte-Carlo.

    .venv/bin/python bench/bench_estimates_fantasy.py [--trials 2000] [--seed 11]

Builds two lists of 20 WHFB units (infantry, elite infantry, knights with mounts, ogre-sized
monsters; spears, halberds, great weapons, lances; Hatred, Killing Blow, poison, ASF, fear,
stubborn, wards, regeneration) from a fixed seed, writes them to a JSON file and reads them
back (units come in as JSON), clears the engine's caches, then computes every matchup of
list A charging list B (one round, both sides striking, combat result, break tests):
- exactly (`rules.systems.fantasy_combat.estimate.attack` with WHFB 6th's switches), target ≤ 2 s;
- by Monte-Carlo with `--trials` trials per matchup
  (`tests/rules/systems/fantasy_combat/fantasy_simulation.py`, the independent simulator the
  tests use as their oracle), same inputs.
Prints both times, the speed ratio, and the largest differences (expected kills, P(attacker
wins), P(defender breaks)) in Monte-Carlo standard errors (they should be noise only).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rules.systems.fantasy_combat import rule_names  # noqa: E402
from rules.systems.fantasy_combat.estimate import attack  # noqa: E402
from rules.systems.fantasy_combat.variants import WHFB6  # noqa: E402
from tests.rules.systems.fantasy_combat import fantasy_simulation  # noqa: E402

UNITS_PER_LIST = 20
SITUATION = {
    "mode": "melee",
    "charging": True,
    "fighting_models": 5,
    "defender_fighting_models": 5,
    "attacker_width": 5,
    "defender_width": 5,
    "attacker_standard": True,
    "defender_standard": True,
}
RULES = ["Hatred", "Killing Blow", "Poisoned Attacks", "Always Strikes First", "Stubborn", "Fear"]


def make_unit(rng: random.Random, index: int) -> dict:
    """One unit in the unit format: a single model row (the simulator's subset)."""
    kind = rng.choice(["infantry", "infantry", "elite", "cavalry", "monstrous"])
    model = {
        "name": f"{kind.title()} {index}",
        "points": rng.randint(5, 40),
        "ws": 3,
        "bs": 3,
        "s": 3,
        "t": 3,
        "w": 1,
        "i": 3,
        "a": 1,
        "ld": 7,
        "troop_type": "infantry",
        "rules": [],
    }
    if kind == "infantry":
        model.update(
            count=rng.randint(10, 25),
            save=rng.choice([4, 5, 6, None]),
            weapons=[{"name": "Weapon", "range": 0, "kind": rng.choice(["hand_weapon", "spear", "halberd"])}],
        )
    elif kind == "elite":
        model.update(
            count=rng.randint(8, 16),
            ws=4,
            i=rng.choice([4, 5]),
            a=rng.choice([1, 2]),
            ld=8,
            save=rng.choice([3, 4, 5]),
            weapons=[{"name": "Weapon", "range": 0, "kind": rng.choice(["hand_weapon", "great_weapon"])}],
        )
    elif kind == "cavalry":
        model.update(
            count=rng.randint(5, 8),
            ws=4,
            ld=8,
            troop_type="cavalry",
            save=rng.choice([2, 3]),
            mount={"name": "Horse", "ws": 3, "s": 3, "i": 3, "a": 1},
            weapons=[{"name": "Lance", "range": 0, "kind": "lance"}],
        )
    else:
        model.update(
            count=rng.randint(3, 6),
            s=4,
            t=4,
            w=3,
            i=2,
            a=3,
            troop_type="monstrous",
            save=rng.choice([5, 6]),
            rules=["Fear"],
        )
    if rng.random() < 0.5:
        model["rules"] = sorted(set(model["rules"]) | {rng.choice(RULES)})
    if rng.random() < 0.2:
        model["ward"] = rng.choice([5, 6])
    if rng.random() < 0.1:
        model["regeneration"] = 4
    return {"format": 1, "system": "whfb6", "name": model["name"], "models": [model]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    lists = [[make_unit(rng, 100 * side + i) for i in range(UNITS_PER_LIST)] for side in (1, 2)]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "lists.json"
        path.write_text(json.dumps(lists))
        list_a, list_b = json.loads(path.read_text())

    rule_names.english_names.cache_clear()
    start, cpu = time.perf_counter(), time.process_time()
    exact = [[attack(a, b, SITUATION, variants=WHFB6) for b in list_b] for a in list_a]
    exact_time, exact_cpu = time.perf_counter() - start, time.process_time() - cpu

    start = time.perf_counter()
    worst = {"kills": 0.0, "p_win_combat": 0.0, "p_defender_breaks": 0.0}
    for i, a in enumerate(list_a):
        for j, b in enumerate(list_b):
            trials = fantasy_simulation.run(
                args.trials,
                lambda r, a=a, b=b: fantasy_simulation.melee_round(a, b, SITUATION, r),
                seed=i * 100 + j,
            )
            outcomes = {o["key"]: o["value"] for o in exact[i][j]["outcomes"] if o["kind"] == "probability"}
            samples = {
                "kills": np.array([t.defender_killed for t in trials], dtype=float),
                "p_win_combat": np.array([t.difference > 0 for t in trials], dtype=float),
                "p_defender_breaks": np.array([t.defender_breaks for t in trials], dtype=float),
            }
            kills = np.array(exact[i][j]["kills_distribution"])
            k = np.arange(len(kills))
            mean_kills = float(k @ kills)
            exact_values = {"kills": (mean_kills, float((k - mean_kills) ** 2 @ kills))}
            for key in ("p_win_combat", "p_defender_breaks"):
                exact_values[key] = (outcomes[key], outcomes[key] * (1 - outcomes[key]))
            for key, sample in samples.items():
                value, variance = exact_values[key]
                se = np.sqrt(variance / len(sample))  # the exact model's own standard error
                if se > 0:
                    worst[key] = max(worst[key], abs(value - sample.mean()) / se)
    mc_time = time.perf_counter() - start

    cells = UNITS_PER_LIST * UNITS_PER_LIST
    print(
        f"exact  : {cells} matchups (one combat round, combat result, break tests) in {exact_time:.3f} s "
        f"({1000 * exact_time / cells:.2f} ms each; target ≤ 2 s); CPU time {exact_cpu:.3f} s "
        "(wall time grows with other load on the machine)"
    )
    print(f"monte-carlo: {args.trials} trials per matchup in {mc_time:.2f} s")
    print(f"ratio  : exact is {mc_time / exact_time:.0f}× faster than this Monte-Carlo")
    print(
        "largest difference in Monte-Carlo standard errors: "
        + ", ".join(f"{k} {v:.2f}" for k, v in worst.items())
    )


if __name__ == "__main__":
    main()
