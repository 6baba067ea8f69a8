"""Cold roster text export against list size: does it grow linearly?

    ./.venv/bin/python -m armybuilder.launcher exec python bench/bench_text_export.py [--rounds 5]
        [--sizes 25,50,100,200]

A report measured the text export growing as units^1.87 from 50 to 200 units when cold. The run

1. creates a database of its own (dropped at the end), loads the bundled catalogue and builds,
   with the list services, `--rounds` new OPR lists of every size in `--sizes` (bench_pdf's
   builder: mixed units and upgrades, a different mix each list);
2. asks `GET /api/v1/lists/<id>/export/text` once per list through Django's full stack
   (middleware, token, throttle counters, the API) in a fresh process state for that list:
   every list is read for the first time, and the API's list cache and Django's cache are
   cleared before each request — the cold path of the report;
3. times each request in CPU seconds of this process (the database's own time is not in it)
   and counts its queries;
4. as the independent baseline of the same run, times `GET /api/v1/systems/opr` (the
   cheapest authenticated call) and prints every size's ratio to it;
5. prints, per size, the median CPU ms, ms per unit and queries, and the growth exponent k
   between each pair of sizes and from the smallest to the largest (k = 1 is linear); exits 1
   when k from the smallest to the largest size is above 1.2.
"""

from __future__ import annotations

import argparse
import math
import os
import secrets
import statistics
import sys
import time

import _django

_django.setup(server=True, unthrottled=True)

from django.contrib.auth.models import User  # noqa: E402
from django.core.cache import caches  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import (  # noqa: E402
    CaptureQueriesContext,
)
from rest_framework.authtoken.models import Token  # noqa: E402

from armybuilder.api import list_cache  # noqa: E402

LINEAR_ENOUGH = 1.2


def cold_get(client: Client, url: str, headers: dict) -> tuple[float, int]:
    """CPU ms and queries of one request with every cache the path reads cleared first."""
    list_cache.clear()
    for alias in caches:
        caches[alias].clear()
    started = time.process_time()
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, **headers)
    elapsed = (time.process_time() - started) * 1000
    if response.status_code != 200:
        raise SystemExit(f"{url}: HTTP {response.status_code}")
    return elapsed, len(captured)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--sizes", default="25,50,100,200")
    args = parser.parse_args()
    sizes = [int(size) for size in args.sizes.split(",")]

    from bench_pdf import build_list

    with _django.database(instrumented=True):
        owner = User.objects.create_user("text-export", password=secrets.token_urlsafe(12))
        headers = {"HTTP_AUTHORIZATION": f"Token {Token.objects.create(user=owner).key}"}
        client = Client(HTTP_HOST="127.0.0.1")
        lists = {size: [build_list(owner, size, 1000 * size + round_) for round_ in range(args.rounds)]
                 for size in sizes}
        client.get("/api/v1/systems/opr", **headers)  # imports and URL resolution once
        load_before = os.getloadavg()[0]
        baseline = [cold_get(client, "/api/v1/systems/opr", headers)[0] for _ in range(args.rounds)]
        results: dict[int, tuple[float, int]] = {}
        for size in sizes:
            measured = [cold_get(client, f"/api/v1/lists/{army_list.pk}/export/text", headers)
                        for army_list in lists[size]]
            results[size] = (statistics.median(ms for ms, _ in measured), max(q for _, q in measured))
        base = statistics.median(baseline)
        print(f"cold GET /api/v1/lists/<id>/export/text, OPR lists, {args.rounds} new lists per size, CPU ms "
              f"of this process; load average {load_before:.2f} → {os.getloadavg()[0]:.2f}")
        print(f"  baseline GET /api/v1/systems/opr: {base:.2f} ms")
        previous = None
        for size in sizes:
            ms, queries = results[size]
            growth = ""
            if previous is not None:
                k = math.log(ms / results[previous][0]) / math.log(size / previous)
                growth = f"   k({previous}→{size}) = {k:.2f}"
            print(f"  {size:4d} units: {ms:8.1f} ms  {ms / size:6.2f} ms/unit  {queries:3d} queries  "
                  f"{ms / base:7.1f}× baseline{growth}")
            previous = size
        first, last = sizes[0], sizes[-1]
        k = math.log(results[last][0] / results[first][0]) / math.log(last / first)
        print(f"growth exponent k from {first} to {last} units: {k:.2f} "
              f"(1 is linear; target ≤ {LINEAR_ENOUGH})")
        return 0 if k <= LINEAR_ENOUGH else 1


if __name__ == "__main__":
    sys.exit(main())
