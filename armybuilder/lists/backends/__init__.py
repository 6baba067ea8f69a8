"""One list interface: the backend that keeps a list's units, picked in one place.

`backend_for` is the only function that asks which kind a list is (a bundled or homebrew list
in our unit format, or a roster of the BattleScribe engine); everything else — the services,
views, serializers, exports, locks, estimates, the gauntlet — calls the `ListBackend` it
returns (`protocol`). What a row is (a unit, or the roster's configuration) is answered for
every list alike by `rows`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from armybuilder.lists.backends import engine_units, roster_cache
from armybuilder.lists.backends.engine import EngineBackend
from armybuilder.lists.backends.engine_units import is_engine_list
from armybuilder.lists.backends.protocol import ListBackend
from armybuilder.lists.backends.unit_format import UnitFormatBackend
from armybuilder.models import ArmyList, ListUnit
from rules.systems.registry import get_system

__all__ = [
    "ListBackend",
    "backend_for",
    "backend_for_change",
    "current_force",
    "decided_settings",
    "force_choices",
    "reads_upgrade_menus",
    "units_for_import",
    "units_in_order",
]


def backend_for(army_list: ArmyList, units: Sequence[ListUnit]) -> ListBackend:
    """The backend of `army_list`, whose units are `units` (in order).

    A list is a roster of the engine when its faction was imported with its BattleScribe
    source and each of its units has a selection tree (a list made before its faction had a
    source keeps being priced from the unit format). Whether the faction has a source is
    kept on the list object, so a request asks the database once."""
    if is_engine_list(army_list, units):
        return EngineBackend(army_list)
    return UnitFormatBackend(army_list)


def reads_upgrade_menus(army_list: ArmyList) -> bool:
    """Whether adding a unit to `army_list` should read the unit's upgrade menu with it
    (`unit_options.option_menu`), answered before its rows are read and without a query: a
    roster of the engine reads its catalogue instead, so a list whose roster this process
    keeps at its version (`roster_cache.holds`: only an engine list's is kept) does not; any
    other might be in our unit format, which reads it (a roster rebuilt from the database
    then reads the menu for nothing)."""
    return not roster_cache.holds(army_list.pk, army_list.version)


def backend_for_change(
    army_list: ArmyList, read_units: Callable[[bool], list[ListUnit]]
) -> tuple[list[ListUnit], ListBackend]:
    """(the list's rows in order, its backend) for a change of `army_list`, a row locked at
    its current version: the roster kept for that version when this process has it (then no
    row is read), else the rows read by `read_units(whole)` — the evaluated fields first,
    whole rows when the backend needs them."""
    kept = roster_cache.take(army_list.pk, army_list.version)
    if kept is not None:
        return kept.units_for(army_list), EngineBackend(army_list, kept.roster)
    units = read_units(False)
    backend = backend_for(army_list, units)
    if backend.whole_rows:
        units = read_units(True)
    return units, backend


def decided_settings(army_list: ArmyList) -> dict[str, object]:
    """The list settings the list's own rows decide (`ListBackend.decided_settings`); no query
    for a list whose system lets no roster decide a setting."""
    mapping = get_system(army_list.system.key).battlescribe
    if army_list.faction_id is None or not mapping.roster_settings:
        return {}
    units = list(army_list.units.order_by("position"))
    return backend_for(army_list, units).decided_settings(units)


def force_choices(army_list: ArmyList) -> list[tuple[str, str]]:
    """(force entry id, name) the list can be built in; [] when its faction offers none."""
    return engine_units.roster_force_choices(army_list)


def current_force(army_list: ArmyList, choices_given: Sequence[tuple[str, str]] | None = None) -> str:
    """The force the list is built in ("" when its faction offers none): see
    `engine_units.current_force`."""
    return engine_units.current_force(army_list, choices_given)


def units_for_import(army_list: ArmyList, units: list[ListUnit]) -> list[ListUnit]:
    """Units an import built in the unit format, as the list's backend keeps them: rebuilt by the
    roster engine when the list's faction has a source and every unit is one of its imported
    units (`engine_units.as_roster_units`), otherwise as they are."""
    return engine_units.as_roster_units(army_list, units)


def units_in_order(army_list: ArmyList) -> list[ListUnit]:
    """The list's rows in order, whole: those kept with its roster at the list's version when
    this process has them (the change just made put them there: no query), else read."""
    kept = roster_cache.peek(army_list.pk)
    if kept is not None and kept.version == army_list.version:
        return [_shallow_copy(unit) for unit in kept.units]
    return list(army_list.units.order_by("position"))


def _shallow_copy(unit: ListUnit) -> ListUnit:
    """A copy of a row for reading (its fields' values shared): a change that takes the kept
    rows meanwhile sets new values on its own objects, never on this one. (`copy.copy` of a
    model pickles its state, several times the cost on a 60-row list.)"""
    copied = ListUnit.__new__(ListUnit)
    copied.__dict__.update(unit.__dict__)
    return copied
