"""Benchmark of the list import per megabyte: written-out units, up to the size of a large list.

    .venv/bin/python -m armybuilder.launcher exec python bench/bench_list_import_per_mb.py [--repeat N]

In a fresh test database (the bundled catalogue loaded), OPR list files (our JSON) of 50, 100 and
200 units written out in full (45 weapons each, notes of 900 characters: about 5.7 KiB a unit,
1.1 MB at 200 units) and, past the unit limit, the same 200 units with longer weapon names
(1.8 MB) are imported through the one entry point (`armybuilder.lists.imports.import_source`:
detect, read, check, price, save in one transaction), `--repeat` times each, undone after each.
Printed: the median wall and CPU time, the CPU seconds per MB, and the ratio to an independent
floor for the same bytes: `json.loads` of the file plus one `INSERT` of the whole document as
one jsonb value (reading and storing the bytes once, nothing checked or priced).
Target: the 1.8 MB import within 5 s of CPU (gunicorn's timeout is 30 s of wall time; a loaded
two-core machine gives a request a fraction of a core). Exit 0 when met.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "armybuilder.settings")

TARGET_CPU_SECONDS = 5.0


def document(units: int, name_padding: int = 0) -> str:
    """Our list file with `units` OPR units written out in full."""
    pad = "x" * name_padding

    def unit(i: int) -> dict:
        weapons = [{"name": f"Weapon of the long name number {w} {i} {pad}", "range": 24 if w % 2 else 0,
                    "attacks": 1 + w % 3, "ap": w % 3, "rules": ["Rending"] if w % 3 == 0 else []}
                   for w in range(45)]
        return {"format": 1, "system": "opr", "name": f"Unit {i}", "models": [{
            "name": f"Model {i}", "count": 5 + i % 10, "quality": 4, "defence": 4, "toughness": 1,
            "rules": [], "weapons": weapons}]}

    return json.dumps({"format": 1, "system": "opr", "name": f"Bench {units}", "points_limit": 100_000,
                       "units": [{"unit": unit(i), "notes": "n" * 900} for i in range(units)]})


def timed(run, repeat: int) -> tuple[float, float]:
    """Median (wall, CPU) seconds of `run()` inside a transaction that is rolled back."""
    from django.db import transaction

    class Undo(Exception):
        pass

    walls, cpus = [], []
    for _ in range(repeat):
        try:
            with transaction.atomic():
                wall, cpu = time.perf_counter(), time.process_time()
                run()
                walls.append(time.perf_counter() - wall)
                cpus.append(time.process_time() - cpu)
                raise Undo
        except Undo:
            pass
    return statistics.median(walls), statistics.median(cpus)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection

    from armybuilder.lists.importers import Source
    from armybuilder.lists.imports import import_source

    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    ok = True
    try:
        call_command("load_catalogue", verbosity=0)
        user = get_user_model().objects.create_user("bench", password="a-long-bench-password")
        with connection.cursor() as cursor:
            cursor.execute("CREATE TEMPORARY TABLE bench_floor (doc jsonb)")
        print(f"List import per MB: our JSON, units written out in full, median of {args.repeat} "
              f"({os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f})")
        for units, padding in ((50, 0), (100, 0), (200, 0), (200, 60)):
            text = document(units, padding)
            mb = len(text.encode()) / 1e6

            def full(text: str = text, units: int = units) -> None:
                outcome = import_source(user=user, source=Source.of_text(text, "list.json"), system_key="opr")
                assert len(outcome.imported.units) == units

            def floor(text: str = text) -> None:
                with connection.cursor() as cursor:
                    cursor.execute("INSERT INTO bench_floor (doc) VALUES (%s::jsonb)",
                                   [json.dumps(json.loads(text))])

            wall, cpu = timed(full, args.repeat)
            floor_wall, _ = timed(floor, args.repeat)
            if padding:
                ok &= cpu <= TARGET_CPU_SECONDS
            print(f"  {units:3} units {mb:5.2f} MB  {wall:6.2f} s wall  {cpu:6.2f} s CPU  "
                  f"{cpu / mb:5.2f} s CPU/MB  ×{wall / floor_wall:5.1f} of the floor "
                  f"({floor_wall * 1000:.0f} ms)"
                  + (f"  [target ≤ {TARGET_CPU_SECONDS:.0f} s CPU]" if padding else ""))
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
    print("target met" if ok else "TARGET MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
