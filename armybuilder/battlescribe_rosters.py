"""Importing a BattleScribe roster (.ros/.rosz) as an army list (service).

Each unit of the roster is matched to a catalogue unit the user can see in the chosen
system (by its BattleScribe entry id, kept by catalogue imports; else by name), its nested
selections to that unit's options (`opt-<entry id>`) and its model counts to its add-models
options, and the list is built through the ordinary list services (`army_list_create`,
`army_list_add_unit`), so it is checked and priced like any other. Every selection that
finds no counterpart, and every unit whose points differ from the roster's, is reported.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from armybuilder.errors import ArmyListError
from armybuilder.models import ArmyList
from armybuilder.services import army_list_add_unit, army_list_create
from rules.battlescribe.roster_reader import RosterSelection, read_roster
from rules.battlescribe.to_units import slug
from rules.battlescribe.xml_reader import BattleScribeError, SourceFile
from rules.models import GameSystem, UnitTemplate
from rules.selectors import units_visible_to

DEFAULT_POINTS_LIMIT = 2000


@dataclass
class RosterImport:
    army_list: ArmyList
    units: list[dict[str, Any]] = field(default_factory=list)  # {name, points, roster_points}
    differences: list[str] = field(default_factory=list)


def _match(candidates: list[UnitTemplate], selection: RosterSelection) -> UnitTemplate | None:
    for unit in candidates:
        if selection.entry_id and (unit.data or {}).get("battlescribe_id") == selection.entry_id:
            return unit
    wanted = selection.name.strip().lower()
    return next((u for u in candidates if u.name.strip().lower() == wanted), None)


def _options(template: UnitTemplate, selection: RosterSelection, differences: list[str]) -> dict[str, int]:
    options = {o.key: o for o in template.options.all()}
    chosen: dict[str, int] = {}
    models = {m["name"]: int(m["count"]) for m in (template.data or {}).get("models", [])}
    for child in selection.children:
        if child.type == "model" and child.name in models:
            extra = child.number - models[child.name]
            key = f"more-{slug(child.name, 70)}"
            if extra > 0 and key in options:
                chosen[key] = extra
            elif extra != 0:
                differences.append(
                    _("%(unit)s: %(n)s × %(model)s cannot be matched to the unit's size")
                    % {"unit": selection.name, "n": child.number, "model": child.name}
                )
    for child in selection.walk():
        if child.type == "model" and child.name in models:
            continue
        key = f"opt-{slug(child.entry_id, 60)}" if child.entry_id else ""
        if key in options:
            chosen[key] = chosen.get(key, 0) + child.number
        elif child.points:
            differences.append(
                _("%(unit)s: selection “%(name)s” has no matching option; left out")
                % {"unit": selection.name, "name": child.name}
            )
    return chosen


@transaction.atomic
def roster_import(*, owner: AbstractBaseUser, system: GameSystem, source: SourceFile) -> RosterImport:
    """Create a list of `owner` from the roster in `source`; raises `BattleScribeError` for bad files."""
    roster = read_roster(source)
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
            army_list.refresh_from_db()
            each = selection.points / max(selection.number, 1)
            result.units.append({"name": added.name, "points": added.points, "roster_points": float(each)})
            if Fraction(added.points) != each:
                result.differences.append(
                    _("%(unit)s: %(ours)s pts here, %(theirs)s in the roster")
                    % {"unit": selection.name, "ours": added.points, "theirs": float(each)}
                )
    return result
