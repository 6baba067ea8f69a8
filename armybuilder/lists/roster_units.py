"""Units of lists whose faction was imported with its BattleScribe source: the roster engine's.

Such a list is a roster of the engine (`rules.battlescribe_lists`): each unit keeps its
selection tree (`ListUnit.selection`), and every change — adding a unit, ticking an option,
changing a count — is made by the engine on the whole roster rebuilt from those trees, so
options that appear only when another is taken, limits that modifiers move and costs that
step with a count are the catalogue's. What the engine answers is written back in the shape
every list unit has (`available_options`, `chosen_options`, `option_points`, `points`,
`data`), so the picker, the API, rosters and exports read these units like any other.

A list is a roster list when its faction has a source and each of its units has a tree (a
list made before its faction had a source keeps being priced from the unit format).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _

from armybuilder.lists.errors import ArmyListError
from armybuilder.models import UNIT_NAME_MAX_LENGTH, ArmyList, ListUnit
from rules.battlescribe.list_roster import ListRoster, ListRosterError, size_keys, tree_of
from rules.battlescribe_lists import (
    CONFIGURATION_FIELD,
    cost_fields,
    data_stated_rules,
    entering_from,
    entering_points,
    faction_source,
    force_choices,
    list_roster,
    unit_costs,
)
from rules.models import UnitTemplate
from rules.systems.registry import get_system

#: The fields `refresh_units` may change on a unit.
REFRESHED_FIELDS = (
    "selection",
    "available_options",
    "chosen_options",
    "option_points",
    "points",
    "data",
    "name",
)


def is_configuration(unit: ListUnit) -> bool:
    """Whether a list unit is one of its roster's configuration selections (a battle size, a
    detachment's command cost, a game type, an allegiance): a selection that fields no models
    (`rules.battlescribe_lists.is_configuration_selection`).

    Such a row belongs to the roster (the engine builds it, costs it and checks its limits, and
    the `.rosz` writes it back) but it is not a unit of the army: the system's rules, the
    interchange file, the estimates and every "N units" never see it."""
    if not unit.selection:
        return False
    data = unit.data or {}
    if CONFIGURATION_FIELD in data:  # what the engine found in the selection tree (`unit_costs`)
        return data[CONFIGURATION_FIELD] is True
    return not data.get("models")  # a row the engine has not refreshed since


def fielded(units: Sequence[ListUnit]) -> list[ListUnit]:
    """The units of `units` that field models, in order (every row but the configuration)."""
    return [unit for unit in units if not is_configuration(unit)]


def configuration(units: Sequence[ListUnit]) -> list[ListUnit]:
    """The roster's configuration rows of `units`, in order (`is_configuration`)."""
    return [unit for unit in units if is_configuration(unit)]


def roster_decides_settings(army_list: ArmyList) -> bool:
    """Whether the list's system lets a roster's configuration decide list settings (no query)."""
    mapping = get_system(army_list.system.key).battlescribe
    return army_list.faction_id is not None and mapping is not None and bool(mapping.roster_settings)


def roster_settings(army_list: ArmyList, units: Sequence[ListUnit]) -> dict[str, Any]:
    """The list settings the roster's configuration decides (the system's BattleScribe mapping,
    `roster_settings`: 40k's battle size from the roster's "Battle Size"); empty for a list the
    engine does not build. In such a list the roster is the one source of these settings: the
    services store them with every change, the army is checked and exported with them, and the
    settings form does not offer them."""
    rows = configuration(units)
    if not rows or not is_roster_list(army_list, units):
        return {}
    mapping = get_system(army_list.system.key).battlescribe
    if mapping is None or not mapping.roster_settings:
        return {}
    names = []
    for row in rows:
        chosen = row.chosen_options or {}
        taken = [o for o in row.available_options or [] if chosen.get(o.get("key"))]
        names += [row.name, *(str(o.get("label", "")) for o in taken)]
    return mapping.roster_setting_values(names)


def is_roster_list(army_list: ArmyList, units: Sequence[ListUnit]) -> bool:
    """Whether the list's units are built by the roster engine (see the module's docstring)."""
    if army_list.faction_id is None or any(not unit.selection for unit in units):
        return False
    cached = getattr(army_list, "_roster_source", None)
    if cached is None:
        cached = faction_source(army_list.faction_id) or ()
        army_list._roster_source = cached  # type: ignore[attr-defined]
    return bool(cached)


def structure_options(army_list: ArmyList, units: Sequence[ListUnit]) -> dict[str, Any]:
    """The list's switches of its system's optional rules, for the system's validation: on a
    roster list, the rules the catalogue's data states itself are off (the engine reports
    them in the data's figures; the system's chart would say the same thing twice)."""
    options = dict(army_list.structure_options)
    if is_roster_list(army_list, units):
        options.update(dict.fromkeys(data_stated_rules(army_list.system.key), False))
    return options


def with_menu_points(army_list: ArmyList, templates: Sequence[UnitTemplate]) -> Sequence[UnitTemplate]:
    """`templates` (the "Add a unit" menu), those of a faction imported with its source priced
    as they enter the list (`rules.battlescribe_lists.entering_points`): the import prices a
    unit at its smallest legal size, BattleScribe adds it with what it selects by itself."""
    if army_list.faction_id is None or not faction_source(army_list.faction_id):
        return templates
    try:
        prices = entering_points(army_list.faction_id, army_list.roster_force, army_list.system.key)
        froms = entering_from(army_list.faction_id, army_list.roster_force, army_list.system.key)
    except ListRosterError:
        return templates
    for template in templates:
        if template.faction_id != army_list.faction_id:
            continue
        base, _dash, number = template.slug.rpartition("-")
        key = template.slug if template.slug in prices or not number.isdigit() else base
        found = prices.get(key)
        if found is not None:
            template.points = found
            template.points_from = key in froms  # the price of its cheapest legal completion
    return templates


def roster_of(army_list: ArmyList, units: Sequence[ListUnit]) -> ListRoster:
    """The engine's roster of the list holding `units` (in order)."""
    try:
        roster = list_roster(
            army_list.faction_id,
            force_entry_id=army_list.roster_force,
            trees=[unit.selection for unit in units],
            points_limit=army_list.points_limit,
            system_key=army_list.system.key,
        )
    except ListRosterError as exc:
        raise ArmyListError([("unit", str(exc))]) from None
    if roster is None:
        raise ArmyListError(
            [("unit", _("This list's faction has no BattleScribe catalogue to build it with."))]
        )
    return roster


def refresh_units(army_list: ArmyList, roster: ListRoster, units: Sequence[ListUnit]) -> list[ListUnit]:
    """Write the engine's answer into each unit; returns the units that changed (unsaved)."""
    system_key = army_list.system.key
    points_type, _fields = cost_fields(roster.data, system_key)
    changed = []
    for index, unit in enumerate(units):
        if roster.units[index] is None:
            continue  # its entry left the catalogue: the unit keeps what it had
        before = {name: getattr(unit, name) for name in REFRESHED_FIELDS}
        menu = roster.menu(index)
        sel = roster.unit(index)
        unit.selection = tree_of(sel)
        unit.available_options = [entry.as_dict(points_type) for entry in menu]
        unit.chosen_options = {entry.key: entry.count for entry in menu if entry.count}
        unit.option_points = {
            entry.key: round(entry.costs.get(points_type, 0.0)) if points_type else 0 for entry in menu
        }
        unit.points, unit.data = unit_costs(roster, index, system_key, unit.base_data)
        unit.name = (sel.name or unit.name or _("Unnamed unit"))[:UNIT_NAME_MAX_LENGTH]
        if any(getattr(unit, name) != value for name, value in before.items()):
            changed.append(unit)
    return changed


def new_units(army_list: ArmyList, roster: ListRoster, have: int) -> list[ListUnit]:
    """Unsaved list units for the roster's units past the first `have` (what the force requires
    when a roster starts: the engine selects it, the list keeps it as units the player can change)."""
    out = []
    for index in range(have, len(roster.units)):
        sel = roster.unit(index)
        out.append(
            ListUnit(
                army_list=army_list,
                name=(sel.name or _("Unnamed unit"))[:UNIT_NAME_MAX_LENGTH],
                base_data={"name": sel.name[:UNIT_NAME_MAX_LENGTH], "models": []},
                position=index,
                selection=tree_of(sel),
            )
        )
    return out


def add_unit(
    *, army_list: ArmyList, units: list[ListUnit], template_slug: str, unit: ListUnit
) -> tuple[list[ListUnit], list[ListUnit]]:
    """Add `unit` (unsaved, made from the template `template_slug`) to the roster.

    Returns (every unit of the list in order, the unsaved new ones). A roster's first unit
    brings what the force requires with it, before it.
    """
    roster = roster_of(army_list, units)
    option = roster.root_option(template_slug)
    if option is None:
        raise ArmyListError([("unit", _("This unit cannot be taken in this list's catalogue."))])
    added = new_units(army_list, roster, len(units))
    try:
        index = roster.add_unit(option)
    except ListRosterError as exc:
        raise ArmyListError([("unit", str(exc))]) from None
    unit.position = index
    unit.selection = tree_of(roster.unit(index))
    all_units = [*units, *added, unit]
    refresh_units(army_list, roster, all_units)
    return all_units, [*added, unit]


def set_options(
    *, army_list: ArmyList, units: Sequence[ListUnit], unit: ListUnit, counts: Mapping[str, int]
) -> list[ListUnit]:
    """Apply the picker's `{option key: count}` to `unit` through the engine; an empty choice
    takes the unit back to how it comes. Returns the units that changed (unsaved)."""
    index = next((i for i, u in enumerate(units) if u.pk == unit.pk), None)
    if index is None:
        raise ListUnit.DoesNotExist
    errors = [
        (f"options.{key}", _("Must be a whole number from 0."))
        for key, count in counts.items()
        if isinstance(count, bool) or not isinstance(count, int) or count < 0
    ]
    if errors:
        raise ArmyListError(errors)
    roster = roster_of(army_list, units)
    try:
        if counts:
            data = unit.template.data if unit.template else unit.base_data
            roster.set_counts(index, counts, size_keys(data or {}))
        else:
            option = roster.unit(index).option
            roster.roster.deselect_all(roster.unit(index))
            roster.units[index] = roster.roster.select_entry(roster.force, option.key)
    except ListRosterError as exc:
        raise ArmyListError([("options", str(exc))]) from None
    return refresh_units(army_list, roster, units)


def set_force(*, army_list: ArmyList, units: Sequence[ListUnit], force_entry_id: str) -> list[ListUnit]:
    """Build the list's units in another force (detachment); returns the units that changed."""
    if force_entry_id not in {entry_id for entry_id, _name in force_choices(army_list.faction_id)}:
        raise ArmyListError([("roster_force", _("Choose one of the forces of this catalogue."))])
    army_list.roster_force = force_entry_id
    return refresh_units(army_list, roster_of(army_list, units), units)


def roster_force_choices(army_list: ArmyList) -> list[tuple[str, str]]:
    """(force entry id, name) the list can be built in; [] when its faction has no source."""
    return force_choices(army_list.faction_id)


def current_force(army_list: ArmyList, choices_given: Sequence[tuple[str, str]] | None = None) -> str:
    """The force the list is built in: the stored one, else the catalogue's first (as the
    engine takes it); empty when the faction has no source. `choices_given`: the list's
    `roster_force_choices`, when the caller has them already (they cost a query)."""
    if choices_given is None:
        choices_given = roster_force_choices(army_list)
    choices = [entry_id for entry_id, _name in choices_given]
    if army_list.roster_force in choices:
        return army_list.roster_force
    return choices[0] if choices else ""


def violations(army_list: ArmyList, units: Sequence[ListUnit]) -> list[dict[str, Any]]:
    """The roster's errors as the list's violations (each message in a player's words)."""
    return roster_of(army_list, units).violations()


def copied_tree(unit: ListUnit) -> dict[str, Any]:
    return copy.deepcopy(unit.selection or {})


def roster_from_trees(army_list: ArmyList, trees: Sequence[Mapping[str, Any]]) -> ListRoster:
    """The engine's roster of the list holding `trees` (a roster file's units)."""
    holders = [ListUnit(selection=dict(tree)) for tree in trees]
    return roster_of(army_list, holders)


def units_from_roster(army_list: ArmyList, roster: ListRoster) -> list[ListUnit]:
    """Unsaved list units for every unit of `roster` the catalogue still has, in order; each
    names the imported unit it came from where the import mapped one."""
    from rules.battlescribe.to_units import slug
    from rules.models import UnitTemplate

    templates = {t.slug: t for t in UnitTemplate.objects.filter(faction_id=army_list.faction_id)}
    units = []
    for index, sel in enumerate(roster.units):
        if sel is None:
            continue
        template = templates.get(f"bs-{slug(sel.option.defn.id, 60)}")
        base = dict(template.data) if template else {"name": sel.name[:UNIT_NAME_MAX_LENGTH], "models": []}
        units.append(
            ListUnit(
                army_list=army_list,
                template=template,
                catalogue_ref=f"{template.faction.slug}/{template.slug}" if template else "",
                name=(sel.name or _("Unnamed unit"))[:UNIT_NAME_MAX_LENGTH],
                base_data=base,
                position=len(units),
                selection=tree_of(sel),
            )
        )
        units[-1]._roster_index = index  # type: ignore[attr-defined]
    # The units the catalogue no longer has are left out: the roster answers for the others.
    all_units = roster.units
    roster.units = [all_units[u._roster_index] for u in units]  # type: ignore[attr-defined]
    try:
        refresh_units(army_list, roster, units)
    finally:
        roster.units = all_units
    return units


def roster_file(army_list: ArmyList, units: Sequence[ListUnit]) -> bytes:
    """The list as BattleScribe roster XML, written from the engine's roster."""
    from rules.battlescribe.list_roster_xml import roster_xml
    from rules.battlescribe_lists import revisions

    roster = roster_of(army_list, units)
    points_type, _fields = cost_fields(roster.data, army_list.system.key)
    return roster_xml(
        roster,
        name=army_list.name,
        points_limit=army_list.points_limit if army_list.points_sized else None,
        points_type=points_type,
        revisions=revisions(roster),
    )


def as_roster_units(army_list: ArmyList, units: list[ListUnit]) -> list[ListUnit]:
    """Units an import built in the unit format, rebuilt by the engine when the list's faction
    has a source and every unit is one of its imported units (their unit-format option keys
    are understood, `ListRoster.set_counts`); otherwise `units` unchanged. A new roster brings
    what its force requires first, as when a player adds a first unit."""
    if army_list.faction_id is None or not units or not faction_source(army_list.faction_id):
        return units
    if any(unit.template is None or unit.template.faction_id != army_list.faction_id for unit in units):
        return units
    roster = roster_of(army_list, [])
    out = new_units(army_list, roster, 0)
    for unit in units:
        option = roster.root_option(unit.template.slug)
        if option is None:
            return units
        try:
            index = roster.add_unit(option)
            roster.set_counts(index, unit.chosen_options or {}, size_keys(unit.template.data or {}))
        except ListRosterError as exc:
            raise ArmyListError([("units", f"{unit.name}: {exc}")]) from None
        unit.selection = tree_of(roster.unit(index))
        out.append(unit)
    for position, unit in enumerate(out):
        unit.position = position
    refresh_units(army_list, roster, out)
    return out
