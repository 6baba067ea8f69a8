"""How fast this machine runs the estimate engines, so predicted seconds are this machine's.

Each system's cost model (`GameSystem.estimate_cost`) predicts the CPU seconds of a matchup
on the machine it was fitted on (the reference). A server two or four times slower would
accept matchups that take two or four times the per-matchup limit, fan out jobs too rarely
and size their parts wrong; a faster one would refuse work it can do. So `machine_factor()`
measures, once per process, the CPU time of a fixed reference workload — four small
matchups of our own bundled units (`reference_matchups.json`), one per engine family,
computed cold through each system's own `attack`, the best of `ROUNDS` — and divides it by
what the same workload took on the reference. `bounds.matchup_cost` multiplies every
prediction by it; bytes are not scaled (memory does not depend on the CPU).

The reference's time is `REFERENCE_SECONDS`. The cost models were fitted on a machine that is
gone; on the next one (2026-11-26, 2 vCPU AMD EPYC) the models' predicted/measured medians
over the `bench_cost_models.py` sweep (seed 1, 120 samples) were 3.38× (opr), 3.69× (wh40k9)
and 3.76× (aos1) below what they were on the reference, geometric mean 3.61; the workload
took `MEASURED_THERE` seconds there, so the reference took that divided by 3.61.

`ESTIMATE_MACHINE_FACTOR` overrides the measurement: a number, or `auto` (the default). The
test runner sets 1, so what a test accepts or refuses does not depend on the machine's speed.
The measurement costs about 0.1 s of CPU, paid by the first prediction of each process.
"""

from __future__ import annotations

import json
import time
from functools import cache
from pathlib import Path
from typing import Any

from django.conf import settings

from rules.systems.registry import all_systems, get_system

#: The workload: {system key: {"attacker", "defender", "situation"}} (unit-format dicts).
REFERENCE_MATCHUPS = Path(__file__).with_name("reference_matchups.json")
#: Cold runs of the workload; the fastest counts (a loaded machine only slows some down).
ROUNDS = 7
#: The workload's CPU seconds on the machine of 2026-11-26, and the models' slow-down there.
MEASURED_THERE = 0.026
SLOWER_THERE = 3.61
#: The workload's CPU seconds on the reference machine.
REFERENCE_SECONDS = MEASURED_THERE / SLOWER_THERE
#: A measurement outside these bounds is not believed (a process stopped mid-run, a clock
#: that jumped): the nearer bound is used.
LOWEST, HIGHEST = 0.1, 20.0


def reference_workload() -> list[tuple[str, dict[str, Any], dict[str, Any], dict[str, Any]]]:
    """The reference matchups as (system key, attacker, defender, situation)."""
    found = json.loads(REFERENCE_MATCHUPS.read_text(encoding="utf-8"))
    return [(key, m["attacker"], m["defender"], m["situation"]) for key, m in sorted(found.items())]


def clear_engine_caches() -> None:
    """Empty every cache the engines keep between matchups, so a run pays its whole cost."""
    for system in all_systems():
        if system.clear_caches is not None:
            system.clear_caches()


def workload_seconds(rounds: int = ROUNDS) -> float:
    """The best CPU seconds of `rounds` cold runs of the reference workload in this process
    (after one warm run: a code path's first run imports modules no later run pays for)."""
    matchups = [(get_system(key), a, d, s) for key, a, d, s in reference_workload()]
    for system, attacker, defender, situation in matchups:
        system.attack(attacker, defender, situation)
    best = float("inf")
    for _ in range(rounds):
        clear_engine_caches()
        started = time.process_time()
        for system, attacker, defender, situation in matchups:
            system.attack(attacker, defender, situation)
        best = min(best, time.process_time() - started)
    clear_engine_caches()
    return best


@cache
def _measured_factor() -> float:
    return min(HIGHEST, max(LOWEST, workload_seconds() / REFERENCE_SECONDS))


def machine_factor() -> float:
    """How many times slower than the reference this machine runs the engines (the setting
    when it is a number; else measured once per process)."""
    given = str(getattr(settings, "ESTIMATE_MACHINE_FACTOR", "auto")).strip().lower()
    if given and given != "auto":
        return float(given)
    return _measured_factor()
