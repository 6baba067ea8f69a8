"""What an estimate job is asked, in its one canonical shape, and the checks it must pass.

Pages and the API both build a job's inputs here, so the same question asked from a unit
card, the editor or a mobile client has the same inputs and so the same hash (and the
stored answer is reused):

    unit vs unit:  {"attacker": <unit>, "defender": <unit>, "situation": <situation>}
    list vs list:  {"list_a": {"name", "units": [{"name", "unit"}]}, "list_b": ..., "situation": ...}

Every unit is in the unit format (`docs/unit-format.md`), written out in full, and
the situation has every field of the game system's `situation_schema` (the registry) with
plain JSON values (a `number` always a float: 12 and 12.0 must not hash differently). The
system is known before the situation is checked: it is the units' (or the lists').

Problems are raised as one `EstimateRequestError` mapping each field path
(`defender.models[0].quality`, `situation.mode`) to its messages, which the API returns
as its 400 `details` and the form shows next to its fields.

A side that is the system's reference target(s) (the defender, or list B the reference set) is
named in `"references": [role, ...]` (`with_references`): its stored names are the English
msgids its system marks for translation, which its pages translate; a player's unit or list of
the same name is not marked, and is shown as written. Inputs without the key (older jobs) are
shown as stored.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _

from armybuilder.estimates.bounds import check_list_vs_list, check_unit_vs_unit
from armybuilder.estimates.request_errors import EstimateRequestError
from points.shared_format import UnitFormatError
from rules.systems.registry import GameSystem, get_system

#: Matchups one list-vs-list job may compute (both directions), so that a job ends well
#: inside the worker's time limit (a matchup takes a few milliseconds).
MAX_MATCHUPS = 20_000


def _join(path: str, child: str) -> str:
    return f"{path}.{child}" if path and child else path or child


#: Each schema's defaults, normalised once: schemas are module constants, so they are
#: remembered per schema object (the object is kept, so its id is never reused).
_DEFAULTS: dict[int, tuple[Mapping[str, Any], dict[str, Any]]] = {}


def default_situation(*, system: GameSystem) -> dict[str, Any]:
    """The situation nothing was said about: every field of the system's schema at its default."""
    properties = situation_properties(system)
    known = _DEFAULTS.get(id(properties))
    if known is None or known[0] is not properties:
        defaults = {name: _normalised(spec, spec.get("default")) for name, spec in properties.items()}
        known = (properties, defaults)
        _DEFAULTS[id(properties)] = known
    return dict(known[1])


def situation_properties(system: GameSystem) -> Mapping[str, Mapping[str, Any]]:
    """The fields of `system`'s situation, in the order its schema lists them."""
    return (system.situation_schema or {}).get("properties", {})


def _normalised(spec: Mapping[str, Any], value: Any) -> Any:
    """One JSON value per meaning, so equal questions hash alike: a `number` is always a float
    (12 and 12.0), an `integer` an int (3.0 → 3)."""
    if spec.get("type") == "number" and isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    if spec.get("type") == "integer" and isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _bounds_text(spec: Mapping[str, Any]) -> dict[str, str]:
    return {"min": f"{spec.get('minimum', '−∞')}", "max": f"{spec.get('maximum', '∞')}"}


def situation_value_error(spec: Mapping[str, Any], value: Any) -> str | None:
    """Why `value` is not a value of the schema property `spec` (translated), or None."""
    kind = spec.get("type")
    if kind == "boolean":
        return None if isinstance(value, bool) else _("Must be true or false.")
    if kind in ("integer", "number"):
        number = isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
        if kind == "integer" and number and not float(value).is_integer():
            number = False
        low, high = spec.get("minimum"), spec.get("maximum")
        if not number or (low is not None and value < low) or (high is not None and value > high):
            if kind == "integer":
                return _("Must be a whole number from %(min)s to %(max)s.") % _bounds_text(spec)
            return _("Must be a number from %(min)s to %(max)s.") % _bounds_text(spec)
        return None
    if "enum" in spec:
        if value not in spec["enum"]:
            labels = spec.get("x-enum-labels", {})
            return _("Must be one of: %(values)s.") % {"values": ", ".join(
                f"“{v}” ({_(labels[v])})" if v in labels else f"“{v}”" for v in spec["enum"])}
        return None
    return None if isinstance(value, str) else _("Must be a string.")


def situation_clean(data: Any, *, system: GameSystem, path: str = "situation") -> dict[str, Any]:
    """The full situation of `system` from a partial one (missing fields take their defaults).

    Checked against the system's `situation_schema` (unknown fields, wrong types, numbers
    out of bounds, values outside an enum), then by its `situation_errors` (cross-field
    rules); every problem is reported at once, by its path.
    """
    if data is None:
        data = {}
    if not isinstance(data, Mapping):
        raise EstimateRequestError({path: [_("Must be an object.")]})
    properties = situation_properties(system)
    errors: dict[str, list[str]] = {}
    situation = default_situation(system=system)
    for key, value in data.items():
        field = _join(path, str(key))
        spec = properties.get(key)
        if spec is None:
            errors[field] = [_("Unknown field.")]
            continue
        problem = situation_value_error(spec, value)
        if problem:
            errors[field] = [problem]
        else:
            situation[key] = _normalised(spec, value)
    if not errors:
        for key, messages in system.situation_errors(dict(situation)).items():
            errors.setdefault(_join(path, key), []).extend(_(message) for message in messages)
    if errors:
        raise EstimateRequestError(errors)
    return situation


def estimating_system(key: Any, *, path: str) -> GameSystem:
    """The registered system `key` names, if it has an attack sequence to estimate with."""
    if not isinstance(key, str) or not key:
        raise EstimateRequestError({path: [_("Name the game system by its key.")]})
    try:
        system = get_system(key)
    except KeyError:
        raise EstimateRequestError({path: [_("Unknown game system “%(key)s”.") % {"key": key}]}) from None
    if not system.can_attack:
        raise EstimateRequestError({path: [_("There are no damage estimates for %(system)s yet.")
                                           % {"system": _(system.name)}]})
    return system


def estimable(unit: Mapping[str, Any]) -> bool:
    """Whether the unit has the profile an estimate needs: not one whose source data gave it
    none (`profile_in_source: false`, a BattleScribe import of a warscroll or points-only
    entry without characteristics), which is listed and priced but never estimated."""
    return unit.get("profile_in_source") is not False


def estimable_in_list(unit: Mapping[str, Any]) -> bool:
    """Whether a unit of a list takes part in estimates: it has models with a profile. A
    roster's configuration selections (a battle size, a game type: units without models, kept
    for the BattleScribe engine) are listed and priced, never estimated, like a unit without a
    profile (`estimable`)."""
    return bool(unit.get("models")) and estimable(unit)


def unit_check(unit: Any, *, path: str) -> GameSystem:
    """The unit's system, after its system checked every field of it (`check_unit`, or its
    price where the system has no separate check: the price itself is not needed here)."""
    if not isinstance(unit, (dict, Mapping)):  # dict: the cheap check first
        raise EstimateRequestError({path: [_("A unit must be a JSON object.")]})
    if not estimable(unit):
        raise EstimateRequestError({path: [
            _("“%(name)s” cannot be estimated: its catalogue gives it no profile (no characteristics "
              "to roll with).") % {"name": str(unit.get("name") or "")}]})
    system = estimating_system(unit.get("system"), path=_join(path, "system"))
    try:
        system.check(unit)
    except UnitFormatError as exc:
        errors = _grouped((_join(path, e.path), e.message) for e in exc.errors)
        raise EstimateRequestError(errors or {path: [str(exc)]}) from None
    return system


def _named_system(*units: Any) -> GameSystem | None:
    """The first estimating system a unit names, even if the unit itself is invalid: its
    situation can still be checked (and its errors reported with the units')."""
    for unit in units:
        if isinstance(unit, Mapping):
            try:
                return estimating_system(unit.get("system"), path="")
            except EstimateRequestError:
                continue
    return None


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
    system = systems.get("attacker") or systems.get("defender") or _named_system(attacker, defender)
    cleaned: dict[str, Any] = {}
    if system is not None:  # the situation's fields are the system's: known only once a unit names it
        try:
            cleaned = situation_clean(situation, system=system)
        except EstimateRequestError as exc:
            errors.update(exc.errors)
    if len(systems) == 2 and systems["attacker"].key != systems["defender"].key:
        errors.setdefault("defender.system", []).append(
            _("The defender must be of the attacker's game system (%(system)s).")
            % {"system": systems["attacker"].name})
    if errors:
        raise EstimateRequestError(errors)
    inputs = {"attacker": dict(attacker), "defender": dict(defender), "situation": cleaned}
    check_unit_vs_unit(system_key=systems["attacker"].key, inputs=inputs)  # the cost limit
    return systems["attacker"].key, inputs


#: The inputs' key naming the sides that are the system's reference targets.
REFERENCES = "references"


def with_references(inputs: Mapping[str, Any], roles: Sequence[str]) -> dict[str, Any]:
    """The inputs with `roles` (of `attacker`, `defender`, `list_b`) marked as the system's
    reference targets; unchanged (no key, the same hash as before) when there are none."""
    return {**inputs, REFERENCES: sorted(roles)} if roles else dict(inputs)


def reference_roles(inputs: Any) -> frozenset[str]:
    """The sides `with_references` marked as reference targets, none in older inputs."""
    marked = inputs.get(REFERENCES) if isinstance(inputs, Mapping) else None
    return frozenset(str(role) for role in marked) if isinstance(marked, list) else frozenset()


def army_inputs(*, name: str, units: Sequence[tuple[str, Mapping[str, Any]]]) -> dict[str, Any]:
    """One side of a list-vs-list job: the list's name and its units, each with its name. A unit
    without a profile (`estimable`) is left out: it has nothing to attack or defend with."""
    return {"name": name, "units": [{"name": unit_name, "unit": dict(unit)} for unit_name, unit in units
                                    if estimable_in_list(unit)]}


def list_vs_list_inputs(*, system_key: str, list_a: Mapping[str, Any], list_b: Mapping[str, Any],
                        situation: Mapping[str, Any] | None) -> tuple[str, dict[str, Any]]:
    """(system key, inputs) of every unit of `list_a` against every unit of `list_b` and back.

    The lists' units come from saved lists (already priced and checked when they were
    added), so only their system, their size and the situation are checked here.
    """
    errors: dict[str, list[str]] = {}
    system: GameSystem | None = None
    try:
        system = estimating_system(system_key, path="system")
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
    cleaned: dict[str, Any] = {}
    if system is not None:
        try:
            cleaned = situation_clean(situation, system=system)
        except EstimateRequestError as exc:
            errors.update(exc.errors)
    if errors:
        raise EstimateRequestError(errors)
    inputs = {"list_a": dict(list_a), "list_b": dict(list_b), "situation": cleaned}
    check_list_vs_list(system_key=system_key, inputs=inputs)  # refuse past the cost limit
    return system_key, inputs
