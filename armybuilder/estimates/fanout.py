"""A list-vs-list job spread over every worker: one Celery subtask per matrix row.

`run_estimate` (`tasks.py`) hands a list-vs-list job here when a worker runs it. The job
becomes a chord: one `estimates.row` subtask per attacking unit (list A's units against
list B, then list B's against list A), and `estimates.assemble` once every row is back.
The rows go through the broker, so any number of workers on any number of machines share
them (`docker compose up --scale worker=N` adds workers; README, "Scaling the workers").

The job's rules are the single task's:
- every row is acknowledged late and rejected when its worker dies, so the broker hands it
  to another worker; a row started again counts one more attempt on the job, and a row
  started more than `MAX_ATTEMPTS` times fails the job (`GAVE_UP`);
- time limits, MemoryError and any error in a row fail the whole job with that row's error;
  the other rows then skip their work and `assemble` writes nothing;
- progress is summed from the parts: each row adds its share of the matchups once, when it
  is done (a row run twice adds it once).

Which rows ran where, and how often each started, is kept in Redis under
`estimate:<id>:…` for a day (`rows_started`, `workers`): the job's own bookkeeping, and
what the tests read to see that two workers both took part.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Mapping
from functools import cache
from typing import Any

import redis
from celery import chord, shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db.models import F, Value
from django.db.models.functions import Least
from django.utils import timezone

import armybuilder.celery  # noqa: F401  (the app the subtasks bind to)
from armybuilder.estimates.compute import matrix_cell, outcome_fields
from armybuilder.estimates.models import Estimate
from rules.systems.registry import get_system

#: Bookkeeping keys live this long (seconds): longer than any job may run.
KEY_TTL = 24 * 3600


@cache
def _redis() -> redis.Redis:
    return redis.Redis.from_url(settings.REDIS_URL)


def _key(estimate_id: str, what: str) -> str:
    return f"estimate:{estimate_id}:{what}"


def rows_of(inputs: Mapping[str, Any]) -> list[tuple[str, int]]:
    """The job's rows in result order: ("a", i) is list A's unit i against list B, ("b", j)
    list B's unit j against list A."""
    return ([("a", i) for i in range(len(inputs["list_a"]["units"]))]
            + [("b", j) for j in range(len(inputs["list_b"]["units"]))])


def should_fan_out(estimate: Estimate, *, request: Any) -> bool:
    """Fan out a list-vs-list job of more than one row, when a worker runs it from the broker
    (a direct call, as in tests and `manage.py shell`, and an eager run compute in-process)."""
    in_worker = not (getattr(request, "called_directly", True) or getattr(request, "is_eager", False))
    return in_worker and estimate.kind == Estimate.Kind.LIST_VS_LIST and len(rows_of(estimate.inputs)) > 1


def start(estimate: Estimate) -> str:
    """Queue the chord of rows for this running job; its last part writes the result."""
    estimate_id = str(estimate.pk)
    if not _redis().set(_key(estimate_id, "fanned_out"), "1", nx=True, ex=KEY_TTL):
        return "fanned out"  # the parent task was redelivered: its rows are already queued
    rows = rows_of(estimate.inputs)
    chord(compute_row.s(estimate_id, side, index) for side, index in rows)(assemble.s(estimate_id))
    return "fanned out"


def _fail(estimate_id: str, error: str) -> None:
    Estimate.objects.filter(pk=estimate_id, status=Estimate.Status.RUNNING).update(
        status=Estimate.Status.FAILED, error=error, progress=1.0, finished=timezone.now())


def _row_cells(system_key: str, attacker: Mapping[str, Any], defenders: list[Mapping[str, Any]],
               situation: Mapping[str, Any], labels: dict[str, Any]) -> list[dict[str, Any]]:
    """One attacker against each defender, as matrix cells (a repeated defender computed once),
    each cell as the one-worker job keeps it (`compute.matrix_cell`: the common figures and the
    system's one-figure outcomes, whose labels go into `labels`)."""
    attack = get_system(system_key).attack
    done: dict[str, dict[str, Any]] = {}
    cells = []
    for defender in defenders:
        key = json.dumps(defender, sort_keys=True, separators=(",", ":"))
        if key not in done:
            done[key] = matrix_cell(attack(attacker, defender, situation), labels)
        cells.append(dict(done[key]))
    return cells


@shared_task(
    name="estimates.row",
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    time_limit=settings.CELERY_TASK_TIME_LIMIT,
    soft_time_limit=settings.CELERY_TASK_SOFT_TIME_LIMIT,
)
def compute_row(self: Any, estimate_id: str, side: str, index: int) -> dict[str, Any] | None:
    """One row of a fanned-out job (`{"cells", "outcomes"}`); None when the job has failed."""
    from armybuilder.estimates.tasks import GAVE_UP, MAX_ATTEMPTS, OUT_OF_MEMORY, TOO_LONG

    store = _redis()
    started = store.hincrby(_key(estimate_id, "rows_started"), f"{side}{index}", 1)
    store.expire(_key(estimate_id, "rows_started"), KEY_TTL)
    if started > 1:  # a redelivery after a lost worker: one more attempt on the job
        Estimate.objects.filter(pk=estimate_id).update(attempts=F("attempts") + 1)
    estimate = Estimate.objects.filter(pk=estimate_id, status=Estimate.Status.RUNNING).first()
    if estimate is None:
        return None
    if started > MAX_ATTEMPTS:
        _fail(estimate_id, GAVE_UP)
        return None
    store.sadd(_key(estimate_id, "workers"), self.request.hostname or socket.gethostname())
    store.expire(_key(estimate_id, "workers"), KEY_TTL)
    inputs = estimate.inputs
    mine, theirs = ("list_a", "list_b") if side == "a" else ("list_b", "list_a")
    defenders = [u["unit"] for u in inputs[theirs]["units"]]
    labels: dict[str, Any] = {}
    try:
        cells = _row_cells(estimate.system, inputs[mine]["units"][index]["unit"], defenders,
                           inputs.get("situation") or {}, labels)
    except SoftTimeLimitExceeded:
        _fail(estimate_id, TOO_LONG)
        return None
    except MemoryError:
        _fail(estimate_id, OUT_OF_MEMORY)
        return None
    except Exception as exc:  # a bug or bad input must still end the job visibly, with its error
        _fail(estimate_id, f"{type(exc).__name__}: {exc}")
        return None
    if store.sadd(_key(estimate_id, "rows_done"), f"{side}{index}"):
        store.expire(_key(estimate_id, "rows_done"), KEY_TTL)
        share = len(cells) / (2 * len(inputs["list_a"]["units"]) * len(inputs["list_b"]["units"]))
        Estimate.objects.filter(pk=estimate_id, status=Estimate.Status.RUNNING).update(
            progress=Least(F("progress") + Value(share), Value(0.999)))
    return {"cells": cells, "outcomes": labels}


@shared_task(name="estimates.assemble", acks_late=True, reject_on_worker_lost=True)
def assemble(rows: list[dict[str, Any] | None], estimate_id: str) -> str:
    """The two matrices from the rows, written as the job's result (if it is still running)."""
    estimate = Estimate.objects.filter(pk=estimate_id, status=Estimate.Status.RUNNING).first()
    if estimate is None or any(row is None for row in rows):
        return "failed"
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
    updated = Estimate.objects.filter(pk=estimate_id, status=Estimate.Status.RUNNING).update(
        status=Estimate.Status.DONE, result=result, error="", progress=1.0, finished=timezone.now(),
        compute_ms=elapsed_ms)
    return "done" if updated else "failed"


def workers_of(estimate_id: str) -> set[str]:
    """The workers (hostnames) that computed rows of this job."""
    return {w.decode() for w in _redis().smembers(_key(estimate_id, "workers"))}
