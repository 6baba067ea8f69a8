"""A list-vs-list job spread over every worker: Celery subtasks of matrix rows.

`run_estimate` (`tasks.py`) hands a list-vs-list job here when a worker runs it and the job
costs enough to pay for spreading it (`should_fan_out`: more than one row and a predicted
`ESTIMATE_FAN_OUT_MIN_SECONDS` of computing; a small job is cheaper in one process than as
messages). The job becomes `estimates.part` tasks of rows (a row is one attacking unit: list
A's units against list B, then list B's against list A) of about the same predicted cost,
costliest first (`parts_of`: a power of two of them, so 1, 2, 4 or 8 processes finish
together, each at least `PART_MIN_SECONDS`, at most `MAX_PARTS`). A part reads the job once,
computes its rows, and stores them and the progress in one write each, so a message and its
bookkeeping are paid per part, not per row. The parts go through the broker, so any number of
workers on any number of machines share them (README, "Scaling the workers"). A part's task
id names its rows (`part_task_id`); a row sent again alone (the reconciliation) is an
`estimates.row` task.

A job's state follows its rows, kept in Redis under `estimate:<id>:…` for a day:
- `rows_sent`: the rows whose message was published. A parent task redelivered after its
  worker died (between the fan-out marker and the last publish) sends the rows not sent yet,
  so no row is ever left unsent;
- `cells`: each finished row's result (JSON), and `rows_done` the set of finished rows. The
  part that completes the set writes the job's result (`assemble`): no chord counter, nothing
  that a lost worker can strand. A row already done is skipped, so a row sent twice (a
  redelivery, a requeue by the reconciliation) computes once;
- `rows_started`: how often each row started; a row started more than `MAX_ATTEMPTS` times
  fails the job (`GAVE_UP`), a part (or row) that starts a row again counts one more attempt
  on the job;
- `workers`: which workers computed rows (the tests read it);
- `cpu`: the CPU seconds the job's tasks used so far; a part may use what is left of
  `ESTIMATE_CPU_SECONDS` (`cpu_limit.py`) and fails the job (`CPU_TOO_LONG`) past it.

The reconciliation (`reconciliation.py`) asks `missing_rows` which rows are neither done nor
accounted for (queued in the broker or held by a live worker) and sends those again.

Postgres going away for a few seconds is not an error of the job: a row (and the parent)
retries on `OperationalError` with a back-off (`DB_RETRIES`) before anything is failed.
Time limits, the job's CPU seconds, MemoryError and any other error in a part fail the whole
job with that part's error; the other parts then skip their work.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any

import redis
from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.utils import timezone

import armybuilder.celery  # noqa: F401  (the app the subtasks bind to)
from armybuilder.celery import memory_bound
from armybuilder.estimates.compute import (
    outcome_fields,
    prepare_situation,
    prepare_units,
    row_cells,
)
from armybuilder.estimates.cpu_limit import CpuTimeExceeded, cpu_time_limit, process_cpu_seconds
from armybuilder.estimates.failures import CPU_TOO_LONG, GAVE_UP, MAX_ATTEMPTS, OUT_OF_MEMORY, TOO_LONG
from armybuilder.estimates.job_state import (
    RUNNING,
    estimate_attempt,
    estimate_fail_if,
    estimate_finish,
    estimate_progress,
    estimate_running,
)
from armybuilder.estimates.models import Estimate
from armybuilder.fault_holds import hold_for_tests
from rules.systems.registry import get_system

#: Bookkeeping keys live this long (seconds): longer than any job may run.
KEY_TTL = 24 * 3600
#: Errors a row waits out (Postgres restarting, a connection cut, Redis restarting) ...
DB_ERRORS = (OperationalError, InterfaceError, redis.ConnectionError, redis.TimeoutError)
#: ... retried this many times, 1, 2, 4, 8, 8, … seconds apart (about a minute in all).
DB_RETRIES = 10
DB_RETRY_MAX_DELAY = 8


@cache
def _redis() -> redis.Redis:
    return redis.Redis.from_url(settings.REDIS_URL)


def _key(estimate_id: str, what: str) -> str:
    return f"estimate:{estimate_id}:{what}"


def row_task_id(estimate_id: str, row: str) -> str:
    """The Celery task id of one row ("a3"): the reconciliation finds rows by it."""
    return f"{estimate_id}.{row}"


def part_task_id(estimate_id: str, rows: list[str]) -> str:
    """The Celery task id of a part: its rows joined by "+" ("<id>.a3+a4+a5")."""
    return f"{estimate_id}." + "+".join(rows)


def rows_held(estimate_id: str, task_ids: Iterable[str]) -> set[str]:
    """The rows of this job that these task ids (queued or running) hold, parts and rows alike."""
    prefix = f"{estimate_id}."
    return {row for task_id in task_ids if task_id.startswith(prefix)
            for row in task_id[len(prefix):].split("+")}


#: A part of a fanned-out job is at least this many predicted seconds of rows. A part's
#: message, bookkeeping and database reads cost a few milliseconds, and the job waits for its
#: last part: with o the cost of a part and P the job's, the end comes soonest near sqrt(P / o)
#: parts (16 for a 20 × 20 OPR job of about a second: `bench/bench_fanout.py`); the default
#: of `settings.ESTIMATE_FAN_OUT_PART_SECONDS` ...
PART_MIN_SECONDS = 0.1
#: ... and a job is cut into at most this many parts (enough to keep a dozen processes busy
#: and to even out the cost model's error between them).
MAX_PARTS = 16


def part_count(total: float) -> int:
    """How many parts a job of `total` predicted seconds is cut into: a power of two (so 1, 2,
    4 or 8 processes get the same share each), as many as fit `ESTIMATE_FAN_OUT_PART_SECONDS`
    (`PART_MIN_SECONDS` unless set) each, at most
    `MAX_PARTS`."""
    least = settings.ESTIMATE_FAN_OUT_PART_SECONDS
    count = 1
    while count * 2 <= MAX_PARTS and total / (count * 2) >= least:
        count *= 2
    return count


def parts_of(rows: list[str], seconds: Mapping[str, float]) -> list[list[str]]:
    """`rows` cut into `part_count` parts of about the same predicted `seconds`, the costliest
    part first (each row in turn, costliest first, goes to the part with the least so far;
    each part's rows in result order). Equal parts are what let two processes finish together:
    the job ends when its last part does."""
    total = sum(seconds.get(row, 0.0) for row in rows)
    count = min(part_count(total), len(rows))
    if count <= 1:
        return [list(rows)] if rows else []
    position = {row: i for i, row in enumerate(rows)}
    loads = [0.0] * count
    parts: list[list[str]] = [[] for _ in range(count)]
    for row in sorted(rows, key=lambda r: (-seconds.get(r, 0.0), position[r])):
        lightest = min(range(count), key=lambda i: (loads[i], len(parts[i])))
        parts[lightest].append(row)
        loads[lightest] += seconds.get(row, 0.0)
    order = sorted(range(count), key=lambda i: -loads[i])
    return [sorted(parts[i], key=position.__getitem__) for i in order if parts[i]]


def row_seconds(inputs: Mapping[str, Any], costs: Mapping[tuple[str, str], float]) -> dict[str, float]:
    """The predicted seconds of each row from the cost of each distinct pair
    (`bounds.list_vs_list_costs`, keyed by the units' canonical JSON); a row whose pairs are
    not all there (`bounds.screen_costs`) is the mean of those that are, times its length."""
    def key(unit: Mapping[str, Any]) -> str:
        return json.dumps(unit, sort_keys=True, separators=(",", ":"))

    def row(attacker: str, defenders: list[str]) -> float:
        known = [costs[(attacker, d)] for d in defenders if (attacker, d) in costs]
        if len(known) == len(defenders):
            return sum(known)
        # Screened costs (`bounds.screen_costs`: the largest defenders only): their mean, for
        # every defender of the row.
        return sum(known) / len(known) * len(defenders) if known else 0.0

    a = [key(u["unit"]) for u in inputs["list_a"]["units"]]
    b = [key(u["unit"]) for u in inputs["list_b"]["units"]]
    found = {f"a{i}": row(ka, b) for i, ka in enumerate(a)}
    found.update({f"b{j}": row(kb, a) for j, kb in enumerate(b)})
    return found


def rows_of(inputs: Mapping[str, Any]) -> list[tuple[str, int]]:
    """The job's rows in result order: ("a", i) is list A's unit i against list B, ("b", j)
    list B's unit j against list A."""
    return ([("a", i) for i in range(len(inputs["list_a"]["units"]))]
            + [("b", j) for j in range(len(inputs["list_b"]["units"]))])


def row_names(inputs: Mapping[str, Any]) -> list[str]:
    return [f"{side}{index}" for side, index in rows_of(inputs)]


def may_fan_out(estimate: Estimate, *, request: Any) -> bool:
    """Whether this job could be fanned out at all: a list-vs-list job of more than one row run
    by a worker from the broker (a direct call, as in tests and `manage.py shell`, and an
    eager run compute in-process)."""
    in_worker = not (getattr(request, "called_directly", True) or getattr(request, "is_eager", False))
    return in_worker and estimate.kind == Estimate.Kind.LIST_VS_LIST and len(rows_of(estimate.inputs)) > 1


def screened_large(predicted: float) -> bool:
    """Whether a job screened at `predicted` seconds fans out on the screen alone, each part
    pricing its own matchups in parallel; below it, every matchup is priced in this task first
    and the job fans out, or not, on that exact prediction.

    The screen (each row at its mean against the other side's largest units) over-predicts a
    typical job by 5–30%, so a job it calls large is large. It was once required to say twice
    the threshold: a 20 × 20 job screened at 1.5 s was then priced whole in the parent, 0.16 s
    of a 0.7 s job's serial start, and two processes gave it 1.3–1.6× instead of nearly 2×
    (`bench/bench_fanout.py`). A job the screen wrongly calls large costs a few tens of
    milliseconds of fan-out; one it wrongly calls small is priced whole and still fans out."""
    return predicted >= settings.ESTIMATE_FAN_OUT_MIN_SECONDS


def should_fan_out(estimate: Estimate, *, request: Any, predicted: float) -> bool:
    """Fan out a list-vs-list job of more than one row whose predicted cost (`predicted`
    seconds in one process, `bounds.job_refusal`) pays for it, when a worker runs it from the
    broker (a direct call, as in tests and `manage.py shell`, and an eager run compute
    in-process). A job already fanned out (a redelivered parent) stays so."""
    if not may_fan_out(estimate, request=request):
        return False
    if is_fanned_out(str(estimate.pk)):
        return True
    # A small job is cheaper in one process: publishing, fetching and assembling rows costs
    # more than it saves (`bench/bench_fanout.py` measures both sides).
    return predicted >= settings.ESTIMATE_FAN_OUT_MIN_SECONDS


def is_fanned_out(estimate_id: str) -> bool:
    return bool(_redis().exists(_key(estimate_id, "fanned_out")))


def send_rows(estimate_id: str, rows: Iterable[str]) -> int:
    """Publish these rows (names like "a3"), each recorded in `rows_sent` once published."""
    store = _redis()
    sent = 0
    for row in rows:
        compute_row.apply_async((estimate_id, row[0], int(row[1:])), task_id=row_task_id(estimate_id, row),
                                retry=False)
        store.sadd(_key(estimate_id, "rows_sent"), row)
        store.expire(_key(estimate_id, "rows_sent"), KEY_TTL)
        sent += 1
    return sent


def send_parts(estimate_id: str, parts: Iterable[list[str]]) -> int:
    """Publish these parts (each a list of row names), each row recorded in `rows_sent` once
    its part is published."""
    store = _redis()
    sent = 0
    for rows in parts:
        compute_part.apply_async((estimate_id, rows), task_id=part_task_id(estimate_id, rows), retry=False)
        pipe = store.pipeline(transaction=False)
        pipe.sadd(_key(estimate_id, "rows_sent"), *rows)
        pipe.expire(_key(estimate_id, "rows_sent"), KEY_TTL)
        pipe.execute()
        sent += 1
    return sent


def start(estimate: Estimate, costs: Mapping[tuple[str, str], float] | None = None, *,
          priced: bool = True) -> str:
    """Queue the rows of this running job in parts sized by their predicted cost (`costs` of
    each distinct pair, or of the screened ones; without them every row is its own part); the
    row that finishes last writes the result. Unless every matchup was `priced` already, each
    part prices its own before computing them (`_price_rows`).

    A parent redelivered after a lost worker finds the marker and sends only the rows that
    were not sent before (none, once every publish went through)."""
    estimate_id = str(estimate.pk)
    store = _redis()
    store.set(_key(estimate_id, "fanned_out"), "1", nx=True, ex=KEY_TTL)
    store.set(_key(estimate_id, "total"), len(rows_of(estimate.inputs)), ex=KEY_TTL)
    if priced:
        store.set(_key(estimate_id, "priced"), "1", ex=KEY_TTL)
    hold_for_tests("fanned_out")
    sent = {row.decode() for row in store.smembers(_key(estimate_id, "rows_sent"))}
    unsent = [row for row in row_names(estimate.inputs) if row not in sent]
    if costs is None:
        send_rows(estimate_id, unsent)
    else:
        send_parts(estimate_id, parts_of(unsent, row_seconds(estimate.inputs, costs)))
    return "fanned out"


def missing_rows(estimate: Estimate) -> list[str]:
    """The rows of a fanned-out job not done yet, in result order."""
    done = {row.decode() for row in _redis().smembers(_key(str(estimate.pk), "rows_done"))}
    return [row for row in row_names(estimate.inputs) if row not in done]


def _fail(estimate_id: str, error: str) -> None:
    estimate_fail_if(estimate_id, state=RUNNING, error=error)


def _rows_cells(system_key: str, attackers: list[Mapping[str, Any]], defenders: list[Mapping[str, Any]],
                situation: Mapping[str, Any], labels: dict[str, Any]) -> list[list[dict[str, Any]]]:
    """Each attacker against each defender, as matrix cells (a repeated pair computed once
    in the part), each cell as the one-worker job keeps it (`compute.matrix_cell`: the common
    figures and the system's one-figure outcomes, whose labels go into `labels`)."""
    system = get_system(system_key)
    known: dict[str, Any] = {}  # each distinct unit prepared once for the part (`prepare_units`)
    prepared_defenders = prepare_units(system_key, defenders, known)
    prepared = prepare_situation(system_key, situation)
    done: dict[tuple[str, str], dict[str, Any]] = {}
    rows = [row_cells(system, attacker, prepared_defenders, prepared, done, labels)
            for attacker in prepare_units(system_key, attackers, known)]
    return rows


def _db_retry(task: Any, exc: Exception) -> Any:
    """Retry `task` after a database error, 1, 2, 4, 8, 8 … s later; past `DB_RETRIES` the
    error propagates (and the caller fails the job with it)."""
    from django.db import connections

    for conn in connections.all():  # a cut connection is not reused by the retry
        conn.close_if_unusable_or_obsolete()
    delay = min(DB_RETRY_MAX_DELAY, 2 ** task.request.retries)
    return task.retry(exc=exc, countdown=delay, max_retries=DB_RETRIES)


@shared_task(
    name="estimates.row",
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    time_limit=settings.CELERY_TASK_TIME_LIMIT,
    soft_time_limit=settings.CELERY_TASK_SOFT_TIME_LIMIT,
)
def compute_row(self: Any, estimate_id: str, side: str, index: int) -> str:
    """One row of a fanned-out job (sent again alone by the reconciliation), as a part of one."""
    try:
        return _compute_rows(self, estimate_id, [f"{side}{index}"])
    except DB_ERRORS as exc:
        return _db_retry(self, exc)


@shared_task(
    name="estimates.part",
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    time_limit=settings.CELERY_TASK_TIME_LIMIT,
    soft_time_limit=settings.CELERY_TASK_SOFT_TIME_LIMIT,
)
def compute_part(self: Any, estimate_id: str, rows: list[str]) -> str:
    """Rows of a fanned-out job, computed together ("done" when this part completed the job,
    "row done" when others are left, "failed", "skipped" for a job no longer running)."""
    try:
        return _compute_rows(self, estimate_id, rows)
    except DB_ERRORS as exc:
        return _db_retry(self, exc)


def _is_complete(store: redis.Redis, estimate_id: str) -> bool:
    return store.scard(_key(estimate_id, "rows_done")) >= int(store.get(_key(estimate_id, "total")) or 0) > 0


def cpu_left(used: bytes | str | None) -> float:
    """CPU seconds the job may still use: `ESTIMATE_CPU_SECONDS` less what its tasks used so
    far (`used`, the job's `cpu` key as stored by `cpu_used`); infinite without a limit."""
    limit = settings.ESTIMATE_CPU_SECONDS
    if limit <= 0:
        return float("inf")
    return limit - float(used or 0.0)


def cpu_used(estimate_id: str, seconds: float) -> None:
    """Count `seconds` of CPU against the job (its parent task's pricing, each part)."""
    store = _redis().pipeline(transaction=False)
    store.incrbyfloat(_key(estimate_id, "cpu"), seconds)
    store.expire(_key(estimate_id, "cpu"), KEY_TTL)
    store.execute()


def _compute_rows(task: Any, estimate_id: str, rows: list[str]) -> str:
    """The rows of a part not done yet, computed in one go: one read of the job, the results
    stored and the progress written once for the part (a part's fixed cost is what limits the
    fan-out's speed-up: `bench/bench_fanout.py`). A part lost with its worker is redelivered
    and computes the rows it had not stored; a part sent twice computes nothing the second
    time. Rows already done are skipped; when they all are, the job may still need writing
    (a retry after a database error that came after the last part's rows were stored)."""
    store = _redis()
    pipe = store.pipeline(transaction=False)
    for row in rows:
        pipe.sismember(_key(estimate_id, "rows_done"), row)
    pipe.exists(_key(estimate_id, "priced"))
    *done_rows, priced = pipe.execute()
    todo = [row for row, done in zip(rows, done_rows, strict=True) if not done]
    if not todo:
        return assemble(estimate_id) if _is_complete(store, estimate_id) else "done before"
    if task.request.retries == 0:  # a retry after a database error is not a new attempt
        pipe = store.pipeline(transaction=False)
        for row in todo:
            pipe.hincrby(_key(estimate_id, "rows_started"), row, 1)
        pipe.expire(_key(estimate_id, "rows_started"), KEY_TTL)
        started = pipe.execute()[:-1]
        if max(started) > 1:  # a redelivery after a lost worker: one more attempt on the job
            estimate_attempt(estimate_id)
        if max(started) > MAX_ATTEMPTS:
            _fail(estimate_id, GAVE_UP)
            return "failed"
    job = estimate_running(estimate_id)
    if job is None:
        return "skipped"
    system_key, inputs = job.system, job.inputs
    pipe = store.pipeline(transaction=False)
    pipe.sadd(_key(estimate_id, "workers"), task.request.hostname or socket.gethostname())
    pipe.expire(_key(estimate_id, "workers"), KEY_TTL)
    pipe.get(_key(estimate_id, "cpu"))
    allowed = cpu_left(pipe.execute()[-1])
    hold_for_tests("row")
    labels: dict[str, Any] = {}
    by_side: dict[str, list[str]] = {"a": [], "b": []}
    for row in todo:
        by_side[row[0]].append(row)
    cells: dict[str, list[dict[str, Any]]] = {}
    if allowed <= 0:  # the parts before this one used the job's CPU seconds
        _fail(estimate_id, CPU_TOO_LONG)
        return "failed"
    cpu_before = process_cpu_seconds()
    try:
        with (memory_bound(settings.ESTIMATE_JOB_MEMORY_MB * 2**20),
              cpu_time_limit(0 if allowed == float("inf") else allowed)):
            refusal = None if priced else _price_rows(store, estimate_id, system_key, inputs, todo)
            if refusal:
                _fail(estimate_id, refusal)
                return "failed"
            for side, names in by_side.items():
                mine, theirs = ("list_a", "list_b") if side == "a" else ("list_b", "list_a")
                attackers = [inputs[mine]["units"][int(row[1:])]["unit"] for row in names]
                defenders = [u["unit"] for u in inputs[theirs]["units"]]
                found = _rows_cells(system_key, attackers, defenders, inputs.get("situation") or {}, labels)
                cells.update(zip(names, found, strict=True))
    except CpuTimeExceeded:
        _fail(estimate_id, CPU_TOO_LONG)
        return "failed"
    except SoftTimeLimitExceeded:
        _fail(estimate_id, TOO_LONG)
        return "failed"
    except MemoryError:
        _fail(estimate_id, OUT_OF_MEMORY)
        return "failed"
    except Exception as exc:  # a bug or bad input must still end the job visibly, with its error
        _fail(estimate_id, f"{type(exc).__name__}: {exc}")
        return "failed"
    finally:
        cpu_used(estimate_id, process_cpu_seconds() - cpu_before)
    pipe = store.pipeline(transaction=False)
    pipe.hset(_key(estimate_id, "cells"), mapping={
        row: json.dumps({"cells": cells[row], "outcomes": labels}) for row in todo})
    pipe.expire(_key(estimate_id, "cells"), KEY_TTL)
    for row in todo:
        pipe.sadd(_key(estimate_id, "rows_done"), row)
    pipe.expire(_key(estimate_id, "rows_done"), KEY_TTL)
    pipe.scard(_key(estimate_id, "rows_done"))
    written = pipe.execute()
    added = written[2:2 + len(todo)]
    matchups = 2 * len(inputs["list_a"]["units"]) * len(inputs["list_b"]["units"])
    share = sum(len(cells[row]) for row, new in zip(todo, added, strict=True) if new) / matchups
    if share:
        estimate_progress(estimate_id, add=share)
    if written[-1] >= len(rows_of(inputs)):
        return assemble(estimate_id)
    return "row done"


def _price_rows(store: redis.Redis, estimate_id: str, system_key: str, inputs: Mapping[str, Any],
                rows: list[str]) -> str | None:
    """A part of a job fanned out on its screen alone prices its rows' matchups before it
    computes them: why the job is refused (a matchup past the per-matchup limit, or the rows
    priced so far by every part past the job's limit), or None. Each row's price is kept
    (`priced_rows`), so a part delivered again does not count its rows twice."""
    from armybuilder.estimates.bounds import part_refusal, total_refusal

    refusal, seconds = part_refusal(system=get_system(system_key), inputs=inputs,
                                    rows=[(row[0], int(row[1:])) for row in rows])
    if refusal:
        return refusal
    pipe = store.pipeline(transaction=False)
    pipe.hset(_key(estimate_id, "priced_rows"),
              mapping={f"{side}{index}": row_seconds for (side, index), row_seconds in seconds.items()})
    pipe.expire(_key(estimate_id, "priced_rows"), KEY_TTL)
    pipe.hvals(_key(estimate_id, "priced_rows"))
    total = sum(float(value) for value in pipe.execute()[-1])
    return total_refusal(inputs, total)


def assemble(estimate_id: str) -> str:
    """The two matrices from the stored rows, written as the job's result (if it is still
    running and every row is there: "done"; "incomplete" otherwise)."""
    estimate = estimate_running(estimate_id)
    if estimate is None:
        return "failed"
    names = row_names(estimate.inputs)
    stored = _redis().hmget(_key(estimate_id, "cells"), names)
    if any(value is None for value in stored):
        return "incomplete"
    rows = [json.loads(value) for value in stored]
    list_a, list_b = estimate.inputs["list_a"], estimate.inputs["list_b"]
    split = len(list_a["units"])
    result = {
        "list_a": {"name": list_a.get("name", "A"), "units": [u["name"] for u in list_a["units"]]},
        "list_b": {"name": list_b.get("name", "B"), "units": [u["name"] for u in list_b["units"]]},
        "fields": outcome_fields([row["cells"] for row in rows]),
        "a_vs_b": [row["cells"] for row in rows[:split]],
        "b_vs_a": [row["cells"] for row in rows[split:]],
        "outcomes": {key: label for row in rows for key, label in row["outcomes"].items()},
    }
    elapsed_ms = (timezone.now() - estimate.started).total_seconds() * 1000 if estimate.started else None
    updated = estimate_finish(estimate_id, result=result, compute_ms=elapsed_ms)
    if updated:
        _redis().delete(_key(estimate_id, "cells"))  # the result is in Postgres now
    return "done" if updated else "failed"


def workers_of(estimate_id: str) -> set[str]:
    """The workers (hostnames) that computed rows of this job."""
    return {w.decode() for w in _redis().smembers(_key(estimate_id, "workers"))}
