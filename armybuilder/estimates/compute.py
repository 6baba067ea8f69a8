"""What an estimate job computes, over plain data: one attack, or every matchup of two lists.

No Django here: the Celery task hands in the inputs and a progress callback and stores what
comes back. The dice mathematics is the game system's (`GameSystem.attack` in the registry),
so nothing in this module knows a rule of any game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rules.systems.registry import get_system

ProgressCallback = Callable[[int, int], None]

#: The numbers of one matchup kept in a list-vs-list matrix cell.
MATRIX_CELL_FIELDS = ("expected_kills", "p_destroyed", "expected_points_destroyed", "points_efficiency")


class EstimateInputError(ValueError):
    """The inputs cannot be estimated (unknown system, system without an attack sequence)."""


def _attack_function(system_key: str) -> Callable[..., Mapping[str, Any]]:
    try:
        system = get_system(system_key)
    except KeyError as exc:
        raise EstimateInputError(str(exc.args[0])) from None
    if system.attack is None:
        raise EstimateInputError(f"{system.name} has no expected-damage calculation yet")
    return system.attack


def unit_vs_unit(system_key: str, inputs: Mapping[str, Any], on_progress: ProgressCallback | None = None
                 ) -> dict[str, Any]:
    """The full outcome of `inputs["attacker"]` attacking `inputs["defender"]`."""
    attack = _attack_function(system_key)
    result = dict(attack(inputs["attacker"], inputs["defender"], inputs.get("situation") or {}))
    if on_progress:
        on_progress(1, 1)
    return result


def _cell(outcome: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "expected_kills": outcome["expected"]["kills"],
        "p_destroyed": outcome["p_destroyed"],
        "expected_points_destroyed": outcome["expected_points_destroyed"],
        "points_efficiency": outcome["points_efficiency"],
    }


def _matrix(attack: Callable[..., Mapping[str, Any]], attackers: Sequence[Mapping[str, Any]],
            defenders: Sequence[Mapping[str, Any]], situation: Mapping[str, Any],
            tick: Callable[[], None]) -> list[list[dict[str, Any]]]:
    rows = []
    for attacker in attackers:
        row = []
        for defender in defenders:
            row.append(_cell(attack(attacker["unit"], defender["unit"], situation)))
            tick()
        rows.append(row)
    return rows


def list_vs_list(system_key: str, inputs: Mapping[str, Any], on_progress: ProgressCallback | None = None
                 ) -> dict[str, Any]:
    """Every unit of list A against every unit of list B, and back, as two matrices.

    Each list is `{"name": ..., "units": [{"name": ..., "unit": <unit format>}]}`.
    Progress is reported after every matchup, so a 20 × 20 job moves 800 times.
    """
    attack = _attack_function(system_key)
    list_a, list_b = inputs["list_a"], inputs["list_b"]
    situation = inputs.get("situation") or {}
    units_a, units_b = list_a["units"], list_b["units"]
    total = 2 * len(units_a) * len(units_b)
    done = 0

    def tick() -> None:
        nonlocal done
        done += 1
        if on_progress:
            on_progress(done, total)

    return {
        "list_a": {"name": list_a.get("name", "A"), "units": [u["name"] for u in units_a]},
        "list_b": {"name": list_b.get("name", "B"), "units": [u["name"] for u in units_b]},
        "fields": list(MATRIX_CELL_FIELDS),
        "a_vs_b": _matrix(attack, units_a, units_b, situation, tick),
        "b_vs_a": _matrix(attack, units_b, units_a, situation, tick),
    }


COMPUTATIONS: dict[str, Callable[..., dict[str, Any]]] = {
    "unit_vs_unit": unit_vs_unit,
    "list_vs_list": list_vs_list,
}
