"""Concurrent edits of one list, looped under CPU load: no deadlock, no lost update.

    ./.venv/bin/python -m armybuilder.launcher exec python bench/stress_concurrent_edits.py \
        [--rounds 10] [--clients 16] [--changes 20] [--burners 2]

Each round puts `--clients` threads (own Postgres connections) on one fresh list, each making
`--changes` successful changes of every kind (add, option change, duplicate, move, remove,
rename, share; a stale answer is retried), while `--burners` processes spin on the CPU so
the clients' transactions interleave as they would on a busy server. After each round the
list is checked as `tests/armybuilder/lists/test_concurrency.py` checks it (versions produced
once each and contiguous, units adding up, positions 0..n-1, cached total and count right,
the last rename wins). Prints one line per round; exits 1 on any problem. Creates its own
database and drops it at the end.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import time

import _django

_django.setup()


from tests.armybuilder.lists.concurrent_edits import consistency_problems, run_clients  # noqa: E402
from tests.factories.army_lists import make_faction, make_list, make_unit, make_user  # noqa: E402


def burn(deadline: float) -> None:
    """Keep one CPU busy until `deadline` (a bounded loop: it always stops by itself)."""
    x = 0
    while time.monotonic() < deadline:
        x = (x * 31 + 7) % 1_000_003


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--changes", type=int, default=20)
    parser.add_argument("--burners", type=int, default=2)
    args = parser.parse_args()

    burners: list[multiprocessing.Process] = []
    failed = 0
    with _django.database(catalogue=False):
        try:
            deadline = time.monotonic() + 60 * 30
            burners = [multiprocessing.Process(target=burn, args=(deadline,), daemon=True)
                       for _ in range(args.burners)]
            for process in burners:
                process.start()
            owner = make_user()
            faction = make_faction()
            template = make_unit(faction=faction)
            print(f"load average at start: {os.getloadavg()[0]:.2f}; {args.burners} CPU burners")
            for round_number in range(args.rounds):
                army_list = make_list(owner=owner, faction=faction, points_limit=100_000,
                                      units=[template, template])
                initial_version = army_list.version
                started = time.perf_counter()
                outcome = run_clients(army_list=army_list, template=template, clients=args.clients,
                                      changes=args.changes, seed=round_number)
                elapsed = time.perf_counter() - started
                problems = consistency_problems(army_list=army_list, initial_version=initial_version,
                                                initial_units=2, outcome=outcome)
                failed += bool(problems)
                print(f"round {round_number + 1}: {len(outcome.successes)} changes, "
                      f"{outcome.stale} stale retries, "
                      f"{elapsed:.1f} s, load {os.getloadavg()[0]:.2f}: "
                      + ("OK" if not problems else "; ".join(problems[:3])))
        finally:
            for process in burners:
                process.terminate()
    print(f"{args.rounds - failed} of {args.rounds} rounds consistent")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
