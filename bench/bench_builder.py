"""Benchmark of the list editor's htmx requests on a 25-unit list, against real Postgres.

    ./.venv/bin/python -m armybuilder.launcher exec python bench/bench_builder.py \
        [--requests 200] [--clients 20] [--per-client 30] [--workers 5]

Measures the two requests a player makes most, "add unit" and "change option" (each
re-prices what changed, re-validates the army through the registry, saves, and renders the
row plus the out-of-band summary), on a list that has 25 units. Every round adds a unit
never seen before (a fresh copy of a catalogue unit, options included, under a new name, so
the content-keyed option-price cache cannot know it) and changes an option of a different
unit of the list; the in-process run also clears the caches (Django's and the points
engine's lookup caches) before each timed request, so each figure is a cold one:

1. single client, in process (`django.test.Client`, so the figure is server time: URL
   routing, middleware, session, view, services, queries, templates); baseline in the same
   run: a plain GET of the editor page;
2. single client and `--clients` concurrent clients (threads, one keep-alive connection
   each, each editing its own 25-unit list) against gunicorn on loopback, timed at the
   client (round trip, so an upper bound of server time).

Target: server p95 ≤ 30 ms for one client (the in-process figures, which the
exit status follows); the gunicorn figures, one client and `--clients`, are reported beside.
Prints p50/p95/p99 and p95/target for each, and the machine's load average.
Creates its own database (`bench_builder_<pid>`) and drops it at the end; every loop has a
fixed number of requests and the server is stopped when the run ends.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import os
import re
import secrets
import statistics
import sys
import threading
import time
from collections.abc import Callable

import _django
import _gunicorn

ROOT = _django.ROOT
TARGET_P95_MS = 30.0
UNITS_ON_LIST = 25
VERSION = re.compile(r'data-version="(\d+)"')
NEW_ROW = re.compile(r'<li id="unit-(\d+)"')

# A server's settings, static files from the finders (no collectstatic needed), a database of
# its own; the page rate (600/min per account) is for people clicking, and the bench's one
# player makes more requests than that once requests take ~20 ms. "testserver" is the
# in-process client's host. (No `setup_test_environment`: it instruments every template render
# to keep its context, which would be measured as server time.)
_django.setup(server=True, unthrottled=True, WHITENOISE_USE_FINDERS="true",
              ALLOWED_HOSTS="127.0.0.1,testserver")

from armybuilder.process_heap import freeze_startup_heap  # noqa: E402

# What each gunicorn worker does once it has loaded the application (`gunicorn.conf.py`), so
# the in-process figures are those of a server process.
freeze_startup_heap()

from django.core.cache import cache  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.urls import reverse  # noqa: E402

from armybuilder.lists import services  # noqa: E402
from armybuilder.models import ArmyList, ListUnit  # noqa: E402
from points.opr import unit_cost  # noqa: E402
from rules.models import Faction, UnitTemplate, UpgradeOption  # noqa: E402
from rules.systems.opr.unit_format import reader  # noqa: E402

_OWN_PACKAGES = ("points", "rules", "armybuilder")


def clear_caches() -> None:
    """Forget everything this process remembered about its inputs: Django's cache (option
    prices), every bounded cache of the engines (`lru_cache`: results per input, the rule
    vocabulary and table lookups included) and the unit reader's and pricer's own tables.

    Kept: what a server builds once, on its first request, and never per input: the caches
    without a bound (`functools.cache`: the published JSON Schemas read and compiled once
    ("compile once, validate once"), the rule-name table, a Redis client).
    """
    cache.clear()
    for name, module in list(sys.modules.items()):
        if not name.startswith(_OWN_PACKAGES):
            continue
        for value in list(vars(module).values()):
            # Only this project's own caches: Django's URL resolver (imported by some of our
            # modules) is built once per process in production, not per request.
            owner = getattr(value, "__module__", "") or ""
            if callable(value) and hasattr(value, "cache_clear") and owner.startswith(_OWN_PACKAGES):
                parameters = getattr(value, "cache_parameters", None)
                if parameters is not None and parameters().get("maxsize") is None:
                    continue  # compiled once per process (see above)
                value.cache_clear()
    reader.clear_caches()
    unit_cost.clear_caches()


def fresh_templates(count: int) -> list[int]:
    """`count` catalogue units never priced before: copies of the faction's units, each with
    its upgrade options, under a new name (which is part of what the price caches key on)."""
    faction = Faction.objects.get(system__key="opr", slug="ashen-concord", owner__isnull=True)
    sources = list(faction.units.prefetch_related("options").order_by("position"))
    first = faction.units.count()
    ids = []
    for index in range(first, first + count):
        source = sources[index % len(sources)]
        copy = UnitTemplate.objects.get(pk=source.pk)
        copy.pk = None
        copy.slug = f"{source.slug}-bench-{index}"
        copy.name = f"{source.name} {index}"
        copy.data = {**source.data, "name": copy.name}
        copy.position = index
        copy.save()
        options = list(source.options.all())
        for option in options:
            option.pk = None
            option.unit = copy
        UpgradeOption.objects.bulk_create(options)
        ids.append(copy.pk)
    return ids


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def report(
    label: str,
    samples_ms: list[float],
    *,
    target: float | None = TARGET_P95_MS,
    cpu_ms: list[float] | None = None,
) -> None:
    p50, p95 = statistics.median(samples_ms), percentile(samples_ms, 0.95)
    p99 = percentile(samples_ms, 0.99)
    ratio = f"   p95/target {p95 / target:5.2f}" if target else " " * 19
    cpu = f"   (CPU p50 {statistics.median(cpu_ms):6.2f} ms)" if cpu_ms else ""
    print(f"  {label:<42} n={len(samples_ms):<5} p50 {p50:7.2f} ms   p95 {p95:7.2f} ms   "
          f"p99 {p99:7.2f} ms{ratio}{cpu}")


# ----------------------------------------------------------------------------- fixtures


def make_players(count: int) -> list[tuple[object, ArmyList]]:
    """`count` players, each with a 25-unit OPR list built from the bundled catalogue."""
    from django.contrib.auth.models import User

    faction = Faction.objects.get(system__key="opr", slug="ashen-concord", owner__isnull=True)
    templates = list(faction.units.prefetch_related("options").order_by("position"))
    players = []
    for index in range(count):
        user = User.objects.create_user(f"bench{index}", password=secrets.token_urlsafe(12))
        army_list = services.army_list_create(
            owner=user, system=faction.system, faction=faction, name=f"Bench list {index}", points_limit=5000
        )
        added = [
            services.army_list_add_unit(
                army_list=army_list, unit=template, options={}, expected_version=army_list.version
            )
            for template in templates
        ]
        ListUnit.objects.bulk_create(
            services.copy_list_unit(added[i % len(added)], army_list=army_list, position=i)
            for i in range(len(added), UNITS_ON_LIST)
        )
        services.army_list_update(
            army_list=army_list, expected_version=army_list.version, name=army_list.name
        )
        players.append((user, army_list))
    return players


def option_targets(army_list: ArmyList) -> list[tuple[ListUnit, str]]:
    """Every unit of the list with a yes/no option to toggle (its first), in list order:
    the rounds take them in turn, so each option change is on a different unit."""
    targets = []
    for unit in ListUnit.objects.filter(army_list=army_list).order_by("position"):
        for option in unit.available_options:
            if int(option.get("max_count") or 0) == 1 and not option.get("group"):
                targets.append((unit, option["key"]))
                break
    if not targets:
        raise SystemExit("no unit with a yes/no option in the bundled catalogue")
    return targets


# ----------------------------------------------------------------------------- in process


def in_process(
    user: object, army_list: ArmyList, requests: int
) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """Wall-clock and CPU milliseconds of each request kind (the CPU figure is this process's
    own work, without Postgres and without time the machine gave to other processes)."""
    client = Client()
    client.force_login(user)
    editor = reverse("lists:detail", args=[army_list.pk])
    add_url = reverse("lists:unit_add", args=[army_list.pk])
    targets = option_targets(army_list)
    template_ids = fresh_templates(requests + 10)
    version = ArmyList.objects.get(pk=army_list.pk).version
    times: dict[str, list[float]] = {"page": [], "add": [], "option": []}
    cpu: dict[str, list[float]] = {name: [] for name in times}

    def timed(name: str, call: Callable[[], object]) -> object:
        start, start_cpu = time.perf_counter(), time.process_time()
        response = call()
        times[name].append((time.perf_counter() - start) * 1000)
        cpu[name].append((time.process_time() - start_cpu) * 1000)
        assert response.status_code == 200, (name, response.status_code, response.content[:300])
        return response

    for round_ in range(requests + 10):  # the first 10 rounds warm up and are not counted
        page = timed("page", lambda: client.get(editor))
        version = int(VERSION.search(page.content.decode()).group(1))
        clear_caches()
        added = timed(
            "add",
            lambda v=version, t=template_ids[round_]: client.post(
                add_url, {"unit": t}, HTTP_HX_REQUEST="true", HTTP_X_LIST_VERSION=str(v)
            ),
        )
        body = added.content.decode()
        version = int(VERSION.search(body).group(1))
        new_unit = int(NEW_ROW.search(body).group(1))
        removed = client.post(
            reverse("lists:unit_remove", args=[army_list.pk, new_unit]),
            HTTP_HX_REQUEST="true",
            HTTP_X_LIST_VERSION=str(version),
        )
        version = int(VERSION.search(removed.content.decode()).group(1))
        unit, key = targets[round_ % len(targets)]
        options_url = reverse("lists:unit_options", args=[army_list.pk, unit.pk])
        data = {f"option-{key}": "1"} if (round_ // len(targets)) % 2 == 0 else {}
        clear_caches()
        timed(
            "option",
            lambda v=version, d=data, u=options_url: client.post(
                u, d, HTTP_HX_REQUEST="true", HTTP_X_LIST_VERSION=str(v)
            ),
        )
        if round_ == 9:
            for samples in (*times.values(), *cpu.values()):
                samples.clear()
    return times, cpu


# ----------------------------------------------------------------------------- over HTTP


def gunicorn(workers: int) -> contextlib.AbstractContextManager[_gunicorn.Server]:
    """gunicorn (sync workers) serving this database, up once the gallery page answers."""
    return _gunicorn.gunicorn(workers=workers, ready=reverse("lists:gallery"))


class HttpPlayer:
    """One player on one keep-alive connection, logged in by a session made for them."""

    def __init__(self, port: int, user: object, army_list: ArmyList, template_ids: list[int]) -> None:
        client = Client()
        client.force_login(user)
        csrf = secrets.token_hex(16)  # an unmasked 32-character CSRF secret, as cookie and header
        self.headers = {
            "Cookie": f"sessionid={client.cookies['sessionid'].value}; csrftoken={csrf}",
            "X-CSRFToken": csrf,
            "HX-Request": "true",
            "Content-Type": "application/x-www-form-urlencoded",
            "Host": "127.0.0.1",
        }
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.army_list = army_list
        self.targets = option_targets(army_list)
        self.template_ids = template_ids
        self.version = ArmyList.objects.get(pk=army_list.pk).version

    def post(self, path: str, body: str) -> tuple[float, str]:
        start = time.perf_counter()
        self.connection.request(
            "POST", path, body=body, headers={**self.headers, "X-List-Version": str(self.version)}
        )
        response = self.connection.getresponse()
        text = response.read().decode()
        elapsed = (time.perf_counter() - start) * 1000
        if response.status != 200:
            raise RuntimeError(f"{path}: HTTP {response.status}: {text[:300]}")
        self.version = int(VERSION.search(text).group(1))
        return elapsed, text

    def round(self, index: int, times: dict[str, list[float]]) -> None:
        pk = self.army_list.pk
        template = self.template_ids[index % len(self.template_ids)]
        elapsed, text = self.post(reverse("lists:unit_add", args=[pk]), f"unit={template}")
        times["add"].append(elapsed)
        new_unit = NEW_ROW.search(text).group(1)
        self.post(reverse("lists:unit_remove", args=[pk, new_unit]), "")
        unit, key = self.targets[index % len(self.targets)]
        body = f"option-{key}=1" if (index // len(self.targets)) % 2 == 0 else ""
        elapsed, _text = self.post(reverse("lists:unit_options", args=[pk, unit.pk]), body)
        times["option"].append(elapsed)


def over_http(port: int, players: list[tuple[object, ArmyList]], rounds: int) -> dict[str, list[float]]:
    """Every player runs `rounds` rounds at once (after 3 warm-up rounds each), one thread each."""
    # Each client adds units no server process has priced yet: its own fresh copies.
    clients = [
        HttpPlayer(port, user, army_list, fresh_templates(rounds + 3)) for user, army_list in players
    ]
    results = [{"add": [], "option": []} for _ in clients]
    start_together = threading.Barrier(len(clients))
    failures: list[BaseException] = []
    window: list[float] = []  # when each client started and finished its timed rounds

    def run(player: HttpPlayer, times: dict[str, list[float]]) -> None:
        try:
            for index in range(3):
                player.round(rounds + index, {"add": [], "option": []})
            start_together.wait(timeout=120)
            window.append(time.perf_counter())
            for index in range(rounds):
                player.round(index, times)
            window.append(time.perf_counter())
        except BaseException as exc:  # reported after the threads are joined
            failures.append(exc)
            start_together.abort()

    threads = [
        threading.Thread(target=run, args=(c, r), daemon=True) for c, r in zip(clients, results, strict=True)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=600)
    if failures:
        raise RuntimeError(f"{len(failures)} client(s) failed: {failures[0]!r}")
    requests = 3 * rounds * len(clients)  # a round is add, remove, change option
    print(
        f"  {len(clients)} client(s): {requests} requests in {max(window) - min(window):.1f} s, "
        f"{requests / (max(window) - min(window)):.0f} requests/s"
    )
    return {name: [t for r in results for t in r[name]] for name in ("add", "option")}


# ----------------------------------------------------------------------------- main


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--requests", type=int, default=200, help="timed rounds of the single in-process client"
    )
    parser.add_argument("--clients", type=int, default=20, help="concurrent HTTP clients")
    parser.add_argument("--per-client", type=int, default=30, help="timed rounds per concurrent client")
    parser.add_argument("--workers", type=int, default=2 * (os.cpu_count() or 1) + 1, help="gunicorn workers")
    args = parser.parse_args()

    with _django.database():
        players = make_players(args.clients + 1)
        units = ListUnit.objects.filter(army_list=players[0][1]).count()
        postgres = connection.cursor().connection.info.server_version // 10000
        print(
            f"Army builder: htmx requests on a {units}-unit OPR list (PostgreSQL {postgres}, "
            f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at start)"
        )

        print("1. one client, in process (server time; caches cleared before each timed request)")
        times, cpu = in_process(*players[0], args.requests)
        report("baseline: GET editor page", times["page"], target=None, cpu_ms=cpu["page"])
        report("add unit (htmx POST)", times["add"], cpu_ms=cpu["add"])
        report("change option (htmx POST)", times["option"], cpu_ms=cpu["option"])
        # the judged figure (server p95 for one client): the exit status follows it
        met = all(percentile(times[name], 0.95) <= TARGET_P95_MS for name in ("add", "option"))

        with gunicorn(args.workers) as server:
            port = server.port
            print(f"2. gunicorn, {args.workers} sync workers, loopback round trip (fresh units)")
            single = over_http(port, players[:1], args.per_client * 2)
            report("add unit, 1 client", single["add"])
            report("change option, 1 client", single["option"])
            many = over_http(port, players[1:], args.per_client)
            report(f"add unit, {args.clients} concurrent clients", many["add"])
            report(f"change option, {args.clients} concurrent clients", many["option"])
        print(f"target: p95 <= {TARGET_P95_MS:.0f} ms for one client (ratio < 1 meets it); "
              f"load average at the end {os.getloadavg()[0]:.2f}")
    print("target met (server p95, one client)" if met else "TARGET MISSED (server p95, one client)")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
