"""Lists of a faction imported with its BattleScribe source: rosters of the engine.

Each row keeps its selection tree; a change is one operation of the engine on the list's
roster (`engine_units`), after which the engine's answer (menus, costs, the unit's data) is
written back into the rows that changed, and only those are saved. The roster is kept between
requests (`roster_cache`, per list and version): a click takes it, applies its operation, and
validation re-checks only what the operation touched (the engine's dependency-tracked cache);
when it is missing or stale the roster is rebuilt from the rows, as it always can be.
"""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from armybuilder.lists.backends import engine_units, roster_cache, rows
from armybuilder.lists.backends.protocol import Evaluated
from armybuilder.lists.backends.unit_format import UnitFormatBackend, catalogue_ref
from armybuilder.lists.errors import ArmyListError
from armybuilder.models import UNIT_NAME_MAX_LENGTH, ArmyList, ListUnit
from rules.battlescribe.engine.errors import EngineError
from rules.battlescribe.list_roster import ListRoster, ListRosterError, tree_of
from rules.models import UnitTemplate


class EngineBackend:
    """The list backend of rosters of the BattleScribe engine (see the module's docstring)."""

    whole_rows = True

    def __init__(self, army_list: ArmyList, roster: ListRoster | None = None):
        self.army_list = army_list
        self._roster = roster

    def roster(self, units: Sequence[ListUnit]) -> ListRoster:
        """The list's roster holding `units`: the kept one, else rebuilt from their trees."""
        if self._roster is None:
            self._roster = engine_units.roster_of(self.army_list, units)
        return self._roster

    @contextlib.contextmanager
    def engine_step(self, field: str) -> Iterator[None]:
        """Run an operation of the engine on the list's roster; a failure of the engine is the
        player's message (`ArmyListError` on `field`, a 400), never a server error.

        The engine's evaluation recurses through what a value reads; its depth is bounded by
        the data, not the roster's size (`index.SelectionIndex.lookup`), but a data set whose
        rules read each other deeply enough could still exhaust Python's stack, and an entry
        the roster refuses is an `EngineError`. Either way the roster may be half changed, so
        it is dropped (rebuilt from the rows next time) and the transaction rolls back."""
        try:
            yield
        except RecursionError:
            self._forget_roster()
            message = _("The rules of this list depend on each other too deeply for the rules "
                        "engine to work this change out. The list was not changed.")
            raise ArmyListError([(field, message)]) from None
        except EngineError:
            self._forget_roster()
            message = _("The rules engine cannot make this change in this list.")
            raise ArmyListError([(field, message)]) from None

    def _forget_roster(self) -> None:
        self._roster = None
        roster_cache.forget(self.army_list.pk)

    # -- reading ---------------------------------------------------------------------------
    def fielded(self, units: Sequence[ListUnit]) -> list[ListUnit]:
        return rows.fielded(units)

    def configuration(self, units: Sequence[ListUnit]) -> list[ListUnit]:
        return rows.configuration(units)

    def decided_settings(self, units: Sequence[ListUnit]) -> dict[str, Any]:
        return engine_units.roster_settings(self.army_list, units)

    def structure_options(self, units: Sequence[ListUnit]) -> dict[str, Any]:
        return engine_units.structure_options(self.army_list, units)

    def evaluate(self, units: Sequence[ListUnit], *, reprice: bool) -> Evaluated:
        if not units:
            return {}, []
        with self.engine_step("units"):
            roster = self.roster(units)
            if reprice:
                fresh = [copy.copy(unit) for unit in units]
                engine_units.refresh_units(self.army_list, roster, fresh)
                return {unit.pk: unit.points for unit in fresh}, roster.violations()
            return {unit.pk: unit.points for unit in units}, roster.violations()

    def unit_choices(self, templates: Sequence[UnitTemplate]) -> Sequence[UnitTemplate]:
        return engine_units.with_menu_points(self.army_list, templates)

    def force_choices(self) -> list[tuple[str, str]]:
        return engine_units.roster_force_choices(self.army_list)

    def roster_xml(self, units: Sequence[ListUnit]) -> bytes:
        if not units:  # nothing selected yet: the force's required selections are not the list's
            return UnitFormatBackend(self.army_list).roster_xml(units)
        return engine_units.roster_file(self.army_list, units)

    # -- changing --------------------------------------------------------------------------
    def _write(self, roster: ListRoster, units: list[ListUnit], new: Sequence[ListUnit] = ()) -> None:
        """Write the engine's answer into `units` and save the rows that changed: the new ones
        created, the others updated in the fields that moved (one statement each)."""
        fields: set[str] = set()
        changed = engine_units.refresh_units(self.army_list, roster, units, fields)
        fresh = {id(unit) for unit in new}
        if new:
            ListUnit.objects.bulk_create(list(new))
        stored = [unit for unit in changed if id(unit) not in fresh and unit.pk is not None]
        if len(stored) == 1:  # most clicks: one row, whose UPDATE needs none of bulk_update's CASEs
            row = stored[0]
            ListUnit.objects.filter(pk=row.pk).update(**{name: getattr(row, name) for name in sorted(fields)})
        elif stored:
            ListUnit.objects.bulk_update(stored, sorted(fields))

    def add_unit(
        self, *, units: list[ListUnit], template: UnitTemplate, options: Mapping[str, int] | None
    ) -> tuple[list[ListUnit], ListUnit]:
        with self.engine_step("unit"):
            return self._add_unit(units=units, template=template, options=options)

    def _add_unit(
        self, *, units: list[ListUnit], template: UnitTemplate, options: Mapping[str, int] | None
    ) -> tuple[list[ListUnit], ListUnit]:
        roster = self.roster(units)
        unit = ListUnit(
            army_list=self.army_list,
            template=template,
            catalogue_ref=catalogue_ref(template),
            name=template.name[:UNIT_NAME_MAX_LENGTH],
            base_data=dict(template.data),
            position=len(units),
        )
        option = roster.root_option(template.slug)
        if option is None:
            raise ArmyListError([("unit", _("This unit cannot be taken in this list's catalogue."))])
        added = engine_units.new_units(self.army_list, roster, len(units))
        rows.check_room(current=len(units), adding=len(added) + 1)
        try:
            index = roster.add_unit(option)
        except ListRosterError as exc:
            raise ArmyListError([("unit", str(exc))]) from None
        unit.position = index
        unit.selection = tree_of(roster.unit(index))
        all_units = [*units, *added, unit]
        if options:
            engine_units.check_counts(options)
            try:
                engine_units.apply_counts(roster, index, unit, options)
            except ListRosterError as exc:
                raise ArmyListError([("options", str(exc))]) from None
        self._write(roster, all_units, new=[*added, unit])
        return all_units, unit

    def set_options(
        self, *, units: list[ListUnit], unit: ListUnit, options: Mapping[str, int]
    ) -> tuple[list[ListUnit], ListUnit]:
        with self.engine_step("options"):
            return self._set_options(units=units, unit=unit, options=options)

    def _set_options(
        self, *, units: list[ListUnit], unit: ListUnit, options: Mapping[str, int]
    ) -> tuple[list[ListUnit], ListUnit]:
        index = next((i for i, u in enumerate(units) if u.pk == unit.pk), None)
        if index is None:
            raise ListUnit.DoesNotExist
        current = units[index]
        engine_units.check_counts(options)
        roster = self.roster(units)
        try:
            engine_units.apply_counts(roster, index, current, options)
        except ListRosterError as exc:
            raise ArmyListError([("options", str(exc))]) from None
        self._write(roster, units)
        return units, current

    def remove_unit(self, *, units: list[ListUnit], unit: ListUnit) -> list[ListUnit]:
        with self.engine_step("unit"):
            return self._remove_unit(units=units, unit=unit)

    def _remove_unit(self, *, units: list[ListUnit], unit: ListUnit) -> list[ListUnit]:
        index = next((i for i, u in enumerate(units) if u.pk == unit.pk), None)
        if index is None:
            raise ListUnit.DoesNotExist
        roster = self.roster(units)
        sel = roster.units.pop(index)
        if sel is not None:
            roster.roster.deselect_all(sel)
        remaining = units[:index] + units[index + 1 :]
        for position, row in enumerate(remaining):
            row.position = position
        self._write(roster, remaining)
        return remaining

    def set_force(self, *, units: list[ListUnit], force_entry_id: str) -> None:
        changed = engine_units.set_force(army_list=self.army_list, units=units, force_entry_id=force_entry_id)
        self._roster = None  # built in the other force
        if changed:
            ListUnit.objects.bulk_update(changed, list(engine_units.REFRESHED_FIELDS))

    def reprice(self, units: list[ListUnit]) -> list[int] | None:
        with self.engine_step("units"):
            roster = self.roster(units)
            changed = engine_units.refresh_units(self.army_list, roster, units)
        if changed:
            ListUnit.objects.bulk_update(changed, list(engine_units.REFRESHED_FIELDS))
        return [index for index, sel in enumerate(roster.units) if sel is None]

    def saved(self, units: Sequence[ListUnit], version: int) -> None:
        """Keep the roster for the list's next change once this one commits, when it holds
        exactly these whole rows (rows read for evaluation only would have to be read again)."""
        roster = self._roster
        if roster is None or len(roster.units) != len(units) or any(u.get_deferred_fields() for u in units):
            roster_cache.forget(self.army_list.pk)
            return
        list_id, kept = self.army_list.pk, list(units)
        transaction.on_commit(lambda: roster_cache.keep(list_id, version, roster, kept))
