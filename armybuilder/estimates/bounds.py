"""Every accepted estimate is bounded: the cost model is checked before a job is queued.

An exact estimate's cost follows its inputs (models, profiles, weapons, allocation orders),
and a few innocent-looking units once took 17 s and 4.5 GB for one matchup. So before an
input builder (`inputs.py`) hands anything to a job, and before the `estimate` command
computes, the system predicts the seconds and bytes of each matchup, and inputs beyond
`MAX_MATCHUP_SECONDS` / `MAX_MATCHUP_BYTES` are refused with an error that names the limit
(a 400 in the API, a form error on the pages, exit 2 in the command).

The prediction is the system's own `GameSystem.estimate_cost(attacker, defender, situation)
-> (seconds, bytes)` (each system's own cost module, checked against measurement within 3×).
A system without one gets `generic_cost`, a documented conservative bound: it prices every
matchup as a dense allocation machine would, (defender models + 1)² states walked once per
attack die of the attacker (GENERIC_* below), so only small units pass until the system
supplies its own model.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _

from rules.systems.registry import GameSystem, get_system

#: What one matchup may cost (`shared/DESIGN.md`: "< 2 s and < 300 MB").
MAX_MATCHUP_SECONDS = 2.0
MAX_MATCHUP_BYTES = 300 * 1024 * 1024
#: What one list-vs-list job may cost in total, as a share of the task's soft time limit: even
#: one worker alone finishes all its rows (`fanout`) before the job counts as abandoned, with
#: room for the cost model's error.
JOB_SHARE_OF_SOFT_LIMIT = 0.5
#: The generic bound: seconds and bytes per (defender state × attack die) of a dense machine.
GENERIC_SECONDS_PER_CELL = 1e-7
GENERIC_BYTES_PER_STATE = 1024
GENERIC_ATTACKS_PER_WEAPON = 6


def _count(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def generic_cost(attacker: Mapping[str, Any], defender: Mapping[str, Any],
                 situation: Mapping[str, Any]) -> tuple[float, int]:
    """The conservative (seconds, bytes) of a system without `estimate_cost`: only the unit
    format's shared shape is read (models with a `count` and a `weapons` list)."""
    models = [m for m in defender.get("models") or [] if isinstance(m, Mapping)]
    states = (sum(_count(m.get("count")) for m in models) + 1) ** 2
    dice = sum(_count(m.get("count")) * len(m.get("weapons") or []) * GENERIC_ATTACKS_PER_WEAPON
               for m in attacker.get("models") or [] if isinstance(m, Mapping))
    return GENERIC_SECONDS_PER_CELL * states * max(1, dice), GENERIC_BYTES_PER_STATE * states


def matchup_cost(system: GameSystem, attacker: Mapping[str, Any], defender: Mapping[str, Any],
                 situation: Mapping[str, Any]) -> tuple[float, int]:
    """Predicted (seconds, bytes) of `system.attack(attacker, defender, situation)`.

    A system's `estimate_cost` may instead raise ValueError naming a limit of its own engine
    (40k: attacks per batch, total wounds); the request is then refused with that message."""
    cost = getattr(system, "estimate_cost", None) or generic_cost
    seconds, size = cost(attacker, defender, situation)
    return float(seconds), int(size)


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
    from armybuilder.estimates.inputs import EstimateRequestError  # inputs calls this module

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


def list_vs_list_costs(*, system: GameSystem, inputs: Mapping[str, Any]) -> dict[tuple[str, str], float]:
    """Predicted seconds of every distinct (attacker, defender) pair of units of the job, by
    their canonical JSON (the job computes a repeated pair once)."""
    situation = inputs["situation"]
    costs: dict[tuple[str, str], float] = {}
    errors: dict[str, list[str]] = {}
    sides = (("list_a", inputs["list_a"]["units"], inputs["list_b"]["units"]),
             ("list_b", inputs["list_b"]["units"], inputs["list_a"]["units"]))
    for role, rows, columns in sides:
        for i, row in enumerate(rows):
            for column in columns:
                key = (_canonical(row["unit"]), _canonical(column["unit"]))
                if key in costs:
                    continue
                try:
                    seconds, size = matchup_cost(system, row["unit"], column["unit"], situation)
                    message = over_limit(seconds, size)
                except ValueError as exc:  # past a limit of the system's own engine
                    seconds, message = 0.0, str(exc)
                costs[key] = seconds
                if message:
                    errors.setdefault(f"{role}.units[{i}]", [message])
    if errors:
        raise _request_error(errors)
    return costs


def max_job_seconds() -> float:
    """Predicted seconds of computing one list-vs-list job may take in total."""
    return JOB_SHARE_OF_SOFT_LIMIT * settings.CELERY_TASK_SOFT_TIME_LIMIT


def check_list_vs_list(*, system_key: str, inputs: Mapping[str, Any]) -> None:
    """Refuse a list-vs-list job with a matchup past the limit (naming its unit), or whose
    matchups together pass `max_job_seconds()`."""
    total = sum(list_vs_list_costs(system=get_system(system_key), inputs=inputs).values())
    if total > max_job_seconds():
        raise _request_error({"list_b": [
            _("Too large: the matchups would take about %(seconds)d s of computing together; the "
              "limit is %(max)g s per job. Estimate smaller lists.")
            % {"seconds": round(total), "max": max_job_seconds()}]})
