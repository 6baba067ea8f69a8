"""BattleScribe rosters (.ros, zipped .rosz) and New Recruit JSON rosters: one reader.

Both are BattleScribe's roster schema, read by the one roster reader
(`rules.battlescribe.engine.roster_xml`): forces may nest,
and a selection records only its own cost, so a unit's source points sum its selections at
every depth. Each unit is matched to a catalogue unit the player can see in the chosen system
(by BattleScribe entry id, else by name) and its selections to that unit's options, exactly
like the BattleScribe roster upload (`armybuilder.lists.battlescribe_rosters`); what finds no
counterpart is reported, never guessed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from django.utils.translation import gettext as _

from armybuilder.lists.battlescribe_rosters import (
    DEFAULT_POINTS_LIMIT,
    declared_total_message,
    engine_matched,
    match_unit,
    matched_options,
    player_words,
    refuse_if_none_matched,
)
from armybuilder.lists.importers.base import (
    MAX_SOURCE_UNITS,
    Context,
    Imported,
    ImportProblem,
    ReportUnit,
    Source,
)
from armybuilder.lists.importers.dropped_entries import entry_names
from armybuilder.lists.services import catalogue_ref
from armybuilder.models import POINTS_LIMIT_MAX, ListUnit
from rules.battlescribe.engine.roster_xml import RosterFile, read_roster_file, read_roster_json
from rules.battlescribe.xml_reader import BattleScribeError, SourceFile
from rules.battlescribe_lists import faction_source
from rules.models import GameSystem
from rules.selectors import units_visible_to


def _points(value: Fraction) -> int | float:
    return int(value) if value.denominator == 1 else float(value)


def _system(context: Context, roster: RosterFile) -> GameSystem:
    if context.system_key:
        system = GameSystem.objects.filter(key=context.system_key).first()
        if system is None:
            raise ImportProblem([("system", _("Unknown game system."))])
        return system
    names = [n for n in roster.catalogue_names if n]
    by_faction = GameSystem.objects.filter(factions__name__in=names).distinct()
    if by_faction.count() == 1:
        return by_faction.get()
    raise ImportProblem([("system", _("Choose the game system of this roster."))])


def roster_to_list(roster: RosterFile, context: Context, *, format: str, file_name: str) -> Imported:
    """The roster as a list of catalogue references, with its report; `ImportProblem` (on
    `file`, as the roster upload says it) when none of its units is in the catalogue."""
    if len(roster.units) > MAX_SOURCE_UNITS:
        raise ImportProblem(
            [("", _("At most %(max)d units can be imported at once.") % {"max": MAX_SOURCE_UNITS})]
        )
    system = _system(context, roster)
    candidates = list(
        units_visible_to(user=context.user)
        .filter(faction__system=system)
        .select_related("faction")
        .prefetch_related("options")
    )
    imported = Imported(format=format, system_key=system.key)
    imported.list_faction = context.faction or next(
        (u.faction for u in candidates if u.faction.name in roster.catalogue_names), None
    )
    entries: list[dict[str, Any]] = []
    faction = imported.list_faction
    if faction is not None and faction_source(faction.pk):
        # The faction was imported with its BattleScribe source: the roster engine rebuilds the
        # roster selection for selection (as the roster upload does), nothing is matched.
        imported.roster_trees = roster.trees
        imported.roster_file = roster
        imported.roster_force = next(iter(roster.force_entry_ids), "")
        imported.roster_details = [player_words(selection) for selection in roster.units]
        imported.entry_names = entry_names(roster.units)
        for selection in roster.units:
            models = sum(c.number for c in [selection, *selection.walk()] if c.type == "model")
            imported.units.append(ReportUnit(selection.name, models, _points(selection.points)))
    for selection in roster.units if imported.roster_trees is None else ():
        number = max(selection.number, 1)
        each = selection.points / number
        template = match_unit(candidates, selection)
        if template is None:
            imported.left_out.append(
                _("%(unit)s: no such unit in your catalogue of this system; left out")
                % {"unit": selection.name}
            )
            continue
        chosen = matched_options(template, selection, imported.left_out)
        keys = [key for key, count in chosen.items() for _ in range(count)]
        models = sum(c.number for c in selection.walk() if c.type == "model") or sum(
            int(m.get("count", 1)) for m in (template.data or {}).get("models", [])
        )
        for _copy in range(number):
            entry = {"catalogue_unit": catalogue_ref(template), "options": keys}
            entries.append({**entry, **player_words(selection)})
            imported.templates[catalogue_ref(template)] = template
            imported.units.append(ReportUnit(selection.name, models // number or models, _points(each)))
    if imported.roster_trees is None:  # (the engine's rebuild reports what it drops by itself)
        try:
            refuse_if_none_matched(roster=roster, matched=len(entries), file_name=file_name, system=system)
        except BattleScribeError as exc:
            raise _refused(exc, imported.left_out) from None
    imported.source_total = _points(sum((u.points for u in roster.units), Fraction(0)))
    difference = roster.declared_difference()
    if difference is not None:
        # The total as the source states it, and what its selections add up to.
        imported.source_total = _points(difference[0])
        imported.left_out.append(declared_total_message(*difference))
    limit = roster.points_limit if roster.points_limit and roster.points_limit <= POINTS_LIMIT_MAX else None
    imported.list_data = {
        "format": 1,
        "system": system.key,
        "name": (roster.name or "Roster")[:100],
        "points_limit": limit or DEFAULT_POINTS_LIMIT,
        "units": entries,
    }
    return imported


def refuse_if_none_rebuilt(
    imported: Imported,
    units: Sequence[ListUnit],
    dropped: Sequence[str],
    *,
    file_name: str,
    system: GameSystem,
) -> None:
    """`ImportProblem` when the engine rebuilt none of the units of the roster file `imported`
    was read from (`Imported.roster_file`; trees of our JSON or a text are not a roster's):
    the check the matched route makes (`refuse_if_none_matched`), on the engine's count."""
    roster = imported.roster_file
    if roster is None:
        return
    try:
        matched = engine_matched(units=units, dropped=dropped)
        refuse_if_none_matched(roster=roster, matched=matched, file_name=file_name, system=system)
    except BattleScribeError as exc:
        raise _refused(exc, imported.left_out) from None


def _refused(exc: BattleScribeError, left_out: Sequence[str]) -> ImportProblem:
    """The refusal on `file`, then each unit left out, as an import that kept some names them."""
    return ImportProblem([("file", message) for message in exc.errors] + [("", line) for line in left_out])


class BattleScribeRoster:
    key = "battlescribe"
    label = "BattleScribe roster (.ros, .rosz)"

    def detect(self, source: Source) -> bool:
        head = source.data[:4096].lstrip()
        return source.data.startswith(b"PK") or (head.startswith(b"<") and b"<roster" in head)

    def read(self, source: Source, context: Context) -> Imported:
        try:
            roster = read_roster_file(SourceFile(name=source.name, data=source.data))
        except BattleScribeError as exc:
            raise ImportProblem([("", message) for message in exc.errors]) from None
        return roster_to_list(roster, context, format=self.key, file_name=source.name)


class NewRecruitRoster:
    key = "new_recruit"
    label = "New Recruit roster (JSON)"

    def detect(self, source: Source) -> bool:
        data = source.json
        return isinstance(data, Mapping) and isinstance(data.get("roster"), Mapping)

    def read(self, source: Source, context: Context) -> Imported:
        try:
            roster = read_roster_json(source.json_or_error(), name=source.name)
        except BattleScribeError as exc:
            raise ImportProblem([("", message) for message in exc.errors]) from None
        return roster_to_list(roster, context, format=self.key, file_name=source.name)
