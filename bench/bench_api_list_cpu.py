"""CPU of an uncached `GET /api/v1/lists/{id}` of a 50-unit list, as a ratio to the cheapest endpoint.

    ./.venv/bin/python -m armybuilder.launcher exec python bench/bench_api_list_cpu.py \
        [--units 50] [--rounds 9] [--per-round 20]

Issue 42, item 5: the goal is an uncached list read at most 1.25× the CPU of the cheapest
authenticated API call. The run

1. creates a database of its own (`bench_api_<pid>`, as `bench_api.py`, dropped at the end),
   loads the bundled catalogue and builds one player's `--units`-unit OPR list with the list
   services (`bench_api.build_list`);
2. asks, through Django's full stack (middleware, token authentication, the throttle's
   counter in Redis) with production settings, alternately in `--rounds` rounds of
   `--per-round` requests each (so both meet the same machine load):
   - the list read with this process's list cache cleared before each request: the list's
     stored JSON document (`armybuilder/api/list_documents.py`) read and checked by one
     statement; the first read after a change stores it;
   - the same read the way before stored documents (`API_LIST_DOCUMENTS` off): every read
     builds the list's JSON from the database (the real path of a list no process has read
     since it last changed);
   - the floor: `GET /api/v1/systems/opr` (token, throttle, one query);
3. prints this process's CPU milliseconds per request of each (the database's own time is
   not in it), the queries per request, the median of the rounds' ratios against the
   target, and the machine's load average. Exit status 0 when the target is met;
4. prints what keeping the document costs each change of a list read through the API: its
   rewrite in one language (`list_documents.rewrite`), which the process does after the
   change's response has been sent (`armybuilder.after_response`).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _django
import bench_api
from django.conf import settings
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from armybuilder.api import list_cache

TARGET_RATIO = 1.25
FLOOR_PATH = "/api/v1/systems/opr"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--units", type=int, default=50, help="units on the list")
    parser.add_argument("--rounds", type=int, default=9, help="alternations of list read and floor")
    parser.add_argument("--per-round", type=int, default=20, help="requests of each per round")
    args = parser.parse_args()

    with _django.database(instrumented=True):

        bench_api.UNITS_ON_LIST = args.units
        token, army_list = bench_api.build_list()
        client = Client(HTTP_AUTHORIZATION=f"Token {token}")
        path = f"/api/v1/lists/{army_list.pk}"

        def serialized_read() -> int:
            settings.API_LIST_DOCUMENTS = False
            try:
                return list_read()
            finally:
                settings.API_LIST_DOCUMENTS = True

        def list_read() -> int:
            list_cache.clear()
            response = client.get(path)
            if response.status_code != 200:
                raise SystemExit(f"{path}: HTTP {response.status_code}: {response.content[:300]!r}")
            return len(response.content)

        def floor() -> int:
            response = client.get(FLOOR_PATH)
            if response.status_code != 200:
                raise SystemExit(f"{FLOOR_PATH}: HTTP {response.status_code}")
            return len(response.content)

        def cpu_ms(request: object, count: int) -> float:
            started = time.process_time()
            for _ in range(count):
                request()  # type: ignore[operator]
            return (time.process_time() - started) * 1000 / count

        for _ in range(3):  # warm: imports, the catalogue's per-process caches, connections
            list_read(), serialized_read(), floor()
        with CaptureQueriesContext(connection) as queries:
            size = list_read()
        list_queries = len(queries)
        with CaptureQueriesContext(connection) as queries:
            serialized_read()
        serialized_queries = len(queries)
        with CaptureQueriesContext(connection) as queries:
            floor()
        floor_queries = len(queries)

        reads, serialized, floors, ratios, old_ratios = [], [], [], [], []
        for _round in range(args.rounds):
            read_ms, floor_ms = cpu_ms(list_read, args.per_round), cpu_ms(floor, args.per_round)
            old_ms = cpu_ms(serialized_read, args.per_round)
            reads.append(read_ms)
            serialized.append(old_ms)
            floors.append(floor_ms)
            ratios.append(read_ms / floor_ms)
            old_ratios.append(old_ms / floor_ms)
        ratio = statistics.median(ratios)
        print(f"GET {path} ({args.units} units, {size} bytes of JSON), list cache cleared before each; "
              f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}")
        print(f"  list read, uncached   {statistics.median(reads):7.2f} ms CPU (lowest {min(reads):.2f})   "
              f"{list_queries} queries   (stored document)")
        print(f"  the same, serialized  {statistics.median(serialized):7.2f} ms CPU "
              f"(lowest {min(serialized):.2f})   {serialized_queries} queries   "
              f"(API_LIST_DOCUMENTS off: ratio {statistics.median(old_ratios):.2f}x)")
        print(f"  floor: GET {FLOOR_PATH} {statistics.median(floors):7.2f} ms CPU "
              f"(lowest {min(floors):.2f})   "
              f"{floor_queries} queries")
        print(f"  ratio (median of {args.rounds} interleaved rounds): {ratio:.2f}x   "
              f"[{min(ratios):.2f}-{max(ratios):.2f}]   target <= {TARGET_RATIO}x: "
              f"{'met' if ratio <= TARGET_RATIO else 'NOT met'}")
        from armybuilder.api import list_documents

        refreshes = [cpu_ms(lambda: list_documents.rewrite(army_list.pk), args.per_round)
                     for _round in range(3)]
        print(f"  a change's rewrite of the document (one language, after its response): "
              f"{statistics.median(refreshes):.2f} ms CPU")
        return 0 if ratio <= TARGET_RATIO else 1


if __name__ == "__main__":
    sys.exit(main())
