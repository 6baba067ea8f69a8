"""Benchmark of list-vs-list fan-out on real workers: speed-up at 1, 2 and 4 processes, and
what a small job costs end to end.

    ./.venv/bin/python -m armybuilder.launcher exec python bench/bench_fanout.py [--size 20] [--small 2] \
        [--repeat 3] [--paired 6]

The run creates a database of its own (`bench_fanout_<pid>`, dropped at the end), then:

1. the independent baseline: the same 20 × 20 OPR job computed in this process by the code a
   one-task job runs (`compute.list_vs_list`), no broker, no database (the fastest of
   `--repeat` runs);
2. the real path for each of 1, 2 and 4 worker processes: a `celery worker --concurrency N`
   (prefork) on the `celery` queue, the job asked through `services.estimate_request`, timed
   from the request to the row reading "done" (wall clock: parallelism is the point; the
   fastest of `--repeat` runs on the same worker), the job's rows spread over the processes
   in parts sized by their predicted cost (`fanout.py`);
3. with `--paired N`, N pairs of runs a few seconds apart on two warm workers (1 and 2 pool
   processes) that take the queue in turn, and the median of their ratios: the fastest of
   separate runs compares moments of a drifting machine, a pair compares like with like.
   Beside each pair, the machine's own ceiling at that moment: the same job computed with no
   broker and no database by one forked process, then by two at once, each given half of list
   A against all of list B (the same matchups, split by measured cost: `_halves`). The fan-out
   cannot beat that; the ratio of the two medians is the share of the ceiling it reaches;
4. a small job (2 × 2) on the 1-process worker as it runs by default (predicted cheap, so not
   fanned out: `ESTIMATE_FAN_OUT_MIN_SECONDS`) and forced to fan out, against its in-process
   compute time.

Printed: each time, the speed-up against one process and against the in-process baseline, the
worker's CPU (all its processes) against the in-process CPU, the number of parts,
whether 2 processes reach the issue's 1.8×, and the load average (other sessions share these
cores: on a loaded machine the speed-up measures the contention too).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import subprocess
import sys
import time

import _django
import psutil

_django.setup(server=True)

from django.db import connection  # noqa: E402

from armybuilder.estimates import fanout  # noqa: E402
from armybuilder.estimates.bounds import list_vs_list_costs  # noqa: E402
from armybuilder.estimates.compute import list_vs_list  # noqa: E402
from armybuilder.estimates.inputs import army_inputs, list_vs_list_inputs  # noqa: E402
from armybuilder.estimates.models import JOB_KIND, Estimate  # noqa: E402
from armybuilder.estimates.services import estimate_request  # noqa: E402
from armybuilder.job_rows import BackgroundJob  # noqa: E402
from rules.systems.registry import get_system  # noqa: E402
from tests.conftest import start_worker, stop_worker, wait_for_worker  # noqa: E402
from tests.factories.estimate_lists import BLADE, LAUNCHER, RIFLE, opr_unit  # noqa: E402

TARGET_SPEEDUP_AT_2 = 1.8
HEAVY = dict(LAUNCHER, name="Heavy launcher", rules=["Deadly(3)"])


def squads(prefix: str, how_many: int) -> list[dict]:
    return [opr_unit(f"{prefix} {i}", count=10 + (7 * i) % 25, quality=3 + i % 3, defence=3 + i % 4,
                     toughness=1 + i % 3,
                     weapons=[RIFLE, BLADE, LAUNCHER, HEAVY] if i % 2 else [RIFLE, BLADE])
            for i in range(how_many)]


def job(size: int) -> tuple[str, dict]:
    return list_vs_list_inputs(
        system_key="opr", situation={"mode": "shooting", "range_inches": 12},
        list_a=army_inputs(name="A", units=[(u["name"], u) for u in squads("A", size)]),
        list_b=army_inputs(name="B", units=[(u["name"], u) for u in squads("B", size)]))


def cpu_by_process(worker: psutil.Process) -> dict[int, float]:
    """CPU seconds (user + system) used so far by the worker and each of its pool processes."""
    found = {}
    for process in [worker, *worker.children(recursive=True)]:
        with contextlib.suppress(psutil.NoSuchProcess):
            times = process.cpu_times()
            found[process.pid] = times.user + times.system
    return found


def _timed_job(worker: subprocess.Popen, system: str, inputs: dict) -> tuple[float, float, float, int]:
    """One job on this worker, as `run_on_workers` reports it."""
    # The same question must be computed again, not reused (an estimate goes with its job).
    BackgroundJob.objects.filter(kind=JOB_KIND).delete()
    cpu_before = cpu_by_process(psutil.Process(worker.pid))
    started = time.perf_counter()
    estimate = estimate_request(kind=Estimate.Kind.LIST_VS_LIST, system=system, inputs=inputs)
    # Polled by its status alone: reading the whole row (inputs and result JSON) every
    # few milliseconds would take CPU from the workers being measured.
    status = BackgroundJob.objects.filter(pk=estimate.job_id).values_list("state", flat=True)
    while status.first() not in (Estimate.Status.DONE, Estimate.Status.FAILED):
        time.sleep(0.01)
    elapsed = time.perf_counter() - started
    cpu_after = cpu_by_process(psutil.Process(worker.pid))
    spent = {pid: cpu - cpu_before.get(pid, 0.0) for pid, cpu in cpu_after.items()}
    busiest = max(cpu for pid, cpu in spent.items() if pid != worker.pid)
    estimate.refresh_from_db()
    if estimate.status != Estimate.Status.DONE:
        raise SystemExit(f"the job failed: {estimate.error}")
    if fanout.is_fanned_out(str(estimate.pk)):
        parts = len(fanout.parts_of(fanout.row_names(inputs), fanout.row_seconds(
            inputs, list_vs_list_costs(system=get_system(system), inputs=inputs))))
    else:
        parts = 0
    return elapsed, sum(spent.values()), busiest, parts


def run_on_workers(system: str, inputs: dict, processes: int, *, repeat: int = 1,
                   fan_out_min: str | None = None) -> tuple[float, float, float, int]:
    """Wall seconds from the request to "done" on a fresh worker of `processes` processes,
    the worker's CPU seconds meanwhile (all its processes), the CPU seconds of its busiest
    pool process (on an idle machine the job cannot end sooner: on a loaded one, the wall
    clock measures the other sessions too), and how many parts computed rows (0: the job ran
    as one task); of the fastest of `repeat` runs on the same worker (the least disturbed by
    other work on the machine)."""
    if fan_out_min is not None:
        os.environ["ESTIMATE_FAN_OUT_MIN_SECONDS"] = fan_out_min
    worker = start_worker(connection.settings_dict["NAME"], "--pool", "prefork",
                          "--concurrency", str(processes), "-Q", "celery")
    try:
        wait_for_worker(60)
        return min(_timed_job(worker, system, inputs) for _ in range(repeat))
    finally:
        stop_worker(worker)
        os.environ.pop("ESTIMATE_FAN_OUT_MIN_SECONDS", None)


def _halves(system: str, inputs: dict) -> list[dict]:
    """Two jobs that together hold every matchup of `inputs` once, of about the same measured
    cost: list A's units, each timed with all of list B (both ways, engine caches emptied, the
    best of two), dealt costliest first to the half with less so far; each half against all of
    list B. Measured, not predicted: the ceiling must not lean on the cost model it judges."""
    from armybuilder.estimates.machine_speed import clear_engine_caches

    units = inputs["list_a"]["units"]
    seconds = []
    for unit in units:
        one = dict(inputs, list_a=dict(inputs["list_a"], units=[unit]))
        best = float("inf")
        for _ in range(2):
            clear_engine_caches()
            started = time.process_time()
            list_vs_list(system, one)
            best = min(best, time.process_time() - started)
        seconds.append(best)
    halves: list[list[int]] = [[], []]
    loads = [0.0, 0.0]
    for index in sorted(range(len(units)), key=lambda i: -seconds[i]):
        lighter = 0 if loads[0] <= loads[1] else 1
        halves[lighter].append(index)
        loads[lighter] += seconds[index]
    return [dict(inputs, list_a=dict(inputs["list_a"], units=[units[i] for i in sorted(half)]))
            for half in halves]


def _in_fork(system: str, jobs: list[dict]) -> float:
    """Wall seconds for `jobs` computed at once, each by its own forked process (warm imports,
    engine caches emptied), no broker and no database: the ideal parallel run."""
    import multiprocessing

    from armybuilder.estimates.machine_speed import clear_engine_caches

    def run(job_inputs: dict) -> None:
        clear_engine_caches()
        list_vs_list(system, job_inputs)

    context = multiprocessing.get_context("fork")
    processes = [context.Process(target=run, args=(job_inputs,)) for job_inputs in jobs]
    started = time.perf_counter()
    for process in processes:
        process.start()
    for process in processes:
        process.join()
    if any(process.exitcode for process in processes):
        raise SystemExit("a forked computation failed")
    return time.perf_counter() - started


def ceiling_pair(system: str, inputs: dict, halves: list[dict]) -> tuple[float, float]:
    """(one process, two processes) wall seconds of the ideal parallel run of the job now."""
    return _in_fork(system, [inputs]), _in_fork(system, halves)


def paired_runs(system: str, inputs: dict, rounds: int) -> list[tuple[float, float, float, float]]:
    """(1-process seconds, 2-process seconds, and the ideal run's (`ceiling_pair`) right after)
    of `rounds` pairs of runs a few seconds apart: two
    workers (of 1 and of 2 pool processes) stay up, warm, and take the `celery` queue in turn
    (Celery's remote control: `cancel_consumer` / `add_consumer`), the order swapped every
    round. On a VM whose speed drifts from minute to minute, a pair shares the conditions that
    the best of separate runs does not."""
    import socket

    from armybuilder.celery import app

    host = socket.gethostname()
    names = {1: f"one@{host}", 2: f"two@{host}"}
    workers = {n: start_worker(connection.settings_dict["NAME"], "--pool", "prefork", "--concurrency", str(n),
                               "-Q", "celery", "-n", names[n]) for n in (1, 2)}
    try:
        wait_for_worker(60)
        time.sleep(2)  # both workers are up and consuming

        def only(n: int) -> None:
            other = 2 if n == 1 else 1
            app.control.cancel_consumer("celery", destination=[names[other]], reply=True, timeout=5)
            app.control.add_consumer("celery", destination=[names[n]], reply=True, timeout=5)

        for n in (1, 2):  # warm both: the first job of a process imports the engines
            only(n)
            _timed_job(workers[n], system, inputs)
        halves = _halves(system, inputs)
        pairs = []
        for round_ in range(rounds):
            seconds = {}
            for n in ((1, 2) if round_ % 2 == 0 else (2, 1)):
                only(n)
                seconds[n] = _timed_job(workers[n], system, inputs)[0]
            pairs.append((seconds[1], seconds[2], *ceiling_pair(system, inputs, halves)))
        return pairs
    finally:
        for worker in workers.values():
            stop_worker(worker)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=20, help="units per list of the big job")
    parser.add_argument("--small", type=int, default=2, help="units per list of the small job")
    parser.add_argument("--repeat", type=int, default=3,
                        help="runs of each job per worker; the fastest is reported (a shared machine "
                             "slows some runs down)")
    parser.add_argument("--paired", type=int, default=0,
                        help="also this many pairs of 1- and 2-process runs on two warm workers taking "
                             "the queue in turn (the median ratio; robust to a drifting machine)")
    args = parser.parse_args()
    with _django.database(catalogue=False, instrumented=True):
        load_before = os.getloadavg()
        system, inputs = job(args.size)
        runs = []
        for _ in range(args.repeat):
            started, cpu_started = time.perf_counter(), time.process_time()
            list_vs_list(system, inputs)
            runs.append((time.perf_counter() - started, time.process_time() - cpu_started))
        baseline, baseline_cpu = min(runs)
        print(f"Fan-out of a {args.size} × {args.size} OPR list-vs-list job ({2 * args.size ** 2} "
              f"matchups), {os.cpu_count()} CPUs, load average {load_before[0]:.2f}")
        print(f"  in-process baseline (compute.list_vs_list, no broker): {baseline:.2f} s, "
              f"{baseline_cpu:.2f} s CPU")
        times, busiest = {}, {}
        for processes in (1, 2, 4):
            times[processes], cpu, busiest[processes], parts = run_on_workers(system, inputs, processes,
                                                                        repeat=args.repeat)
            less = busiest[1] / busiest[processes]
            print(f"  {processes} worker process{'es' if processes > 1 else ''}: "
                  f"{times[processes]:.2f} s end to end ({f'{parts} parts' if parts else 'one task'}); "
                  f"speed-up vs 1 process "
                  f"{times[1] / times[processes]:.2f}×, vs in-process {baseline / times[processes]:.2f}×; "
                  f"worker CPU {cpu:.2f} s ({cpu / baseline_cpu:.2f}× the in-process CPU), busiest pool "
                  f"process {busiest[processes]:.2f} s CPU (1 process: {less:.2f}×)")
        speedup = times[1] / times[2]
        print(f"  2 processes: {speedup:.2f}× wall (target ≥ {TARGET_SPEEDUP_AT_2}×: "
              f"{'met' if speedup >= TARGET_SPEEDUP_AT_2 else 'NOT met'}); busiest process "
              f"{busiest[1] / busiest[2]:.2f}× less CPU than 1 process")

        if args.paired:
            pairs = paired_runs(system, inputs, args.paired)
            ratios = sorted(one / two for one, two, _, _ in pairs)
            ceilings = sorted(one / two for _, _, one, two in pairs)
            median, ceiling = statistics.median(ratios), statistics.median(ceilings)
            print("  paired runs (1 process, 2 processes; the ideal run's beside): "
                  + ", ".join(f"{one:.2f}/{two:.2f} s ({ideal_one:.2f}/{ideal_two:.2f})"
                              for one, two, ideal_one, ideal_two in pairs))
            print(f"  paired speed-up at 2 processes: median {median:.2f}× (min {ratios[0]:.2f}, max "
                  f"{ratios[-1]:.2f}; target ≥ {TARGET_SPEEDUP_AT_2}×: "
                  f"{'met' if median >= TARGET_SPEEDUP_AT_2 else 'NOT met'})")
            print(f"  this machine's ceiling (two forked processes, no broker): median {ceiling:.2f}× "
                  f"(min {ceilings[0]:.2f}, max {ceilings[-1]:.2f}); the fan-out reaches "
                  f"{median / ceiling:.0%} of it")
            speedup = median

        small_system, small_inputs = job(args.small)
        started, cpu_started = time.perf_counter(), time.process_time()
        list_vs_list(small_system, small_inputs)
        small_baseline = time.perf_counter() - started
        small = {"system": small_system, "inputs": small_inputs, "processes": 1, "repeat": args.repeat}
        default, default_cpu, _, default_parts = run_on_workers(**small)
        forced, forced_cpu, _, forced_parts = run_on_workers(**small, fan_out_min="0")
        print(f"Small job, {args.small} × {args.small}: in-process {small_baseline * 1000:.0f} ms")
        print(f"  default: {default * 1000:.0f} ms end to end, worker CPU {default_cpu * 1000:.0f} ms "
              f"({f'fanned out in {default_parts} parts' if default_parts else 'one task, not fanned out'}); "
              f"overhead {default / small_baseline:.1f}× the computation")
        print(f"  forced fan-out: {forced * 1000:.0f} ms end to end, worker CPU {forced_cpu * 1000:.0f} ms "
              f"({f'{forced_parts} parts' if forced_parts else 'one task'}); "
              f"{forced / default:.2f}× the default")
        print(f"  load average after: {os.getloadavg()[0]:.2f}")
        default_fanned = bool(default_parts)
        return 0 if speedup >= TARGET_SPEEDUP_AT_2 and not default_fanned else 1


if __name__ == "__main__":
    sys.exit(main())
