"""Benchmark of `GET /api/v1/lists/{id}` (a 25-unit list) on gunicorn against real Postgres.

    ./.venv/bin/python -m armybuilder.launcher exec python bench/bench_api.py \
        [--requests 4000] [--clients 6] [--workers 3] [--threads 2] [--no-scaling]

Target: at least 300 requests per second and p99 at most 100 ms on this 2-core
machine, for the real path: a list no process has read since it last changed. The run

1. creates a database of its own (`bench_api_<pid>`, dropped at the end), loads the
   bundled catalogue, and builds one player's 25-unit OPR list with the list services, and
   `--lists` copies of it;
2. starts two gunicorns (`gthread` workers: keep-alive connections) on free ports of
   127.0.0.1 only, with throttling raised out of the way (the bench measures the endpoint,
   not the rate limit — every request still goes through the throttle's Redis counter):
   - the server as deployed (each process keeps the JSON of the last 512 lists it read);
   - the baseline: the same server with its list caches cold (`API_LIST_CACHE_ENTRIES=0`:
     every read builds the list's JSON from the database);
3. drives each with `--clients` threads, each on one keep-alive `http.client` connection
   with the player's API token, for a fixed number of requests (after a warm-up), the two
   alternating in rounds so that both meet the same machine load:
   - judged (the real path, the exit status follows it): the deployed server reading the
     `--lists` copies round-robin, more than a process keeps, so every read misses its cache
     and builds the list's JSON;
   - baseline: the cold server reading the same lists; the ratio of the two is printed;
   - printed only, never judged: one unchanged list read again and again (every process's
     cache hits: the warm figure) and `GET /api/v1/systems/opr` (token, throttle, one query:
     the floor of an authenticated request);
4. prints requests per second, p50 and p99 latency (round trip at the client), the ratios to
   the targets (≥ 1 meets them) and the machine's load average, then a scaling table: lists of
   25 units of 1–1000 models, 1–32 weapons and 1–50 model profiles, each list read once (cold)
   by one client; then stops both servers.

The load generator runs on the same two cores as the servers, so the figures are a lower
bound of what the server alone does.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import secrets
import statistics
import sys
import threading
import time
from dataclasses import dataclass

import _django
import _gunicorn

ROOT = _django.ROOT
TARGET_RPS = 300.0
TARGET_P99_MS = 100.0
UNITS_ON_LIST = 25

# A server's settings, a database of its own, and rates no benchmark reaches.
_django.setup(server=True, unthrottled=True)

from bench_points import scaled_unit  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.db import connection  # noqa: E402
from rest_framework.authtoken.models import Token  # noqa: E402

from armybuilder.api import list_cache  # noqa: E402
from armybuilder.lists import services  # noqa: E402
from armybuilder.models import ArmyList, ListUnit  # noqa: E402
from rules.models import Faction  # noqa: E402
from rules.systems.opr.unit_format import unit_to_dict  # noqa: E402


@dataclass(frozen=True)
class Result:
    label: str
    latencies_ms: list[float]
    seconds: float

    @property
    def rps(self) -> float:
        return len(self.latencies_ms) / self.seconds

    def percentile(self, fraction: float) -> float:
        ordered = sorted(self.latencies_ms)
        return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]

    def __add__(self, other: Result) -> Result:
        """Two runs of the same measurement as one (latencies pooled, time summed)."""
        return Result(self.label, self.latencies_ms + other.latencies_ms, self.seconds + other.seconds)

    def line(self, *, with_targets: bool) -> str:
        p50, p99 = statistics.median(self.latencies_ms), self.percentile(0.99)
        text = (f"  {self.label:<34} n={len(self.latencies_ms):<6} {self.rps:7.0f} req/s   "
                f"p50 {p50:6.2f} ms   p99 {p99:6.2f} ms")
        if with_targets:
            text += f"   req/s÷{TARGET_RPS:.0f} = {self.rps / TARGET_RPS:4.2f}   {TARGET_P99_MS:.0f}÷p99 = " \
                    f"{TARGET_P99_MS / p99:4.2f}"
        return text


def build_list() -> tuple[str, ArmyList]:
    """A player, their API token and a 25-unit OPR list of the bundled catalogue (with options)."""
    faction = (Faction.objects.filter(system__key="opr", owner__isnull=True)
               .prefetch_related("units__options").order_by("pk").first())
    if faction is None:
        raise SystemExit("the bundled catalogue has no OPR faction")
    templates = list(faction.units.all())
    user = User.objects.create_user("bench", password=secrets.token_urlsafe(12))
    army_list = services.army_list_create(owner=user, system=faction.system, faction=faction,
                                          name="Bench list", points_limit=5000)
    for index in range(UNITS_ON_LIST):
        services.army_list_add_unit(army_list=army_list, unit=templates[index % len(templates)],
                                    expected_version=army_list.version)
    return Token.objects.create(user=user).key, army_list


def copies_of(army_list: ArmyList, how_many: int) -> list[ArmyList]:
    """`how_many` copies of the list (same owner, same units, their own rows), so that reading
    them in turn finds every gunicorn process's list cache cold: more lists than
    one process keeps (`list_cache.MAX_ENTRIES`), read round-robin, always miss."""
    units = list(ListUnit.objects.filter(army_list=army_list).order_by("position"))
    copies = []
    for index in range(how_many):
        copy = ArmyList.objects.get(pk=army_list.pk)
        copy.pk = None
        copy.share_token = None
        copy.name = f"Bench list {index}"
        copy.save()
        copies.append(copy)
    clones = []
    for copy in copies:
        for unit in units:
            unit.pk = None
            unit.army_list = copy
            fields = {f.attname: getattr(unit, f.attname) for f in ListUnit._meta.concrete_fields}
            clones.append(ListUnit(**fields))
    ListUnit.objects.bulk_create(clones, batch_size=1000)
    return copies


def gunicorn(*, workers: int, threads: int, token: str, list_cache_entries: int | None = None
             ) -> contextlib.AbstractContextManager[_gunicorn.Server]:
    """gunicorn (`gthread`: keep-alive connections) serving the bench database, up once the
    player's token reads a system (`list_cache_entries`: the processes' list cache size, 0 for
    none; None: as deployed)."""
    env = {} if list_cache_entries is None else {"API_LIST_CACHE_ENTRIES": str(list_cache_entries)}
    return _gunicorn.gunicorn(workers=workers, worker_class="gthread", threads=threads, keep_alive=30,
                              ready="/api/v1/systems/opr", headers={"Authorization": f"Token {token}"},
                              env=env)


def drive(*, port: int, path: str | list[str], token: str, clients: int, requests: int, warmup: int,
          label: str) -> Result:
    """`clients` threads on keep-alive connections send `requests` GETs in all (after `warmup` each);
    a list of paths is read round-robin (client k starting at its own offset)."""
    paths = [path] if isinstance(path, str) else path
    headers = {"Authorization": f"Token {token}", "Accept": "application/json"}
    per_client = max(1, requests // clients)
    latencies: list[list[float]] = [[] for _ in range(clients)]
    failures: list[BaseException] = []
    ready = threading.Barrier(clients + 1)

    def run(mine: list[float], offset: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        try:
            for index in range(warmup + per_client):
                if index == warmup:
                    ready.wait(timeout=120)
                here = paths[(offset + index) % len(paths)]
                started = time.perf_counter()
                conn.request("GET", here, headers=headers)
                response = conn.getresponse()
                body = response.read()
                elapsed = (time.perf_counter() - started) * 1000
                if response.status != 200:
                    raise RuntimeError(f"{here}: HTTP {response.status}: {body[:300]!r}")
                if index >= warmup:
                    mine.append(elapsed)
        except BaseException as exc:  # reported once the threads are joined
            failures.append(exc)
            ready.abort()
        finally:
            conn.close()

    stride = max(1, len(paths) // clients)
    threads = [threading.Thread(target=run, args=(mine, k * stride), daemon=True)
               for k, mine in enumerate(latencies)]
    for thread in threads:
        thread.start()
    with contextlib.suppress(threading.BrokenBarrierError):  # a client failed: reported below
        ready.wait(timeout=120)
    started = time.perf_counter()
    for thread in threads:
        thread.join(timeout=600)
    seconds = time.perf_counter() - started
    if failures:
        raise RuntimeError(f"{len(failures)} client(s) failed: {failures[0]!r}")
    return Result(label, [t for mine in latencies for t in mine], seconds)


def scaled_lists(owner_list: ArmyList, shape: tuple[int, int, int], how_many: int) -> list[ArmyList]:
    """`how_many` lists of the owner of `owner_list`, each of 25 units shaped `shape`
    (models, weapons, profiles; `bench_points.scaled_unit`), priced and validated by the list
    services like any list."""
    models, weapons, profiles = shape
    lists = []
    for index in range(how_many):
        army_list = services.army_list_create(
            owner=owner_list.owner, system=owner_list.system, faction=owner_list.faction,
            name=f"Scaled {models}x{weapons}x{profiles} #{index}", points_limit=100000)
        units = []
        for position in range(UNITS_ON_LIST):
            data = unit_to_dict(scaled_unit(models, weapons, profiles, 1000 * index + position))
            units.append(ListUnit(army_list=army_list, name=data["name"], base_data=data, data=data,
                                  available_options=[], chosen_options={}, option_points={},
                                  position=position, points=0))
        ListUnit.objects.bulk_create(units)
        services.army_list_update(army_list=army_list, expected_version=army_list.version,
                                  name=army_list.name)
        lists.append(army_list)
    return lists


SCALING_GRID = ([(m, 3, 1) for m in (1, 10, 100, 1000)] + [(10, w, 1) for w in (1, 4, 16, 32)]
                + [(50, 2, p) for p in (1, 5, 20, 50)])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=4000, help="timed requests per endpoint")
    parser.add_argument("--clients", type=int, default=6, help="concurrent keep-alive connections")
    parser.add_argument("--warmup", type=int, default=25, help="untimed requests per connection first")
    # One process per core plus one (a worker waiting on Postgres leaves its core to another),
    # two threads each: more threads per process only queue on the GIL (4 threads × 2
    # workers measured ~35% fewer req/s and a 2-3× p99 on this machine).
    parser.add_argument("--workers", type=int, default=(os.cpu_count() or 2) + 1, help="gunicorn processes")
    parser.add_argument("--threads", type=int, default=2, help="threads per gunicorn worker")
    parser.add_argument("--lists", type=int, default=list_cache.MAX_ENTRIES + 88,
                        help="copies of the list read round-robin (cold caches)")
    parser.add_argument("--rounds", type=int, default=4, help="alternations of real path and baseline")
    parser.add_argument("--scaling-lists", type=int, default=12, help="lists per row of the scaling table")
    parser.add_argument("--no-scaling", action="store_true", help="skip the scaling table")
    args = parser.parse_args()

    with _django.database(instrumented=True):
        token, army_list = build_list()
        path = f"/api/v1/lists/{army_list.pk}"
        cold_paths = [f"/api/v1/lists/{copy.pk}" for copy in copies_of(army_list, args.lists)]
        scaling = {} if args.no_scaling else {
            shape: [f"/api/v1/lists/{lst.pk}" for lst in scaled_lists(army_list, shape, args.scaling_lists)]
            for shape in SCALING_GRID}
        units = army_list.units.count()
        server = connection.cursor().connection.info.server_version // 10000
        connection.close()
        servers = {"workers": args.workers, "threads": args.threads, "token": token}
        with gunicorn(**servers) as deployed, gunicorn(**servers, list_cache_entries=0) as cold_server:
            port, cold = deployed.port, cold_server.port
            probe = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            probe.request("GET", path, headers={"Authorization": f"Token {token}"})
            size = len(probe.getresponse().read())
            probe.close()
            print(f"REST API: GET {path} ({units} units, {size} bytes of JSON) on gunicorn "
                  f"({args.workers} gthread workers × {args.threads} threads), PostgreSQL {server}, "
                  f"{os.cpu_count()} CPUs, {args.clients} keep-alive clients on 127.0.0.1; "
                  f"load average {os.getloadavg()[0]:.2f} at start")
            common = {"token": token, "clients": args.clients, "warmup": args.warmup}
            per_round = max(args.clients, args.requests // args.rounds)
            target = baseline = None
            for _round in range(args.rounds):
                label = f"GET /api/v1/lists/{{id}}, real path ({units} units)"
                part = drive(port=port, path=cold_paths, label=label, requests=per_round, **common)
                target = part if target is None else target + part
                label = "baseline: list caches cold (gunicorn)"
                part = drive(port=cold, path=cold_paths, label=label, requests=per_round, **common)
                baseline = part if baseline is None else baseline + part
                # Each client walks all the lists in turn and the next round goes on where this one
                # stopped, so a process meets a list again only after more other lists than it keeps.
                done = (args.warmup + per_round // args.clients) % len(cold_paths)
                cold_paths = cold_paths[done:] + cold_paths[:done]
            floor = drive(port=port, path="/api/v1/systems/opr", label="floor: GET /api/v1/systems/opr",
                          requests=args.requests // 2, **common)
            warm = drive(port=port, path=path, label="warm: one unchanged list (not judged)",
                         requests=args.requests // 2, **common)
            print(target.line(with_targets=True))
            print(f"  (real path: {len(cold_paths)} lists read round-robin, more than the "
                  f"{list_cache.MAX_ENTRIES} a process keeps, so every read builds the list's JSON)")
            print(baseline.line(with_targets=False))
            print(f"  real path ÷ baseline: {target.rps / baseline.rps:4.2f}× the requests per second, "
                  f"p99 {target.percentile(0.99) / baseline.percentile(0.99):4.2f}× "
                  "(same rounds, interleaved)")
            print(warm.line(with_targets=False))
            print(floor.line(with_targets=False))
            print(f"  load average after the timed runs: {os.getloadavg()[0]:.2f}")
            if scaling:
                print()
                print(f"scaling, real path: one client, each list read once (cold), "
                      f"{args.scaling_lists} lists of {UNITS_ON_LIST} units per row")
                print(f"  {'models':>7} {'weapons':>8} {'profiles':>9} {'KB of JSON':>11} {'p50 ms':>8} "
                      f"{'max ms':>8}")
                for (models, weapons, profiles), paths in scaling.items():
                    probe = http.client.HTTPConnection("127.0.0.1", cold, timeout=60)
                    probe.request("GET", paths[0], headers={"Authorization": f"Token {token}"})
                    kilobytes = len(probe.getresponse().read()) / 1024
                    probe.close()
                    row = drive(port=port, path=paths, label="scaling", token=token, clients=1,
                                requests=len(paths), warmup=0)
                    print(f"  {models:>7} {weapons:>8} {profiles:>9} {kilobytes:>11.0f} "
                          f"{statistics.median(row.latencies_ms):8.2f} {max(row.latencies_ms):8.2f}")
        met = target.rps >= TARGET_RPS and target.percentile(0.99) <= TARGET_P99_MS
        print(f"target (real path): >= {TARGET_RPS:.0f} req/s and p99 <= {TARGET_P99_MS:.0f} ms: "
              f"{'met' if met else 'NOT met'}")
        print(json.dumps({"rps": round(target.rps, 1),
                          "p50_ms": round(statistics.median(target.latencies_ms), 2),
                          "p99_ms": round(target.percentile(0.99), 2),
                          "baseline_rps": round(baseline.rps, 1),
                          "baseline_p99_ms": round(baseline.percentile(0.99), 2),
                          "warm_rps": round(warm.rps, 1), "warm_p99_ms": round(warm.percentile(0.99), 2),
                          "floor_rps": round(floor.rps, 1), "load_average": os.getloadavg()[0]}))
        return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
