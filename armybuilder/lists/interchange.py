"""A list in the interchange format (`docs/unit-format.md`, "An army list"): export
and import.

Export writes every unit out in full, so the file stands on its own (no catalogue needed
to read it back). Import accepts both entry shapes of the format — a unit in full, or a
`catalogue_unit` reference with the keys of the options taken — checks everything first
(the envelope, each unit through its system's pricing, the references, the limits, then
the army through its system's validation), reports every problem with the path of its
field, and creates nothing unless the whole list is valid.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Mapping
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from armybuilder.lists import backends
from armybuilder.lists.backends import rows as list_rows
from armybuilder.lists.errors import ArmyListError
from armybuilder.lists.evaluation import army_dict
from armybuilder.lists.services import (
    build_list_unit,
    catalogue_ref,
    clean_list_name,
    clean_list_settings,
    clean_points_limit,
    clean_structure_options,
    copy_list_unit,
    list_units_in_order,
    save_list_change,
)
from armybuilder.lists.unit_options import option_menu
from armybuilder.models import (
    MAX_UNITS_PER_LIST,
    POINTS_LIMIT_MAX,
    UNIT_GROUP_MAX_LENGTH,
    UNIT_NAME_MAX_LENGTH,
    UNIT_NOTES_MAX_LENGTH,
    ArmyList,
    ListUnit,
)
from points.shared_format import FORMAT_VERSION, UnitFormatError
from rules.models import Faction, GameSystem, UnitTemplate
from rules.selectors import factions_visible_to, units_visible_to
from rules.systems.registry import get_system

#: Most times one entry may be repeated (`count`), as the published army schema allows.
MAX_ENTRY_COUNT = 100
_TOP_LEVEL_KEYS = {
    "format", "system", "name", "points_limit", "options", "settings", "groups", "units",
    "faction", "roster_force", "configuration",
}
#: A unit's name, notes and group as the player wrote them (`ListUnit`), optional in a file.
_PLAYER_KEYS = ("custom_name", "notes", "group")
#: `selection`: a unit of a roster list's BattleScribe selection tree (`{"entry", "number",
#: "children"}`), so an import where the faction has its source rebuilds it in the engine.
_ENTRY_KEYS = {"unit", "catalogue_unit", "options", "count", "selection", *_PLAYER_KEYS}
#: Most selections one unit's tree in a file may hold (`rules.battlescribe.list_roster` bounds
#: what a list stores the same way).
MAX_TREE_NODES = 2000


def army_list_to_dict(*, army_list: ArmyList, units: list[ListUnit] | None = None) -> dict[str, Any]:
    """The list in the interchange format, each unit written out in full (one entry per unit
    that fields models: a roster's configuration rows are not units).

    Pass `units` (in order) when the caller already has them, to save a query.
    """
    if units is None:
        units = list_units_in_order(army_list)
    written = copy.deepcopy(army_dict(army_list=army_list, units=units))
    # the faction (its slug) whose units the list adds, and a roster list's force: an import
    # that can see the faction keeps both
    if army_list.faction_id is not None:
        written["faction"] = army_list.faction.slug
    if army_list.roster_force:
        written["roster_force"] = army_list.roster_force
    # A roster's configuration (battle size, allegiance, a clan's culture) as chosen: its trees,
    # which an import rebuilding the roster reads first (without them it got the defaults, or none).
    configuration = [copy.deepcopy(u.selection) for u in list_rows.configuration(units) if u.selection]
    if configuration:
        written["configuration"] = configuration
    # The player's own words travel with the unit (left out when empty, as before). The file
    # holds the units that field models (`army_dict`); a roster's configuration rows are the
    # engine's, which brings them back when the file is read into the same faction.
    for entry, unit in zip(written["units"], list_rows.fielded(units), strict=True):
        for key in _PLAYER_KEYS:
            if getattr(unit, key, ""):
                entry[key] = getattr(unit, key)
        if unit.selection:  # a unit of the roster engine: its selection tree, as a .rosz has it
            entry["selection"] = copy.deepcopy(unit.selection)
        elif unit.catalogue_ref and unit.available_options is not None:
            # beside the unit in full, the catalogue unit and options it was built from, so an
            # import where that catalogue unit is visible keeps its options editable
            entry["catalogue_unit"] = unit.catalogue_ref
            entry["options"] = [
                key for key, count in sorted((unit.chosen_options or {}).items()) for _n in range(int(count))
            ]
    return written


# ----------------------------------------------------------------------------- import


def _nul_errors(value: Any, path: str = "", depth: int = 0) -> list[tuple[str, str]]:
    """Strings with NUL characters, which Postgres cannot store, each by its path."""
    if depth > 40:
        return [(path, _("Nested too deeply."))]
    if isinstance(value, str):
        return [(path, _("Text cannot contain NUL characters."))] if "\x00" in value else []
    if isinstance(value, Mapping):
        errors = []
        for key, item in value.items():
            child = f"{path}.{key}" if path else str(key)
            errors += [(child, _("Text cannot contain NUL characters."))] if "\x00" in str(key) else []
            errors += _nul_errors(item, child, depth + 1)
        return errors
    if isinstance(value, list):
        return [e for i, item in enumerate(value) for e in _nul_errors(item, f"{path}[{i}]", depth + 1)]
    return []


def file_faction(*, user: AbstractBaseUser, system: GameSystem, slug: Any) -> Faction | None:
    """The faction a file names (`faction`: its slug) if `user` can see it in `system`, else
    None: a file from another install, or of a faction the reader has not imported, stands on
    its own units."""
    if not isinstance(slug, str) or not slug or len(slug) > 200:
        return None
    return (
        factions_visible_to(user=user)
        .filter(system=system, slug=slug)
        .order_by(F("owner_id").asc(nulls_first=True))
        .first()
    )


def selection_errors(tree: Any, path: str) -> list[tuple[str, str]]:
    """Problems of a unit's selection tree in a file (`{"entry", "number", "children"}`),
    each with its path; at most `MAX_TREE_NODES` selections."""
    errors: list[tuple[str, str]] = []
    pending, seen = [(tree, path)], 0
    while pending and not errors:
        node, where = pending.pop()
        seen += 1
        if seen > MAX_TREE_NODES:
            return [(path, _("A unit holds more selections than a list may store."))]
        if not isinstance(node, Mapping) or not isinstance(node.get("entry"), str):
            errors.append((where, _("Must be an object with an “entry”.")))
            continue
        number = node.get("number", 1)
        if isinstance(number, bool) or not isinstance(number, int) or not 0 < number <= 100_000:
            message = _("Must be a whole number from 1 to %(max)d.") % {"max": 100_000}
            errors.append((f"{where}.number", message))
        children = node.get("children", [])
        if not isinstance(children, list):
            errors.append((f"{where}.children", _("Must be a list.")))
            continue
        pending += [(child, f"{where}.children[{i}]") for i, child in enumerate(children)]
    return errors


def _envelope_errors(data: Mapping[str, Any]) -> list[tuple[str, str]]:
    errors = [(key, _("Unknown field.")) for key in data if key not in _TOP_LEVEL_KEYS]
    if "format" in data and data["format"] != FORMAT_VERSION:
        errors.append(("format", _("Only format %(version)d is supported.") % {"version": FORMAT_VERSION}))
    for key in ("system", "name", "points_limit", "units"):
        if key not in data:
            errors.append((key, _("This field is required.")))
    if "configuration" in data:
        trees = data["configuration"]
        if not isinstance(trees, list):
            errors.append(("configuration", _("Must be a list.")))
        elif len(trees) > MAX_UNITS_PER_LIST:
            limit = {"limit": MAX_UNITS_PER_LIST}
            errors.append(("configuration", _("A list has at most %(limit)d units.") % limit))
        else:
            for index, tree in enumerate(trees):
                errors += selection_errors(tree, f"configuration[{index}]")
    return errors


def _catalogue_unit(
    *,
    user: AbstractBaseUser,
    system: GameSystem,
    reference: Any,
    path: str,
    templates: dict[str, UnitTemplate | None],
) -> UnitTemplate:
    if not isinstance(reference, str) or reference.count("/") != 1:
        raise ArmyListError([(path, _("Write a catalogue unit as “<faction-slug>/<unit-slug>”."))])
    if reference not in templates:
        faction_slug, unit_slug = reference.split("/")
        templates[reference] = (
            units_visible_to(user=user)
            .filter(faction__system=system, faction__slug=faction_slug, slug=unit_slug)
            .select_related("faction")
            .prefetch_related("options")
            .order_by(F("faction__owner_id").asc(nulls_first=True))
            .first()
        )
    template = templates[reference]
    if template is None:
        raise ArmyListError(
            [(path, _("No catalogue unit “%(reference)s” in this game system.") % {"reference": reference})]
        )
    return template


def _reference_unit(
    *,
    user: AbstractBaseUser,
    army_list: ArmyList,
    entry: Mapping[str, Any],
    path: str,
    templates: dict[str, UnitTemplate | None],
) -> ListUnit:
    """The unsaved unit a `catalogue_unit` entry names, its options applied; `ArmyListError`."""
    template = _catalogue_unit(
        user=user,
        system=army_list.system,
        reference=entry["catalogue_unit"],
        path=f"{path}.catalogue_unit",
        templates=templates,
    )
    keys = entry.get("options", [])
    if not isinstance(keys, list) or not all(isinstance(k, str) for k in keys):
        raise ArmyListError([(f"{path}.options", _("Must be a list of option keys."))])
    return build_list_unit(
        army_list=army_list,
        base_data=template.data,
        menu=option_menu(template),
        chosen=dict(Counter(keys)),
        position=0,
        template=template,
        catalogue_ref=catalogue_ref(template),
        error_prefix=f"{path}.",
    )


def _entry_shape_errors(entry: Any, path: str) -> list[tuple[str, str]]:
    """What is wrong with the shape of one unit entry (its fields, its count), before any unit
    in it is read."""
    if not isinstance(entry, Mapping):
        return [(path, _("Each unit entry must be an object."))]
    errors = [(f"{path}.{key}", _("Unknown field.")) for key in entry if key not in _ENTRY_KEYS]
    count = entry.get("count", 1)
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_ENTRY_COUNT:
        errors.append(
            (f"{path}.count", _("Must be a whole number from 1 to %(max)d.") % {"max": MAX_ENTRY_COUNT})
        )
    has_unit, has_reference = "unit" in entry, "catalogue_unit" in entry
    if not has_unit and not has_reference:
        errors.append((path, _("Give “unit” (written out in full) or “catalogue_unit”.")))
    if has_unit and not has_reference and "options" in entry:
        message = _("Options go with “catalogue_unit”; a unit in full already has its upgrades.")
        errors.append((f"{path}.options", message))
    if has_reference:  # a reference (alone or beside the unit) must be well formed
        reference, keys = entry["catalogue_unit"], entry.get("options", [])
        if not isinstance(reference, str) or reference.count("/") != 1:
            message = _("Write a catalogue unit as “<faction-slug>/<unit-slug>”.")
            errors.append((f"{path}.catalogue_unit", message))
        if not isinstance(keys, list) or not all(isinstance(k, str) for k in keys):
            errors.append((f"{path}.options", _("Must be a list of option keys.")))
    if "selection" in entry:
        errors += selection_errors(entry["selection"], f"{path}.selection")
    return errors


def army_file_problems(data: Any) -> list[tuple[str, str]]:
    """What the request can tell at once is wrong with a list file: its fields, the game system,
    the name and points limit, the number of units and each entry's shape (no unit is read).

    The API checks this before it answers 202 (the schema's contract, issue 38): a body the
    worker would refuse for its shape is a 400 in the request, not a job that fails later.
    `_imported_list` on the worker checks all of it again, and the units."""
    if not isinstance(data, Mapping):
        return [("", _("A list must be a JSON object."))]
    errors = _nul_errors(data)
    if errors:
        return errors
    errors = _envelope_errors(data)
    if "system" in data:
        key = data["system"]
        known = isinstance(key, str) and GameSystem.objects.filter(key=key).exists()
        try:
            get_system(key if isinstance(key, str) else "")
        except KeyError:
            known = False
        if not known:
            errors.append(("system", _("Unknown game system.")))
    for key, check in (("name", clean_list_name), ("points_limit", clean_points_limit)):
        if key in data:
            try:
                check(data[key])
            except ArmyListError as exc:
                errors += exc.errors
    entries = data.get("units", [])
    if not isinstance(entries, list):
        return [*errors, ("units", _("Must be a list."))]
    if len(entries) > MAX_UNITS_PER_LIST:
        errors.append(("units", _("A list has at most %(limit)d units.") % {"limit": MAX_UNITS_PER_LIST}))
    for index, entry in enumerate(entries[:MAX_UNITS_PER_LIST]):
        errors += _entry_shape_errors(entry, f"units[{index}]")
    return errors


def _entry_units(
    *,
    user: AbstractBaseUser,
    army_list: ArmyList,
    entry: Any,
    index: int,
    templates: dict[str, UnitTemplate | None],
) -> tuple[list[ListUnit], list[tuple[str, str]]]:
    """The unsaved list units one entry stands for (`count` copies), or its errors."""
    path = f"units[{index}]"
    errors = _entry_shape_errors(entry, path)
    has_reference = "catalogue_unit" in entry
    if errors:
        return [], errors
    count = entry.get("count", 1)
    has_unit = "unit" in entry
    system_key = army_list.system.key
    try:
        built = None
        if has_reference:
            try:
                built = _reference_unit(
                    user=user, army_list=army_list, entry=entry, path=path, templates=templates
                )
            except ArmyListError:
                if not has_unit:
                    raise
            # Our export writes both: the unit in full (the file stands on its own) and the
            # catalogue unit and options it was built from, which keep it editable here. The
            # reference counts only where it still builds exactly that unit (a player who cannot
            # see that catalogue unit, or a catalogue changed since, gets the unit as written).
            if built is not None and has_unit and built.data != entry["unit"]:
                built = None
        if built is None:
            unit = entry["unit"]
            if not isinstance(unit, Mapping):
                return [], [(f"{path}.unit", _("Must be an object."))]
            try:
                get_system(system_key).price(unit)
            except UnitFormatError as exc:
                return [], [
                    (f"{path}.unit.{e.path}" if e.path else f"{path}.unit", e.message) for e in exc.errors
                ]
            built = build_list_unit(army_list=army_list, base_data=dict(unit), menu=[], chosen={}, position=0)
    except ArmyListError as exc:
        return [], exc.errors
    limits = {
        "custom_name": UNIT_NAME_MAX_LENGTH,
        "notes": UNIT_NOTES_MAX_LENGTH,
        "group": UNIT_GROUP_MAX_LENGTH,
    }
    for key in _PLAYER_KEYS:
        value = entry.get(key, "")
        if not isinstance(value, str) or len(value) > limits[key]:
            message = _("Must be text of at most %(max)d characters.") % {"max": limits[key]}
            return [], [(f"{path}.{key}", message)]
        setattr(built, key, value.strip())
    copies = [built] + [copy_list_unit(built, army_list=army_list, position=0) for _ in range(count - 1)]
    return copies, []


def _imported_list(
    *, user: AbstractBaseUser, data: Any, faction: Faction | None,
    known: Mapping[str, UnitTemplate] | None = None,
) -> tuple[ArmyList, list[ListUnit]]:
    """The unsaved list and units `data` describes; `ArmyListError` with every problem otherwise."""
    if not isinstance(data, Mapping):
        raise ArmyListError([("", _("A list must be a JSON object."))])
    nul = _nul_errors(data)
    if nul:
        raise ArmyListError(nul)
    errors = _envelope_errors(data)
    system_row = None
    if "system" in data:
        key = data["system"]
        system_row = GameSystem.objects.filter(key=key).first() if isinstance(key, str) else None
        try:
            get_system(key if isinstance(key, str) else "")
        except KeyError:
            system_row = None
        if system_row is None:
            errors.append(("system", _("Unknown game system.")))
    cleaned: dict[str, Any] = {}
    for key, check in (("name", clean_list_name), ("points_limit", clean_points_limit)):
        if key in data:
            try:
                cleaned[key] = check(data[key])
            except ArmyListError as exc:
                errors += exc.errors
    if system_row is not None:
        try:
            cleaned["options"] = clean_structure_options(data.get("options"), system_key=system_row.key)
        except ArmyListError as exc:
            errors += exc.errors
        try:
            cleaned["settings"] = clean_list_settings(data.get("settings"), system_key=system_row.key)
        except ArmyListError as exc:
            errors += exc.errors
        if faction is not None and faction.system_id != system_row.pk:
            errors.append(("faction", _("This faction belongs to another game system.")))
        if faction is None:  # none chosen: the one the file names, where the reader can see it
            faction = file_faction(user=user, system=system_row, slug=data.get("faction"))
        cleaned["groups"], group_errors = _clean_group_kinds(data.get("groups"), system_key=system_row.key)
        errors += group_errors
    entries = data.get("units", [])
    if not isinstance(entries, list):
        errors.append(("units", _("Must be a list.")))
        entries = []
    if system_row is None:
        raise ArmyListError(errors)  # units cannot be checked without their system

    # Built even when the envelope has errors, so that the units' problems are reported too.
    army_list = ArmyList(
        owner=user,
        system=system_row,
        faction=faction,
        name=cleaned.get("name", ""),
        points_limit=cleaned.get("points_limit", POINTS_LIMIT_MAX),
        structure_options=cleaned.get("options", {}),
        settings=cleaned.get("settings", {}),
        group_kinds=cleaned.get("groups", {}),
    )
    units: list[ListUnit] = []
    templates: dict[str, UnitTemplate | None] = {
        ref: unit for ref, unit in (known or {}).items() if unit.faction.system_id == system_row.pk
    }
    for index, entry in enumerate(entries[: MAX_UNITS_PER_LIST + 1]):
        built, entry_errors = _entry_units(
            user=user, army_list=army_list, entry=entry, index=index, templates=templates
        )
        units += built
        errors += entry_errors
    if not errors:
        # A list of a faction imported with its BattleScribe source is a roster of the engine.
        try:
            units = backends.units_for_import(army_list, units)
        except ArmyListError as exc:
            errors += exc.errors
    if len(entries) > MAX_UNITS_PER_LIST or len(units) > MAX_UNITS_PER_LIST:
        errors.append(("units", _("A list has at most %(limit)d units.") % {"limit": MAX_UNITS_PER_LIST}))
    if not errors:
        try:
            get_system(system_row.key).validate(army_dict(army_list=army_list, units=units))
        except UnitFormatError as exc:
            errors += [(e.path, e.message) for e in exc.errors]
    if errors:
        raise ArmyListError(errors)
    return army_list, units


def _clean_group_kinds(value: Any, *, system_key: str) -> tuple[dict[str, str], list[tuple[str, str]]]:
    """`groups` of a file: {group name: kind} for a system with kinds of groups (40k detachments)."""
    if value is None:
        return {}, []
    kinds = get_system(system_key).group_kinds
    if not isinstance(value, Mapping):
        return {}, [("groups", _("Must be an object."))]
    if not kinds and value:
        return {}, [("groups", _("Unknown field."))]
    errors = [
        (f"groups.{name}", _("Must be one of: %(values)s.") % {"values": ", ".join(kinds)})
        for name, kind in value.items()
        if kind not in kinds or not isinstance(name, str) or len(name) > UNIT_GROUP_MAX_LENGTH
    ]
    return ({str(name): str(kind) for name, kind in value.items()} if not errors else {}), errors


def army_list_import(*, user: AbstractBaseUser, data: Any, faction: Faction | None = None) -> ArmyList:
    """A new list of `user` from an interchange-format document (already parsed from JSON).

    `faction` (optional, the format has no field for it) is the faction whose units the
    player can add afterwards. Raises `ArmyListError` listing every problem, each with its
    field path (`units[3].unit.models[0].quality`); nothing is saved then.
    """
    army_list, units = _imported_list(user=user, data=data, faction=faction)
    return army_list_save_built(army_list=army_list, units=units)


def army_list_build(
    *, user: AbstractBaseUser, data: Any, faction: Faction | None = None,
    known: Mapping[str, UnitTemplate] | None = None,
) -> tuple[ArmyList, list[ListUnit]]:
    """The unsaved list and priced units `data` describes, checked as `army_list_import` checks
    them (`ArmyListError` otherwise): the importers of other formats price before they save.
    `known`: catalogue units the caller already read for `user` (with their options), by
    `catalogue_unit` reference, so they are not read again."""
    return _imported_list(user=user, data=data, faction=faction, known=known)


def army_list_save_built(*, army_list: ArmyList, units: list[ListUnit]) -> ArmyList:
    """Save what `army_list_build` returned, in one transaction."""
    with transaction.atomic():
        army_list.save()
        for position, unit in enumerate(units):
            unit.pk = None
            unit.army_list = army_list
            unit.position = position
        ListUnit.objects.bulk_create(units)
        save_list_change(locked=army_list, caller=army_list, units=units)
    return army_list
