"""Every accepted estimate is bounded: the cost model is checked before a job is queued (a
list-vs-list job's every matchup again on the worker, before it computes).

An exact estimate's cost follows its inputs (models, profiles, weapons, allocation orders),
and a few innocent-looking units once took 17 s and 4.5 GB for one matchup. So before an
input builder (`inputs.py`) hands anything to a job, and before the `estimate` command
computes, the system predicts the seconds and bytes of each matchup, and inputs beyond
`MAX_MATCHUP_SECONDS` / `MAX_MATCHUP_BYTES` are refused with an error that names the limit
(a 400 in the API, a form error on the pages, exit 2 in the command).

The prediction is the system's own `GameSystem.estimate_cost(attacker, defender, situation)
-> (seconds, bytes)` (each system's own cost module, checked against measurement within 3×).
A system without one gets the default, `rules/systems/generic_cost.py`, a documented
conservative bound: it prices every matchup as a dense allocation machine would, (defender
models + 1)² states walked once per attack die of the attacker, so only small units pass until
the system supplies its own model. A list-vs-list job computes only its matrix cells
(`GameSystem.cell_attack`), so its matchups and its total are priced as cells (`cell_cost`:
`GameSystem.cell_cost`, a system's `estimate_cell_cost` where it has one).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _

from armybuilder.estimates.machine_speed import machine_factor
from armybuilder.estimates.request_errors import EstimateRequestError
from rules.systems.generic_cost import positive_count
from rules.systems.registry import GameSystem, get_system

#: What one matchup may cost (`DESIGN.md`: "< 2 s and < 300 MB").
MAX_MATCHUP_SECONDS = 2.0
MAX_MATCHUP_BYTES = 300 * 1024 * 1024
#: What one list-vs-list job may cost in total, as a share of the task's soft time limit: even
#: one worker alone finishes all its rows (`fanout`) before the job counts as abandoned, with
#: room for the cost model's error.
JOB_SHARE_OF_SOFT_LIMIT = 0.5
def matchup_cost(system: GameSystem, attacker: Mapping[str, Any], defender: Mapping[str, Any],
                 situation: Mapping[str, Any]) -> tuple[float, int]:
    """Predicted (seconds, bytes) of `system.attack(attacker, defender, situation)`.

    The system predicts seconds of the machine its model was fitted on; they are scaled to
    this machine's (`machine_speed.machine_factor`). A system's `estimate_cost` may instead
    raise ValueError naming a limit of its own engine (40k: attacks per batch, total wounds);
    the request is then refused with that message."""
    seconds, size = system.estimate_cost(attacker, defender, situation)
    return float(seconds) * machine_factor(), int(size)


def cell_cost(system: GameSystem, attacker: Mapping[str, Any], defender: Mapping[str, Any],
              situation: Mapping[str, Any]) -> tuple[float, int]:
    """Predicted (seconds, bytes) of one list-job cell, `system.cell_attack(attacker, defender,
    situation)` (`GameSystem.cell_cost`), scaled as `matchup_cost`: a list job computes only its
    cells, so its matchups are priced (and refused) by what a cell costs, not a full `attack`."""
    seconds, size = system.cell_cost(attacker, defender, situation)
    return float(seconds) * machine_factor(), int(size)


def over_limit(seconds: float, size: int) -> str | None:
    """The message naming the limit a matchup of this cost passes, or None."""
    if seconds <= MAX_MATCHUP_SECONDS and size <= MAX_MATCHUP_BYTES:
        return None
    return _("Too large to compute exactly: this matchup would take about %(seconds).1f s and "
             "%(mb)d MB; the limit is %(max_seconds)g s and %(max_mb)d MB per matchup. "
             "Use fewer models, weapons or model profiles.") % {
        "seconds": seconds, "mb": round(size / 2**20), "max_seconds": MAX_MATCHUP_SECONDS,
        "max_mb": MAX_MATCHUP_BYTES // 2**20}


def _request_error(errors: Mapping[str, Sequence[str]]) -> Exception:
    return EstimateRequestError(errors)


def check_unit_vs_unit(*, system_key: str, inputs: Mapping[str, Any]) -> None:
    """Refuse (EstimateRequestError on `defender`) a matchup past the per-matchup limit."""
    system = get_system(system_key)
    try:
        cost = matchup_cost(system, inputs["attacker"], inputs["defender"], inputs["situation"])
        message = over_limit(*cost)
    except ValueError as exc:  # past a limit of the system's own engine
        message = str(exc)
    if message:
        raise _request_error({"defender": [message]})


def _canonical(unit: Mapping[str, Any]) -> str:
    return json.dumps(unit, sort_keys=True, separators=(",", ":"))


def _distinct(units: Sequence[Mapping[str, Any]]) -> dict[str, tuple[int, Mapping[str, Any]]]:
    """Each distinct unit of a side by its canonical JSON (computed once per unit), with the
    index of its first row (the one an error names)."""
    found: dict[str, tuple[int, Mapping[str, Any]]] = {}
    for i, row in enumerate(units):
        found.setdefault(_canonical(row["unit"]), (i, row["unit"]))
    return found


def _pair_costs(system: GameSystem, situation: Mapping[str, Any],
                pairs: Iterable[tuple[str, int, str, Mapping[str, Any], str, Mapping[str, Any]]],
                ) -> tuple[dict[tuple[str, str], float], dict[str, list[str]]]:
    """Predicted seconds of each (role, row, attacker key, attacker, defender key, defender)
    pair as a list job's cell (`cell_cost`), and the errors of those past a limit, by the row
    they name."""
    costs: dict[tuple[str, str], float] = {}
    errors: dict[str, list[str]] = {}
    for role, i, attacker_key, attacker, defender_key, defender in pairs:
        if (attacker_key, defender_key) in costs:
            continue
        try:
            seconds, size = cell_cost(system, attacker, defender, situation)
            message = over_limit(seconds, size)
        except ValueError as exc:  # past a limit of the system's own engine
            seconds, message = 0.0, str(exc)
        costs[(attacker_key, defender_key)] = seconds
        if message:
            errors.setdefault(f"{role}.units[{i}]", [message])
    return costs, errors


def _sides(inputs: Mapping[str, Any]) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    a, b = _distinct(inputs["list_a"]["units"]), _distinct(inputs["list_b"]["units"])
    return [("list_a", a, b), ("list_b", b, a)]


def list_vs_list_costs(*, system: GameSystem, inputs: Mapping[str, Any]) -> dict[tuple[str, str], float]:
    """Predicted seconds of every distinct (attacker, defender) pair of units of the job, by
    their canonical JSON (the job computes a repeated pair once). Refuses
    (EstimateRequestError naming the row) a pair past the per-matchup limit.

    It prices every pair (about 0.1 ms each: 2.4 s at 20,000 matchups), so it runs on the
    worker (`job_refusal`); a request checks `check_list_vs_list` instead."""
    pairs = ((role, i, ka, a, kd, d) for role, rows, columns in _sides(inputs)
             for ka, (i, a) in rows.items() for kd, (_, d) in columns.items())
    costs, errors = _pair_costs(system, inputs["situation"], pairs)
    if errors:
        raise _request_error(errors)
    return costs


#: How many of the opposing side's largest units each unit is checked against in a request.
SCREEN_OPPONENTS = 2


def _weight(unit: Mapping[str, Any]) -> tuple[int, int]:
    """How large a unit is by the unit format's shared shape: (models, models × weapons)."""
    models = [m for m in unit.get("models") or [] if isinstance(m, Mapping)]
    return (sum(positive_count(m.get("count")) for m in models),
            sum(positive_count(m.get("count")) * len(m.get("weapons") or []) for m in models))


def _largest(units: Mapping[str, tuple[int, Mapping[str, Any]]]) -> list[str]:
    """The keys of the side's largest units: the most models and the most weapons carried."""
    weights = {key: _weight(unit) for key, (_, unit) in units.items()}
    chosen: list[str] = []
    for measure in (0, 1):
        ranked = sorted(weights, key=lambda key: weights[key][measure], reverse=True)
        chosen += [key for key in ranked[:SCREEN_OPPONENTS] if key not in chosen]
    return chosen


def max_job_seconds() -> float:
    """Predicted seconds of computing one list-vs-list job may take in total."""
    return JOB_SHARE_OF_SOFT_LIMIT * settings.CELERY_TASK_SOFT_TIME_LIMIT


def _total_error(total: float) -> Exception:
    return _request_error({"list_b": [
        _("Too large: the matchups would take about %(seconds)d s of computing together; the "
          "limit is %(max)g s per job. Estimate smaller lists.")
        % {"seconds": round(total), "max": max_job_seconds()}]})


def screen_costs(*, system: GameSystem, inputs: Mapping[str, Any]) -> dict[tuple[str, str], float]:
    """The predicted seconds of each distinct unit against the opposing side's largest units
    (`SCREEN_OPPONENTS` by models and by weapons), by the units' canonical JSON: linear in the
    units, not in the matchups. Refuses (EstimateRequestError naming the row) a screened
    matchup past the per-matchup limit, and a job whose screened matchups alone pass
    `max_job_seconds()` (a true lower bound of its total)."""
    pairs = []
    for role, rows, columns in _sides(inputs):
        opponents = _largest(columns)
        pairs += [(role, i, ka, a, kd, columns[kd][1]) for ka, (i, a) in rows.items() for kd in opponents]
    costs, errors = _pair_costs(system, inputs["situation"], pairs)
    if errors:
        raise _request_error(errors)
    total = sum(costs.values())
    if total > max_job_seconds():
        raise _total_error(total)
    return costs


def check_list_vs_list(*, system_key: str, inputs: Mapping[str, Any]) -> None:
    """The request's cheap check of a list-vs-list job (`screen_costs`): a screened matchup
    past the limit is refused naming its unit, and so is a job whose screened matchups alone
    pass `max_job_seconds()`. The job checks every matchup before it computes (`job_refusal`,
    or each part its own: `part_refusal`)."""
    screen_costs(system=get_system(system_key), inputs=inputs)


def refusal_text(inputs: Mapping[str, Any], exc: Exception) -> str:
    """A refusal (`EstimateRequestError`) as the job's error: each unit's name and why."""
    errors = getattr(exc, "errors", None)
    if not isinstance(errors, Mapping):
        raise exc
    names = {f"{role}.units[{i}]": row.get("name", "")
             for role in ("list_a", "list_b") for i, row in enumerate(inputs[role]["units"])}
    return "; ".join(f"{names.get(path) or path}: {' '.join(map(str, messages))}"
                     for path, messages in errors.items())


def screen_refusal(
    *, system: GameSystem, inputs: Mapping[str, Any]
) -> tuple[str | None, dict[tuple[str, str], float]]:
    """On the worker, before a large job fans out: `screen_costs` as (why it is refused, or
    None; the screened pairs' seconds, which size its parts until each part prices its own
    matchups)."""
    try:
        return None, screen_costs(system=system, inputs=inputs)
    except Exception as exc:
        return refusal_text(inputs, exc), {}


def part_refusal(*, system: GameSystem, inputs: Mapping[str, Any],
                 rows: Sequence[tuple[str, int]]) -> tuple[str | None, dict[tuple[str, int], float]]:
    """A part of a fanned-out job prices its own matchups before it computes: each of these
    rows ((side "a" or "b", index): that side's unit against every distinct unit of the other
    side) as (why the job is refused: a matchup past the per-matchup limit, or None; each row's
    predicted seconds)."""
    sides = {"a": ("list_a", "list_b"), "b": ("list_b", "list_a")}
    columns = {side: _distinct(inputs[other]["units"]) for side, (_, other) in sides.items()
               if any(row_side == side for row_side, _ in rows)}
    pairs: dict[tuple[str, int], list[tuple[str, int, str, Mapping[str, Any], str, Mapping[str, Any]]]] = {}
    for side, index in rows:
        role = sides[side][0]
        unit = inputs[role]["units"][index]["unit"]
        pairs[(side, index)] = [(role, index, _canonical(unit), unit, kd, d)
                                for kd, (_, d) in columns[side].items()]
    costs, errors = _pair_costs(system, inputs["situation"], (pair for row in pairs.values() for pair in row))
    if errors:
        return refusal_text(inputs, _request_error(errors)), {}
    return None, {row: sum(costs[(attacker, defender)] for _, _, attacker, _, defender, _ in row_pairs)
                  for row, row_pairs in pairs.items()}


def total_refusal(inputs: Mapping[str, Any], total: float) -> str | None:
    """Why a job whose priced matchups add up to `total` seconds is refused, or None."""
    return refusal_text(inputs, _total_error(total)) if total > max_job_seconds() else None


def job_refusal(
    *, system: GameSystem, inputs: Mapping[str, Any]
) -> tuple[str | None, dict[tuple[str, str], float]]:
    """On the worker, before a list-vs-list job computes: (why it is refused, or None; the
    predicted seconds of each distinct pair, which size its fan-out). Every matchup is priced
    here, off the request path."""
    try:
        costs = list_vs_list_costs(system=system, inputs=inputs)
        total = sum(costs.values())
        if total > max_job_seconds():
            raise _total_error(total)
    except Exception as exc:
        return refusal_text(inputs, exc), {}
    return None, costs
