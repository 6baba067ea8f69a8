"""The compute-cost models against the CPU time they predict: moved here from the unit suite,
where a CPU-speed assertion failed whenever the shared test machine was loaded.

    .venv/bin/python bench/bench_compute_cost.py [--rounds 5]

Two parts, each on the real path (the engine's own attack, caches cleared before each round):
- OPR: for every case of `tests/rules/systems/opr/test_compute_cost.py`'s grid, the cost model's predicted
  seconds (`rules.systems.opr.compute_cost.matchup_cost`, the independent baseline: it is a
  formula over the inputs, computed without running the engine) against the best of
  `--rounds` CPU-time measurements of `resolve_attack`; the ratio must be within 3× either way.
- The blow-up OPR case and the largest inputs the WHFB and 40k engines accept: CPU seconds of
  one `attack` against the 2 s budget the bounds promise (`armybuilder.estimates.bounds`).
- A 40k attack too big to compute: CPU seconds of its refusal against a 0.5 s budget (it is
  refused on the cost estimate, before any computing; moved here from the unit suite).
Prints one line per case with the ratio and exits 1 when any misses. CPU time, not wall time:
other processes on a shared machine only add to the wall clock.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import _django

_django.setup()  # the engines' gettext_noop

from rules.systems.fantasy_combat.estimate import attack as fantasy_attack  # noqa: E402
from rules.systems.fantasy_combat.variants import WHFB6  # noqa: E402
from rules.systems.opr.combat import SPACES, WOUNDS_CACHE, resolve_attack  # noqa: E402
from rules.systems.opr.compute_cost import matchup_cost  # noqa: E402
from rules.systems.opr.estimate import attack as opr_attack  # noqa: E402
from rules.systems.opr.situation import Situation  # noqa: E402
from rules.systems.opr.unit_prices import points_engine_prices  # noqa: E402
from rules.systems.wh40k9.estimate import attack as wh40k9_attack  # noqa: E402
from tests.rules.systems.fantasy_combat.test_registry import LARGEST_ACCEPTED, largest_accepted_unit  # noqa: E402
from tests.rules.systems.opr.test_compute_cost import GRID, attacker, defender, shooters, two_profile_horde  # noqa: E402
from tests.rules.systems.wh40k9.test_attack import _heavy_attack, defenders  # noqa: E402

BUDGET_SECONDS = 2.0
REFUSAL_BUDGET_SECONDS = 0.5


def cpu_seconds(call, rounds: int) -> float:
    """The best of `rounds` CPU-time measurements of `call()` (caches cleared by `call`)."""
    best = float("inf")
    for _ in range(rounds):
        started = time.process_time()
        call()
        best = min(best, time.process_time() - started)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f}; CPU seconds, best of {args.rounds}")
    failed = 0

    print("\nOPR cost model: predicted / measured (target 1/3 … 3)")
    for case in GRID:
        models, weapons, profiles, count, toughness = case
        a, d, situation = attacker(models, weapons), defender(profiles, count, toughness), Situation()
        costs = points_engine_prices(d).model_costs
        predicted, _size = matchup_cost(a, d, situation)

        def run(a=a, d=d, situation=situation, costs=costs) -> None:
            WOUNDS_CACHE.clear()
            SPACES.clear()
            resolve_attack(a, d, situation, costs)

        measured = cpu_seconds(run, args.rounds)
        ratio = predicted / measured
        ok = 1 / 3 <= ratio <= 3
        failed += not ok
        print(f"  {case!s:28} predicted {predicted:8.4f} s  measured {measured:8.4f} s  "
              f"ratio {ratio:5.2f}  {'ok' if ok else 'MISS'}")

    print(f"\nLargest accepted inputs: CPU seconds of one attack / the {BUDGET_SECONDS:g} s budget")
    situation = {"mode": "shooting", "range_inches": 12.0}

    def blow_up() -> None:
        WOUNDS_CACHE.clear()
        opr_attack(shooters(), two_profile_horde(150), situation)

    cases = [("OPR 10 shooters vs 150 + 150 models", blow_up)]
    for count, wounds, attacks in LARGEST_ACCEPTED:
        unit = largest_accepted_unit(count, wounds, attacks)
        fantasy_attack(unit, unit, {}, variants=WHFB6)  # warm: the budget is for a warm worker
        cases.append((f"WHFB6 {count} models, W{wounds}, A{attacks}",
                      lambda unit=unit: fantasy_attack(unit, unit, {}, variants=WHFB6)))
    heavy_target = defenders([(40, 5, 3, 5, 5, 1), (40, 5, 4, None, None, 0)])
    cases.append(("40k six weapons vs 400 wounds",
                  lambda: wh40k9_attack(_heavy_attack(10), heavy_target, {"range_inches": 20})))
    for name, call in cases:
        measured = cpu_seconds(call, args.rounds)
        ok = measured < BUDGET_SECONDS
        failed += not ok
        verdict = "ok" if ok else "MISS"
        print(f"  {name:40} {measured:7.3f} s  ratio {measured / BUDGET_SECONDS:5.2f}  {verdict}")

    print(f"\nRefused inputs: CPU seconds of the refusal / the {REFUSAL_BUDGET_SECONDS:g} s budget")
    too_big = defenders([(4, 100, 3, 4, 5, 1)])

    def refuse() -> None:
        try:
            wh40k9_attack(_heavy_attack(5), too_big, {"range_inches": 20})
        except ValueError:
            return
        raise AssertionError("the too-big 40k attack was computed instead of refused")

    measured = cpu_seconds(refuse, args.rounds)
    ok = measured < REFUSAL_BUDGET_SECONDS
    failed += not ok
    print(f"  {'40k attack of 100-wound models':40} {measured:7.3f} s  "
          f"ratio {measured / REFUSAL_BUDGET_SECONDS:5.2f}  {'ok' if ok else 'MISS'}")
    print("\nall within their targets" if not failed else f"\n{failed} case(s) missed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
