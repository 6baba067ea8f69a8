"""Server CPU per page and API call, in process ("server time per page measured").

    ./.venv/bin/python -m armybuilder.launcher exec python bench/bench_page_cpu.py [--rounds 15]

The load benchmark (`bench_load.py`) measures round trips, which on a shared machine are
mostly a wait for a CPU; this one measures what each request costs the server. The run

1. creates a database of its own (`bench_page_cpu_<pid>`, dropped at the end), loads the
   bundled catalogue and makes two players as `bench_load` does (a 10-unit OPR list each,
   shared by link, an API token);
2. asks each endpoint of the load mix through Django's full stack (middleware, rate
   counters in Redis, templates, the API) `--rounds` times after one untimed request, with
   production settings (no DEBUG);
3. prints, per endpoint, the median and lowest CPU milliseconds of this process per request
   (the database's own time is not in it), the queries per request and the response size;
   the edits (add a unit, then remove it, with If-Match) use a different unit each round;
4. as the independent baseline in the same run, times `GET /api/v1/systems/opr` (the
   smallest API call) and prints each endpoint's ratio to it, and the machine's load average.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import sys
import time

import _django

ROOT = _django.ROOT
_django.setup(server=True, unthrottled=True)

from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import (  # noqa: E402
    CaptureQueriesContext,
)


def players() -> tuple[list[dict], dict]:
    """The players of `bench_load` (its `build_players`), so both benches ask the same pages."""
    spec = importlib.util.spec_from_file_location("bench_load", ROOT / "bench" / "bench_load.py")
    module = importlib.util.module_from_spec(spec)
    argv, sys.argv = sys.argv, [sys.argv[0]]
    try:
        spec.loader.exec_module(module)
    finally:
        sys.argv = argv
    return module.build_players(2)


def timed(call: object, rounds: int) -> tuple[list[float], int, int]:
    """CPU ms of each of `rounds` calls, the queries and bytes of the last."""
    times, queries, size = [], 0, 0
    for _ in range(rounds):
        started = time.process_time()
        with CaptureQueriesContext(connection) as captured:
            response = call()
        times.append((time.process_time() - started) * 1000)
        queries, size = len(captured), len(response.content)
    return times, queries, size


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()

    with _django.database(instrumented=True):
        made, shared = players()
        player = made[0]
        api = {"HTTP_AUTHORIZATION": f"Token {player['token']}"}
        client = Client(HTTP_HOST="127.0.0.1")
        lst = f"/api/v1/lists/{player['list']}"
        faction = f"/catalogue/{shared['system']}/{shared['faction']}/"
        endpoints = [
            ("baseline system", "/api/v1/systems/opr", {}),
            ("page catalogue", "/catalogue/", {}), ("page faction", faction, {}),
            ("page unit", f"{faction}{shared['unit']}/", {}),
            ("page shared-list", f"/lists/shared/{player['share']}/", {}),
            ("api units", "/api/v1/units?page_size=50", api), ("api list", lst, api),
            ("api validate", f"{lst}/validate", api), ("api text", f"{lst}/export/text", api),
        ]
        load_before = os.getloadavg()
        results: dict[str, tuple[list[float], int, int]] = {}
        for name, url, headers in endpoints:
            first = client.get(url, **headers)
            if first.status_code != 200:
                raise SystemExit(f"{url}: HTTP {first.status_code}")
            results[name] = timed(lambda url=url, headers=headers: client.get(url, **headers), args.rounds)

        templates = iter(player["templates"] * args.rounds)
        etag = [client.get(lst, **api)["ETag"]]
        added: list[int] = []

        def add() -> object:
            response = client.post(f"{lst}/units", data=json.dumps({"unit": next(templates)}),
                                   content_type="application/json", HTTP_IF_MATCH=etag[0], **api)
            etag[0] = response["ETag"]
            added.append(response.json()["units"][-1]["id"])
            return response

        def remove() -> object:
            response = client.delete(f"{lst}/units/{added.pop()}", HTTP_IF_MATCH=etag[0], **api)
            etag[0] = response["ETag"]
            return response

        results["edit add"] = timed(add, args.rounds)
        results["edit remove"] = timed(remove, args.rounds)
        load_after = os.getloadavg()

        base = statistics.median(results["baseline system"][0])
        print(f"server CPU per request, in process ({args.rounds} rounds each), {os.cpu_count()} CPUs, "
              f"load average {load_before[0]:.2f} -> {load_after[0]:.2f}")
        for name, (times, queries, size) in results.items():
            median = statistics.median(times)
            print(f"  {name:<18} median {median:6.1f} ms CPU   lowest {min(times):6.1f}   "
                  f"queries {queries:<3} {size / 1024:6.1f} KiB   ÷ baseline {median / base:4.1f}")
        return 0


if __name__ == "__main__":
    sys.exit(main())
