"""What an estimate job computes, over plain data: one attack, or every matchup of two lists.

No Django here: the Celery task hands in the inputs and a progress callback and stores what
comes back. The dice mathematics is the game system's (`GameSystem.attack` in the registry),
so nothing in this module knows a rule of any game.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rules.matchups import matchup_matrix, matchup_rows
from rules.systems.registry import get_system

#: Bump whenever any system's attack mathematics changes: stored results of older
#: versions are then no longer reused for identical requests (see `services`).
ENGINE_VERSION = "2"

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
    if not system.can_attack:
        raise EstimateInputError(f"{system.name} has no expected-damage calculation yet")
    return system.attack


def unit_vs_unit(system_key: str, inputs: Mapping[str, Any], on_progress: ProgressCallback | None = None
                 ) -> dict[str, Any]:
    """The full outcome of `inputs["attacker"]` attacking `inputs["defender"]`."""
    attack = _attack_function(system_key)
    result = dict(attack(inputs["attacker"], inputs["defender"], inputs.get("situation") or {}))
    used = result.get("abilities_used")
    result["not_used"] = [
        {"role": role, "unit": str(inputs[role].get("name") or ""), "abilities": names}
        for role in ("attacker", "defender")
        if (names := abilities_not_used(inputs[role], used.get(role) if isinstance(used, Mapping) else None))
    ]
    if on_progress:
        on_progress(1, 1)
    return result


def abilities_not_used(unit: Mapping[str, Any], used: Any = None) -> list[str]:
    """Names of the unit's abilities that this estimate did not use: those kept as text
    (`abilities: [{name, text}]`, the rules an import could not turn into fields the maths
    reads). An ability read into fields (`read: true`) counts as used, unless the system's
    attack reports which abilities it applied for this side (`abilities_used`: {"attacker":
    [names], "defender": [names]}) and it is not among them (a ward when the unit attacks, a
    melee re-roll in a shooting attack)."""
    names: list[str] = []
    for ability in unit.get("abilities") or ():
        if not isinstance(ability, Mapping) or not ability.get("name") or "text" not in ability:
            continue
        name = str(ability["name"])
        applied = bool(ability.get("read")) and (not isinstance(used, list) or name in used)
        if not applied and name not in names:
            names.append(name)
    return names


#: Kinds of a system's extra `outcomes` that are one figure, and so fit in a matrix cell.
CELL_OUTCOME_KINDS = ("probability", "number")


def matrix_cell(outcome: Mapping[str, Any], labels: dict[str, str] | None = None) -> dict[str, Any]:
    """The figures of one matchup a matrix keeps: the common four, then every one-figure
    outcome of the system (`outcomes` of kind probability or number, unless it says
    `"matrix": false`) by its key."""
    cell = {
        "expected_kills": outcome["expected"]["kills"],
        "p_destroyed": outcome["p_destroyed"],
        "expected_points_destroyed": outcome["expected_points_destroyed"],
        "points_efficiency": outcome["points_efficiency"],
    }
    for extra in outcome.get("outcomes") or ():
        if (extra.get("kind") in CELL_OUTCOME_KINDS and extra.get("key") not in cell
                and extra.get("matrix", True) is not False):
            cell[extra["key"]] = extra["value"]
            if labels is not None and extra["key"] not in labels:  # a job's cells share their labels
                labels[extra["key"]] = {"label": str(extra.get("label", extra["key"])), "kind": extra["kind"]}
    return cell


def outcome_fields(cells: list[list[dict[str, Any]]]) -> list[str]:
    """The matrix's cell keys: the common four, then the systems' outcome keys as they appear."""
    fields = list(MATRIX_CELL_FIELDS)
    for row in cells:
        for cell in row:
            fields += [key for key in cell if key not in fields]
    return fields


class PreparedUnit:
    """One unit of a job as its system's `attack` takes it, read once per job: its canonical
    JSON (`key`, what tells two copies of a unit apart) and `prepared`
    (`GameSystem.prepare_unit` of the dict, or the dict itself), so that no matchup parses,
    prices or serialises a unit again."""

    __slots__ = ("key", "prepared")

    def __init__(self, key: str, prepared: Any) -> None:
        self.key = key
        self.prepared = prepared


def prepare_units(system_key: str, units: Sequence[Mapping[str, Any]],
                  known: dict[str, Any] | None = None) -> list[PreparedUnit]:
    """`units` (unit-format dicts) prepared for `attack`, each distinct unit once (`known`:
    key -> prepared, shared between the two lists of a job)."""
    prepare = get_system(system_key).prepare_unit
    known = {} if known is None else known
    found = []
    for unit in units:
        key = _canonical(unit)
        if key not in known:
            known[key] = prepare(unit)
        found.append(PreparedUnit(key, known[key]))
    return found


def prepare_situation(system_key: str, situation: Mapping[str, Any] | None) -> Any:
    """The job's situation as `attack` takes it, read once (`GameSystem.prepare_situation`)."""
    prepare = get_system(system_key).prepare_situation
    return prepare(situation or {})


def _remembering(attack: Callable[..., Mapping[str, Any]], situation: Any,
                 labels: dict[str, Any]) -> Callable[[PreparedUnit, PreparedUnit], dict[str, Any]]:
    """`attack` as a matrix cell, computed once per distinct pair of units.

    Lists repeat units (three identical squads), and the matrix would otherwise compute the
    same matchup again for each copy; units are compared by their canonical JSON.
    """
    cells: dict[tuple[str, str], dict[str, Any]] = {}

    def cell(attacker: PreparedUnit, defender: PreparedUnit) -> dict[str, Any]:
        key = (attacker.key, defender.key)
        if key not in cells:
            cells[key] = matrix_cell(attack(attacker.prepared, defender.prepared, situation), labels)
        return dict(cells[key])

    return cell


def row_cells(system: Any, attacker: PreparedUnit, defenders: Sequence[PreparedUnit], situation: Any,
              done: dict[tuple[str, str], dict[str, Any]], labels: dict[str, Any]) -> list[dict[str, Any]]:
    """`attacker`'s matrix cells against `defenders` (`matrix_cell`), through the system's
    `row_attack`: the pairs not in `done` (key pair -> cell, a repeated pair computed once)
    computed in one call, in the row's order, so the cells and their labels come out as
    `cell_attack` one by one would give them."""
    missing: dict[tuple[str, str], PreparedUnit] = {}
    for defender in defenders:
        pair = (attacker.key, defender.key)
        if pair not in done and pair not in missing:
            missing[pair] = defender
    if missing:
        outcomes = system.row_attack(attacker.prepared, [d.prepared for d in missing.values()], situation)
        for pair, outcome in zip(missing, outcomes, strict=True):
            done[pair] = matrix_cell(outcome, labels)
    return [dict(done[(attacker.key, defender.key)]) for defender in defenders]


def _canonical(unit: Mapping[str, Any]) -> str:
    return json.dumps(unit, sort_keys=True, separators=(",", ":"))


def list_vs_list(system_key: str, inputs: Mapping[str, Any], on_progress: ProgressCallback | None = None
                 ) -> dict[str, Any]:
    """Every unit of list A against every unit of list B, and back, as two matrices.

    Each list is `{"name": ..., "units": [{"name": ..., "unit": <unit format>}]}`;
    `a_vs_b[i][j]` is A's unit i attacking B's unit j, `b_vs_a[j][i]` the other way.
    Progress counts both matrices together, after every matchup (so a 20 × 20 job moves
    800 times; the task decides how often to store it).
    """
    _attack_function(system_key)  # refuses a system without an attack sequence
    system = get_system(system_key)
    list_a, list_b = inputs["list_a"], inputs["list_b"]
    units_a, units_b = list_a["units"], list_b["units"]
    labels: dict[str, Any] = {}
    situation = prepare_situation(system_key, inputs.get("situation"))
    half = len(units_a) * len(units_b)
    known: dict[str, Any] = {}
    prepared_a = prepare_units(system_key, [u["unit"] for u in units_a], known)
    prepared_b = prepare_units(system_key, [u["unit"] for u in units_b], known)

    def progress(offset: int) -> ProgressCallback:
        def report(done: int, _total: int) -> None:
            if on_progress:
                on_progress(offset + done, 2 * half)
        return report

    if system.computes_rows:  # the system shares work within a row: progress per row
        done: dict[tuple[str, str], dict[str, Any]] = {}

        def row(attacker: PreparedUnit, defenders: Sequence[PreparedUnit]) -> list[dict[str, Any]]:
            return row_cells(system, attacker, defenders, situation, done, labels)

        a_vs_b = matchup_rows(prepared_a, prepared_b, row, on_progress=progress(0))
        b_vs_a = matchup_rows(prepared_b, prepared_a, row, on_progress=progress(half))
    else:
        cell = _remembering(system.cell_attack, situation, labels)  # what a matrix cell keeps, no more
        a_vs_b = matchup_matrix(prepared_a, prepared_b, cell, on_progress=progress(0))
        b_vs_a = matchup_matrix(prepared_b, prepared_a, cell, on_progress=progress(half))
    return {
        "list_a": {"name": list_a.get("name", "A"), "units": [u["name"] for u in units_a]},
        "list_b": {"name": list_b.get("name", "B"), "units": [u["name"] for u in units_b]},
        "fields": outcome_fields(a_vs_b + b_vs_a),
        "outcomes": labels,  # outcome key -> {label (English), kind}: how a page shows the extra figures
        "a_vs_b": a_vs_b,
        "b_vs_a": b_vs_a,
    }


COMPUTATIONS: dict[str, Callable[..., dict[str, Any]]] = {
    "unit_vs_unit": unit_vs_unit,
    "list_vs_list": list_vs_list,
}
