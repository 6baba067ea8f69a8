"""Each system's cost model against what its estimates really cost, over random accepted inputs.

    .venv/bin/python bench/bench_cost_models.py [--samples 60] [--seed 1] [--rounds 3] [--systems opr aos1] \
        [--cells]

For every system with an `attack`, draws `--samples` inputs the request path accepts
(`tests.factories.cost_inputs.random_samples`: catalogue units resized and changed, random
situations, each through `estimates.inputs.unit_vs_unit_inputs`), then runs the job's own
function (`estimates.compute.unit_vs_unit`, caches emptied) and prints, per system, the ratio
predicted / measured of CPU seconds (best of `--rounds`) and of the `tracemalloc` peak, as
min / median / max, and the share of samples within 3× either way. The baseline is
independent of the prediction: the measurement of the real path. Exits 1 when a system's
ratios leave [1/3, 3]. `opr-deadly` (20 samples at most, each up to ~2 s) is the OPR family
of 50 models with Deadly(6) and Corrosive against a large mixed unit. CPU time, not wall time:
other processes on a shared machine only add to the wall clock. `--cells`: the same for list
jobs' cells (`GameSystem.cell_attack` on prepared units, as `compute.list_vs_list` computes
them) against their price (`bounds.cell_cost`), over inputs a list job accepts, then one list
job of the samples' units: its predicted total against its CPU seconds (`job_total`).
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import statistics
import sys
import time

import _django

_django.setup()

from django.conf import settings  # noqa: E402

from armybuilder.estimates.bounds import list_vs_list_costs  # noqa: E402
from armybuilder.estimates.compute import list_vs_list  # noqa: E402
from armybuilder.estimates.inputs import EstimateRequestError, army_inputs  # noqa: E402
from armybuilder.estimates.machine_speed import clear_engine_caches, machine_factor  # noqa: E402
from rules.systems.registry import get_system  # noqa: E402
from tests.factories.cost_inputs import (  # noqa: E402
    SYSTEM_KEYS,
    Sample,
    deadly_corrosive_samples,
    measure_memory,
    measure_seconds,
    random_samples,
)

WITHIN = 3.0


def spread(ratios: list[float]) -> str:
    inside = sum(1 for r in ratios if 1 / WITHIN <= r <= WITHIN)
    return (f"{min(ratios):7.3g} {statistics.median(ratios):7.3g} {max(ratios):7.3g}"
            f"  {inside:3d}/{len(ratios)} within {WITHIN:g}x")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--samples", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--systems", nargs="*", default=[*SYSTEM_KEYS, "opr-deadly"],
                        help="system keys; opr-deadly: the OPR family of 50 models with Deadly(6) and "
                             "Corrosive against a large mixed unit, 30 MB or more predicted")
    parser.add_argument("--cells", action="store_true",
                        help="list jobs' cells (cell_attack) against their price (cell_cost)")
    args = parser.parse_args()
    cells = "list jobs' cells; " if args.cells else ""
    print(f"{cells}load average {os.getloadavg()[0]:.2f}; machine factor {machine_factor():.2f} "
          f"(ESTIMATE_MACHINE_FACTOR {settings.ESTIMATE_MACHINE_FACTOR}); "
          "predicted/measured: min median max")
    print(f"{'system':10} {'n':>4} | {'time (CPU s)':^42} | {'memory (tracemalloc peak)':^42}")
    failed = False
    for key in args.systems:
        rng = random.Random(args.seed)
        times, sizes, slowest, samples = [], [], 0.0, []
        draws = (deadly_corrosive_samples(rng) if key == "opr-deadly"
                 else random_samples(key, rng, cell=args.cells))
        for sample in itertools.islice(draws, args.samples if key != "opr-deadly" else min(args.samples, 20)):
            samples.append(sample)
            seconds = measure_seconds(sample, rounds=args.rounds)
            peak = measure_memory(sample)
            slowest = max(slowest, seconds)
            times.append(sample.predicted_seconds / max(seconds, 1e-6))
            sizes.append(sample.predicted_bytes / max(peak, 1))
        if not times:
            print(f"{key:8} no accepted input drawn")
            failed = True
            continue
        print(f"{key:10} {len(times):4d} | {spread(times)} | {spread(sizes)}"
              f"   (slowest {slowest * 1000:.1f} ms)")
        failed |= not all(1 / WITHIN <= r <= WITHIN for r in times + sizes)
        if args.cells:
            failed |= not job_total(key, samples, args.rounds)
    return 1 if failed else 0


def job_total(key: str, samples: list[Sample], rounds: int) -> bool:
    """A list job of the samples' units (the first half's attackers against the second half's
    defenders, the first sample's situation): its predicted total (`bounds.list_vs_list_costs`,
    what the job limit compares) against the CPU seconds of the job's own function
    (`compute.list_vs_list`, caches emptied once, best of `rounds`). In a job the engine's caches
    serve many cells, which a cold cell's price cannot know. Whether the ratio is within 3×."""
    half = len(samples) // 2
    if half < 2:
        return True
    mine = [(f"A{i}", s.attacker) for i, s in enumerate(samples[:half])]
    theirs = [(f"B{i}", s.defender) for i, s in enumerate(samples[half:])]
    inputs = {"list_a": army_inputs(name="A", units=mine), "list_b": army_inputs(name="B", units=theirs),
              "situation": samples[0].situation}
    try:
        predicted = sum(list_vs_list_costs(system=get_system(key), inputs=inputs).values())
    except EstimateRequestError:  # a pair past a limit in another pairing: no job to measure
        return True
    best = float("inf")
    for _ in range(rounds):
        clear_engine_caches()
        started = time.process_time()
        list_vs_list(key, inputs)
        best = min(best, time.process_time() - started)
    ratio = predicted / best
    print(f"{'':10} job {half}x{len(samples) - half}: predicted {predicted:.3f} s, measured {best:.3f} s "
          f"CPU, predicted/measured {ratio:.2f}")
    return 1 / WITHIN <= ratio <= WITHIN


if __name__ == "__main__":
    sys.exit(main())
