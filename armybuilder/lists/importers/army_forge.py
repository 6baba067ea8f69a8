"""Army Forge: a list (its share JSON, `/api/tts?id=…`) and an army book (`/api/army-books/<id>`).

The game system is the one whose registry entry reads Army Forge units
(`GameSystem.foreign_units["army_forge"]`); the unit mapping is that system's. A list keeps
Army Forge's order: a combined unit (`combined: true`, joined to its twin) is merged into the
unit it joins; a hero joined to a unit (`joinToUnit`) stays a unit of its own, grouped with
its host. Its source total is Army Forge's base costs plus its upgrade costs.
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
from armybuilder.models import POINTS_LIMIT_MAX, UNIT_GROUP_MAX_LENGTH
from rules.systems.registry import GameSystem, all_systems, get_system

FORMAT = "army_forge"


def army_forge_system(context: Context) -> GameSystem:
    """The system that reads Army Forge units (the one asked for, if it can)."""
    if context.system_key:
        try:
            system = get_system(context.system_key)
        except KeyError:
            raise ImportProblem([("system", _("Unknown game system."))]) from None
        if FORMAT in system.foreign_units:
            return system
        raise ImportProblem([("system", _("This game system cannot read Army Forge units."))])
    for system in all_systems():
        if FORMAT in system.foreign_units:
            return system
    raise ImportProblem([("system", _("No game system here reads Army Forge units."))])


def _errors(errors: list[tuple[str, str]]) -> list[tuple[str, str]]:
    return [(where, _(message)) for where, message in errors]


def _units(payload: Mapping[str, Any], key: str) -> list[Any]:
    units = payload.get(key)
    if not isinstance(units, list):
        raise ImportProblem([(key, _("Must be a list."))])
    if len(units) > MAX_SOURCE_UNITS:
        raise ImportProblem(
            [(key, _("At most %(max)d units can be imported at once.") % {"max": MAX_SOURCE_UNITS})]
        )
    return units


class ArmyForgeList:
    key = "army_forge_list"
    label = "Army Forge list (share JSON)"

    def detect(self, source: Source) -> bool:
        data = source.json
        if not isinstance(data, Mapping) or not isinstance(data.get("units"), list):
            return False
        units = [u for u in data["units"] if isinstance(u, Mapping)]
        if not units:
            return "gameSystem" in data
        # The system that reads Army Forge units knows their shape (`looks_like_unit`).
        readers = [s.foreign_units[FORMAT] for s in all_systems() if FORMAT in s.foreign_units]
        return any(all(reader.looks_like_unit(u) for u in units) for reader in readers)

    def read(self, source: Source, context: Context) -> Imported:
        data = source.json_or_error()
        if not isinstance(data, Mapping):
            raise ImportProblem([("", _("An Army Forge list is a JSON object."))])
        system = army_forge_system(context)
        imported = Imported(format=self.key, system_key=system.key)
        read_list(data, _units(data, "units"), system, imported)
        return imported


def read_list(
    data: Mapping[str, Any],
    entries: list[Any],
    system: GameSystem,
    imported: Imported,
    *,
    path: str = "units",
) -> None:
    """Army Forge's list units (`entries`, the share JSON's shape) into `imported`: its list
    (combined units merged, joined heroes grouped with their hosts), report rows and source
    total; `ImportProblem` naming each field that cannot be read. `data` gives the list's name
    and points limit."""
    reader = system.foreign_units[FORMAT]
    errors: list[tuple[str, str]] = []
    read: list[tuple[Mapping[str, Any], Any]] = []
    by_selection: dict[str, Any] = {}
    for index, entry in enumerate(entries):
        unit = reader.read_unit(entry, f"{path}[{index}]")
        errors += _errors(unit.errors)
        if unit.errors:
            continue
        selection = str(entry.get("selectionId") or "")
        host = by_selection.get(str(entry.get("joinToUnit") or ""))
        if entry.get("combined") and host is not None:
            reader.merge_combined(host, unit)  # one unit on the table, one entry here
            continue
        if selection:
            by_selection[selection] = unit
        read.append((entry, unit))
    if errors:
        raise ImportProblem(errors)
    list_entries = []
    # a joined hero and its host share a group, whichever comes first (Army Forge writes
    # the hero before the unit it joins)
    groups = {
        id(host.unit): host.unit["name"][:UNIT_GROUP_MAX_LENGTH]
        for entry, unit in read
        if (host := by_selection.get(str(entry.get("joinToUnit") or ""))) is not None and host is not unit
    }
    for entry, unit in read:
        host = by_selection.get(str(entry.get("joinToUnit") or ""))
        list_entry: dict[str, Any] = {"unit": unit.unit, "count": 1}
        if host is not None and host is not unit:
            list_entry["group"] = groups[id(host.unit)]
        elif id(unit.unit) in groups:
            list_entry["group"] = groups[id(unit.unit)]
        if str(entry.get("customName") or "").strip() and entry.get("name"):
            list_entry["notes"] = str(entry["name"])[:200]
        list_entries.append(list_entry)
        imported.units.append(
            ReportUnit(unit.unit["name"], unit.size, unit.source_points, unpriced=list(unit.unpriced))
        )
        imported.left_out += unit.left_out
    imported.source_total = sum(u.source_points for u in imported.units)
    limit = data.get("pointsLimit")
    limit = limit if isinstance(limit, int) and 0 < limit <= POINTS_LIMIT_MAX else None
    name = str(data.get("name") or "").strip() or _("Army Forge list")
    imported.list_data = {
        "format": 1,
        "system": system.key,
        "name": name[:100],
        "points_limit": limit or min(max(imported.source_total, 1), POINTS_LIMIT_MAX),
        "units": list_entries,
    }


def _army_rules(book: Mapping[str, Any], unpriced: list[str]) -> list[dict[str, str]]:
    """The faction's rule list: each rule the formula does not price that the book's units carry
    (`unpriced`, by name), with the text the book gives it in `specialRules` (empty without)."""
    texts: dict[str, str] = {}
    for rule in book.get("specialRules") or []:
        if isinstance(rule, Mapping) and str(rule.get("name") or "").strip():
            texts.setdefault(str(rule["name"]).strip(), str(rule.get("description") or "").strip())
    return [{"name": name[:100], "text": texts.get(name, "")[:4000]} for name in unpriced[:300]]


class ArmyForgeBook:
    key = "army_forge_book"
    label = "Army Forge army book (JSON)"

    def detect(self, source: Source) -> bool:
        data = source.json
        if not isinstance(data, Mapping) or not isinstance(data.get("units"), list):
            return False
        return "upgradePackages" in data or ("uid" in data and "units" in data and "pointsLimit" not in data)

    def read(self, source: Source, context: Context) -> Imported:
        data = source.json_or_error()
        if not isinstance(data, Mapping):
            raise ImportProblem([("", _("An Army Forge army book is a JSON object."))])
        system = army_forge_system(context)
        reader = system.foreign_units[FORMAT]
        name = str(data.get("name") or "").strip()
        if not name:
            raise ImportProblem([("name", _("This field is required."))])
        ident = "".join(c for c in str(data.get("uid") or name).lower() if c.isalnum())[:40] or "book"
        # The same book differs per Army Forge game system (Firefight's units are single
        # models): each system's is a faction of its own; Grimdark Future's keeps the plain slug.
        book_system = reader.book_system(data)
        if book_system not in ("", "gf"):
            ident = f"{ident}-{book_system}"
        imported = Imported(format=self.key, system_key=system.key)
        errors: list[tuple[str, str]] = []
        units = []
        packages = {str(p.get("uid")): p for p in data.get("upgradePackages") or [] if isinstance(p, Mapping)}
        for index, entry in enumerate(_units(data, "units")):
            unit = reader.read_unit(entry, f"units[{index}]")
            errors += _errors(unit.errors)
            if unit.errors:
                continue
            slug = "".join(
                c if c.isalnum() else "-" for c in str(entry.get("id") or unit.unit["name"]).lower()
            )
            slug = "-".join(part for part in slug.split("-") if part)[:60] or f"unit-{index}"
            if any(u["slug"] == slug for u in units):
                slug = f"{slug[:54]}-{index}"
            body = {k: v for k, v in unit.unit.items() if k not in ("format", "system", "name")}
            options, skipped = reader.read_options(entry, packages, unit.unit, f"units[{index}]")
            if options:
                body["options"] = options
            hero = any(
                str(r).split("(")[0].strip().lower() == "hero"
                for m in unit.unit["models"]
                for r in m.get("rules", [])
            )
            units.append(
                {"slug": slug, "name": unit.unit["name"], "role": "hero" if hero else "infantry", **body}
            )
            imported.units.append(
                ReportUnit(unit.unit["name"], unit.size, unit.source_points, unpriced=list(unit.unpriced))
            )
            imported.left_out += unit.left_out + [
                _("%(item)s: upgrade not imported") % {"item": s} for s in skipped
            ]
        if errors:
            raise ImportProblem(errors)
        if not units:
            raise ImportProblem([("units", _("The army book has no units."))])
        imported.source_total = sum(u.source_points for u in imported.units)
        version = str(data.get("versionString") or data.get("version") or "")[:32]
        faction: dict[str, Any] = {
            "slug": f"af-{ident}",
            "name": name[:120],
            "version": version,
            "description": _("Imported from Army Forge."),
        }
        army_rules = _army_rules(data, imported.unpriced_rules())
        if army_rules:
            faction["rules"] = army_rules
        imported.faction_data = {"faction": faction, "units": units}
        imported.source_book = dict(data)  # its save files name units and upgrades by id in it
        return imported
