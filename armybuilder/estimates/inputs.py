"""What an estimate job is asked, in its one canonical shape, and the checks it must pass.

Pages and the API both build a job's inputs here, so the same question asked from a unit
card, the editor or a mobile client has the same inputs and so the same hash (and the
stored answer is reused):

    unit vs unit:  {"attacker": <unit>, "defender": <unit>, "situation": <situation>}
    list vs list:  {"list_a": {"name", "units": [{"name", "unit"}]}, "list_b": ..., "situation": ...}

Every unit is in the unit format (`shared/spec/unit-format.md`), written out in full, and
the situation has all the fields of `shared/spec/opr-combat.md` ("Inputs") with plain JSON
values (the range always a float: 12 and 12.0 must not hash differently).

Problems are raised as one `EstimateRequestError` mapping each field path
(`defender.models[0].quality`, `situation.charging`) to its messages, which the API returns
as its 400 `details` and the form shows next to its fields.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _

from points.unit_format import UnitFormatError
from rules.systems.registry import GameSystem, get_system

MODES = ("shooting", "melee")
#: The yes/no fields of a situation (`opr-combat.md`, "Inputs"), in the order forms show them.
SITUATION_FLAGS = (
    "charging", "attacker_moved", "defender_in_cover", "defender_activated", "enemies_within_12",
)
#: A shooting range inside every common weapon's reach: the engine's and the command's default.
DEFAULT_RANGE_INCHES = 12.0
#: Farther than any table is wide; a bigger number is a typo, not a situation.
MAX_RANGE_INCHES = 120.0
#: Matchups one list-vs-list job may compute (both directions), so that a job ends well
#: inside the worker's time limit (a matchup takes a few milliseconds).
MAX_MATCHUPS = 20_000


class EstimateRequestError(ValueError):
    """The request cannot become a job; `errors` maps each field path to its messages."""

    def __init__(self, errors: Mapping[str, Sequence[str]]):
        self.errors = {path: list(messages) for path, messages in errors.items()}
        super().__init__("; ".join(f"{path}: {m}" if path else m
                                   for path, messages in self.errors.items() for m in messages))


def _join(path: str, child: str) -> str:
    return f"{path}.{child}" if path and child else path or child


def default_situation() -> dict[str, Any]:
    """The situation nothing was said about: shooting at 12", nobody moved, no cover."""
    return {"mode": "shooting", **dict.fromkeys(SITUATION_FLAGS, False), "range_inches": DEFAULT_RANGE_INCHES}


def situation_clean(data: Any, *, path: str = "situation") -> dict[str, Any]:
    """The full situation from a partial one (missing fields take their defaults).

    Unknown fields, a mode other than shooting/melee, flags that are not true/false, a
    range outside 0–120" and a charge that is not a melee attack are errors.
    """
    if data is None:
        data = {}
    if not isinstance(data, Mapping):
        raise EstimateRequestError({path: [_("Must be an object.")]})
    errors: dict[str, list[str]] = {}
    situation = default_situation()
    for key, value in data.items():
        field = _join(path, str(key))
        if key == "mode":
            if value not in MODES:
                errors[field] = [_("Must be “shooting” or “melee”.")]
            else:
                situation["mode"] = value
        elif key in SITUATION_FLAGS:
            if not isinstance(value, bool):
                errors[field] = [_("Must be true or false.")]
            else:
                situation[key] = value
        elif key == "range_inches":
            if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) \
                    or not 0 <= value <= MAX_RANGE_INCHES:
                errors[field] = [_("Must be a number of inches from 0 to %(max)d.")
                                 % {"max": MAX_RANGE_INCHES}]
            else:
                situation["range_inches"] = float(value)
        else:
            errors[field] = [_("Unknown field.")]
    if situation["charging"] and situation["mode"] != "melee" and _join(path, "charging") not in errors:
        errors.setdefault(_join(path, "charging"), []).append(_("A charge is a melee attack: choose melee."))
    if errors:
        raise EstimateRequestError(errors)
    return situation


def estimating_system(key: Any, *, path: str) -> GameSystem:
    """The registered system `key` names, if it has an attack sequence to estimate with."""
    if not isinstance(key, str) or not key:
        raise EstimateRequestError({path: [_("Name the game system, e.g. “opr”.")]})
    try:
        system = get_system(key)
    except KeyError:
        raise EstimateRequestError({path: [_("Unknown game system “%(key)s”.") % {"key": key}]}) from None
    if system.attack is None:
        raise EstimateRequestError({path: [_("There are no damage estimates for %(system)s yet.")
                                           % {"system": system.name}]})
    return system


def unit_check(unit: Any, *, path: str) -> GameSystem:
    """The unit's system, after its system priced it (which checks every field of it)."""
    if not isinstance(unit, Mapping):
        raise EstimateRequestError({path: [_("A unit must be a JSON object.")]})
    system = estimating_system(unit.get("system"), path=_join(path, "system"))
    try:
        system.price(unit)
    except UnitFormatError as exc:
        errors = _grouped((_join(path, e.path), e.message) for e in exc.errors)
        raise EstimateRequestError(errors or {path: [str(exc)]}) from None
    return system


def _grouped(pairs: Any) -> dict[str, list[str]]:
    grouped: dict[str, list[str]] = {}
    for path, message in pairs:
        grouped.setdefault(path, []).append(message)
    return grouped


def unit_vs_unit_inputs(*, attacker: Mapping[str, Any], defender: Mapping[str, Any],
                        situation: Mapping[str, Any] | None) -> tuple[str, dict[str, Any]]:
    """(system key, inputs) of one unit attacking another; both units checked, errors of
    both reported at once. The two units must belong to the same game system."""
    errors: dict[str, list[str]] = {}
    systems: dict[str, GameSystem] = {}
    for role, unit in (("attacker", attacker), ("defender", defender)):
        try:
            systems[role] = unit_check(unit, path=role)
        except EstimateRequestError as exc:
            errors.update(exc.errors)
    try:
        cleaned = situation_clean(situation)
    except EstimateRequestError as exc:
        errors.update(exc.errors)
    if len(systems) == 2 and systems["attacker"].key != systems["defender"].key:
        errors.setdefault("defender.system", []).append(
            _("The defender must be of the attacker's game system (%(system)s).")
            % {"system": systems["attacker"].name})
    if errors:
        raise EstimateRequestError(errors)
    inputs = {"attacker": dict(attacker), "defender": dict(defender), "situation": cleaned}
    return systems["attacker"].key, inputs


def army_inputs(*, name: str, units: Sequence[tuple[str, Mapping[str, Any]]]) -> dict[str, Any]:
    """One side of a list-vs-list job: the list's name and its units, each with its name."""
    return {"name": name, "units": [{"name": unit_name, "unit": dict(unit)} for unit_name, unit in units]}


def list_vs_list_inputs(*, system_key: str, list_a: Mapping[str, Any], list_b: Mapping[str, Any],
                        situation: Mapping[str, Any] | None) -> tuple[str, dict[str, Any]]:
    """(system key, inputs) of every unit of `list_a` against every unit of `list_b` and back.

    The lists' units come from saved lists (already priced and checked when they were
    added), so only their system, their size and the situation are checked here.
    """
    errors: dict[str, list[str]] = {}
    try:
        estimating_system(system_key, path="system")
    except EstimateRequestError as exc:
        errors.update(exc.errors)
    for role, army in (("list_a", list_a), ("list_b", list_b)):
        if not army["units"]:
            errors.setdefault(role, []).append(_("This list has no units."))
    matchups = 2 * len(list_a["units"]) * len(list_b["units"])
    if matchups > MAX_MATCHUPS:
        errors.setdefault("list_b", []).append(
            _("Too many matchups (%(count)d, at most %(max)d): estimate smaller lists.")
            % {"count": matchups, "max": MAX_MATCHUPS})
    try:
        cleaned = situation_clean(situation)
    except EstimateRequestError as exc:
        errors.update(exc.errors)
    if errors:
        raise EstimateRequestError(errors)
    return system_key, {"list_a": dict(list_a), "list_b": dict(list_b), "situation": cleaned}
