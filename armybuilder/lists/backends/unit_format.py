"""Lists kept in our unit format: bundled armies, homebrew, Army Forge and text imports.

Each unit is its data in the unit format with the menu of options it came with; a change
re-applies the chosen options to the unit's base data (`rules.options` through
`unit_options.resolve_options`) and the system prices the result. No row depends on another,
so a change writes the one row it changed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _

from armybuilder.lists.backends import rows
from armybuilder.lists.backends.protocol import Evaluated
from armybuilder.lists.unit_options import option_menu, option_prices, resolve_options
from armybuilder.models import UNIT_NAME_MAX_LENGTH, ArmyList, ListUnit
from rules.models import UnitTemplate
from rules.systems.registry import get_system
from rules.systems.registry import unit_points as registry_unit_points


def unit_points(*, system_key: str, unit: Mapping[str, Any]) -> int:
    """The rounded points of one unit (interchange format), as its system prices it."""
    return registry_unit_points(get_system(system_key), unit)


def catalogue_ref(template: UnitTemplate) -> str:
    """`<faction-slug>/<unit-slug>`, how the interchange format names a catalogue unit."""
    return f"{template.faction.slug}/{template.slug}"


def build_list_unit(
    *,
    army_list: ArmyList,
    base_data: Mapping[str, Any],
    menu: Sequence[Mapping[str, Any]],
    chosen: Mapping[str, int],
    position: int,
    template: UnitTemplate | None = None,
    catalogue_ref: str = "",
    error_prefix: str = "",
    option_points: Mapping[str, int] | None = None,
) -> ListUnit:
    """An unsaved unit of `army_list`: options applied and checked, priced, ready to insert.

    Shared by adding, changing options and importing; error paths start with `error_prefix`.
    `option_points` (what each option adds) is computed unless the caller already has it.
    """
    data, chosen = resolve_options(base_data=base_data, menu=menu, chosen=chosen, prefix=error_prefix)
    name = str(data.get("name") or (template.name if template else "")).strip()[:UNIT_NAME_MAX_LENGTH]
    system_key = army_list.system.key
    return ListUnit(
        army_list=army_list,
        template=template,
        catalogue_ref=catalogue_ref,
        name=name or _("Unnamed unit"),
        base_data=dict(base_data),
        available_options=list(menu),
        chosen_options=chosen,
        data=data,
        option_points=dict(option_points)
        if option_points is not None
        else option_prices(system_key=system_key, base_data=base_data, menu=menu),
        position=position,
        points=unit_points(system_key=system_key, unit=data),
    )


class UnitFormatBackend:
    """The list backend of units in our unit format (see the module's docstring)."""

    whole_rows = False

    def __init__(self, army_list: ArmyList):
        self.army_list = army_list

    # -- reading ---------------------------------------------------------------------------
    def fielded(self, units: Sequence[ListUnit]) -> list[ListUnit]:
        return rows.fielded(units)

    def configuration(self, units: Sequence[ListUnit]) -> list[ListUnit]:
        return rows.configuration(units)

    def decided_settings(self, units: Sequence[ListUnit]) -> dict[str, Any]:
        return {}

    def structure_options(self, units: Sequence[ListUnit]) -> dict[str, Any]:
        return dict(self.army_list.structure_options)

    def evaluate(self, units: Sequence[ListUnit], *, reprice: bool) -> Evaluated:
        if reprice:
            key = self.army_list.system.key
            return {unit.pk: unit_points(system_key=key, unit=unit.data) for unit in units}, []
        return {unit.pk: unit.points for unit in units}, []

    def unit_choices(self, templates: Sequence[UnitTemplate]) -> Sequence[UnitTemplate]:
        return templates

    def force_choices(self) -> list[tuple[str, str]]:
        return []

    def roster_xml(self, units: Sequence[ListUnit]) -> bytes:
        from armybuilder.roster.battlescribe import roster_document
        from rules.battlescribe.unit_roster import roster_xml

        return roster_xml(roster_document(army_list=self.army_list, units=list(units)))

    # -- changing --------------------------------------------------------------------------
    def add_unit(
        self, *, units: list[ListUnit], template: UnitTemplate, options: Mapping[str, int] | None
    ) -> tuple[list[ListUnit], ListUnit]:
        added = build_list_unit(
            army_list=self.army_list,
            base_data=template.data,
            menu=option_menu(template),
            chosen=options or {},
            position=len(units),
            template=template,
            catalogue_ref=catalogue_ref(template),
        )
        added.save()
        return [*units, added], added

    def set_options(
        self, *, units: list[ListUnit], unit: ListUnit, options: Mapping[str, int]
    ) -> tuple[list[ListUnit], ListUnit]:
        rebuilt = build_list_unit(
            army_list=self.army_list,
            base_data=unit.base_data,
            menu=unit.available_options,
            chosen=options,
            position=unit.position,
            option_points=unit.option_points,
        )
        changed = ("data", "chosen_options", "points", "name")
        for attribute in changed:
            setattr(unit, attribute, getattr(rebuilt, attribute))
        unit.save(update_fields=changed)
        return [unit if u.pk == unit.pk else u for u in units], unit

    def remove_unit(self, *, units: list[ListUnit], unit: ListUnit) -> list[ListUnit]:
        return [u for u in units if u.pk != unit.pk]

    def set_force(self, *, units: list[ListUnit], force_entry_id: str) -> None:
        from armybuilder.lists.errors import ArmyListError

        raise ArmyListError([("roster_force", _("This list's faction has no forces to choose from."))])

    def reprice(self, units: list[ListUnit]) -> list[int] | None:
        return None

    def saved(self, units: Sequence[ListUnit], version: int) -> None:
        return None
