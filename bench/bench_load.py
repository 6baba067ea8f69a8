"""Load benchmark: gunicorn as docker-compose configures it, under mixed traffic.

    ./.venv/bin/python -m armybuilder.launcher exec python bench/bench_load.py [--seconds 60] [--clients 50]
        [--think 1.0]

Target: with 50 clients for 60 s of mixed reads, edits, PDF and estimate requests, no
errors and p95 at most 250 ms for pages and for API calls. The run

1. creates a database of its own (dropped at the end), loads the bundled catalogue, and
   makes one player per client (API token, a 10-unit OPR list, shared by link);
2. starts gunicorn with docker-compose's command line (3 `gthread` workers × 4 threads)
   and docker-compose's three Celery workers (estimates, PDFs, control with beat), on
   127.0.0.1 only, with request rates raised out of the way (each request still goes
   through the Redis counters);
3. runs `--clients` clients in a separate process (`--drive`, asyncio: one Python process
   whose CPU time is printed, so that a starved generator is not taken for a slow server),
   each doing in a loop, with a seeded mix: catalogue pages, a shared list's page, API reads
   (catalogue, its list, validate, text export), edits (read, add then remove a unit with
   If-Match), a roster PDF (200 when rendered, 202 while the worker renders it) and an
   estimate (202, then one poll). Between two requests a client thinks, as a person or an
   app driven by one does: an exponential pause of mean `--think` seconds (at most 5×) —
   without it, 50 closed-loop clients are a saturation test of any server, not 50 users;
4. prints per-endpoint and per-kind counts and p50/p95/p99 (round trip at the client),
   errors (any 5xx, any unexpected 4xx, any transport error), and the machine's load
   average before and after, since the load generator and the other users of the machine
   share its cores.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

import _django
import _gunicorn

ROOT = _django.ROOT
TARGET_P95_MS = 250.0

#: The client process (`--drive`) needs neither Django nor the database.
DRIVER = "--drive" in sys.argv

# A server's settings, a database of its own, and rates no benchmark reaches (every throttle).
_django.environment(server=True, unthrottled=True, API_THROTTLE_ESTIMATES="100000000/hour",
                    API_THROTTLE_LOGIN="100000000/hour", PDF_RENDER_RATE="100000000/hour")

import httpx  # noqa: E402

if not DRIVER:
    _django.setup()

    from django.contrib.auth.models import User
    from django.db import connection
    from rest_framework.authtoken.models import Token

    from armybuilder.lists import services, sharing
    from rules.models import Faction
    from tests.redis_server import running_redis

UNITS_ON_LIST = 10


def build_players(count: int) -> tuple[list[dict], dict]:
    faction = (Faction.objects.filter(system__key="opr", owner__isnull=True)
               .prefetch_related("units").order_by("pk").first())
    templates = list(faction.units.all())
    players = []
    for index in range(count):
        user = User.objects.create_user(f"load{index}", password=secrets.token_urlsafe(12))
        army_list = services.army_list_create(owner=user, system=faction.system, faction=faction,
                                              name=f"Load list {index}", points_limit=100000)
        for number in range(UNITS_ON_LIST):
            template = templates[(index + number) % len(templates)]
            services.army_list_add_unit(army_list=army_list, unit=template,
                                        expected_version=army_list.version)
        token = sharing.army_list_share(army_list=army_list, expected_version=army_list.version)
        players.append({"token": Token.objects.create(user=user).key, "list": army_list.pk,
                        "share": token, "templates": [t.pk for t in templates]})
    return players, {"system": faction.system.key, "faction": faction.slug,
                     "unit": templates[0].slug, "unit_id": templates[0].pk}


def cpu_seconds(root: int) -> float:
    """CPU time (user + system) of process `root` and its children so far, from /proc."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(entry.name) == root or int(fields[1]) == root:  # fields[1] is the parent's pid
            total += (int(fields[11]) + int(fields[12])) / ticks
    return total


#: The process ids of the running stack (`stack`): gunicorn's master and the Celery workers.
PIDS: dict[str, int] = {}


@contextlib.contextmanager
def stack(redis_url: str) -> Iterator[str]:
    """gunicorn and the Celery workers, with docker-compose's command lines."""
    env = {"REDIS_URL": redis_url}
    with _gunicorn.gunicorn(workers=3, worker_class="gthread", threads=4, timeout=30, ready="/api/v1/systems",
                            env=env) as web:
        # The workers run at a lower CPU priority: renders and estimates must not starve the web
        # processes on a small machine (docker-compose gives them containers of their own). One
        # worker per queue, as docker-compose starts them: estimates, PDFs, and the control
        # worker with beat (a worker of the default queue alone would never render a PDF).
        celery = ["nice", "-n", "10", sys.executable, "-m", "celery", "-A", "armybuilder", "worker",
                  "--loglevel", "ERROR", "--without-gossip", "--without-mingle"]
        queues = [["-Q", "celery", "-n", f"estimates-{web.port}@%h", "--concurrency", "2"],
                  ["-Q", "pdf", "-n", f"pdf-{web.port}@%h", "--concurrency", "1"],
                  ["-Q", "control", "-n", f"control-{web.port}@%h", "--pool", "solo", "-B",
                   "--schedule", f"/tmp/bench-load-beat-{os.getpid()}"]]
        workers = [subprocess.Popen([*celery, *queue], cwd=ROOT, env=_gunicorn.environment(env),
                                    start_new_session=True) for queue in queues]
        PIDS.update(web=web.pid, worker=workers[0].pid, pdf_worker=workers[1].pid, control=workers[2].pid)
        try:
            yield web.url
        finally:
            _gunicorn.stop(workers, seconds=20)


class Recorder:
    """Round trips by endpoint (`kind endpoint`, e.g. `page catalogue`) and the errors."""

    def __init__(self) -> None:
        self.latencies: dict[str, list[float]] = defaultdict(list)
        self.errors: list[str] = []
        self.retries = 0
        #: Per connection sent again: what failed, the seconds its client's connection had been
        #: idle (since that client's previous answer: past gunicorn's keep-alive, 5 s, the server
        #: had closed it; below the client's own expiry, 1 s, something else did) and the seconds
        #: the failed try took (the server closing a connection fails at once).
        self.resets: list[dict[str, object]] = []

    async def call(self, client: httpx.AsyncClient, kind: str, method: str, path: str,
                   ok: tuple[int, ...] = (200,), **kwargs: object) -> httpx.Response | None:
        started = time.perf_counter()
        idle = started - getattr(client, "last_done", started)
        try:
            try:
                response = await client.request(method, path, **kwargs)
            except (httpx.ReadError, httpx.RemoteProtocolError) as exc:
                # A kept-alive connection the server closed as the request went out (its
                # keep-alive ran out while this starved client still held it): nothing was
                # read, so browsers send it again on a new connection; so does this client,
                # once, and counts it (`retries`), the round trip including both tries.
                self.retries += 1
                failed_in = round(time.perf_counter() - started, 3)
                self.resets.append({"error": f"{type(exc).__name__}: {exc}"[:120], "path": f"{method} {path}",
                                    "idle_s": round(idle, 2), "try_s": failed_in})
                response = await client.request(method, path, **kwargs)
        except httpx.HTTPError as exc:
            self.errors.append(f"{method} {path}: {type(exc).__name__}")
            return None
        client.last_done = time.perf_counter()  # type: ignore[attr-defined]
        self.latencies[kind].append((time.perf_counter() - started) * 1000)
        if response.status_code not in ok:
            self.errors.append(f"{method} {path}: HTTP {response.status_code} {response.text[:120]!r}")
        return response


async def client_loop(url: str, player: dict, shared: dict, until: float, seed: int,
                      record: Recorder, think: float) -> None:
    rng = random.Random(seed)
    api = {"Authorization": f"Token {player['token']}"}
    lst = f"/api/v1/lists/{player['list']}"

    async def pause() -> None:
        """A person's (or their app's) pause between two requests."""
        if think > 0:
            await asyncio.sleep(min(rng.expovariate(1 / think), 5 * think))

    # An idle connection is dropped before gunicorn's keep-alive (2 s) would drop it, as
    # browsers and HTTP libraries do: reusing one the server is closing is a client bug.
    limits = httpx.Limits(keepalive_expiry=1.0)
    async with httpx.AsyncClient(base_url=url, timeout=30, limits=limits) as client:
        await asyncio.sleep(rng.uniform(0, think))  # clients arrive spread out, not in one burst
        while time.monotonic() < until:
            roll = rng.random()
            if roll < 0.10:
                await record.call(client, "page catalogue", "GET", "/catalogue/")
            elif roll < 0.18:
                faction = f"/catalogue/{shared['system']}/{shared['faction']}/"
                await record.call(client, "page faction", "GET", faction)
            elif roll < 0.24:
                await record.call(client, "page unit", "GET",
                                  f"/catalogue/{shared['system']}/{shared['faction']}/{shared['unit']}/")
            elif roll < 0.32:
                await record.call(client, "page shared-list", "GET", f"/lists/shared/{player['share']}/")
            elif roll < 0.45:
                await record.call(client, "api units", "GET", "/api/v1/units?page_size=50", headers=api)
            elif roll < 0.60:
                await record.call(client, "api list", "GET", lst, headers=api)
            elif roll < 0.66:
                await record.call(client, "api validate", "GET", f"{lst}/validate", headers=api)
            elif roll < 0.70:
                await record.call(client, "api text", "GET", f"{lst}/export/text", headers=api)
            elif roll < 0.86:
                current = await record.call(client, "api list", "GET", lst, headers=api)
                if current is None:
                    continue
                await pause()
                added = await record.call(client, "edit add", "POST", f"{lst}/units", ok=(201,),
                                          json={"unit": rng.choice(player["templates"])},
                                          headers={**api, "If-Match": current.headers["ETag"]})
                if added is not None and added.status_code == 201:
                    await pause()
                    last = added.json()["units"][-1]["id"]
                    await record.call(client, "edit remove", "DELETE", f"{lst}/units/{last}", ok=(200, 204),
                                      headers={**api, "If-Match": added.headers["ETag"]})
            elif roll < 0.92:
                await record.call(client, "pdf", "GET", f"{lst}/export/pdf", ok=(200, 202), headers=api)
            else:
                attacker = rng.choice(player["templates"])
                body = {"kind": "unit_vs_unit", "attacker": {"catalogue_unit": attacker},
                        "defender": {"catalogue_unit": shared["unit_id"]},
                        "situation": {"range_inches": rng.choice([6, 12, 18, 24])}}
                job = await record.call(client, "estimate create", "POST", "/api/v1/estimates", ok=(202,),
                                        json=body, headers=api)
                if job is not None and job.status_code == 202:
                    await pause()
                    await record.call(client, "estimate poll", "GET", job.headers["Location"], headers=api)
            await pause()


def drive(plan_path: str) -> int:
    """The client process: runs the plan's clients (warm-up, then measured) and writes the
    round trips, errors, its own CPU time and the load averages back into the plan's file."""
    plan = json.loads(Path(plan_path).read_text())

    async def baseline(until: float, record: Recorder) -> None:
        """The independent baseline: `GET /api/v1/systems/opr` (the smallest API call: the rate
        counter and one query, as in `bench_api`) twice a second. Its round trip is mostly
        what any request waits for a CPU on this shared machine."""
        async with httpx.AsyncClient(base_url=plan["url"], timeout=30,
                                     limits=httpx.Limits(keepalive_expiry=0.3)) as client:
            while time.monotonic() < until:
                await record.call(client, "baseline system", "GET", "/api/v1/systems/opr")
                await asyncio.sleep(0.5)

    async def run_all(seconds: float, record: Recorder) -> None:
        until = time.monotonic() + seconds
        await asyncio.gather(baseline(until, record),
                             *(client_loop(plan["url"], player, plan["shared"], until, seed, record,
                                           plan["think"])
                               for seed, player in enumerate(plan["players"])))

    warm = Recorder()
    asyncio.run(run_all(plan["warmup"], warm))  # every gunicorn thread has served once
    record = Recorder()
    load_before = os.getloadavg()
    cpu, started = time.process_time(), time.perf_counter()
    asyncio.run(run_all(plan["seconds"], record))
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
    Path(plan_path).write_text(json.dumps({
        "latencies": record.latencies, "errors": record.errors, "elapsed": elapsed, "driver_cpu": cpu,
        "warmup_requests": sum(len(found) for found in warm.latencies.values()), "retries": record.retries,
        "resets": record.resets,
        "load_before": load_before, "load_after": os.getloadavg()}))
    return 0


async def pdf_burst(url: str, players: list[dict]) -> dict:
    """10 roster PDFs asked for at once, with pages and /healthz asked meanwhile: a page
    must never wait on a PDF (the render is the worker's)."""
    async with httpx.AsyncClient(base_url=url, timeout=60) as client:
        async def timed(path: str, headers: dict | None = None) -> tuple[float, int]:
            started = time.perf_counter()
            response = await client.get(path, headers=headers or {})
            return (time.perf_counter() - started) * 1000, response.status_code

        pdfs = [timed(f"/api/v1/lists/{p['list']}/export/pdf", {"Authorization": f"Token {p['token']}"})
                for p in players]
        pages = [timed("/catalogue/") for _ in range(5)]
        results = await asyncio.gather(*pdfs, *pages, timed("/healthz"))
    pdf_results, page_results, health = results[:len(pdfs)], results[len(pdfs):-1], results[-1]
    return {"pdf_max_ms": max(ms for ms, _ in pdf_results),
            "pdf_statuses": sorted({status for _, status in pdf_results}),
            "page_max_ms": max(ms for ms, _ in page_results),
            "health_ms": health[0], "health_status": health[1]}


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--warmup", type=float, default=5.0, help="untimed seconds of the same load first")
    parser.add_argument("--think", type=float, default=1.0,
                        help="mean pause of a client between two requests, in seconds (0: none)")
    parser.add_argument("--drive", metavar="PLAN", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.drive:
        return drive(args.drive)

    with _django.database(instrumented=True):
        players, shared = build_players(args.clients)
        connection.close()
        with running_redis() as redis_server, stack(redis_server.url(0)) as url:
            for path in ("/catalogue/", f"/catalogue/{shared['system']}/{shared['faction']}/"):
                httpx.get(f"{url}{path}", timeout=30)  # warm the template and query caches once

            burst = asyncio.run(pdf_burst(url, players[:10]))
            with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as plan:
                json.dump({"url": url, "players": players, "shared": shared, "seconds": args.seconds,
                           "warmup": args.warmup, "think": args.think}, plan)
            web_cpu = cpu_seconds(PIDS["web"])
            try:
                subprocess.run([sys.executable, __file__, "--drive", plan.name], check=True, cwd=ROOT)
                result = json.loads(Path(plan.name).read_text())
            finally:
                os.unlink(plan.name)
            web_cpu = cpu_seconds(PIDS["web"]) - web_cpu
            health = httpx.get(f"{url}/healthz", timeout=30).status_code
        latencies, errors = result["latencies"], result["errors"]
        elapsed, load_before, load_after = result["elapsed"], result["load_before"], result["load_after"]
        total = sum(len(v) for v in latencies.values())
        served = total + result["warmup_requests"]
        print(f"load: {args.clients} clients × {args.seconds:.0f} s (think time: exponential, mean "
              f"{args.think:g} s) on gunicorn (3 gthread workers × 4 threads) + Celery workers "
              f"(2 + PDF + control with beat), {os.cpu_count()} CPUs shared by all; "
              f"load average before {load_before[0]:.2f}, after {load_after[0]:.2f}")
        print(f"  {total} requests in {elapsed:.1f} s = {total / elapsed:.0f} req/s; "
              f"errors: {len(errors)}; sent again on a new connection: {result['retries']}; "
              f"/healthz after: {health}; client process CPU "
              f"{result['driver_cpu']:.1f} s ({100 * result['driver_cpu'] / elapsed:.0f}% of one core)")
        print(f"  gunicorn CPU: {web_cpu:.1f} s for {served} requests (warm-up included) = "
              f"{1000 * web_cpu / served:.1f} ms of CPU per request on average")

        def line(name: str, values: list[float]) -> dict:
            p50, p95, p99 = statistics.median(values), percentile(values, 0.95), percentile(values, 0.99)
            print(f"  {name:<18} n={len(values):<6} p50 {p50:7.1f} ms   p95 {p95:7.1f} ms   "
                  f"p99 {p99:7.1f} ms   {TARGET_P95_MS:.0f}÷p95 = {TARGET_P95_MS / p95:5.2f}")
            return {"n": len(values), "p50_ms": round(p50, 1), "p95_ms": round(p95, 1),
                    "p99_ms": round(p99, 1)}

        print("  by endpoint:")
        for name in sorted(latencies):
            line(name, latencies[name])
        print("  by kind:")
        summary = {}
        for kind in ("page", "api", "edit", "pdf", "estimate", "baseline"):
            values = [ms for name, found in latencies.items() if name.split()[0] == kind for ms in found]
            if values:
                summary[kind] = line(kind, values)
        print(f"  10 PDFs asked at once: PDF answers max {burst['pdf_max_ms']:.0f} ms "
              f"({burst['pdf_statuses']}); meanwhile pages max {burst['page_max_ms']:.0f} ms, "
              f"/healthz {burst['health_status']} in {burst['health_ms']:.0f} ms")
        for reset in result.get("resets", []):
            print(f"  sent again: {reset['path']} after {reset['idle_s']} s idle, the try failed in "
                  f"{reset['try_s']} s: {reset['error']}")
        for error in errors[:10]:
            print(f"  error: {error}")
        if "baseline" in summary:
            base = summary["baseline"]["p95_ms"]
            print(f"  pages p95 ÷ baseline p95 = {summary['page']['p95_ms'] / base:.1f}, "
                  f"API p95 ÷ baseline p95 = {summary['api']['p95_ms'] / base:.1f} "
                  "(the baseline does next to no work: what it waits is the machine's queue for a CPU)")
        gated = [summary[k]["p95_ms"] for k in ("page", "api") if k in summary]
        met = not errors and all(p95 <= TARGET_P95_MS for p95 in gated)
        print(f"target: 0 errors and p95 <= {TARGET_P95_MS:.0f} ms for pages and API calls: "
              f"{'met' if met else 'NOT met'}")
        print(json.dumps({"requests": total, "errors": len(errors),
                          "server_cpu_ms_per_request": round(1000 * web_cpu / served, 1),
                          "load_before": load_before[0],
                          "load_after": load_after[0], **summary}))
        return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
