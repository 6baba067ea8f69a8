"""Our own list file (the interchange format, `shared/spec/unit-format.md`, "An army list")."""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext as _

from armybuilder.lists.importers.base import Context, Imported, ImportProblem, ReportUnit, Source


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
        entries = data.get("units") if isinstance(data.get("units"), list) else []
        expanded = []
        for entry in entries:
            count = entry.get("count", 1) if isinstance(entry, Mapping) else 1
            count = (
                count if isinstance(count, int) and not isinstance(count, bool) and 1 <= count <= 100 else 1
            )
            for _copy in range(count):
                single = dict(entry) if isinstance(entry, Mapping) else entry
                if isinstance(single, dict):
                    single["count"] = 1
                expanded.append(single)
                unit = single.get("unit") if isinstance(single, dict) else None
                name = (
                    str((unit or {}).get("name") or (single or {}).get("catalogue_unit") or "")
                    if isinstance(single, dict)
                    else ""
                )
                size = (
                    sum(
                        int(m.get("count", 1))
                        for m in (unit or {}).get("models", [])
                        if isinstance(m, Mapping)
                    )
                    if isinstance(unit, Mapping) and isinstance(unit.get("models"), list)
                    else 0
                )
                extra = (unit or {}).get("extra") if isinstance(unit, Mapping) else None
                stated = extra.get("source_points") if isinstance(extra, Mapping) else None
                imported.units.append(
                    ReportUnit(name, size, stated if isinstance(stated, int | float) else None)
                )
        if len(expanded) > 300:
            expanded = entries  # let the list import report the limit itself
            imported.units = []
        imported.list_data["units"] = expanded
        return imported
