"""The estimate result page (and its API answer) per matchup: a list-vs-list result of
10×10, 25×25 and 50×50 units.

    .venv/bin/python -m armybuilder.launcher exec python bench/bench_estimate_result_page.py [--rounds 5]

In a database of its own, a finished list-vs-list job is stored per size, its cells computed by
the OPR engine (`compute.matrix_cell` of real attacks between 5 distinct units per side, tiled to
the size, so every cell has the real shape). Its page (`/estimates/<id>/`) and its API answer
(`/api/v1/estimates/<id>`) are asked through Django's full stack `--rounds` times after one
untimed request. Printed per size: the median CPU ms of this process per view, the response
size, the CPU µs per matchup, and the ratio to the same page of the 10×10 job (a view should
cost the same at any size: it draws a page of rows, `armybuilder/estimates/result_pages.py`)
and to `GET /api/v1/systems/opr` (the smallest API call, an independent baseline).
Target: the 50×50 page costs at most 1.5× the 25×25 one (both draw a full page of 500 cells per
matrix), stays under 300 KB, and the 50×50 API answer (a page of 1,000 cells per matrix) under
600 KB. Exit 0 when met.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import _django

_django.environment(server=True, unthrottled=True)

SIZES = (10, 25, 50)
TARGET_RATIO = 1.5
TARGET_BYTES = {"page": 300_000, "api": 600_000}


def result_of(size: int) -> dict:
    from armybuilder.estimates.compute import matrix_cell
    from rules.systems.registry import get_system
    from tests.factories.estimate_lists import distinct_units

    attack = get_system("opr").attack
    a, b = distinct_units("A", 5), distinct_units("B", 5)
    labels: dict = {}
    ab = [[matrix_cell(attack(x, y, {}), labels) for y in b] for x in a]
    ba = [[matrix_cell(attack(y, x, {}), labels) for x in a] for y in b]
    return {"list_a": {"name": "Mine", "units": [f"A unit {i}" for i in range(size)]},
            "list_b": {"name": "Theirs", "units": [f"B unit {j}" for j in range(size)]},
            "fields": sorted(ab[0][0]), "outcomes": labels,
            "a_vs_b": [[ab[i % 5][j % 5] for j in range(size)] for i in range(size)],
            "b_vs_a": [[ba[j % 5][i % 5] for i in range(size)] for j in range(size)]}


def timed(call, rounds: int) -> tuple[float, int]:
    """Median CPU seconds of this process per call, and the response's size."""
    response = call()
    assert response.status_code == 200, response.status_code
    times = []
    for _ in range(rounds):
        start = time.process_time()
        response = call()
        times.append(time.process_time() - start)
    return statistics.median(times), len(response.content)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    _django.setup()
    from django.test import Client

    from armybuilder import jobs
    from armybuilder.estimates.models import Estimate
    from armybuilder.estimates.services import estimate_create
    from tests.factories.army_lists import make_user

    ok = True
    with _django.database():
        owner = make_user("bench")
        client = Client(HTTP_HOST="127.0.0.1")
        client.force_login(owner)
        base_cpu, _ = timed(lambda: client.get("/api/v1/systems/opr"), args.rounds)
        print(f"Estimate result page per matchup, median of {args.rounds} ({os.cpu_count()} CPUs, "
              f"load average {os.getloadavg()[0]:.1f}); baseline GET /api/v1/systems/opr "
              f"{base_cpu * 1000:.1f} ms CPU")
        first: dict[str, float] = {}
        previous: dict[str, float] = {}
        for size in SIZES:
            estimate = estimate_create(kind=Estimate.Kind.LIST_VS_LIST, system="opr", owner=owner,
                                       inputs={}, inputs_hash=f"bench-{size}")
            Estimate.objects.filter(pk=estimate.pk).update(result=result_of(size))
            jobs.job_finish(estimate.job_id)  # done
            matchups = 2 * size * size
            urls = (("page", f"/estimates/{estimate.pk}/"), ("api", f"/api/v1/estimates/{estimate.pk}"))
            for what, url in urls:
                cpu, size_bytes = timed(lambda url=url: client.get(url), args.rounds)
                first.setdefault(what, cpu)
                ratio = cpu / first[what]
                if size == SIZES[-1]:
                    ok &= what != "page" or cpu / previous[what] <= TARGET_RATIO
                    ok &= size_bytes <= TARGET_BYTES[what]
                previous[what] = cpu
                print(f"  {size:2}×{size:<2} {what:4} {cpu * 1000:7.1f} ms CPU  "
                      f"{size_bytes / 1024:7.1f} KiB  "
                      f"{cpu / matchups * 1e6:6.1f} µs/matchup  ×{cpu / base_cpu:5.1f} of the baseline"
                      f"  ×{ratio:4.2f} of the 10×10 {what}")
    print("target met" if ok else "TARGET MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
