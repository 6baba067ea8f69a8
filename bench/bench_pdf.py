"""Benchmark of a 200-unit roster PDF on the worker's path (at most 5 s).

    ./.venv/bin/python -m armybuilder.launcher exec python bench/bench_pdf.py [--rounds 3] [--units 200]
        [--profile]

The run

1. creates a database of its own (`bench_pdf_<pid>`, dropped at the end), loads the bundled
   catalogue and builds, with the list services, one 200-unit list per round from the OPR
   catalogue's units (a different mix of units and upgrades each round: no two rounds render
   the same roster);
2. times the worker's job body (`run_render`, the function the job task runs: reads the list,
   builds the roster, renders the template, WeasyPrint, stores the PDF in the job cache) for
   each list with the PDF cache cleared, in the default print options (unit cards, two
   columns, rules reference);
3. as an independent baseline in the same run, times the same path for 20-unit lists: the
   fixed cost of a render (WeasyPrint's fonts and stylesheets); a render that scales with
   the roster costs about `units / 20` times the baseline;
4. prints the median, the ratio target ÷ median (≥ 1 meets the target), the page count and
   size, and the machine's load average (other sessions share these cores). Times are CPU
   seconds of this process, which is the worker's path here (`BENCH_CLOCK=wall` for wall
   clock, which on a shared machine mostly measures the other sessions); the wall clock is
   printed beside them. `--profile` prints the top of a cProfile of one render;
5. for every game system with catalogue factions, the CPU per unit of a render (a list of a
   quarter of `--units` against one of 5 units) and its ratio to OPR's.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import re
import secrets
import shutil
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path

import _django

TARGET_SECONDS = 5.0
CLOCK = time.perf_counter if os.environ.get("BENCH_CLOCK") == "wall" else time.process_time

_django.setup(server=True)

from django.contrib.auth.models import User  # noqa: E402

from armybuilder.lists import services  # noqa: E402
from armybuilder.models import ArmyList  # noqa: E402
from armybuilder.roster import pdf_jobs  # noqa: E402
from rules.models import Faction  # noqa: E402


def build_list(owner: User, units: int, seed: int, system: str = "opr") -> ArmyList:
    """A list of `units` units of one faction of `system`, mixed by `seed` (with upgrades where
    the unit has any)."""
    rng = random.Random(seed)
    factions = list(Faction.objects.filter(system__key=system, owner__isnull=True)
                    .prefetch_related("units__options").order_by("pk"))
    faction = factions[seed % len(factions)]
    templates = [t for t in faction.units.all()]
    army_list = services.army_list_create(owner=owner, system=faction.system, faction=faction,
                                          name=f"Bench roster {seed}", points_limit=100_000)
    for _ in range(units):
        template = rng.choice(templates)
        choices = {}
        for option in list(template.options.all())[:3]:
            if rng.random() < 0.5:
                choices[option.key] = 1
        try:
            services.army_list_add_unit(army_list=army_list, unit=template, options=choices or None,
                                        expected_version=None)
        except Exception:  # an option this unit's structure refuses: add it plain
            services.army_list_add_unit(army_list=army_list, unit=template, expected_version=None)
    army_list.refresh_from_db()
    return army_list


WALL: list[float] = []


def render(army_list: ArmyList) -> tuple[float, bytes]:
    """One render through the job body the worker runs (`pdf_jobs.run_render`, on a job row
    made for it; the row is deleted after)."""
    from armybuilder.models import BackgroundJob

    job = BackgroundJob.objects.create(
        id=uuid.uuid4().hex, kind=pdf_jobs.KIND, owner_id=army_list.owner_id, language="en",
        request={"list": army_list.pk, "version": army_list.version, "paper": "a4", "options": {}})
    started, wall = CLOCK(), time.perf_counter()
    try:
        made = pdf_jobs.run_render(job, [])
    finally:
        job.delete()
    elapsed = CLOCK() - started
    WALL.append(time.perf_counter() - wall)
    return elapsed, bytes(made.outputs[0].data or b"")


def page_count(pdf: bytes) -> int:
    """Pages of the PDF (pdfinfo, from poppler-utils; 0 when it is not installed)."""
    if shutil.which("pdfinfo") is None:
        return 0
    info = subprocess.run(["pdfinfo", "-"], input=pdf, capture_output=True, check=False).stdout.decode()
    found = re.search(r"^Pages:\s+(\d+)", info, re.M)
    return int(found.group(1)) if found else 0


def per_system(owner: User, *, units: int) -> None:
    """CPU per unit of a render for every system with catalogue factions: a list of
    `units` units and one of 5 (the fixed cost), the marginal CPU per unit between them, and
    each system's ratio to OPR's (the independent baseline of this table)."""
    from rules.models import GameSystem

    print(f"CPU per unit of a render, every system ({units} vs 5 units, marginal):")
    per_unit: dict[str, float] = {}
    for system in GameSystem.objects.filter(factions__owner__isnull=True).distinct().order_by("key"):
        if not Faction.objects.filter(system=system, owner__isnull=True, units__isnull=False).exists():
            continue
        small, big = build_list(owner, 5, 500, system.key), build_list(owner, units, 501, system.key)
        render(small)  # this system's templates and fonts once
        fixed, total = render(small)[0], render(big)[0]
        per_unit[system.key] = max(0.0, total - fixed) / (big.units.count() - small.units.count())
        print(f"  {system.key:10s} {per_unit[system.key] * 1000:7.1f} ms/unit "
              f"(fixed {fixed:.2f} s, {units} units {total:.2f} s)")
    if "opr" in per_unit and per_unit["opr"] > 0:
        print("  ratio to OPR: " + ", ".join(f"{key} {value / per_unit['opr']:.2f}×"
                                             for key, value in per_unit.items()))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--units", type=int, default=200)
    parser.add_argument("--profile", action="store_true", help="print a cProfile of one render")
    args = parser.parse_args()

    with _django.database(instrumented=True):
        owner = User.objects.create_user("bench-pdf", password=secrets.token_urlsafe(12))
        big = [build_list(owner, args.units, seed) for seed in range(args.rounds)]
        small = [build_list(owner, 20, 100 + seed) for seed in range(args.rounds)]
        render(small[0])  # loads Pango and the fonts once, as a running worker has
        load_before = os.getloadavg()
        baseline, measured, sizes, walls = [], [], [], []
        for small_list, big_list in zip(small, big, strict=True):
            baseline.append(render(small_list)[0])
            elapsed, pdf = render(big_list)
            measured.append(elapsed)
            walls.append(WALL[-1])
            sizes.append((page_count(pdf), len(pdf)))
        load_after = os.getloadavg()
        median, base = statistics.median(measured), statistics.median(baseline)
        pages, size = sizes[-1]
        clock = "wall-clock" if CLOCK is time.perf_counter else "CPU"
        print(f"PDF of a {args.units}-unit roster on the worker's path ({clock} seconds), "
              f"{args.rounds} rounds (different lists), {os.cpu_count()} CPUs, load average "
              f"{load_before[0]:.2f} -> {load_after[0]:.2f}")
        print(f"  {args.units} units: median {median:.2f} s (rounds: "
              f"{', '.join(f'{s:.2f}' for s in measured)}); {pages} pages, {size / 1024:.0f} KiB; "
              f"wall clock median {statistics.median(walls):.2f} s")
        print(f"  baseline, 20 units: median {base:.2f} s; ratio {median / base:.1f}× "
              f"(units ratio {args.units / 20:.0f}×)")
        print(f"  target {TARGET_SECONDS:.0f} s ÷ median = {TARGET_SECONDS / median:.2f} "
              f"({'met' if median <= TARGET_SECONDS else 'NOT met'})")
        if args.profile:
            profiler = cProfile.Profile()
            profiler.enable()
            render(big[0])
            profiler.disable()
            pstats.Stats(profiler).sort_stats("cumulative").print_stats(45)
        per_system(owner, units=max(10, args.units // 4))
        if os.environ.get("BENCH_PDF_OUT"):
            Path(os.environ["BENCH_PDF_OUT"]).write_bytes(render(big[0])[1])
        return 0 if median <= TARGET_SECONDS else 1


if __name__ == "__main__":
    sys.exit(main())
