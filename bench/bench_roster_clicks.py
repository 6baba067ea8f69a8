"""Benchmark of the editor's clicks on a list of an imported BattleScribe faction (issue 39).

    ./.venv/bin/python -m armybuilder.launcher exec python bench/bench_roster_clicks.py \
        [--data DIR]  (DIR: a checkout of BSData/wh40k-9e) [--rows 20 60] [--rounds 20]
        [--profile [--profile-clicks add option count]]  (cProfile in CPU time of the engine's
        timed clicks, or of those named: the times then include the profiler's cost)

A click on a list of an imported faction is answered by the roster engine. This bench measures
the three clicks a player makes most on such a list — add a unit, tick an option, change a
count — on the real path: the editor's htmx POST through Django's test `Client` (URL routing,
middleware, session, view, services, queries, templates), with production settings (no DEBUG).

1. It creates a database of its own (`bench_roster_clicks_<pid>`, dropped at the end), loads the
   bundled catalogue and imports the real BSData wh40k-9e game system and Necrons catalogue
   (never in git; `fetch` BSData/wh40k-9e and copy it to `--data`) with the product's own
   `import_battlescribe` command.
2. For each `--rows` it builds one Necrons list with that many rows (the roster engine's) and,
   as the baseline, one list of a bundled 40k faction with as many units.
3. Each round is a new input: "add" adds another unit than the round before (and the unit is
   removed again, untimed, so the list keeps its size), "option" ticks or unticks an option of
   another unit, "count" moves a count of another unit by one. Django's cache is cleared
   before each timed request (cold); what a server keeps between requests (the engine's data
   per faction, the rosters of the lists being edited) is kept.
4. Prints, per list size and click, p50/p95 CPU ms of this process (`time.process_time`: the
   database's own time is not in it), beside the bundled list's figures and the ratio, and
   checks the target: p95 ≤ 30 ms at 20 rows and ≤ 50 ms at 60 rows (exit 1 if missed). It
   also prints how many values the engine's evaluation cache computed per click (mean; the
   work an edit re-does, steady across runs where the times are not), how many timed clicks
   met a full garbage collection and the longest such
   pause (counted in the click's time, as a player's click pays it): a p95 among 20 rounds
   moves by one such click.
5. The process is prepared as a gunicorn web worker is (`process_heap.prepare_server_worker`),
   and after each response the bench runs what gunicorn's `post_request` hook runs
   (`process_heap.collect_if_due`): the full collections held back to the moment after the
   answer was sent. Their CPU is not in the click's time (the player already has the answer)
   but is printed beside it, per click on average, so the work moved is seen, not hidden.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import os
import pstats
import re
import secrets
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import _django

_django.setup(server=True, unthrottled=True, WHITENOISE_USE_FINDERS="true",
              ALLOWED_HOSTS="127.0.0.1,testserver")

from armybuilder.process_heap import collect_if_due, prepare_server_worker  # noqa: E402

prepare_server_worker()  # what gunicorn's post_worker_init does in every web worker

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.cache import cache  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402
from django.urls import reverse  # noqa: E402

from armybuilder.lists import services  # noqa: E402
from armybuilder.lists.backends import roster_cache  # noqa: E402
from armybuilder.lists.errors import ArmyListError  # noqa: E402
from armybuilder.models import ArmyList, ListUnit  # noqa: E402
from rules.models import BattleScribeSource, Faction, GameSystem, UnitTemplate  # noqa: E402

TARGETS_MS = {20: 30.0, 60: 50.0}


class FullCollections:
    """The CPU ms of each full (generation 2) garbage collection since `take`: the pause a click
    that meets one pays, counted in its time and shown beside the figures (how many timed
    clicks paid one, the longest) so a p95 moved by a pause is told from one moved by work."""

    def __init__(self) -> None:
        self.pauses: list[float] = []
        self._start = 0.0
        gc.callbacks.append(self._observe)

    def _observe(self, phase: str, info: dict) -> None:
        if info.get("generation") != 2:
            return
        if phase == "start":
            self._start = time.process_time()
        else:
            self.pauses.append((time.process_time() - self._start) * 1000)

    def take(self) -> list[float]:
        taken, self.pauses = self.pauses, []
        return taken


FULL_COLLECTIONS = FullCollections()
VERSION = re.compile(r'data-version="(\d+)"')
NEW_ROW = re.compile(r'<li id="unit-(\d+)"')
CLICKS = ("add", "option", "count")


def import_necrons(folder: Path) -> Faction:
    """The Necrons faction, imported from the real files by the product's command."""
    files = [str(folder / "Warhammer 40,000.gst"), str(folder / "Necrons.cat")]
    call_command("import_battlescribe", *files, system="wh40k9", stdout=io.StringIO())
    source = BattleScribeSource.objects.select_related("faction").get(faction__name__icontains="Necron")
    return source.faction


def build_list(owner, faction: Faction, rows: int, name: str) -> tuple[ArmyList, list[int]]:
    """A list of `faction` with `rows` rows (units added by the services, cycling the faction's
    units; those the catalogue refuses are skipped); the template ids it can add."""
    army_list = services.army_list_create(
        owner=owner, system=faction.system, faction=faction, name=name, points_limit=100_000
    )
    templates = list(UnitTemplate.objects.filter(faction=faction).order_by("position", "pk"))
    usable: list[int] = []
    index = 0
    while army_list.unit_count < rows and index < len(templates) * 4:
        template = templates[index % len(templates)]
        index += 1
        try:
            services.army_list_add_unit(army_list=army_list, unit=template, expected_version=None)
        except ArmyListError:
            continue
        if template.pk not in usable:
            usable.append(template.pk)
        army_list.refresh_from_db()
    while ListUnit.objects.filter(army_list=army_list).count() > rows:
        last = ListUnit.objects.filter(army_list=army_list).order_by("-position").first()
        last.army_list = army_list
        services.army_list_unit_remove(list_unit=last, expected_version=None)
    army_list.refresh_from_db()
    return army_list, usable


def option_form(unit: ListUnit, change: dict[str, int]) -> dict[str, str]:
    """The unit's option form as the editor posts it: every option at its count, `change` over it."""
    data = {}
    chosen = {**(unit.chosen_options or {}), **change}
    for option in unit.available_options or []:
        count = int(chosen.get(option["key"], 0))
        if int(option.get("max_count") or 0) <= 1:
            if count:
                data[f"option-{option['key']}"] = "on"
        else:
            data[f"option-{option['key']}"] = str(count)
    return data


def toggle_of(unit: ListUnit) -> dict[str, int] | None:
    """A checkbox option of `unit` the player may tick or untick (not required, alone in its group)."""
    for option in unit.available_options or []:
        if int(option.get("max_count") or 0) == 1 and int(option.get("min_count") or 0) == 0:
            current = int((unit.chosen_options or {}).get(option["key"], 0))
            return {option["key"]: 1 - current}
    return None


def count_of(unit: ListUnit) -> dict[str, int] | None:
    """A number option of `unit` moved by one within its limits (a model count, a weapon count)."""
    for option in unit.available_options or []:
        low, high = int(option.get("min_count") or 0), int(option.get("max_count") or 0)
        current = int((unit.chosen_options or {}).get(option["key"], 0))
        if 1 < high < 100:
            if current < high:
                return {option["key"]: current + 1}
            if current > max(low, 1):
                return {option["key"]: current - 1}
    return None


def run(
    client: Client,
    army_list: ArmyList,
    templates: list[int],
    rounds: int,
    profile: cProfile.Profile | None = None,
    profiled: tuple[str, ...] = CLICKS,
) -> dict[str, list[float]]:
    """CPU ms of each timed click (the first 3 rounds warm up and are not counted); with
    `profile`, the timed clicks named in `profiled` are profiled into it as well (the times then
    include its cost)."""
    cpu: dict[str, list[float]] = {name: [] for name in CLICKS}
    cpu["full collections"] = []  # the pauses of those met in timed clicks
    cpu["after response"] = []  # CPU ms of `collect_if_due` after each timed click
    recomputed: dict[str, list[int]] = {name: [] for name in CLICKS}
    add_url = reverse("lists:unit_add", args=[army_list.pk])
    headers = {"HTTP_HX_REQUEST": "true"}
    version = [ArmyList.objects.get(pk=army_list.pk).version]

    def computed() -> tuple[object, int] | None:
        """The kept engine roster and how many values its cache has computed so far."""
        kept = roster_cache.peek(army_list.pk)
        if kept is None:
            return None
        engine = kept.roster.roster
        return engine, engine.cache.computed

    def post(name: str | None, url: str, data: dict[str, str]) -> str:
        cache.clear()
        before = computed()
        FULL_COLLECTIONS.take()
        start = time.process_time()
        profiling = profile is not None and name in profiled
        if profiling:
            profile.enable()
        response = client.post(url, data, HTTP_X_LIST_VERSION=str(version[0]), **headers)
        if profiling:
            profile.disable()
        spent = (time.process_time() - start) * 1000
        body = response.content.decode()
        if response.status_code != 200:
            raise SystemExit(f"{name or url}: HTTP {response.status_code}: {body[:400]}")
        found = VERSION.search(body)
        if found is None:
            raise SystemExit(f"{name or url}: no version in the answer: {body[:400]}")
        version[0] = int(found.group(1))
        if name is not None:
            cpu[name].append(spent)
            cpu["full collections"] += FULL_COLLECTIONS.take()
            after = computed()
            if before is not None and after is not None and after[0] is before[0]:
                recomputed[name].append(after[1] - before[1])
        start = time.process_time()
        collect_if_due()  # gunicorn's post_request hook, once the answer is sent
        if name is not None:
            cpu["after response"].append((time.process_time() - start) * 1000)
        FULL_COLLECTIONS.take()
        return body

    def pick(chooser: Callable[[ListUnit], dict[str, int] | None], round_: int) -> tuple[ListUnit, dict]:
        units = list(ListUnit.objects.filter(army_list=army_list).order_by("position"))
        for step in range(len(units)):
            unit = units[(round_ * 7 + step) % len(units)]
            change = chooser(unit)
            if change is not None:
                return unit, change
        raise SystemExit(f"no unit of the list has such an option: {[u.name for u in units]}")

    for round_ in range(rounds + 3):
        timed = round_ >= 3
        body = post("add" if timed else None, add_url, {"unit": templates[round_ % len(templates)]})
        rows = [int(pk) for pk in NEW_ROW.findall(body)]
        for pk in reversed(rows):  # untimed: the list keeps its size
            post(None, reverse("lists:unit_remove", args=[army_list.pk, pk]), {})
        for name, chooser in (("option", toggle_of), ("count", count_of)):
            unit, change = pick(chooser, round_)
            url = reverse("lists:unit_options", args=[army_list.pk, unit.pk])
            post(name if timed else None, url, option_form(unit, change))
    for name in CLICKS:  # values the engine's cache computed per click (mean; none when bundled)
        cpu[f"recomputed {name}"] = [float(n) for n in recomputed[name]]
    return cpu


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20, method="inclusive")[-1] if len(values) > 1 else values[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=Path("/tmp/data/wh40k-9e"))
    parser.add_argument("--rows", type=int, nargs="+", default=[20, 60])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument(
        "--profile",
        action="store_true",
        help="profile the engine's clicks in CPU time (top 30 by own time, 60 by cumulative)",
    )
    parser.add_argument(
        "--profile-clicks",
        nargs="+",
        choices=CLICKS,
        default=list(CLICKS),
        help="which clicks --profile profiles",
    )
    args = parser.parse_args()
    if not (args.data / "Necrons.cat").exists():
        raise SystemExit(f"{args.data}: no Necrons.cat (fetch BSData/wh40k-9e and copy it there)")

    with _django.database():
        necrons = import_necrons(args.data)
        system = GameSystem.objects.get(key="wh40k9")
        bundled = (
            Faction.objects.filter(system=system, owner__isnull=True, battlescribe_source__isnull=True)
            .exclude(units=None)
            .order_by("pk")
            .first()
        )
        user = get_user_model().objects.create_user("bench", password=secrets.token_urlsafe(12))
        client = Client(HTTP_HOST="127.0.0.1")
        client.force_login(user)
        load_before = os.getloadavg()
        results: dict[tuple[str, int], dict[str, list[float]]] = {}
        for rows in args.rows:
            for label, faction in (("bundled", bundled), ("engine", necrons)):
                army_list, templates = build_list(user, faction, rows, f"{label} {rows}")
                profile = cProfile.Profile(time.process_time) if args.profile and label == "engine" else None
                results[(label, rows)] = run(
                    client, army_list, templates, args.rounds, profile, tuple(args.profile_clicks)
                )
                if profile is not None:
                    print(f"engine clicks ({', '.join(args.profile_clicks)}) at {rows} rows, by own time:")
                    pstats.Stats(profile).sort_stats("tottime").print_stats(30)
                    print(f"engine clicks at {rows} rows, by cumulative time:")
                    pstats.Stats(profile).sort_stats("cumulative").print_stats(60)
        load_after = os.getloadavg()
        print(
            f"editor clicks, CPU ms in process ({args.rounds} rounds each, cold Django cache), "
            f"{os.cpu_count()} CPUs, load average {load_before[0]:.2f} -> {load_after[0]:.2f}"
        )
        print(f"  engine: BSData wh40k-9e Necrons ({necrons.name}); bundled: {bundled.name}")
        missed = False
        for rows in args.rows:
            target = TARGETS_MS.get(rows)
            for click in CLICKS:
                engine, base = results[("engine", rows)][click], results[("bundled", rows)][click]
                e95, b95 = p95(engine), p95(base)
                ok = target is None or e95 <= target
                missed = missed or not ok
                print(
                    f"  {rows:>3} rows {click:<6} engine p50 {statistics.median(engine):7.1f} p95 {e95:7.1f}"
                    f"   bundled p50 {statistics.median(base):6.1f} p95 {b95:6.1f}"
                    f"   ratio p95 {e95 / b95:5.2f}"
                    + (f"   target {target:.0f} {'ok' if ok else 'MISSED'}" if target else "")
                )
            counts = [
                f"{click} {statistics.fmean(values):.0f}"
                for click in CLICKS
                if (values := results[("engine", rows)][f"recomputed {click}"])
            ]
            if counts:
                print(f"  {rows:>3} rows engine: values recomputed per click (mean) " + ", ".join(counts))
            for label in ("engine", "bundled"):
                pauses = results[(label, rows)]["full collections"]
                print(
                    f"  {rows:>3} rows {label}: {len(pauses)} full garbage collection(s) in its timed clicks"
                    + (f", the longest {max(pauses):.0f} ms" if pauses else "")
                )
                after = results[(label, rows)]["after response"]
                print(
                    f"  {rows:>3} rows {label}: after the responses (post_request) "
                    f"{statistics.fmean(after):.1f} ms CPU per click on average, "
                    f"the longest {max(after):.0f} ms"
                )
        return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
