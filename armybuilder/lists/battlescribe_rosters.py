"""Importing a BattleScribe roster (.ros/.rosz) as an army list (service).

Each unit of the roster is matched to a catalogue unit the user can see in the chosen
system (by its BattleScribe entry id, kept by catalogue imports; else by name), its nested
selections to that unit's options (`opt-<entry id>`) and its model counts to its add-models
options, and the list is built through the ordinary list services (`army_list_create`,
`army_list_add_unit`), so it is checked and priced like any other. Every selection that
finds no counterpart, and every unit whose points differ from the roster's, is reported.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from armybuilder.lists.backends import rows as list_rows
from armybuilder.lists.errors import ArmyListError
from armybuilder.lists.services import (
    army_list_add_unit,
    army_list_create,
    army_list_import_roster,
    army_list_unit_set_details,
    catalogue_ref,
)
from armybuilder.models import UNIT_NAME_MAX_LENGTH, UNIT_NOTES_MAX_LENGTH, ArmyList, ListUnit
from rules.battlescribe.editions import edition_of
from rules.battlescribe.engine.roster_xml import FileSelection, RosterFile, read_roster_file, stable_id
from rules.battlescribe.units import slug
from rules.battlescribe.xml_reader import BattleScribeError, SourceFile
from rules.battlescribe_lists import faction_source
from rules.models import BattleScribeSource, GameSystem, UnitTemplate
from rules.selectors import units_visible_to
from rules.systems.registry import get_system

DEFAULT_POINTS_LIMIT = 2000


@dataclass
class RosterImport:
    army_list: ArmyList
    units: list[dict[str, Any]] = field(default_factory=list)  # {name, points, roster_points}
    differences: list[str] = field(default_factory=list)
    #: The roster's configuration selections (battle size, allegiance, …), in the same shape:
    #: priced and kept with the roster, but not units of the army (`backends.rows.is_configuration`).
    configuration: list[dict[str, Any]] = field(default_factory=list)


def entry_ids(entry_id: str) -> list[str]:
    """The ids a roster selection's `entryId` names, innermost first.

    BattleScribe writes the path of links it followed: "linkId::targetId" (a unit or upgrade
    reached through an entry link, as in most community catalogues), so the entry itself is
    the last part; our own exports write the bare id."""
    return [part for part in reversed(entry_id.split("::")) if part]


def player_words(selection: FileSelection) -> dict[str, str]:
    """The unit's custom name and notes as the roster gives them (`customName`, `customNotes`),
    cleaned as the editor cleans them (a name on one line, no NUL) and cut to what a unit holds."""
    name, notes = selection.custom_name.replace("\x00", ""), selection.custom_notes.replace("\x00", "")
    words = {
        "custom_name": " ".join(name.split())[:UNIT_NAME_MAX_LENGTH],
        "notes": notes.replace("\r\n", "\n").strip()[:UNIT_NOTES_MAX_LENGTH],
    }
    return {key: value for key, value in words.items() if value}


def _match(candidates: list[UnitTemplate], selection: FileSelection) -> UnitTemplate | None:
    ids = entry_ids(selection.entry_id)
    for wanted_id in ids:
        for unit in candidates:
            # an imported unit's BattleScribe id, or the id our own export gives a bundled unit
            # (`armybuilder.roster.battlescribe`: derived from its catalogue reference)
            data = unit.data or {}
            if data.get("battlescribe_id") == wanted_id or (
                not data.get("battlescribe_id") and stable_id(catalogue_ref(unit)) == wanted_id
            ):
                return unit
    wanted = selection.name.strip().lower()
    return next((u for u in candidates if u.name.strip().lower() == wanted), None)


def _written_ids(options: dict[str, Any]) -> dict[str, str]:
    """{entry id: option key} of the ids our own export writes for a bundled unit's options
    (`armybuilder.roster.battlescribe`: an option's id derives from its key)."""
    return {stable_id(key): key for key in options}


def _model_option(options: dict[str, Any], models: dict[str, int], name: str) -> tuple[str, int] | None:
    """(key, models per take) of the option that adds models of the profile `name`: an imported
    unit's `more-<model>`, else the add-models option aimed at that profile (one naming no
    profile adds to the first, `rules.options._targets`)."""
    key = f"more-{slug(name, 70)}"
    if key in options:
        return key, 1
    first = next(iter(models), None)
    for option in options.values():
        payload = option.payload or {}
        if option.kind != "add_models" or payload.get("model"):
            continue
        if (option.applies_to or first) == name:
            return option.key, max(int(payload.get("count", 1) or 1), 1)
    return None


def _options(template: UnitTemplate, selection: FileSelection, differences: list[str]) -> dict[str, int]:
    options = {o.key: o for o in template.options.all()}
    written = _written_ids(options)
    chosen: dict[str, int] = {}
    data = template.data or {}
    models = {m["name"]: int(m["count"]) for m in data.get("models", [])}
    # A selection standing for N models ("10 Bestigors" ×2 is 20 Bestigors), by its entry id
    per = {str(k): int(v) for k, v in (data.get("battlescribe_per_selection") or {}).items()}
    sized = {str(v): str(k) for k, v in (data.get("battlescribe_models") or {}).items() if str(k) in per}

    def model_of(child: FileSelection) -> str | None:
        found = next((sized[i] for i in entry_ids(child.entry_id) if i in sized), None)
        if found is not None:
            return found
        return child.name if child.type == "model" and child.name in models else None

    # BattleScribe may keep one selection per model ("Marine" ×1 five times) or one with a number
    taken: dict[str, int] = {}
    for child in selection.selections:
        name = model_of(child)
        if name is not None:
            taken[name] = taken.get(name, 0) + child.number * per.get(name, 1)
    for name, number in taken.items():
        extra = number - models[name]
        found = _model_option(options, models, name)
        key, step = found if found else ("", 1)
        step *= per.get(name, 1)
        if extra > 0 and key and extra % step == 0:
            chosen[key] = chosen.get(key, 0) + extra // step
        elif extra != 0:
            differences.append(
                _("%(unit)s: %(n)s × %(model)s cannot be matched to the unit's size")
                % {"unit": selection.name, "n": number, "model": name}
            )
    # what the unit already holds at its minimum (BattleScribe lists these required selections)
    included = {
        str(thing.get("name", "")).strip().lower()
        for model in (template.data or {}).get("models", [])
        for thing in [*model.get("weapons", []), *model.get("items", [])]
        if isinstance(thing, dict)
    }
    for child in selection.walk():
        if model_of(child) is not None:
            continue
        parts = entry_ids(child.entry_id)
        keys = [f"opt-{slug(part, 60)}" for part in parts] + [written.get(part, "") for part in parts]
        key = next((k for k in keys if k in options), "")
        if key:
            chosen[key] = chosen.get(key, 0) + _takes(options[key], child)
        elif child.own_points() and child.name.strip().lower() not in included:
            differences.append(
                _("%(unit)s: selection “%(name)s” has no matching option; left out")
                % {"unit": selection.name, "name": child.name}
            )
    return chosen


def declared_total_message(declared: Fraction, counted: Fraction) -> str:
    """The roster states a total its selections do not add up to: said, never silently taken."""

    def shown(value: Fraction) -> int | float:
        return int(value) if value.denominator == 1 else float(value)

    return _(
        "The roster states a total of %(declared)s pts, but its selections cost %(counted)s pts; "
        "the list is priced from its selections."
    ) % {"declared": shown(declared), "counted": shown(counted)}


def _takes(option: Any, child: FileSelection) -> int:
    """How many times `child` takes `option`: its number, or for an option adding models of a
    profile of their own (our export writes one model selection of all of them) its models
    divided by the models one take adds."""
    model = (option.payload or {}).get("model") if option.kind == "add_models" else None
    if isinstance(model, dict) and child.type == "model":
        return max(child.number // max(int(model.get("count", 1) or 1), 1), 1)
    return child.number


@transaction.atomic
def roster_import(*, owner: AbstractBaseUser, system: GameSystem, source: SourceFile) -> RosterImport:
    """Create a list of `owner` from the roster in `source`; raises `BattleScribeError` for bad files."""
    roster = read_roster_file(source)
    candidates = list(
        units_visible_to(user=owner)
        .filter(faction__system=system)
        .select_related("faction")
        .prefetch_related("options")
    )
    factions = {u.faction for u in candidates}
    faction = next((f for f in factions if f.name in roster.catalogue_names), None)
    army_list = army_list_create(
        owner=owner,
        system=system,
        faction=faction,
        name=roster.name[:100],
        points_limit=roster.points_limit or DEFAULT_POINTS_LIMIT,
    )
    result = RosterImport(army_list=army_list)
    difference = roster.declared_difference()
    if difference is not None:
        result.differences.append(declared_total_message(*difference))
    if faction is not None and faction_source(faction.pk):
        return _engine_import(result, roster, source)
    for selection in roster.units:
        template = _match(candidates, selection)
        if template is None:
            result.differences.append(
                _("%(unit)s: no such unit in your catalogue of this system; left out")
                % {"unit": selection.name}
            )
            continue
        chosen = _options(template, selection, result.differences)
        for _copy in range(max(selection.number, 1)):
            try:
                added = army_list_add_unit(
                    army_list=army_list, unit=template, options=chosen, expected_version=None
                )
            except ArmyListError as exc:
                raise BattleScribeError(
                    [f"{source.name}: {selection.name}: {path}: {message}" for path, message in exc.errors]
                ) from None
            words = player_words(selection)
            if words:
                added = army_list_unit_set_details(
                    list_unit=added, custom_name=words.get("custom_name", ""), notes=words.get("notes", ""),
                    group="", expected_version=None,
                )
            army_list.refresh_from_db()
            each = selection.points / max(selection.number, 1)
            result.units.append({"name": added.name, "points": added.points, "roster_points": float(each)})
            if Fraction(added.points) != each:
                result.differences.append(
                    _("%(unit)s: %(ours)s pts here, %(theirs)s in the roster")
                    % {"unit": selection.name, "ours": added.points, "theirs": float(each)}
                )
    refuse_if_none_matched(roster=roster, matched=len(result.units), file_name=source.name, system=system)
    return result


def refuse_if_none_matched(*, roster: RosterFile, matched: int, file_name: str, system: GameSystem) -> None:
    """Raise `BattleScribeError` when the roster has units and not one (`matched`) was found in
    the catalogue: it is of another game system, or of catalogues the player has not imported,
    and an empty list that passes every rule would hide that (issue 30). Both roster routes
    (the roster upload here, the general import's `importers.roster`) refuse it alike, whether
    the units are matched to the catalogue or rebuilt by the engine (`engine_matched`)."""
    if roster.units and not matched:
        raise BattleScribeError([_wrong_system_message(file_name=file_name, roster=roster, system=system)])


def engine_matched(*, units: Sequence[ListUnit], dropped: Sequence[str]) -> int:
    """How many of a roster's units the engine found when it rebuilt the roster (a faction
    imported with its source), counted as `refuse_if_none_matched` counts: the rows it kept
    that field models. A roster of another catalogue of the game system keeps the game
    system's configuration (a battle size) and drops every unit; one whose every entry was
    found (nothing `dropped`: a roster of configuration alone) matched all of its rows."""
    return len(list_rows.fielded(units)) if dropped else len(units)


def _engine_import(result: RosterImport, roster: RosterFile, source: SourceFile) -> RosterImport:
    """A roster of a faction imported with its source: the engine rebuilds it selection for
    selection; units it cannot rebuild and costs that differ from the file's are reported."""
    # here, not at the top: the importers' package reads this module's helpers as it loads
    from armybuilder.lists.importers.dropped_entries import dropped_lines, entry_names

    try:
        units, dropped = army_list_import_roster(
            army_list=result.army_list,
            trees=roster.trees,
            force_entry_id=next(iter(roster.force_entry_ids), ""),
            details=[player_words(selection) for selection in roster.units],
        )
    except ArmyListError as exc:
        raise BattleScribeError([f"{source.name}: {message}" for _path, message in exc.errors]) from None
    system = result.army_list.system
    refuse_if_none_matched(roster=roster, matched=engine_matched(units=units, dropped=dropped),
                           file_name=source.name, system=system)
    for index, tree in enumerate(roster.trees):
        if tree.get("entry") in dropped:
            result.differences.append(
                _("%(unit)s: no such unit in your catalogue of this system; left out")
                % {"unit": roster.units[index].name}
            )
    result.differences += dropped_lines(trees=roster.trees, dropped=dropped,
                                        unit_names=[unit.name for unit in roster.units],
                                        names=entry_names(roster.units))
    for unit in units:
        selection = roster.units[unit._roster_index]  # which of the file's units it is
        theirs = selection.points
        rows = result.configuration if list_rows.is_configuration(unit) else result.units
        rows.append({"name": unit.name, "points": unit.points, "roster_points": float(theirs)})
        if Fraction(unit.points) != theirs:
            result.differences.append(
                _("%(unit)s: %(ours)s pts here, %(theirs)s in the roster")
                % {"unit": selection.name, "ours": unit.points, "theirs": float(theirs)}
            )
    result.army_list.refresh_from_db()
    return result


#: The matching above, for the roster importer of `armybuilder.lists.importers.roster`.
match_unit = _match
matched_options = _options
def _wrong_system_message(*, file_name: str, roster: RosterFile, system: GameSystem) -> str:
    """Why nothing of the roster was found: its catalogues are missing where the roster is of the
    chosen system (`_roster_is_of`), else it is of another system, or of catalogues not imported."""
    values = {"file": file_name, "system": _(system.name), "roster_system": roster.game_system_name}
    if _roster_is_of(roster, system):
        return _(
            "%(file)s: none of this roster's units is in your catalogues of %(system)s: import the "
            "roster's catalogues first."
        ) % values
    if roster.game_system_name:
        return _(
            "%(file)s: this roster is for %(roster_system)s, and none of its units is in your "
            "catalogue of %(system)s: choose the roster's game system, or import its catalogues first."
        ) % values
    return _(
        "%(file)s: none of this roster's units is in your catalogue of %(system)s: choose the "
        "roster's game system, or import its catalogues first."
    ) % values


def _roster_is_of(roster: RosterFile, system: GameSystem) -> bool:
    """Whether the roster's game system is the chosen system's: an edition its rules are for
    (`BattleScribeMapping.editions`), the game system catalogues of it were imported with, or
    one named as it is (letters and digits, "edition" and "ed." aside)."""
    edition = edition_of(roster.game_system_id, roster.game_system_revision)
    if edition is not None and edition.key in get_system(system.key).battlescribe.editions:
        return True
    if roster.game_system_id and BattleScribeSource.objects.filter(
        faction__system=system, game_system__id=roster.game_system_id
    ).exists():
        return True
    return bool(roster.game_system_name) and _name_words(roster.game_system_name) == _name_words(system.name)


def _name_words(name: str) -> list[str]:
    words = re.findall(r"[^\W_]+", name.lower().replace(",", "").replace(".", ""))
    return [word for word in words if word not in ("edition", "ed")]
