"""The full adversarial search for accepted inputs that cost more than their cost model says.

    .venv/bin/python bench/bench_adversarial_costs.py [--evaluations 300] [--seed 1] [--systems opr aos1] \
        [--cells]

Per system, two hill climbs over inputs the request path accepts (`tests.factories.cost_inputs`:
catalogue units resized, weapons swapped or copied, rules added; each checked by
`estimates.inputs.unit_vs_unit_inputs`), each keeping a change that raises its score:
- by CPU time and memory: measured / predicted of CPU seconds (best of two) and of the
  `tracemalloc` peak, the larger of the two;
- by counts, as the CI test does (`tests/armybuilder/estimates/test_cost_models_adversarial.py`, with a
  budget of a few dozen): `overshoot`, interpreter calls and traced peak past 3x the prediction;
then prints the worst measured / predicted found for time, memory and calls, and the largest
traced peak against the per-matchup limit. The real path: the job's own function
(`estimates.compute.unit_vs_unit`), engine caches emptied before each run. Exits 1 when any
accepted input costs more than 3x its prediction or past the limit. `--cells`: list jobs' cells
(`cell_attack`) against their price (`bounds.cell_cost`).
"""

from __future__ import annotations

import argparse
import os
import random
import sys

import _django

_django.setup()

from armybuilder.estimates.bounds import MAX_MATCHUP_BYTES  # noqa: E402
from tests.factories.cost_inputs import (  # noqa: E402
    CALLS_PER_SECOND,
    SYSTEM_KEYS,
    WITHIN,
    Sample,
    hill_climb,
    measure_calls,
    measure_memory,
    measure_seconds,
)

Worst = dict[str, tuple[float, Sample | None]]


def search(key: str, evaluations: int, seed: int, cell: bool = False) -> tuple[Worst, int, float]:
    """Both climbs on one system: (worst ratio and its input per measure, largest peak, largest
    predicted seconds)."""
    worst: Worst = {"time": (0.0, None), "memory": (0.0, None), "calls": (0.0, None)}
    largest = {"peak": 0, "predicted": 0.0}

    def record(name: str, value: float, sample: Sample) -> None:
        if value > worst[name][0]:
            worst[name] = (value, sample)
        largest["predicted"] = max(largest["predicted"], sample.predicted_seconds)

    def by_clock(sample: Sample) -> float:
        peak = measure_memory(sample)
        seconds = measure_seconds(sample, rounds=2)
        largest["peak"] = max(largest["peak"], peak)
        record("time", seconds / sample.predicted_seconds, sample)
        record("memory", peak / sample.predicted_bytes, sample)
        return max(seconds / sample.predicted_seconds, peak / sample.predicted_bytes)

    def by_count(sample: Sample) -> float:
        calls = measure_calls(sample) / (sample.reference_seconds * CALLS_PER_SECOND)
        peak = measure_memory(sample)
        largest["peak"] = max(largest["peak"], peak)
        record("calls", calls, sample)
        record("memory", peak / sample.predicted_bytes, sample)
        return max(calls, peak / sample.predicted_bytes)

    hill_climb(key, random.Random(seed), evaluations=evaluations, score=by_clock, restarts=6, cell=cell)
    hill_climb(key, random.Random(seed + 1), evaluations=evaluations, score=by_count, restarts=6, cell=cell)
    return worst, int(largest["peak"]), float(largest["predicted"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--evaluations", type=int, default=300, help="per system and search")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--systems", nargs="*", default=list(SYSTEM_KEYS))
    parser.add_argument("--cells", action="store_true",
                        help="list jobs' cells (cell_attack) against their price (cell_cost)")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f}; worst measured/predicted found per system "
          f"({args.evaluations} evaluations per search; fails past {WITHIN:g}x)")
    print(f"{'system':8} {'time':>7} {'memory':>7} {'calls':>7} {'peak MB':>8} {'pred s max':>10}"
          "  worst input")
    failed = False
    for key in args.systems:
        worst, peak_max, predicted_max = search(key, args.evaluations, args.seed, args.cells)
        name, (value, sample) = max(worst.items(), key=lambda item: item[1][0])
        described = ""
        if sample is not None:
            attacker = [m.get("count") for m in sample.attacker["models"]]
            defender = [m.get("count") for m in sample.defender["models"]]
            described = f"{name}: A {attacker} D {defender} {sample.situation.get('mode')}"
        print(f"{key:8} {worst['time'][0]:7.2f} {worst['memory'][0]:7.2f} {worst['calls'][0]:7.2f} "
              f"{peak_max / 2**20:8.1f} {predicted_max:10.3f}  {described}")
        failed |= value > WITHIN or peak_max > MAX_MATCHUP_BYTES
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
