"""A list in the interchange format (`shared/spec/unit-format.md`, "An army list"): export
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

from armybuilder.lists import roster_units
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
from rules.selectors import units_visible_to
from rules.systems.registry import get_system

#: Most times one entry may be repeated (`count`), as the published army schema allows.
MAX_ENTRY_COUNT = 100
_TOP_LEVEL_KEYS = {"format", "system", "name", "points_limit", "options", "settings", "groups", "units"}
#: A unit's name, notes and group as the player wrote them (`ListUnit`), optional in a file.
_PLAYER_KEYS = ("custom_name", "notes", "group")
_ENTRY_KEYS = {"unit", "catalogue_unit", "options", "count", *_PLAYER_KEYS}


def army_list_to_dict(*, army_list: ArmyList, units: list[ListUnit] | None = None) -> dict[str, Any]:
    """The list in the interchange format, each unit written out in full (one entry per unit
    that fields models: a roster's configuration rows are not units).

    Pass `units` (in order) when the caller already has them, to save a query.
    """
    if units is None:
        units = list_units_in_order(army_list)
    written = copy.deepcopy(army_dict(army_list=army_list, units=units))
    # The player's own words travel with the unit (left out when empty, as before). The file
    # holds the units that field models (`army_dict`); a roster's configuration rows are the
    # engine's, which brings them back when the file is read into the same faction.
    for entry, unit in zip(written["units"], roster_units.fielded(units), strict=True):
        for key in _PLAYER_KEYS:
            if getattr(unit, key, ""):
                entry[key] = getattr(unit, key)
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


def _envelope_errors(data: Mapping[str, Any]) -> list[tuple[str, str]]:
    errors = [(key, _("Unknown field.")) for key in data if key not in _TOP_LEVEL_KEYS]
    if "format" in data and data["format"] != FORMAT_VERSION:
        errors.append(("format", _("Only format %(version)d is supported.") % {"version": FORMAT_VERSION}))
    for key in ("system", "name", "points_limit", "units"):
        if key not in data:
            errors.append((key, _("This field is required.")))
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
    if not isinstance(entry, Mapping):
        return [], [(path, _("Each unit entry must be an object."))]
    errors = [(f"{path}.{key}", _("Unknown field.")) for key in entry if key not in _ENTRY_KEYS]
    count = entry.get("count", 1)
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_ENTRY_COUNT:
        errors.append(
            (f"{path}.count", _("Must be a whole number from 1 to %(max)d.") % {"max": MAX_ENTRY_COUNT})
        )
    has_unit, has_reference = "unit" in entry, "catalogue_unit" in entry
    if has_unit == has_reference:
        errors.append(
            (
                path,
                _("Give either “unit” (written out in full) or “catalogue_unit”, not both.")
                if has_unit
                else _("Give “unit” (written out in full) or “catalogue_unit”."),
            )
        )
    if errors:
        return [], errors
    system_key = army_list.system.key
    try:
        if has_unit:
            unit = entry["unit"]
            if not isinstance(unit, Mapping):
                return [], [(f"{path}.unit", _("Must be an object."))]
            if "options" in entry:
                return [], [
                    (
                        f"{path}.options",
                        _("Options go with “catalogue_unit”; a unit in full already has its upgrades."),
                    )
                ]
            try:
                get_system(system_key).price(unit)
            except UnitFormatError as exc:
                return [], [
                    (f"{path}.unit.{e.path}" if e.path else f"{path}.unit", e.message) for e in exc.errors
                ]
            built = build_list_unit(army_list=army_list, base_data=dict(unit), menu=[], chosen={}, position=0)
        else:
            template = _catalogue_unit(
                user=user,
                system=army_list.system,
                reference=entry["catalogue_unit"],
                path=f"{path}.catalogue_unit",
                templates=templates,
            )
            keys = entry.get("options", [])
            if not isinstance(keys, list) or not all(isinstance(k, str) for k in keys):
                return [], [(f"{path}.options", _("Must be a list of option keys."))]
            built = build_list_unit(
                army_list=army_list,
                base_data=template.data,
                menu=option_menu(template),
                chosen=dict(Counter(keys)),
                position=0,
                template=template,
                catalogue_ref=catalogue_ref(template),
                error_prefix=f"{path}.",
            )
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
            units = roster_units.as_roster_units(army_list, units)
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
