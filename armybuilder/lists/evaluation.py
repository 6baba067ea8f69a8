"""What a list is worth and what is wrong with it: points and violations, from the registry.

The list's game system (`rules.systems.registry`) prices each unit and validates the whole
army; this module only turns list rows into the army shape of `docs/unit-format.md`
and the answer into an `ArmyEvaluation`. It never looks at which system a list uses.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext

from armybuilder.lists.backends import ListBackend, backend_for
from armybuilder.lists.backends.unit_format import unit_points as unit_points  # re-exported
from armybuilder.models import ArmyList, ListUnit
from points.catalogue.army import known_unit_points
from points.catalogue.i18n import message_record
from points.shared_format import FORMAT_VERSION
from rules.list_settings import settings_defaults
from rules.systems.registry import get_system, no_figures


@dataclass(frozen=True)
class ArmyEvaluation:
    """The points and violations of a list at one moment.

    `unit_points` maps each `ListUnit` id to its points; `violations` are the registry's
    dicts (`rule`, `unit`, `message`, ...), in the order the system reported them.
    """

    total_points: int
    points_limit: int
    unit_points: dict[int, int] = field(default_factory=dict)
    violations: list[dict[str, Any]] = field(default_factory=list)

    @property
    def points_left(self) -> int:
        return self.points_limit - self.total_points

    @property
    def is_valid(self) -> bool:
        return not self.violations


def list_settings(army_list: ArmyList) -> dict[str, Any]:
    """The list's own parameters, complete: stored values over the system's defaults.

    A list saved before its system gained a parameter reads that parameter's default.
    """
    schema = get_system(army_list.system.key).list_settings_schema
    stored = army_list.settings if isinstance(army_list.settings, Mapping) else {}
    known = settings_defaults(schema)
    return {**known, **{key: value for key, value in stored.items() if key in known}}


def army_dict(
    *, army_list: ArmyList, units: Sequence[ListUnit], backend: ListBackend | None = None
) -> dict[str, Any]:
    """The list as an army in the interchange format, each unit written out in full.

    A roster's configuration rows (`backends.rows.is_configuration`: battle size, a dynasty)
    are the engine's alone: the system's rules see the units."""
    backend = backend or backend_for(army_list, units)
    decided = backend.decided_settings(units)  # the roster's, over the stored ones
    units = backend.fielded(units)
    army: dict[str, Any] = {
        "format": FORMAT_VERSION,
        "system": army_list.system.key,
        "name": army_list.name,
        "points_limit": army_list.points_limit,
        "options": dict(army_list.structure_options),
    }
    settings = {**list_settings(army_list), **decided}
    if settings:
        army["settings"] = settings
    kinds = get_system(army_list.system.key).group_kinds
    if not kinds:  # free groups: the player's own, no rule reads them
        army["units"] = [{"unit": unit.data, "count": 1} for unit in units]
        return army
    in_use = {unit.group for unit in units}  # a kind outlives its units only until they return
    groups = {name: kind for name, kind in group_kinds_of(army_list, kinds).items() if name in in_use}
    if groups:  # a list without detachments exports as before
        army["groups"] = groups
    army["units"] = [
        {"unit": unit.data, "count": 1, **({"group": unit.group} if unit.group else {})} for unit in units
    ]
    return army


def group_kinds_of(army_list: ArmyList, kinds: Mapping[str, str] | None = None) -> dict[str, str]:
    """The list's groups that have a kind the system knows (40k: detachments), name -> kind."""
    if kinds is None:
        kinds = get_system(army_list.system.key).group_kinds
    stored = army_list.group_kinds if isinstance(army_list.group_kinds, Mapping) else {}
    return {str(name): str(kind) for name, kind in stored.items() if kind in kinds}


def group_heading(army_list: ArmyList, name: str) -> str:
    """A group's name as rosters and exports head it: with its kind where it has one
    ("Alpha (Patrol Detachment)"), the name alone for a free group."""
    kinds = get_system(army_list.system.key).group_kinds
    kind = group_kinds_of(army_list, kinds).get(name) if name else None
    return f"{name} ({gettext(kinds[kind])})" if kind else name


def army_summary(*, army_list: ArmyList, units: Sequence[ListUnit]) -> list[dict[str, Any]]:
    """The army-wide figures the list's system reports besides points (40k: Power Level)."""
    summarise = get_system(army_list.system.key).army_summary
    return [dict(row) for row in summarise(army_dict(army_list=army_list, units=units))]


def unit_summary(*, army_list: ArmyList, unit: ListUnit) -> list[dict[str, Any]]:
    """The figures the list's system reports for one unit besides its points (WHFB: each
    character's magic items used / allowed), labels as text; empty for systems without any.

    The system gets the list's settings and switches without its units: a unit's figures
    never depend on the other units, so a unit card re-rendered alone costs no query (the
    backend is the unit's own: a unit without a selection tree is never the engine's, which
    needs no look at the faction's source).
    """
    summarise = get_system(army_list.system.key).unit_summary
    if summarise is no_figures:  # most systems: no army to write out for each unit of a page or read
        return []
    army = army_dict(army_list=army_list, units=(), backend=backend_for(army_list, (unit,)))
    # A row names its model as the unit's data does (English): shown in the reader's language
    # as the card's other model names are (`ListUnit.option_text`).
    return [{**row, "label": str(row.get("label", "")),
             **({"model": unit.option_text(str(row["model"]))} if row.get("model") else {})}
            for row in summarise(army, unit.data)]


def evaluate_units(
    *, army_list: ArmyList, units: Sequence[ListUnit], reprice: bool, backend: ListBackend | None = None
) -> ArmyEvaluation:
    """Evaluate `units` as the content of `army_list`, through the list's backend (`backend`,
    when the caller has it: the one that made the change holds the state it made it in).

    With `reprice` false the units' cached `points` are trusted (the services price a unit
    whenever its data changes, so re-pricing 25 untouched units on every click would only
    cost time); the backend's own checks (a roster's errors) and the system's validation run
    either way.
    """
    backend = backend or backend_for(army_list, units)
    points, found = backend.evaluate(units, reprice=reprice)
    army = army_dict(army_list=army_list, units=units, backend=backend)
    army["options"] = backend.structure_options(units)
    # The points limit is checked against the units' points just found, not by pricing each again.
    priced = [unit for unit in units if unit.pk is not None and unit.pk in points]
    known = {id(unit.data): (unit.data, points[unit.pk]) for unit in priced}
    with known_unit_points(known):
        found = [*found, *get_system(army_list.system.key).validate(army)]
    # Each message keeps its English original (`message_record`), so that a list saved by a
    # Polish player shows its violations in Czech to a Czech reader.
    violations = [{**v, **message_record(v.get("message", ""))} for v in found]
    return ArmyEvaluation(
        total_points=sum(points.values()),
        points_limit=army_list.points_limit,
        unit_points=points,
        violations=violations,
    )


def army_list_evaluate(*, army_list: ArmyList) -> ArmyEvaluation:
    """A fresh evaluation of a saved list: every unit re-priced, the army re-validated.

    Use it where the cached figures on the list are not enough (the API's "evaluate"
    endpoint, checks after an engine change); pages read the cache the services keep.
    """
    units = list(army_list.units.order_by("position"))
    return evaluate_units(army_list=army_list, units=units, reprice=True)
