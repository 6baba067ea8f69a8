"""Benchmark of the BattleScribe roster engine: operations on a 2,000-selection roster.

    .venv/bin/python bench/bench_battlescribe_engine.py [--selections 2000] [--rounds 30] [--data DIR]

Loads the real BSData wh40k-9e game system and Necrons catalogue (`--data`: a checkout of
the BSData wh40k-9e repository, kept outside git), builds one "Unbound Army" force by selecting
each visible unit in turn (with everything the catalogue auto-selects) until the roster holds
at least --selections selections, then times three operations a player does — select a unit,
change a model count, remove a unit — each followed by what the editor reads after an edit:
the roster's costs and its validation errors. Each operation is timed twice on the same
roster state: with the engine's incremental evaluation (only values that read the changed
unit, its force or the roster are recomputed, `evalcache`) and after a full re-evaluation
(`Roster.full_reevaluation()`: every value recomputed; the independent baseline). Prints
mean and p95 per operation in process CPU time (`BENCH_CLOCK=wall` for wall clock) and the
full/incremental ratio. Target: mean ≤ 5 ms per operation incremental; exit 1 if missed.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rules.battlescribe.engine.constraints import validate  # noqa: E402
from rules.battlescribe.engine.modifiers import effective  # noqa: E402
from rules.battlescribe.engine.roster import Roster, _flatten  # noqa: E402
from rules.battlescribe.engine.xmlform import load_files  # noqa: E402
from rules.battlescribe.xml_reader import SourceFile  # noqa: E402

TARGET_MS = 5.0
FORCE_NAME = "Unbound Army (Faction)"
CLOCK = time.perf_counter if os.environ.get("BENCH_CLOCK") == "wall" else time.process_time


def load(folder: Path):
    gst = folder / "Warhammer 40,000.gst"
    cat = folder / "Necrons.cat"
    return load_files(SourceFile(gst.name, gst.read_bytes()), [SourceFile(cat.name, cat.read_bytes())])


def build(data, target: int):
    roster = Roster(data, name="bench")
    entry = next(e for e in data.force_entries.values() if e.name == FORCE_NAME)
    force = roster.add_force(entry.id, next(iter(data.catalogues)))
    units = [
        o
        for o in _flatten(force.root_options())
        if o.type in ("unit", "model") and not effective(o, force.context()).hidden
    ]
    i = 0
    while len(roster.all_selections()) < target:
        roster.select_entry(force, units[i % len(units)].key)
        i += 1
    return roster, force, units


def evaluate(roster: Roster) -> int:
    """What the editor reads after an edit: costs and errors."""
    roster.costs()
    return len(validate(roster))


def timed(op, roster: Roster, full: bool) -> float:
    start = CLOCK()
    op()
    if full:
        roster.full_reevaluation()
    evaluate(roster)
    return (CLOCK() - start) * 1000.0


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--selections", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--data", type=Path, default=Path("/work/corpora/BSData+wh40k-9e"))
    args = parser.parse_args()
    t0 = time.perf_counter()
    data = load(args.data)
    t1 = time.perf_counter()
    roster, force, units = build(data, args.selections)
    t2 = time.perf_counter()
    errors = evaluate(roster)
    t3 = time.perf_counter()
    print(
        f"load .gst + Necrons.cat: {t1 - t0:.2f} s; build {len(roster.all_selections())} selections "
        f"in {len(force.selections)} units: {t2 - t1:.2f} s; first evaluation: {t3 - t2:.2f} s "
        f"({errors} errors)"
    )
    print(f"load average: {os.getloadavg()[0]:.2f}; clock: {'wall' if CLOCK is time.perf_counter else 'CPU'}")

    results: dict[str, dict[str, list[float]]] = {}
    for round_no in range(args.rounds):
        for full in (False, True):
            unit = units[(round_no * 7) % len(units)]
            made = []
            t_select = timed(lambda u=unit, m=made: m.append(roster.select_entry(force, u.key)), roster, full)
            # a model count: the first child selection of the unit just added, else the unit itself
            target = made[0].children[0] if made[0].children else made[0]
            t_count = timed(lambda s=target: roster.set_count(s, s.number + 1), roster, full)
            t_remove = timed(lambda s=made[0]: roster.deselect(s), roster, full)
            kind = "full" if full else "incremental"
            for name, value in (("select", t_select), ("count", t_count), ("remove", t_remove)):
                results.setdefault(name, {}).setdefault(kind, []).append(value)
            evaluate(roster)  # both timings start from an evaluated roster

    worst = 0.0
    print(f"{'operation':<10}{'incremental mean':>18}{'p95':>9}{'full mean':>12}{'p95':>9}{'ratio':>8}")
    for name, kinds in results.items():
        inc, full = kinds["incremental"], kinds["full"]
        inc_mean, full_mean = statistics.mean(inc), statistics.mean(full)
        worst = max(worst, inc_mean)
        print(
            f"{name:<10}{inc_mean:>15.2f} ms{_p95(inc):>6.2f} ms{full_mean:>9.2f} ms{_p95(full):>6.2f} ms"
            f"{full_mean / inc_mean:>7.1f}x"
        )
    verdict = "meets" if worst <= TARGET_MS else "MISSES"
    print(f"worst incremental mean {worst:.2f} ms per operation: {verdict} the {TARGET_MS:g} ms target")
    return 0 if worst <= TARGET_MS else 1


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


if __name__ == "__main__":
    raise SystemExit(main())
