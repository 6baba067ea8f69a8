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
took `MEASURED_THERE` seconds there, so the reference took that divided by 3.61. (The WHFB /
Russian model was fitted on that second machine, so it divides its prices by the same 3.61:
`rules.systems.fantasy_combat.estimate.FIT_MACHINE_SLOWER`; a test keeps the two equal.)

`ESTIMATE_MACHINE_FACTOR` overrides the measurement: a number, or `auto` (the default). The
test runner sets 1, so what a test accepts or refuses does not depend on the machine's speed.
The measurement costs about a second of CPU (most of it the engines' first run, which imports
them). It is made by a worker when it starts with nothing shared, and by the beat every
`MEASURE_INTERVAL` on the `control` worker (`measure_machine`); every process reads the shared
figure again every `KEPT_SECONDS`, so the factor follows a VM whose speed changes (the same
machine ran the engines 3.6× and 1.8× slower than the reference on two days). A process
measures itself only when nothing was ever shared to it (`_current_factor`).
"""

from __future__ import annotations

import json
import logging
import time
from pathlib import Path
from typing import Any

from celery import shared_task
from celery.signals import worker_ready
from django.conf import settings
from django.core.cache import caches

from rules.systems.registry import all_systems, get_system

logger = logging.getLogger(__name__)

#: The workload: {system key: {"attacker", "defender", "situation"}} (unit-format dicts).
REFERENCE_MATCHUPS = Path(__file__).with_name("reference_matchups.json")
#: Cold runs of the workload; the fastest counts (a loaded machine only slows some down).
ROUNDS = 9
#: The workload's CPU seconds on the machine of 2026-11-26, and the models' slow-down there.
MEASURED_THERE = 0.029
SLOWER_THERE = 3.61
#: The workload's CPU seconds on the reference machine.
REFERENCE_SECONDS = MEASURED_THERE / SLOWER_THERE
#: A measurement outside these bounds is not believed (a process stopped mid-run, a clock
#: that jumped): the nearer bound is used.
LOWEST, HIGHEST = 0.1, 20.0
#: Where the measurement is shared (the job cache, Redis) and for how long.
CACHE_KEY = "estimates:machine-factor"
SHARED_SECONDS = 3600
#: How often the beat measures again (`measure_machine`), well inside `SHARED_SECONDS`.
MEASURE_INTERVAL = 1800
#: How long a process keeps the figure it read before it reads the shared one again.
KEPT_SECONDS = 300
#: (factor, `time.monotonic()` when read or measured) in this process, or None.
_kept: tuple[float, float] | None = None


def reference_workload() -> list[tuple[str, dict[str, Any], dict[str, Any], dict[str, Any]]]:
    """The reference matchups as (system key, attacker, defender, situation)."""
    found = json.loads(REFERENCE_MATCHUPS.read_text(encoding="utf-8"))
    return [(key, m["attacker"], m["defender"], m["situation"]) for key, m in sorted(found.items())]


def clear_engine_caches() -> None:
    """Empty every cache the engines keep between matchups, so a run pays its whole cost."""
    for system in all_systems():
        system.clear_caches()


def workload_seconds(rounds: int = ROUNDS) -> float:
    """The reference workload's CPU seconds in this process: each matchup's best of `rounds`
    cold runs, added up (after one warm run: a code path's first run imports modules no
    later run pays for). The best run of each matchup is the one least slowed by whatever
    else the machine was doing."""
    matchups = [(get_system(key), a, d, s) for key, a, d, s in reference_workload()]
    best = [float("inf")] * len(matchups)
    for round_ in range(rounds + 1):
        for i, (system, attacker, defender, situation) in enumerate(matchups):
            clear_engine_caches()
            started = time.process_time()
            system.attack(attacker, defender, situation)
            if round_:
                best[i] = min(best[i], time.process_time() - started)
    clear_engine_caches()
    return sum(best)


def _shared() -> float | None:
    """The factor a process shared in the job cache, if it is there and believable."""
    try:
        found = caches[settings.PDF_CACHE].get(CACHE_KEY)
    except Exception:  # the cache is down: as if nothing were shared
        logger.warning("could not read the machine factor from the cache", exc_info=True)
        return None
    return found if isinstance(found, float) and LOWEST <= found <= HIGHEST else None


def measure_and_share() -> float:
    """Measure the factor now, share it for `SHARED_SECONDS` and keep it in this process."""
    global _kept
    factor = min(HIGHEST, max(LOWEST, workload_seconds() / REFERENCE_SECONDS))
    try:
        caches[settings.PDF_CACHE].set(CACHE_KEY, factor, SHARED_SECONDS)
    except Exception:
        logger.warning("could not share the machine factor", exc_info=True)
    _kept = (factor, time.monotonic())
    return factor


def _current_factor() -> float:
    """The factor this process uses: the one it read in the last `KEPT_SECONDS`, else the shared
    one (which the beat measures again every `MEASURE_INTERVAL`, so a server's factor follows
    a VM whose speed changes). A process measures only when nothing was ever shared to it; if
    the shared figure is gone later (Redis restarted), it keeps its own until the beat shares
    a new one, so a request never pays for a measurement a worker owes."""
    global _kept
    now = time.monotonic()
    if _kept is not None and now - _kept[1] < KEPT_SECONDS:
        return _kept[0]
    found = _shared()
    if found is not None:
        _kept = (found, now)
        return found
    if _kept is not None:
        return _kept[0]
    return measure_and_share()


def forget() -> None:
    """Drop what this process kept (tests: the next call reads or measures afresh)."""
    global _kept
    _kept = None


@shared_task(name="estimates.measure_machine", ignore_result=True)
def measure_machine() -> float:
    """The beat's entry point (on the `control` worker): measure and share the factor, unless
    the setting fixes it."""
    fixed = _fixed()
    return fixed if fixed is not None else measure_and_share()


@worker_ready.connect
def _share_when_a_worker_starts(**_: Any) -> None:
    """A worker that starts with nothing shared measures at once, so the first request after a
    deployment reads a figure instead of measuring one (the beat's first run is an interval
    away)."""
    if _fixed() is None and _shared() is None:
        measure_and_share()


def _fixed() -> float | None:
    given = str(getattr(settings, "ESTIMATE_MACHINE_FACTOR", "auto")).strip().lower()
    return float(given) if given and given != "auto" else None


def machine_factor() -> float:
    """How many times slower than the reference this machine runs the engines (the setting
    when it is a number; else the workers' shared measurement, `_current_factor`)."""
    fixed = _fixed()
    return fixed if fixed is not None else _current_factor()
