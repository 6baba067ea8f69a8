"""Where a list is saved: every change to an army list and its units goes through here.

HackSoft-style services: keyword-only typed arguments, plain exceptions
(`armybuilder.lists.errors`), nothing about HTTP, so the htmx views and the REST API call the
same functions. Each change to an existing list

1. applies the change, pricing only the units it touched,
2. re-validates the army through the registry,
3. saves the cached total, validity and violations on the list and bumps `version` — with
   an update that only succeeds if the list is still at `expected_version`
   (`StaleListError` when another tab or device changed it first; the transaction then
   undoes the change). `None` instead locks the row first, for callers without a version.

The `army_list` passed in is refreshed in place (version, totals, violations), so a caller
can render the new state without reading the list again.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from armybuilder.lists.backends import (
    ListBackend,
    backend_for,
    backend_for_change,
    engine_units,
    roster_cache,
    rows,
)
from armybuilder.lists.backends.unit_format import build_list_unit as build_list_unit  # re-exported
from armybuilder.lists.backends.unit_format import catalogue_ref as catalogue_ref  # re-exported
from armybuilder.lists.errors import ArmyListError, StaleListError
from armybuilder.lists.evaluation import evaluate_units, list_settings
from armybuilder.lists.signals import list_saved
from armybuilder.lists.text_safety import has_bidi_control
from armybuilder.models import (
    LIST_NAME_MAX_LENGTH,
    POINTS_LIMIT_MAX,
    POINTS_LIMIT_MIN,
    UNIT_GROUP_MAX_LENGTH,
    UNIT_NAME_MAX_LENGTH,
    UNIT_NOTES_MAX_LENGTH,
    ArmyList,
    ListUnit,
)
from rules.list_settings import clean_settings
from rules.models import Faction, GameSystem, UnitTemplate
from rules.selectors import factions_visible_to
from rules.systems.registry import get_system

#: The fields of a unit a change of its options may write (copied to the caller's object).
SAVED_UNIT_FIELDS = engine_units.REFRESHED_FIELDS
#: The evaluation cached on a list, refreshed by every change to its units or limits.
_CACHE_FIELDS = ("total_points", "unit_count", "violations", "violation_count", "is_valid")


# ----------------------------------------------------------------------------- checks


def clean_list_name(name: Any, *, field: str = "name") -> str:
    """A list name stripped of surrounding spaces, or an `ArmyListError` naming `field`."""
    if not isinstance(name, str) or not name.strip():
        raise ArmyListError([(field, _("Give the list a name."))])
    name = name.strip()
    if "\x00" in name:
        raise ArmyListError([(field, _("A name cannot contain NUL characters."))])
    if has_bidi_control(name):
        raise ArmyListError([(field, _("A name cannot contain text-direction control characters."))])
    if len(name) > LIST_NAME_MAX_LENGTH:
        raise ArmyListError(
            [
                (
                    field,
                    _("A name has at most %(limit)d characters (this one has %(length)d).")
                    % {"limit": LIST_NAME_MAX_LENGTH, "length": len(name)},
                )
            ]
        )
    return name


def clean_points_limit(points_limit: Any, *, field: str = "points_limit") -> int:
    if isinstance(points_limit, bool) or not isinstance(points_limit, int):
        raise ArmyListError([(field, _("The points limit must be a whole number."))])
    if not POINTS_LIMIT_MIN <= points_limit <= POINTS_LIMIT_MAX:
        raise ArmyListError(
            [
                (
                    field,
                    _("The points limit must be between %(min)d and %(max)d.")
                    % {"min": POINTS_LIMIT_MIN, "max": POINTS_LIMIT_MAX},
                )
            ]
        )
    return points_limit


def clean_structure_options(
    options: Mapping[str, Any] | None, *, system_key: str, field: str = "options"
) -> dict[str, bool]:
    """The list's switches of its system's optional structure rules, checked and kept as given.

    As in the interchange format, a rule the switches do not mention is on; keys must be
    ones the system declares (`GameSystem.structure_options`) and values true or false.
    """
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise ArmyListError([(field, _("Must be an object of rule switches."))])
    system = get_system(system_key)
    known = system.structure_options
    options = _expand_structure_groups(options, system.structure_option_groups)
    errors = [
        (f"{field}.{key}", _("Not a structure rule of this game system."))
        for key in options
        if key not in known
    ]
    errors += [
        (f"{field}.{key}", _("Must be true or false."))
        for key, value in options.items()
        if key in known and not isinstance(value, bool)
    ]
    if errors:
        raise ArmyListError(errors)
    return dict(options)


def clean_list_settings(
    settings: Mapping[str, Any] | None, *, system_key: str, field: str = "settings"
) -> dict[str, Any]:
    """The list's values of its system's own parameters, complete (defaults filled in) and checked."""
    cleaned, problems = clean_settings(get_system(system_key).list_settings_schema, settings)
    if problems:
        raise ArmyListError([(f"{field}.{key}" if key else field, message) for key, message in problems])
    return cleaned


def _expand_structure_groups(
    options: Mapping[str, Any], groups: Mapping[str, tuple[str, ...]]
) -> dict[str, Any]:
    """Group switches (OPR's `army_structure`) become their members; a member named too wins."""
    expanded: dict[str, Any] = {}
    for key, value in options.items():
        for member in groups.get(key, ()):
            expanded[member] = value
    expanded.update((key, value) for key, value in options.items() if key not in groups)
    return expanded


def _check_faction(*, owner: AbstractBaseUser, system: GameSystem, faction: Faction | None) -> None:
    if faction is None:
        return
    if faction.system_id != system.pk:
        raise ArmyListError([("faction", _("This faction belongs to another game system."))])
    if not factions_visible_to(user=owner).filter(pk=faction.pk).exists():
        raise ArmyListError([("faction", _("No such faction."))])


def _check_room(*, current: int, adding: int) -> None:
    rows.check_room(current=current, adding=adding)


# ----------------------------------------------------------------------------- the version check


def lock_list(*, army_list: ArmyList, expected_version: int | None) -> ArmyList:
    """The list's row, locked for this transaction, for a change made from `expected_version`.

    For services (here and in `armybuilder.lists.sharing`) that change a list: call inside
    `transaction.atomic`, change the row and the units, then finish with `save_list_change`.
    The row lock comes first, before any unit row is written: two changes of one list then
    queue behind each other instead of each holding a unit insert (which locks the list row
    for its foreign key) while waiting for the other's update of the list (a deadlock). The
    second one finds the version moved on and gets `StaleListError`. A caller without a
    version (`None`) simply gets the latest data.

    When the caller's object was read at `expected_version`, the lock reads only the version:
    every change of a list bumps it, so a row still at that version is the one the caller
    read, and a copy of the caller's object stands for it (as `_current` does for a unit).
    That saves reading and building the row again on every click of the editor.
    """
    if expected_version is not None and army_list.version == expected_version:
        current = (
            ArmyList.objects.select_for_update()
            .filter(pk=army_list.pk)
            .values_list("version", flat=True)
            .first()
        )
        if current is None:
            raise ArmyList.DoesNotExist
        if current != expected_version:
            raise StaleListError(expected_version=expected_version, current_version=current)
        return copy.copy(army_list)
    locked = ArmyList.objects.select_for_update(of=("self",)).select_related("system").get(pk=army_list.pk)
    if expected_version is not None and locked.version != expected_version:
        raise StaleListError(expected_version=expected_version, current_version=locked.version)
    return locked


def save_list_change(
    *,
    locked: ArmyList,
    caller: ArmyList,
    units: Sequence[ListUnit] | None,
    changed_fields: Iterable[str] = (),
    undo: Mapping[str, Any] | None = None,
    backend: ListBackend | None = None,
) -> ArmyList:
    """Save `changed_fields` and bump the version, if no one else changed the list meanwhile.

    With `units` (the list's units after the change, in order) the army is re-validated and
    the cached total, validity and violations are saved too; `None` means the change does
    not touch what the list is worth (a share link, say). Raises `StaleListError` when the
    list is no longer at `locked.version` (the surrounding transaction then rolls back the
    change). The new state is copied to the caller's object. `backend`: the list's backend
    that made the change (it holds the state it made it in, `armybuilder.lists.backends`).
    """
    fields = ["updated", *changed_fields]
    # Only the change just made can be undone: any other change forgets the previous one.
    if undo or locked.undo:
        locked.undo = dict(undo or {})
        fields.append("undo")
    if units is not None:
        # Settings the roster's configuration decides (a battle size) follow the roster: one source.
        backend = backend or backend_for(locked, units)
        decided = backend.decided_settings(units)
        stored = locked.settings if isinstance(locked.settings, Mapping) else {}
        if any(stored.get(key) != value for key, value in decided.items()):
            locked.settings = {**stored, **decided}
            fields.append("settings")
        evaluation = evaluate_units(army_list=locked, units=units, reprice=False, backend=backend)
        locked.total_points = evaluation.total_points
        locked.unit_count = len(backend.fielded(units))  # configuration rows are not units
        locked.violations = evaluation.violations
        locked.violation_count = len(evaluation.violations)
        locked.is_valid = evaluation.is_valid
        fields += _CACHE_FIELDS
    fields = list(dict.fromkeys(fields))
    locked.updated = timezone.now()
    saved = ArmyList.objects.filter(pk=locked.pk, version=locked.version).update(
        version=F("version") + 1, **{name: getattr(locked, name) for name in fields}
    )
    if not saved:
        current = ArmyList.objects.filter(pk=locked.pk).values_list("version", flat=True).first()
        raise StaleListError(expected_version=locked.version, current_version=current or 0)
    locked.version += 1
    if backend is not None and units is not None:
        backend.saved(units, locked.version)
    list_id = locked.pk
    transaction.on_commit(lambda: list_saved.send(sender=ArmyList, list_id=list_id), robust=True)
    for name in (*fields, "version", "system"):
        setattr(caller, name, getattr(locked, name))
    return locked


def _current(list_unit: ListUnit, *, locked: ArmyList, expected_version: int | None) -> ListUnit:
    """The unit as the change should see it: the caller's object when it was read at the
    expected version (the save re-checks the version), else read again under the lock."""
    if expected_version is not None:
        if list_unit.army_list_id != locked.pk:
            raise ListUnit.DoesNotExist
        return copy.copy(list_unit)
    return ListUnit.objects.get(pk=list_unit.pk, army_list=locked)


#: What re-evaluating a list reads of its units; the snapshots and menus are left in the database.
_EVALUATED_FIELDS = ("id", "army_list_id", "position", "points", "data", "name", "group", "selection")


def list_units_in_order(army_list: ArmyList, *, for_evaluation: bool = False) -> list[ListUnit]:
    """The units of a list in order (one query).

    With `for_evaluation` only what pricing and validation read is loaded (the unit, its
    points and position), which is most of the cost of a change on a long list; such units
    must not be rendered.
    """
    units = ListUnit.objects.filter(army_list=army_list).order_by("position")
    if for_evaluation:
        units = units.only(*_EVALUATED_FIELDS)
    return list(units)


def lock_list_and_units(
    *, army_list: ArmyList, expected_version: int | None
) -> tuple[ArmyList, list[ListUnit]]:
    """`lock_list`, then the units as `list_units_in_order(for_evaluation=True)` reads them,
    in one round trip where it can: the units joined to their list, locking the list's row.

    Why the units read with the lock are the current ones: a query that waited for the lock
    sees the list row as the other change left it (a new version: `StaleListError`, the
    units are thrown away) but the units as they were when it started; and every change of
    a unit happens under this lock and moves the version on. So a list still at
    `expected_version` has exactly the units read. Without a version, or for a list without
    units (the join has no row to carry the version), the two queries of before.
    """
    if expected_version is not None and army_list.version == expected_version:
        units = list(
            ListUnit.objects.filter(army_list_id=army_list.pk)
            .select_related("army_list")
            .select_for_update(of=("army_list",))
            .only(*_EVALUATED_FIELDS, "army_list__version")
            .order_by("position")
        )
        if units:
            current = units[0].army_list.version
            if current != expected_version:
                raise StaleListError(expected_version=expected_version, current_version=current)
            locked = copy.copy(army_list)
            for unit in units:
                unit.army_list = locked
            return locked, units
    locked = lock_list(army_list=army_list, expected_version=expected_version)
    return locked, list_units_in_order(locked, for_evaluation=True)


# ----------------------------------------------------------------------------- lists


@transaction.atomic
def army_list_create(
    *,
    owner: AbstractBaseUser,
    system: GameSystem,
    faction: Faction | None,
    name: str,
    points_limit: int,
    structure_options: Mapping[str, Any] | None = None,
    is_public: bool = False,
    settings: Mapping[str, Any] | None = None,
) -> ArmyList:
    """A new, empty list owned by `owner`. The faction must be one `owner` can see."""
    errors: list[tuple[str, str]] = []
    cleaned: dict[str, Any] = {}
    for key, check in (
        ("name", lambda: clean_list_name(name)),
        ("points_limit", lambda: clean_points_limit(points_limit)),
        ("structure_options", lambda: clean_structure_options(structure_options, system_key=system.key)),
        ("settings", lambda: clean_list_settings(settings, system_key=system.key)),
        ("faction", lambda: _check_faction(owner=owner, system=system, faction=faction)),
    ):
        try:
            cleaned[key] = check()
        except ArmyListError as exc:
            errors += exc.errors
    if errors:
        raise ArmyListError(errors)
    army_list = ArmyList(
        owner=owner,
        system=system,
        faction=faction,
        name=cleaned["name"],
        points_limit=cleaned["points_limit"],
        structure_options=cleaned["structure_options"],
        settings=cleaned["settings"],
        is_public=bool(is_public),
    )
    evaluation = evaluate_units(army_list=army_list, units=[], reprice=False)
    army_list.violations = evaluation.violations
    army_list.violation_count = len(evaluation.violations)
    army_list.is_valid = evaluation.is_valid
    army_list.save()
    return army_list


@transaction.atomic
def army_list_update(
    *,
    army_list: ArmyList,
    expected_version: int | None,
    name: str | None = None,
    points_limit: int | None = None,
    structure_options: Mapping[str, Any] | None = None,
    is_public: bool | None = None,
    settings: Mapping[str, Any] | None = None,
    roster_force: str | None = None,
) -> ArmyList:
    """Rename the list, change its limit, its structure rules, its gallery visibility or, for a
    faction imported with its BattleScribe source, the force (detachment) its units are in.

    Arguments left as `None` keep their value. The game system and faction of a list do
    not change: its units come from them. Another force changes what the catalogue allows
    and offers, so every unit is rebuilt by the roster engine in it and saved.
    """
    locked = lock_list(army_list=army_list, expected_version=expected_version)
    changed: list[str] = []
    errors: list[tuple[str, str]] = []
    checks = {
        "name": (name, lambda: clean_list_name(name)),
        "points_limit": (points_limit, lambda: clean_points_limit(points_limit)),
        "structure_options": (
            structure_options,
            lambda: clean_structure_options(structure_options, system_key=locked.system.key),
        ),
        "is_public": (is_public, lambda: bool(is_public)),
        "settings": (
            settings,
            lambda: clean_list_settings(
                {**list_settings(locked), **(settings if isinstance(settings, Mapping) else {})}
                if isinstance(settings, Mapping)
                else settings,
                system_key=locked.system.key,
            ),
        ),
    }
    for attribute, (given, check) in checks.items():
        if given is None:
            continue
        try:
            setattr(locked, attribute, check())
            changed.append(attribute)
        except ArmyListError as exc:
            errors += exc.errors
    if isinstance(settings, Mapping) and settings:
        # What the roster's configuration decides (a battle size) is changed there, not here.
        whole = list_units_in_order(locked)
        decided = backend_for(locked, whole).decided_settings(whole)
        errors += [
            (f"settings.{key}", _("Chosen in the roster's configuration, above the units."))
            for key, value in settings.items()
            if key in decided and value != decided[key]
        ]
    if errors:
        raise ArmyListError(errors)
    if roster_force is not None and roster_force != locked.roster_force:
        units = list_units_in_order(locked)
        backend = backend_for(locked, units)
        backend.set_force(units=units, force_entry_id=roster_force)
        changed.append("roster_force")
        return save_list_change(
            locked=locked, caller=army_list, units=units, changed_fields=changed, backend=backend
        )
    units = list_units_in_order(locked, for_evaluation=True)
    return save_list_change(locked=locked, caller=army_list, units=units, changed_fields=changed)


@transaction.atomic
def army_list_delete(*, army_list: ArmyList, expected_version: int | None) -> None:
    """Delete the list and its units. Its forks stay (they only lose the link back)."""
    lists = ArmyList.objects.filter(pk=army_list.pk)
    if expected_version is not None:
        lists = lists.filter(version=expected_version)
    deleted, _by_model = lists.delete()
    if not deleted:
        current = ArmyList.objects.filter(pk=army_list.pk).values_list("version", flat=True).first()
        raise StaleListError(expected_version=expected_version or 0, current_version=current or 0)


@transaction.atomic
def army_list_fork(*, army_list: ArmyList, user: AbstractBaseUser) -> ArmyList:
    """A private copy of `army_list` for `user`, who must be able to read it (the caller checks).

    The copy keeps every unit as it is (snapshots, options, points) and remembers where
    it came from; it is neither shared nor public.
    """
    forked = copy_army_list(army_list, list_units_in_order(army_list), owner=user, forked_from=army_list)
    # Re-validate the copy with today's rules instead of trusting the source's cache.
    return save_list_change(
        locked=forked, caller=forked, units=list_units_in_order(forked, for_evaluation=True)
    )


def copy_army_list(source: ArmyList, units: list[ListUnit], **row: Any) -> ArmyList:
    """A new list row with `source`'s settings, cached evaluation and a copy of each of `units`
    (in order); `row` sets what the copy has of its own (its owner, `forked_from`, a lock's
    fields). Forks and locked versions are both made this way."""
    copied = ArmyList.objects.create(
        system_id=source.system_id,
        faction_id=source.faction_id,
        name=source.name,
        points_limit=source.points_limit,
        structure_options=dict(source.structure_options),
        settings=dict(source.settings),
        group_kinds=dict(source.group_kinds or {}),
        total_points=source.total_points,
        unit_count=len(rows.fielded(units)),
        violations=list(source.violations),
        violation_count=source.violation_count,
        is_valid=source.is_valid,
        **row,
    )
    ListUnit.objects.bulk_create(
        copy_list_unit(unit, army_list=copied, position=unit.position) for unit in units
    )
    return copied


def copy_list_unit(unit: ListUnit, *, army_list: ArmyList, position: int) -> ListUnit:
    """An unsaved copy of a list unit (snapshot, options, points) for `army_list` at `position`."""
    return ListUnit(
        army_list=army_list,
        template_id=unit.template_id,
        catalogue_ref=unit.catalogue_ref,
        name=unit.name,
        base_data=unit.base_data,
        available_options=unit.available_options,
        chosen_options=dict(unit.chosen_options),
        data=unit.data,
        option_points=unit.option_points,
        position=position,
        points=unit.points,
        custom_name=unit.custom_name,
        notes=unit.notes,
        group=unit.group,
        selection=copy.deepcopy(unit.selection or {}),
    )


# ----------------------------------------------------------------------------- units


def _lock_for_change(
    *, army_list: ArmyList, expected_version: int | None
) -> tuple[ArmyList, list[ListUnit], ListBackend]:
    """The list locked at `expected_version`, its rows in order and its backend: the state the
    backend kept from the list's last change when it has it (the lock reads the version, no
    row), else the rows read with the lock in one query (`lock_list_and_units`), whole ones
    after it when the backend needs them (`backend_for_change`)."""
    kept = roster_cache.peek(army_list.pk)
    if expected_version is not None and kept is not None and kept.version == expected_version:
        locked = lock_list(army_list=army_list, expected_version=expected_version)  # the version only

        def read(whole: bool) -> list[ListUnit]:
            return list_units_in_order(locked, for_evaluation=not whole)
    else:
        locked, first = lock_list_and_units(army_list=army_list, expected_version=expected_version)

        def read(whole: bool) -> list[ListUnit]:
            return list_units_in_order(locked) if whole else first
    units, backend = backend_for_change(locked, read)
    return locked, units, backend


@transaction.atomic
def army_list_add_unit(
    *,
    army_list: ArmyList,
    unit: UnitTemplate,
    options: Mapping[str, int] | None = None,
    expected_version: int | None,
) -> ListUnit:
    """Add a catalogue or homebrew unit at the end of the list, with `options` taken.

    `unit` must be of the list's game system and visible to the list's owner (the caller
    picks it from `army_list_unit_choices`). Options not given start at their minimum. The
    list's backend makes the change (a roster's first unit brings what its force requires).
    """
    locked, units, backend = _lock_for_change(army_list=army_list, expected_version=expected_version)
    if unit.faction.system_id != locked.system_id:
        raise ArmyListError([("unit", _("This unit belongs to another game system."))])
    _check_room(current=len(units), adding=1)
    all_units, added = backend.add_unit(units=units, template=unit, options=options)
    save_list_change(locked=locked, caller=army_list, units=all_units, backend=backend)
    return added


@transaction.atomic
def army_list_import_roster(
    *,
    army_list: ArmyList,
    trees: Sequence[Mapping[str, Any]],
    force_entry_id: str,
    details: Sequence[Mapping[str, str]] = (),
) -> tuple[list[ListUnit], list[str]]:
    """Fill an empty list of an imported faction with a BattleScribe roster's units, rebuilt by
    the roster engine selection for selection, each with the player's words `details` gives
    for its tree (`{"custom_name", "notes"}`, in the order of `trees`); returns (the units,
    entry ids left out because the catalogue no longer has them)."""
    locked, units = lock_list_and_units(army_list=army_list, expected_version=None)
    if units:
        raise ArmyListError([("units", _("A roster is imported into an empty list."))])
    _check_room(current=0, adding=len(trees))
    locked.roster_force = force_entry_id
    roster = engine_units.roster_from_trees(locked, trees)
    locked.roster_force = roster.force_entry_id
    added = engine_units.units_from_roster(locked, roster)
    for unit in added:
        index = unit._roster_index  # type: ignore[attr-defined]
        words = details[index] if index < len(details) else {}
        unit.custom_name, unit.notes = words.get("custom_name", ""), words.get("notes", "")
    ListUnit.objects.bulk_create(added)
    save_list_change(locked=locked, caller=army_list, units=added, changed_fields=("roster_force",))
    return added, list(roster.dropped)


@transaction.atomic
def army_list_unit_set_options(
    *, list_unit: ListUnit, options: Mapping[str, int], expected_version: int | None
) -> ListUnit:
    """Replace the chosen options of a unit (`{option key: count}`; 0 or absent: not taken).

    Counts are checked against each option's and each group's limits by
    `rules.options.apply_options`; every violated limit is reported, nothing is saved.
    """
    army_list = list_unit.army_list
    locked, units, backend = _lock_for_change(army_list=army_list, expected_version=expected_version)
    current = _current(list_unit, locked=locked, expected_version=expected_version)
    units, saved = backend.set_options(units=units, unit=current, options=options)
    for attribute in SAVED_UNIT_FIELDS:
        setattr(list_unit, attribute, getattr(saved, attribute))
    save_list_change(locked=locked, caller=army_list, units=units, backend=backend)
    return list_unit


@transaction.atomic
def army_list_unit_duplicate(*, list_unit: ListUnit, expected_version: int | None) -> ListUnit:
    """A copy of the unit, with the same options, right after it."""
    army_list = list_unit.army_list
    locked = lock_list(army_list=army_list, expected_version=expected_version)
    source = _current(list_unit, locked=locked, expected_version=expected_version)
    units = list_units_in_order(locked, for_evaluation=True)
    _check_room(current=len(units), adding=1)
    ListUnit.objects.filter(army_list=locked, position__gt=source.position).update(position=F("position") + 1)
    duplicate = copy_list_unit(source, army_list=locked, position=source.position + 1)
    duplicate.save()
    units.insert(source.position + 1, duplicate)
    save_list_change(locked=locked, caller=army_list, units=units)
    return duplicate


@transaction.atomic
def army_list_unit_move(
    *, list_unit: ListUnit, position: int, expected_version: int | None
) -> list[ListUnit]:
    """Move the unit to `position` (0 is first); the units in between shift by one.

    Returns the units of the list in their new order.
    """
    army_list = list_unit.army_list
    locked = lock_list(army_list=army_list, expected_version=expected_version)
    units = list_units_in_order(locked)
    moving = next((u for u in units if u.pk == list_unit.pk), None)
    if moving is None:
        raise ListUnit.DoesNotExist
    if isinstance(position, bool) or not isinstance(position, int) or not 0 <= position < len(units):
        raise ArmyListError(
            [
                (
                    "position",
                    _("The position must be between %(first)d and %(last)d.")
                    % {"first": 0, "last": len(units) - 1},
                )
            ]
        )
    units.remove(moving)
    units.insert(position, moving)
    changed = [u for index, u in enumerate(units) if u.position != index]
    for index, u in enumerate(units):
        u.position = index
    ListUnit.objects.bulk_update(changed, ["position"])
    list_unit.position = position
    save_list_change(locked=locked, caller=army_list, units=units)
    return units


@transaction.atomic
def army_list_unit_remove(*, list_unit: ListUnit, expected_version: int | None) -> None:
    """Remove the unit; the units after it move up one place."""
    army_list = list_unit.army_list
    locked, units, backend = _lock_for_change(army_list=army_list, expected_version=expected_version)
    removing = next((u for u in units if u.pk == list_unit.pk), None)
    if removing is None:
        raise ListUnit.DoesNotExist
    kept = ListUnit.objects.get(pk=removing.pk)
    position = removing.position
    remaining = backend.remove_unit(units=units, unit=removing)
    removing.delete()
    ListUnit.objects.filter(army_list=locked, position__gt=position).update(position=F("position") - 1)
    for index, u in enumerate(remaining):
        u.position = index
    save_list_change(
        locked=locked,
        caller=army_list,
        units=remaining,
        undo={"action": "remove", "name": kept.display_name, "unit": _unit_snapshot(kept)},
        backend=backend,
    )


# ----------------------------------------------------------------------------- the player's words


def _clean_text(value: Any, *, field: str, maximum: int, multiline: bool = False) -> str:
    text = "" if value is None else str(value)
    text = text.replace("\r\n", "\n").strip() if multiline else " ".join(text.split())
    if "\x00" in text:
        raise ArmyListError([(field, _("Remove the control characters."))])
    if len(text) > maximum:
        raise ArmyListError(
            [(field, _("At most %(max)d characters (this has %(n)d).") % {"max": maximum, "n": len(text)})]
        )
    return text


@transaction.atomic
def army_list_unit_set_details(
    *,
    list_unit: ListUnit,
    custom_name: Any,
    notes: Any,
    group: Any,
    expected_version: int | None,
    group_kind: Any = None,
) -> ListUnit:
    """Give the unit the player's own name, notes and group (each may be empty), and, for a
    system with kinds of groups (40k detachments, `GameSystem.group_kinds`), the group's kind
    (`group_kind`: a kind key, "" for none, None to leave it as it is).

    Free groups change neither points nor validity, so the list is not re-evaluated; where
    groups have kinds the system's rules read them, so it is. The version moves on either
    way, so another tab's stale copy of the unit is refused as for any change.
    """
    errors: list[tuple[str, str]] = []
    cleaned: dict[str, str] = {}
    for field, value, maximum, multiline in (
        ("custom_name", custom_name, UNIT_NAME_MAX_LENGTH, False),
        ("notes", notes, UNIT_NOTES_MAX_LENGTH, True),
        ("group", group, UNIT_GROUP_MAX_LENGTH, False),
    ):
        try:
            cleaned[field] = _clean_text(value, field=field, maximum=maximum, multiline=multiline)
        except ArmyListError as exc:
            errors += exc.errors
    army_list = list_unit.army_list
    kinds = get_system(army_list.system.key).group_kinds
    if kinds and group_kind is not None and str(group_kind) not in ("", *kinds):
        errors.append(
            ("group_kind", _("Must be one of: %(values)s.") % {"values": ", ".join(kinds)})
        )
    if errors:
        raise ArmyListError(errors)
    locked = lock_list(army_list=army_list, expected_version=expected_version)
    current = _current(list_unit, locked=locked, expected_version=expected_version)
    joined = cleaned["group"] != current.group
    for field, value in cleaned.items():
        setattr(current, field, value)
        setattr(list_unit, field, value)
    current.save(update_fields=list(cleaned))
    if not kinds:
        save_list_change(locked=locked, caller=army_list, units=None)
        return list_unit
    changed: list[str] = []
    # A unit joining a group takes the group's kind: the empty menu it came with does not
    # clear it (the menu showed the old group's kind); a kind chosen on joining is set.
    if group_kind is not None and cleaned["group"] and not (joined and not group_kind):
        stored = dict(locked.group_kinds or {})
        if group_kind:
            stored[cleaned["group"]] = str(group_kind)
        else:
            stored.pop(cleaned["group"], None)
        locked.group_kinds = stored
        changed.append("group_kinds")
    units = list_units_in_order(locked, for_evaluation=True)
    save_list_change(locked=locked, caller=army_list, units=units, changed_fields=changed)
    return list_unit


@transaction.atomic
def army_list_set_group_kinds(
    *, army_list: ArmyList, group_kinds: Mapping[str, str], expected_version: int | None
) -> ArmyList:
    """Set the kinds of the list's groups at once ({group name: kind}; the examples, imports)."""
    kinds = get_system(army_list.system.key).group_kinds
    errors = [
        (f"groups.{name}", _("Must be one of: %(values)s.") % {"values": ", ".join(kinds)})
        for name, kind in group_kinds.items()
        if kind not in kinds
    ]
    if errors:
        raise ArmyListError(errors)
    locked = lock_list(army_list=army_list, expected_version=expected_version)
    locked.group_kinds = {str(name): str(kind) for name, kind in group_kinds.items()}
    units = list_units_in_order(locked, for_evaluation=True)
    save_list_change(locked=locked, caller=army_list, units=units, changed_fields=["group_kinds"])
    return army_list


# ----------------------------------------------------------------------------- undo

#: What a removed unit keeps so that Undo can put it back exactly as it was.
_SNAPSHOT_FIELDS = (
    "template_id",
    "catalogue_ref",
    "name",
    "custom_name",
    "notes",
    "group",
    "base_data",
    "available_options",
    "chosen_options",
    "data",
    "option_points",
    "points",
    "position",
    "selection",
)


def _unit_snapshot(unit: ListUnit) -> dict[str, Any]:
    return {field: getattr(unit, field) for field in _SNAPSHOT_FIELDS}


@transaction.atomic
def army_list_unit_clear_options(*, list_unit: ListUnit, expected_version: int | None) -> ListUnit:
    """Take every option back to how the unit comes (each at its minimum); Undo restores them."""
    previous = dict(list_unit.chosen_options)
    army_list_unit_set_options(list_unit=list_unit, options={}, expected_version=expected_version)
    army_list = list_unit.army_list
    undo = {"action": "options", "name": list_unit.display_name, "unit_id": list_unit.pk, "chosen": previous}
    ArmyList.objects.filter(pk=army_list.pk).update(undo=undo)
    army_list.undo = undo
    return list_unit


@transaction.atomic
def army_list_undo(*, army_list: ArmyList, expected_version: int | None) -> ListUnit:
    """Undo the list's last undoable change; returns the unit it brought back or restored.

    A removed unit returns to its old place (or the end, if the list is shorter now) with
    its options, points, name and notes; cleared options come back as they were.
    """
    locked = lock_list(army_list=army_list, expected_version=expected_version)
    undo = dict(locked.undo or {})
    if undo.get("action") == "remove":
        units = list_units_in_order(locked, for_evaluation=True)
        _check_room(current=len(units), adding=1)
        snapshot = dict(undo["unit"])
        position = min(int(snapshot.pop("position", len(units))), len(units))
        ListUnit.objects.filter(army_list=locked, position__gte=position).update(position=F("position") + 1)
        restored = ListUnit(army_list=locked, position=position, **snapshot)
        if restored.template_id and not UnitTemplate.objects.filter(pk=restored.template_id).exists():
            restored.template_id = None
        restored.save()
        units.insert(position, restored)
        for index, unit in enumerate(units):
            unit.position = index
        save_list_change(locked=locked, caller=army_list, units=units, undo={})
        army_list.undo = {}
        return restored
    if undo.get("action") == "options":
        unit = ListUnit.objects.filter(pk=undo.get("unit_id"), army_list=locked).first()
        if unit is None:
            raise ArmyListError([("undo", _("That unit is no longer in the list."))])
        unit.army_list = army_list
        army_list_unit_set_options(list_unit=unit, options=undo.get("chosen") or {}, expected_version=None)
        ArmyList.objects.filter(pk=locked.pk).update(undo={})
        army_list.undo = {}
        return unit
    raise ArmyListError([("undo", _("There is nothing to undo."))])
