"""Benchmark of the exact 40k engine: the warhammer-stats table, and a 20 × 20 list matrix.

    .venv/bin/python bench/bench_estimates_40k.py [--repeat 3] [--units 20] [--seed 7]

1. The side-by-side table of the tests (`tests/rules/wh40k9_comparison.py`: 8 weapons ×
   5 targets with re-rolls, Feel No Pain, invulnerable saves, D3/D6 damage, dice shots,
   exploding 6s, AP on 6s): for each profile, both engines from cold caches (each run
   clears this engine's and warhammer-stats' memo caches first), this engine from unit
   JSON text in to result JSON text out, warhammer-stats from its objects to its result.
   Prints each profile's best time of `--repeat`, the ratio (target ≥ 10× faster), the
   expected damage and kills of both, and the totals.
2. A `--units` × `--units` 40k list-vs-list matrix (both directions, as an estimate job
   computes it: `armybuilder.estimates.compute.list_vs_list`) of random units from a fixed
   seed, cold caches; target ≤ 1 s.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from armybuilder.estimates.compute import list_vs_list  # noqa: E402
from rules.systems.registry import get_system  # noqa: E402
from tests.rules.wh40k9_comparison import (  # noqa: E402
    TARGETS,
    WEAPONS,
    clear_engine_caches,
    clear_warhammer_stats_caches,
    differences,
    engine_units,
    warhammer_stats_attack,
)


def _best(run: Any, repeat: int) -> tuple[float, Any]:
    best, out = float("inf"), None
    for _ in range(repeat):
        started = time.perf_counter()
        out = run()
        best = min(best, time.perf_counter() - started)
    return best, out


def table(repeat: int) -> None:
    system = get_system("wh40k9")
    print(
        f"{'weapon':38} {'target':20} {'engine ms':>9} {'w-stats ms':>10} {'ratio':>7}  "
        f"{'damage (engine / w-stats)':>26}  {'kills (engine / w-stats)':>24}  note"
    )
    total_mine = total_theirs = 0.0
    for weapon in WEAPONS:
        for target in TARGETS:
            shooter, defender = engine_units(weapon, target)
            text_in = json.dumps({"attacker": shooter, "defender": defender, "situation": {}})

            def mine(text_in: str = text_in) -> dict[str, Any]:
                clear_engine_caches()
                request = json.loads(text_in)
                return json.loads(
                    json.dumps(system.attack(request["attacker"], request["defender"], request["situation"]))
                )

            def theirs(weapon: Any = weapon, target: Any = target) -> Any:
                clear_warhammer_stats_caches()
                return warhammer_stats_attack(weapon, target).run()

            t_mine, ours = _best(mine, repeat)
            t_theirs, other = _best(theirs, repeat)
            total_mine += t_mine
            total_theirs += t_theirs
            note = ", ".join(sorted(set(differences(weapon, target).values())))
            print(
                f"{weapon.key:38} {target.key:20} {t_mine * 1e3:9.2f} {t_theirs * 1e3:10.2f} "
                f"{t_theirs / t_mine:6.1f}×  {ours['expected']['damage']:12.4f} / "
                f"{other.total_damage_dist.mean():<11.4f}  {ours['expected']['kills']:10.4f} / "
                f"{other.kills_dist.mean():<11.4f}  {note}"
            )
    print(
        f"\nTOTAL {len(WEAPONS) * len(TARGETS)} profiles: engine {total_mine * 1e3:.1f} ms, warhammer-stats "
        f"{total_theirs * 1e3:.1f} ms, ratio {total_theirs / total_mine:.1f}× (target ≥ 10×)"
    )


def random_unit(rng: random.Random, index: int) -> dict[str, Any]:
    """A 40k unit of 1–10 models with 2–3 weapons (dice shots, D3/D6, re-rolls, 6s, FNP)."""
    kinds = ["Rapid Fire 1", "Rapid Fire 2", "Assault 2", "Heavy 3", "Heavy D6", "Assault D3", "Pistol 1"]
    abilities = [
        [],
        [],
        [{"type": "reroll", "roll": "hit", "which": "ones"}],
        [{"type": "extra_hits", "on": 6, "hits": 1}],
        [{"type": "mortal_wounds", "roll": "wound", "on": 6, "amount": 1}],
        [{"type": "extra_ap", "on": 6, "ap": -1}],
    ]
    weapons = [
        {
            "name": f"Gun {j}",
            "range": rng.choice([12, 18, 24, 36]),
            "type": rng.choice(kinds),
            "s": rng.randint(3, 9),
            "ap": -rng.randint(0, 3),
            "d": rng.choice([1, 1, 2, "D3", "D6"]),
            "abilities": rng.choice(abilities),
        }
        for j in range(rng.randint(2, 3))
    ]
    weapons.append(
        {
            "name": "Blade",
            "range": 0,
            "type": "Melee",
            "s": "User",
            "ap": -1,
            "d": 1,
            "abilities": [{"type": "extra_attacks", "value": 1}],
        }
    )
    count = rng.randint(1, 10)
    wounds = rng.choice([1, 1, 2, 3]) if count > 3 else rng.choice([3, 6, 10])
    model = {
        "name": f"Model {index}",
        "count": count,
        "points": rng.randint(10, 40) * (1 + wounds // 3),
        "m": 6,
        "ws": rng.randint(2, 5),
        "bs": rng.randint(2, 5),
        "s": rng.randint(3, 6),
        "t": rng.randint(3, 7),
        "w": wounds,
        "a": rng.randint(1, 4),
        "ld": rng.randint(6, 9),
        "sv": rng.randint(2, 6),
        "invuln": rng.choice([None, None, 4, 5]),
        "keywords": ["INFANTRY"],
        "abilities": rng.choice([[], [], [{"type": "feel_no_pain", "target": 5}]]),
        "weapons": weapons,
    }
    return {"format": 1, "system": "wh40k9", "name": f"Unit {index}", "models": [model]}


def matrix(units: int, seed: int) -> None:
    rng = random.Random(seed)
    side_a = {"name": "A", "units": [{"name": f"A{i}", "unit": random_unit(rng, i)} for i in range(units)]}
    side_b = {
        "name": "B",
        "units": [{"name": f"B{i}", "unit": random_unit(rng, 100 + i)} for i in range(units)],
    }
    for mode in ("shooting", "melee"):
        clear_engine_caches()
        started = time.perf_counter()
        result = list_vs_list(
            "wh40k9", {"list_a": side_a, "list_b": side_b, "situation": {"mode": mode, "range_inches": 12.0}}
        )
        elapsed = time.perf_counter() - started
        cells = 2 * units * units
        print(
            f"{units} × {units} list vs list, {mode}, both directions ({cells} matchups): {elapsed:.3f} s "
            f"(target ≤ 1 s); cell keys: {', '.join(result['fields'])}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--units", type=int, default=20)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    table(args.repeat)
    print()
    matrix(args.units, args.seed)


if __name__ == "__main__":
    main()
