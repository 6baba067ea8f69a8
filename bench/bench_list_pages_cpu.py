"""Server CPU of a list's editor and roster pages by list size, cold and warm, optionally
side by side with an earlier commit (issue 42: "pages back under their old cost").

    ./.venv/bin/python -m armybuilder.launcher exec python bench/bench_list_pages_cpu.py \
        [--sizes 10 50 200] [--rounds 7] [--baseline b94a3b1]

The run creates a database of its own (`bench_list_pages_<pid>`, dropped at the end), loads
the bundled catalogue and makes one OPR list per size (the faction's units in turn), then
asks each page through Django's full stack as the list's owner, with production settings
(no DEBUG), and prints the median CPU milliseconds of this process per request (the
database's own time is not in it):

- **cold**: Django's cache is cleared before each request (no rendered fragment kept), so
  the page is rendered whole;
- **edited**: the page after a player's edit of one unit (its notes, a different unit each
  round), as the editor is asked after a change: one row or card is new, the rest as before;
- **warm**: the same page asked again, as a player reloading it or opening it again;

and the growth exponent k = log(t[large] / t[small]) / log(large / small) between each pair
of sizes (k ≤ 1: the page grows no faster than the list).

`--baseline COMMIT...` first runs this same script on each commit's code (`git archive` into
a temporary folder, its own database), then on this tree, and again in that order
`--repeat` times, so a load change on a shared machine falls on both; the figures of each
side are the medians over its runs. Targets (issue 42), printed with the figures, exit status 1
when one is missed: at 50 units, editor and roster at most the first `--baseline` commit's (the
2026-11-26 figures: `b94a3b1`; further commits are shown beside it, not targets) in every
mode, and k ≤ 1 from the smallest size to the largest (10 to 200 by default), every mode.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import _django

HERE = Path(__file__).resolve()
MODES = ("cold", "edited", "warm")
#: Issue 42's targets: each page at 50 units at most the baseline commit's CPU (every mode), and
#: growing no faster than the list from the smallest size to the largest (k ≤ 1).
TARGET_RATIO = 1.0
TARGET_K = 1.0


def run_side(root: Path, args: argparse.Namespace) -> dict:
    """This script on the code at `root`, in a process of its own; its figures as JSON."""
    command = [sys.executable, str(HERE), "--measure", "--root", str(root), "--rounds", str(args.rounds),
               "--sizes", *map(str, args.sizes)]
    done = subprocess.run(command, cwd=root, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{root}: exit {done.returncode}\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def report(label: str, figures: dict, sizes: list[int]) -> None:
    print(f"  {label}")
    for page in ("editor", "roster"):
        for mode in MODES:
            row = figures[page][mode]
            cells = "  ".join(f"{size:>3} units {row[str(size)]:7.1f} ms" for size in sizes)
            ks = "  ".join(
                f"k {a}->{b} {math.log(row[str(b)] / row[str(a)]) / math.log(b / a):4.2f}"
                for a, b in itertools.pairwise(sizes))
            print(f"    {page:<6} {mode}: {cells}   {ks}")


def compare(args: argparse.Namespace) -> int:
    root = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory(prefix="bench-baseline-") as folder:
        roots = {}
        for commit in args.baseline:
            tree = Path(folder) / commit
            tree.mkdir()
            archive = subprocess.run(["git", "archive", commit], cwd=root, capture_output=True, check=True)
            subprocess.run(["tar", "-x", "-C", str(tree)], input=archive.stdout, check=True)
            (tree / ".venv").symlink_to((root / ".venv").resolve())
            roots[f"commit {commit}"] = tree
        roots["this tree"] = root
        sides: dict[str, list[dict]] = {label: [] for label in roots}
        load_before = os.getloadavg()
        for _ in range(args.repeat):
            for label, tree in roots.items():
                sides[label].append(run_side(tree, args))
        load_after = os.getloadavg()
    print(f"list pages, server CPU per request in process (median of {args.rounds} requests, "
          f"{args.repeat} run(s) per side), {os.cpu_count()} CPUs, "
          f"load average {load_before[0]:.2f} -> {load_after[0]:.2f}")
    merged = {}
    for label, runs in sides.items():
        merged[label] = {
            page: {mode: {str(size): statistics.median(run[page][mode][str(size)] for run in runs)
                          for size in args.sizes} for mode in MODES}
            for page in ("editor", "roster")}
        report(label, merged[label], args.sizes)
    now = merged["this tree"]
    missed = []
    if args.baseline and 50 in args.sizes:
        for number, commit in enumerate(args.baseline):
            base = merged[f"commit {commit}"]
            for page in ("editor", "roster"):
                ratios = {mode: now[page][mode]["50"] / base[page][mode]["50"] for mode in MODES}
                shown = "  ".join(f"{mode} {ratio:.2f}×" for mode, ratio in ratios.items())
                if number:  # a further commit: figures to compare (the same code twice shows the noise)
                    print(f"  this tree / commit {commit}, {page} at 50 units: {shown}")
                    continue
                print(f"  this tree / commit {commit}, {page} at 50 units: {shown}   "
                      f"target ≤ {TARGET_RATIO:.2f}× every mode")
                missed += [f"{page} {mode} at 50 units {ratio:.2f}× commit {commit}"
                           for mode, ratio in ratios.items() if ratio > TARGET_RATIO]
    small, large = min(args.sizes), max(args.sizes)
    if small < large:
        for page in ("editor", "roster"):
            row = now[page]
            ks = {mode: math.log(row[mode][str(large)] / row[mode][str(small)]) / math.log(large / small)
                  for mode in MODES}
            shown = "  ".join(f"{mode} {k:.2f}" for mode, k in ks.items())
            print(f"  this tree, {page} k {small}->{large} units: {shown}   target k ≤ {TARGET_K:.2f}")
            missed += [f"{page} {mode} k {k:.2f}" for mode, k in ks.items() if k > TARGET_K]
    print("  targets: " + ("met" if not missed else "MISSED: " + "; ".join(missed)))
    return 1 if missed else 0


def profile_page(client, url: str, label: str, cache) -> None:
    """cProfile of one cold request of `url`, the costliest functions to stderr (`--profile`)."""
    import cProfile
    import io
    import pstats

    cache.clear()
    profiler = cProfile.Profile()
    profiler.enable()
    client.get(url)
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.sort_stats("cumulative").print_stats(45)
    stats.sort_stats("tottime").print_stats(25)
    print(f"=== profile: {label}\n{out.getvalue()}", file=sys.stderr)


def measure(args: argparse.Namespace) -> int:
    """Build the lists and time the pages in this process (the code at `--root`)."""
    root = Path(args.root)
    import warnings

    warnings.filterwarnings("ignore")
    _django.setup(server=True, unthrottled=True, root=root)
    from django.contrib.auth import get_user_model
    from django.core.cache import cache
    from django.test import Client
    from django.urls import reverse

    from armybuilder.lists import services
    from armybuilder.models import ArmyList, ListUnit
    from rules.models import Faction

    # No `setup_test_environment`: its instrumented template rendering sends a signal per
    # template, on which the test client copies the context: a cost per rendered template
    # that production does not pay, and that would favour the side rendering fewer of them.
    with _django.database():
        faction = (Faction.objects.filter(system__key="opr", owner__isnull=True)
                   .prefetch_related("units").order_by("pk").first())
        templates = list(faction.units.all())
        user = get_user_model().objects.create_user("pages", password=secrets.token_urlsafe(12))
        client = Client(HTTP_HOST="127.0.0.1")
        client.force_login(user)
        figures: dict = {page: {mode: {} for mode in MODES} for page in ("editor", "roster")}
        for size in args.sizes:
            army_list = services.army_list_create(owner=user, system=faction.system, faction=faction,
                                                  name=f"Pages {size}", points_limit=100000)
            for number in range(size):
                services.army_list_add_unit(army_list=army_list, unit=templates[number % len(templates)],
                                            expected_version=army_list.version)
            def edit(army_list: ArmyList, round_: int) -> None:
                """A player's edit of one unit (its notes), the list's version moving on."""
                army_list.refresh_from_db()
                units = list(ListUnit.objects.filter(army_list=army_list).order_by("position"))
                unit = units[(round_ * 7) % len(units)]
                services.army_list_unit_set_details(list_unit=unit, custom_name=unit.custom_name,
                                                    notes=f"edit {time.monotonic_ns()}", group=unit.group,
                                                    expected_version=army_list.version)

            pages = {"editor": reverse("lists:detail", args=[army_list.pk]),
                     "roster": reverse("lists:roster", args=[army_list.pk])}
            for page, url in pages.items():
                if client.get(url).status_code != 200:
                    raise SystemExit(f"{url}: not 200")
                for mode in MODES:
                    times = []
                    for round_ in range(args.rounds):
                        if mode == "cold":
                            cache.clear()
                        elif mode == "edited":
                            edit(army_list, round_)
                        started = time.process_time()
                        response = client.get(url)
                        times.append((time.process_time() - started) * 1000)
                        assert response.status_code == 200
                    figures[page][mode][str(size)] = statistics.median(times)
                if args.profile:
                    profile_page(client, url, f"{page} at {size} units, cold", cache)
        print(json.dumps(figures))
        return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 50, 200])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--baseline", nargs="*", default=[],
                        help="commits to run side by side (b94a3b1: the 2026-11-26 figures)")
    parser.add_argument("--repeat", type=int, default=1, help="runs per side, alternating")
    parser.add_argument("--profile", action="store_true",
                        help="only this tree, in this process: print a cProfile of each cold page to stderr")
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--root", default=str(HERE.parent.parent), help=argparse.SUPPRESS)
    args = parser.parse_args()
    return measure(args) if args.measure or args.profile else compare(args)


if __name__ == "__main__":
    sys.exit(main())
