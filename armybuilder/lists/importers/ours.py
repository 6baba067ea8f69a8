"""Our own list file (the interchange format, `docs/unit-format.md`, "An army list").

The file goes to the list import as written (`armybuilder.lists.interchange`, which checks every
field); this importer only lists its units for the report, one row per copy (`count`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from armybuilder.lists.importers.base import (
    MAX_SOURCE_UNITS,
    Context,
    Imported,
    ImportProblem,
    ReportUnit,
    Source,
)
from armybuilder.lists.interchange import file_faction, selection_errors
from rules.battlescribe_lists import faction_source
from rules.models import GameSystem


def _row(entry: Any) -> ReportUnit:
    """The report row of one entry: its name, models and the book price it carries, if any."""
    unit = entry.get("unit") if isinstance(entry, Mapping) else None
    if not isinstance(unit, Mapping):
        reference = entry.get("catalogue_unit") if isinstance(entry, Mapping) else ""
        return ReportUnit(str(reference or ""), 0, None)
    models = unit.get("models") if isinstance(unit.get("models"), list) else []
    size = sum(m["count"] for m in models if isinstance(m, Mapping) and type(m.get("count")) is int)
    extra = unit.get("extra") if isinstance(unit.get("extra"), Mapping) else {}
    stated = extra.get("source_points")
    book = stated if isinstance(stated, int | float) and not isinstance(stated, bool) else None
    return ReportUnit(str(unit.get("name") or ""), size, book)


class OurListFile:
    key = "json"
    label = "Army Builder list file (JSON)"

    def detect(self, source: Source) -> bool:
        data = source.json
        return (
            isinstance(data, Mapping)
            and "system" in data
            and isinstance(data.get("units"), list)
            and ("points_limit" in data or "format" in data)
        )

    def read(self, source: Source, context: Context) -> Imported:
        data = source.json_or_error()
        if not isinstance(data, Mapping):
            raise ImportProblem([("", _("A list must be a JSON object."))])
        imported = Imported(format=self.key, list_data=dict(data), list_faction=context.faction)
        imported.system_key = data.get("system") if isinstance(data.get("system"), str) else None
        self._roster(imported, data, context)
        for entry in data.get("units") if isinstance(data.get("units"), list) else []:
            count = entry.get("count", 1) if isinstance(entry, Mapping) else 1
            copies = count if type(count) is int and 1 <= count <= 100 else 1
            imported.units += [_row(entry) for _copy in range(copies)]
            if len(imported.units) > MAX_SOURCE_UNITS:
                break  # the list import refuses the list; it says why
        # a row for each configuration tree, named by the engine's rebuild (`imports._engine_units`)
        imported.units[:0] = [ReportUnit("", 0, None) for _tree in range(imported.roster_lead)]
        return imported

    def _roster(self, imported: Imported, data: Mapping[str, Any], context: Context) -> None:
        """A roster list of ours (every unit with its selection tree, one entry per unit) of a
        faction the reader can see: the engine rebuilds it from the trees, as from a .rosz
        (`imports.import_source`); otherwise its units in full are imported."""
        entries = data.get("units")
        if not isinstance(entries, list) or not entries or not all(
            isinstance(e, Mapping) and isinstance(e.get("selection"), Mapping) and e.get("count", 1) == 1
            for e in entries
        ):
            return
        if any(selection_errors(e["selection"], f"units[{i}].selection") for i, e in enumerate(entries)):
            return  # the list import reports them
        system = GameSystem.objects.filter(key=imported.system_key or "").first()
        faction = imported.list_faction
        if faction is None and system is not None:
            faction = file_faction(user=context.user, system=system, slug=data.get("faction"))
        if faction is None or not faction_source(faction.pk):
            return
        imported.list_faction = faction
        configuration = data.get("configuration")
        configuration = configuration if isinstance(configuration, list) else []
        if any(selection_errors(tree, f"configuration[{i}]") for i, tree in enumerate(configuration)):
            return  # the list import reports them
        imported.roster_lead = len(configuration)
        imported.roster_trees = [dict(tree) for tree in configuration]
        imported.roster_trees += [dict(e["selection"]) for e in entries]
        force = data.get("roster_force")
        imported.roster_force = force if isinstance(force, str) and len(force) <= 64 else ""
