"""A 200-unit roster PDF asked for through the API on a loaded server: does it answer with the PDF?

    ./.venv/bin/python -m armybuilder.launcher exec python bench/bench_pdf_loaded.py [--units 200]
        [--burners 16] [--rounds 2]

The target (a 200-unit PDF on a loaded server answers with the PDF, not a 503) is about the
whole path a mobile client takes, so the run

1. creates a database of its own (dropped at the end), loads the bundled catalogue and builds,
   with the list services, a new 200-unit OPR list for every request (no render is ever
   served from the cache);
2. starts gunicorn with docker-compose's command line and its three Celery workers (estimates,
   PDFs, control with beat), as `bench/bench_load.py` does (the workers at `nice 10`);
3. as the baseline of the same run, asks for one list's PDF on the machine as it is: `GET
   /api/v1/lists/<id>/export/pdf`, following every 202's `Retry-After` until the answer is
   200 with a PDF, or anything else (a 503, a 5xx, a transport error), which fails the run;
4. starts `--burners` busy processes at the worker's priority (`nice 10`: a machine loaded by
   work of the same standing as the renders; with 16 on 2 cores the load average passes 17,
   the load of the report this bench answers) and asks for another list's PDF the same way;
5. prints, per request, the wall time to the PDF, the statuses seen, the worker's CPU seconds
   spent, the PDF's pages, the load average, and the ratio loaded ÷ baseline; and exits 1
   unless every request ended with the PDF within the server's own bound
   (`PDF_TIME_LIMIT`).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _django
import bench_load
import httpx
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection
from rest_framework.authtoken.models import Token

from tests.redis_server import running_redis

BURNER = "import signal, sys; signal.signal(signal.SIGTERM, lambda *a: sys.exit(0))\nwhile True: pass"


@contextlib.contextmanager
def burners(count: int) -> Iterator[None]:
    """`count` busy processes at the worker's priority, stopped on the way out."""
    processes = [subprocess.Popen(["nice", "-n", "10", sys.executable, "-c", BURNER]) for _ in range(count)]
    try:
        time.sleep(8 if count else 0)  # the load average follows with a delay
        yield
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            process.wait(timeout=10)


def fetch_pdf(url: str, token: str, list_id: int, bound: float) -> dict:
    """The PDF through the API as a client gets it: 202s followed by their Retry-After."""
    statuses: list[int] = []
    worker_cpu = bench_load.cpu_seconds(bench_load.PIDS["pdf_worker"])
    started = time.perf_counter()
    with httpx.Client(base_url=url, timeout=30, headers={"Authorization": f"Token {token}"}) as client:
        while time.perf_counter() - started < bound:
            try:
                response = client.get(f"/api/v1/lists/{list_id}/export/pdf")
            except httpx.HTTPError as error:
                return {"ok": False, "statuses": statuses, "error": repr(error),
                        "seconds": time.perf_counter() - started}
            statuses.append(response.status_code)
            if response.status_code == 202:
                time.sleep(float(response.headers.get("Retry-After", "1")))
                continue
            ok = response.status_code == 200 and response.content.startswith(b"%PDF")
            return {"ok": ok, "statuses": statuses, "seconds": time.perf_counter() - started,
                    "pdf": response.content if ok else b"", "error": "" if ok else response.text[:300],
                    "worker_cpu": bench_load.cpu_seconds(bench_load.PIDS["pdf_worker"]) - worker_cpu}
    return {"ok": False, "statuses": statuses, "error": "no answer within the bound",
            "seconds": time.perf_counter() - started}


def pages(pdf: bytes) -> int:
    found = subprocess.run(["pdfinfo", "-"], input=pdf, capture_output=True, check=False).stdout.decode()
    for line in found.splitlines():
        if line.startswith("Pages:"):
            return int(line.split()[1])
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--units", type=int, default=200)
    parser.add_argument("--burners", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=2, help="loaded requests (each a new list)")
    args = parser.parse_args()

    from bench_pdf import build_list  # after bench_load: Django is set up once, with its database name

    with _django.database(instrumented=True):
        owner = User.objects.create_user("pdf-loaded", password="x" * 16)
        token = Token.objects.create(user=owner).key
        lists = [build_list(owner, args.units, seed) for seed in range(1 + args.rounds)]
        connection.close()
        bound = settings.PDF_TIME_LIMIT + 10
        results = []
        with running_redis() as redis_server, bench_load.stack(redis_server.url(0)) as url:
            baseline = fetch_pdf(url, token, lists[0].pk, bound)
            baseline["load"] = os.getloadavg()[0]
            with burners(args.burners):
                for army_list in lists[1:]:
                    loaded = fetch_pdf(url, token, army_list.pk, bound)
                    loaded["load"] = os.getloadavg()[0]
                    results.append(loaded)
        print(f"{args.units}-unit roster PDF through the API (gunicorn + docker-compose's Celery "
              "workers at nice 10), "
              f"{os.cpu_count()} CPUs; server bound PDF_TIME_LIMIT {settings.PDF_TIME_LIMIT} s, "
              f"PDF_CPU_SECONDS {settings.PDF_CPU_SECONDS} s")

        def show(name: str, result: dict) -> None:
            detail = (f"{pages(result['pdf'])} pages, worker CPU {result['worker_cpu']:.1f} s" if result["ok"]
                      else f"FAILED: {result['error']}")
            print(f"  {name:<34} {result['seconds']:6.1f} s wall, load {result['load']:5.1f}, "
                  f"{len(result['statuses'])} requests (statuses {sorted(set(result['statuses']))}); "
                  f"{detail}")

        show("baseline (machine as it is)", baseline)
        for index, result in enumerate(results, 1):
            show(f"loaded ({args.burners} busy processes) #{index}", result)
        met = baseline["ok"] and all(result["ok"] for result in results)
        if met:
            worst = max(result["seconds"] for result in results)
            print(f"  loaded ÷ baseline wall: {worst / baseline['seconds']:.1f}×; "
                  f"bound ÷ worst loaded: {bound / worst:.1f}")
        print(f"target: every request answers with the PDF within the bound: {'met' if met else 'NOT met'}")
        return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
