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
import marshal
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _

# What a row of a roster is, as `backends.rows` answers it for every list.
from armybuilder.lists.backends import roster_cache
from armybuilder.lists.backends.rows import configuration
from armybuilder.lists.backends.rows import fielded as fielded
from armybuilder.lists.backends.rows import is_configuration as is_configuration
from armybuilder.lists.errors import ArmyListError
from armybuilder.models import UNIT_NAME_MAX_LENGTH, ArmyList, ListUnit
from rules.battlescribe.engine.roster import Selection
from rules.battlescribe.list_roster import ListRoster, ListRosterError, size_keys, tree_of
from rules.battlescribe_lists import (
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


def roster_settings(army_list: ArmyList, units: Sequence[ListUnit]) -> dict[str, Any]:
    """The list settings the roster's configuration decides (the system's BattleScribe mapping,
    `roster_settings`: 40k's battle size from the roster's "Battle Size"); empty for a list the
    engine does not build. In such a list the roster is the one source of these settings: the
    services store them with every change, the army is checked and exported with them, and the
    settings form does not offer them."""
    rows = configuration(units)
    if not rows:
        return {}
    mapping = get_system(army_list.system.key).battlescribe
    if not mapping.roster_settings:
        return {}
    names = []
    for row in rows:
        chosen = row.chosen_options or {}
        taken = [o for o in row.available_options or [] if chosen.get(o.get("key"))]
        names += [row.name, *(str(o.get("label", "")) for o in taken)]
    return mapping.roster_setting_values(names)


def is_engine_list(army_list: ArmyList, units: Sequence[ListUnit]) -> bool:
    """Whether the list's units are built by the roster engine (see the module's docstring);
    only `armybuilder.lists.backends` asks."""
    if army_list.faction_id is None or any(not unit.selection for unit in units):
        return False
    return has_source(army_list)


def has_source(army_list: ArmyList) -> bool:
    """Whether the list's faction was imported with its BattleScribe source, asked of the
    database at most once per list object: not when the list was read with
    `has_roster_source` (`selectors.army_list_get_for_user`), nor when this process keeps the
    list's roster at its version (`roster_cache.holds`: only an engine list's is kept). Each
    click of the editor answers with the list's totals, whose backend is asked for: on a kept
    roster that answer costs no query."""
    if army_list.faction_id is None:
        return False
    known = getattr(army_list, "has_roster_source", None)
    if known is not None:
        return bool(known)
    cached = getattr(army_list, "_roster_source", None)
    if cached is None:
        if army_list.pk is not None and roster_cache.holds(army_list.pk, army_list.version):
            return True
        cached = bool(faction_source(army_list.faction_id))
        army_list._roster_source = cached  # type: ignore[attr-defined]
    return cached


def structure_options(army_list: ArmyList, units: Sequence[ListUnit]) -> dict[str, Any]:
    """The list's switches of its system's optional rules, for the system's validation: on a
    roster list, the rules the catalogue's data states itself are off (the engine reports
    them in the data's figures; the system's chart would say the same thing twice)."""
    options = dict(army_list.structure_options)
    options.update(dict.fromkeys(data_stated_rules(army_list.system.key), False))
    return options


def with_menu_points(army_list: ArmyList, templates: Sequence[UnitTemplate]) -> Sequence[UnitTemplate]:
    """`templates` (the "Add a unit" menu), those of a faction imported with its source priced
    as they enter the list (`rules.battlescribe_lists.entering_points`): the import prices a
    unit at its smallest legal size, BattleScribe adds it with what it selects by itself.

    Only what the roster can take stays: the faction's own units, and another faction's unit
    only where it is a root entry the force shows that none of the faction's own stands for. A
    player's other imported catalogues of the system (Orks beside Necrons) are not this roster's:
    offered, each was refused once picked."""
    if army_list.faction_id is None or not faction_source(army_list.faction_id):
        return templates
    try:
        prices = entering_points(army_list.faction_id, army_list.roster_force, army_list.system.key)
        froms = entering_from(army_list.faction_id, army_list.roster_force, army_list.system.key)
    except ListRosterError:
        return templates

    def key_of(template: UnitTemplate) -> str:
        base, _dash, number = template.slug.rpartition("-")
        return template.slug if template.slug in prices or not number.isdigit() else base

    own = {key_of(t) for t in templates if t.faction_id == army_list.faction_id}
    offered = []
    for template in templates:
        key = key_of(template)
        if template.faction_id != army_list.faction_id and (key not in prices or key in own):
            continue
        found = prices.get(key)
        if found is not None:
            template.points = found
            template.points_from = key in froms  # the price of its cheapest legal completion
        offered.append(template)
    return offered


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


def refresh_units(
    army_list: ArmyList, roster: ListRoster, units: Sequence[ListUnit], fields: set[str] | None = None
) -> list[ListUnit]:
    """Write the engine's answer into each unit; returns the units that changed (unsaved), and
    adds to `fields` the names of the fields that changed on any of them.

    Each unit's answer is a value of the roster's evaluation cache (`row_answer`): it records
    what it read (the unit's selections, the modified values of its entries, the queries their
    conditions count), so after one operation only the answers of the units it touched are
    worked out again; a unit whose answer is the one it already holds is passed over."""
    system_key = army_list.system.key
    changed = []
    for index, unit in enumerate(units):
        sel = roster.units[index]
        if sel is None:
            continue  # its entry left the catalogue: the unit keeps what it had
        answer = row_answer(roster, index, system_key, unit.base_data)
        if getattr(unit, "_engine_answer", None) is answer:
            continue
        tree, menu, chosen, option_points, points, data, name = answer
        after = {
            "selection": tree,
            "available_options": menu,
            "chosen_options": chosen,
            "option_points": option_points,
            "points": points,
            "data": data,
            "name": (name or unit.name or _("Unnamed unit"))[:UNIT_NAME_MAX_LENGTH],
        }
        moved = [name for name, value in after.items() if getattr(unit, name) != value]
        # Each row gets its own copy: the answer stays the cache's, whatever a caller does to a row.
        for field_name in moved:
            setattr(unit, field_name, plain_copy(after[field_name]))
        unit._engine_answer = answer  # type: ignore[attr-defined]
        if moved:
            changed.append(unit)
            if fields is not None:
                fields.update(moved)
    return changed


def plain_copy(value: Any) -> Any:
    """A deep copy of a row's JSON value (dicts, lists, strings, numbers): through `marshal`,
    several times faster than `copy.deepcopy` on a unit's data, which a new row copies whole;
    `copy.deepcopy` for a value marshal does not take (a subclass of a built-in type)."""
    try:
        return marshal.loads(marshal.dumps(value))
    except ValueError:
        return copy.deepcopy(value)


def row_answer(roster: ListRoster, index: int, system_key: str, base_data: Mapping[str, Any]) -> tuple:
    """(tree, menu, chosen, option points, points, data, name) the engine gives the roster's
    unit `index` (whose unit-format data is `base_data`), kept in the roster's evaluation cache
    until something it read changes."""
    sel = roster.unit(index)
    return roster.roster.cache.get(
        ("list-row", id(sel), id(base_data), system_key),
        lambda: _row_answer(roster, index, sel, system_key, base_data),
        (sel.bucket,),
        lazy=True,
    )


def _row_answer(
    roster: ListRoster, index: int, sel: Selection, system_key: str, base_data: Mapping[str, Any]
) -> tuple:
    # `sel` is held by the cached value, so its id (part of the key) is never another's.
    points_type, _fields = cost_fields(roster.data, system_key)
    menu = roster.menu(index)
    points, data = unit_costs(roster, index, system_key, base_data)
    return (
        tree_of(sel),
        [entry.as_dict(points_type) for entry in menu],
        {entry.key: entry.count for entry in menu if entry.count},
        {entry.key: round(entry.costs.get(points_type, 0.0)) if points_type else 0 for entry in menu},
        points,
        data,
        sel.name,
    )


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


def check_counts(counts: Mapping[str, int]) -> None:
    """Refuse counts that are not whole numbers from 0 (each named `options.<key>`)."""
    errors = [
        (f"options.{key}", _("Must be a whole number from 0."))
        for key, count in counts.items()
        if isinstance(count, bool) or not isinstance(count, int) or count < 0
    ]
    if errors:
        raise ArmyListError(errors)


def apply_counts(roster: ListRoster, index: int, unit: ListUnit, counts: Mapping[str, int]) -> None:
    """Apply the picker's `{option key: count}` to the roster's unit `index` (the list's `unit`);
    an empty choice takes the unit back to how it comes. Raises `ListRosterError`."""
    if counts:
        data = unit.template.data if unit.template else unit.base_data
        roster.set_counts(index, counts, size_keys(data or {}))
        return
    option = roster.unit(index).option
    roster.roster.deselect_all(roster.unit(index))
    roster.units[index] = roster.roster.select_entry(roster.force, option.key)


def set_force(*, army_list: ArmyList, units: Sequence[ListUnit], force_entry_id: str) -> list[ListUnit]:
    """Build the list's units in another force (detachment); returns the units that changed."""
    if force_entry_id not in {entry_id for entry_id, _name in force_choices(army_list.faction_id)}:
        raise ArmyListError([("roster_force", _("Choose one of the forces of this catalogue."))])
    army_list.roster_force = force_entry_id
    return refresh_units(army_list, roster_of(army_list, units), units)


def roster_force_choices(army_list: ArmyList) -> list[tuple[str, str]]:
    """(force entry id, name) the list can be built in; [] when its faction has no source."""
    if not has_source(army_list):
        return []
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


def roster_from_trees(army_list: ArmyList, trees: Sequence[Mapping[str, Any]]) -> ListRoster:
    """The engine's roster of the list holding `trees` (a roster file's units)."""
    holders = [ListUnit(selection=dict(tree)) for tree in trees]
    return roster_of(army_list, holders)


def units_from_roster(army_list: ArmyList, roster: ListRoster) -> list[ListUnit]:
    """Unsaved list units for every unit of `roster` the catalogue still has, in order; each
    names the imported unit it came from where the import mapped one."""
    from rules.battlescribe.units import slug
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
    """The list as BattleScribe roster XML, written from the engine's roster by the one roster
    writer, each unit with the player's name and notes for it."""
    from rules.battlescribe.engine.roster_xml import roster_bytes, roster_file_of, stable_id
    from rules.battlescribe_lists import revisions

    roster = roster_of(army_list, units)
    points_type, _fields = cost_fields(roster.data, army_list.system.key)
    for unit, sel in zip(units, roster.units, strict=False):
        if sel is not None:
            sel.custom_name, sel.custom_notes = unit.custom_name, unit.notes
    limit = army_list.points_limit if army_list.points_sized else None
    return roster_bytes(
        roster_file_of(
            roster.roster,
            roster_id=stable_id("roster", army_list.name, roster.data.id),
            name=army_list.name,
            revisions=revisions(roster),
            cost_limits={points_type: limit} if limit is not None and points_type else {},
            stable_ids=True,
        )
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
