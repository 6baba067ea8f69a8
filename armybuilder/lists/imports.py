"""Importing a list (or an army book) from any format we read: the one entry point (service).

Pages, the API and `manage.py import_list` call `import_source`: the importer of the format
(`armybuilder.lists.importers`) reads the source, the list is checked and priced exactly like
one of our own files (`armybuilder.lists.interchange.army_list_build`), an army book passes the
catalogue loader's checks (`rules.catalogue_files.read_faction_data`), and only then is
anything saved, in one transaction. The report sets every unit's price in the source beside
ours (for a formula-priced system, the published formula's).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from armybuilder.lists.backends import engine_units
from armybuilder.lists.backends import rows as list_rows
from armybuilder.lists.errors import ArmyListError
from armybuilder.lists.importers import Context, Imported, ImportProblem, Source, importer_for
from armybuilder.lists.importers.base import MAX_SOURCE_BYTES
from armybuilder.lists.importers.dropped_entries import dropped_lines
from armybuilder.lists.importers.fetch import fetch_army_forge, looks_like_link
from armybuilder.lists.importers.roster import refuse_if_none_rebuilt
from armybuilder.lists.interchange import army_list_build, army_list_save_built, army_list_to_dict
from armybuilder.models import MAX_UNITS_PER_LIST, ArmyList, ListUnit
from rules.army_forge_books import keep_book
from rules.catalogue_files import CatalogueFileError, FactionPlan, read_faction_data
from rules.catalogue_sync import CataloguePlan, write_catalogue
from rules.models import Faction, GameSystem
from rules.systems.registry import get_system, unit_points


@dataclass
class ImportOutcome:
    """What was imported (saved unless a dry run): a list or a faction, and the report."""

    imported: Imported
    army_list: ArmyList | None = None
    units: list[ListUnit] = field(default_factory=list)
    faction_plan: FactionPlan | None = None
    faction: Faction | None = None
    saved: bool = False

    def as_dict(self) -> dict[str, Any]:
        """`{"list": <our list file>}` or `{"faction": …}`, with `"report"` (the command's `--json`)."""
        result: dict[str, Any] = {}
        if self.army_list is not None:
            result["list"] = army_list_to_dict(army_list=self.army_list, units=self.units)
            if self.saved:
                result["list_id"] = self.army_list.pk
        if self.faction_plan is not None:
            result["faction"] = {
                "system": self.imported.system_key,
                "slug": self.faction_plan.slug,
                "name": self.faction_plan.values["name"],
                "id": self.faction.pk if self.faction is not None else None,
                "units": [u.values["name"] for u in self.faction_plan.units],
            }
        result["report"] = self.imported.report()
        return result


def _faction_plan(imported: Imported, source: Source, owner: AbstractBaseUser) -> FactionPlan:
    assert imported.faction_data is not None and imported.system_key is not None
    try:
        plan = read_faction_data(imported.system_key, imported.faction_data, source=source.name)
    except CatalogueFileError as exc:
        raise ImportProblem([("", message) for message in exc.errors]) from None
    system = get_system(imported.system_key)
    for row, unit in zip(imported.units, plan.units, strict=True):
        row.formula_points = unit_points(system, unit.values["data"])
    plan.owner_id = owner.pk
    plan.values["description"] = plan.values["description"] + " Private import."
    return plan


def import_source(
    *,
    user: AbstractBaseUser,
    source: Source,
    format: str = "auto",
    system_key: str | None = None,
    faction: Faction | None = None,
    dry_run: bool = False,
) -> ImportOutcome:
    """Read `source`, check it whole, and save it unless `dry_run`.

    Raises `ImportProblem` (an `ArmyListError`) naming the line or field of every problem;
    nothing is saved then.
    """
    context = Context(user=user, system_key=system_key or None, faction=faction)
    imported = importer_for(source, format).read(source, context)
    if imported.faction_data is not None:
        outcome = ImportOutcome(imported=imported, faction_plan=_faction_plan(imported, source, user))
        if not dry_run:
            if not GameSystem.objects.filter(key=imported.system_key).exists():
                raise ImportProblem([("system", _("Unknown game system."))])
            with transaction.atomic():
                write_catalogue(CataloguePlan(factions=[outcome.faction_plan]))
                outcome.faction = Faction.objects.get(
                    system__key=imported.system_key, owner_id=user.pk, slug=outcome.faction_plan.slug
                )
                if imported.source_book is not None:
                    keep_book(faction=outcome.faction, book=imported.source_book)
            outcome.saved = True
        return outcome
    assert imported.list_data is not None
    list_faction = imported.list_faction
    if list_faction is not None and imported.system_key and list_faction.system.key != imported.system_key:
        list_faction = None
    engine = imported.roster_trees is not None and list_faction is not None
    try:
        army_list, units = army_list_build(
            user=user, data=imported.list_data, faction=list_faction, known=imported.templates
        )
        if engine:
            units = _engine_units(imported, army_list, file_name=source.name)
    except ImportProblem:
        raise
    except ArmyListError as exc:
        raise ImportProblem(exc.errors) from None
    if not engine and len(imported.units) == len(units):  # the engine's rows are priced already
        for row, unit in zip(imported.units, units, strict=True):
            row.formula_points = unit.points
    outcome = ImportOutcome(imported=imported, army_list=army_list, units=units)
    if not dry_run:
        army_list_save_built(army_list=army_list, units=units)
        outcome.saved = True
    return outcome


def _engine_units(imported: Imported, army_list: ArmyList, *, file_name: str) -> list[ListUnit]:
    """The units of a BattleScribe roster of a faction imported with its source, rebuilt by the
    roster engine selection for selection into `army_list` (unsaved), as the roster upload
    does (`services.army_list_import_roster`): the same selections, costs and errors as the
    file's. Each report row gets the engine's price beside the file's; a unit whose entry the
    catalogue no longer has is reported as left out."""
    trees = imported.roster_trees or []
    if len(trees) > MAX_UNITS_PER_LIST:
        limit = {"limit": MAX_UNITS_PER_LIST}
        raise ImportProblem([("units", _("A list has at most %(limit)d units.") % limit)])
    army_list.roster_force = imported.roster_force
    roster = engine_units.roster_from_trees(army_list, trees)
    army_list.roster_force = roster.force_entry_id
    units = engine_units.units_from_roster(army_list, roster)
    entries = (imported.list_data or {}).get("units") or []
    lead = imported.roster_lead  # our file's configuration trees come before its entries
    for unit in units:
        row = imported.units[unit._roster_index]  # type: ignore[attr-defined]
        row.formula_points = unit.points
        row.name = row.name or unit.name
        index = unit._roster_index  # type: ignore[attr-defined]
        entry = entries[index - lead] if lead <= index < lead + len(entries) else {}
        if index < len(imported.roster_details):
            entry = {**imported.roster_details[index], **(entry if isinstance(entry, dict) else {})}
        for key in ("custom_name", "notes", "group"):  # our own file's words for the unit
            if isinstance(entry, dict) and isinstance(entry.get(key), str):
                setattr(unit, key, entry[key].strip())
    kept = {unit._roster_index for unit in units}  # type: ignore[attr-defined]
    for index, row in enumerate(imported.units):
        if index not in kept:
            imported.left_out.append(
                _("%(unit)s: no such unit in your catalogue of this system; left out") % {"unit": row.name}
            )
    imported.left_out += dropped_lines(trees=trees, dropped=roster.dropped, names=imported.entry_names,
                                       unit_names=[row.name for row in imported.units])
    # a roster file none of whose units the engine found is refused, as a matched one is
    refuse_if_none_rebuilt(imported, units, roster.dropped, file_name=file_name, system=army_list.system)
    # The roster's configuration (battle size, detachment cost) is reported as such, not as units.
    rows = {unit._roster_index for unit in list_rows.configuration(units)}  # type: ignore[attr-defined]
    imported.configuration = [row.name for index, row in enumerate(imported.units) if index in rows]
    imported.units = [row for index, row in enumerate(imported.units) if index not in rows]
    return units


def import_source_of(*, upload: Any = None, text: str = "") -> Source:
    """What a page or the API was given: an uploaded file (wins), an Army Forge link (fetched
    from Army Forge only, `importers.fetch`) or pasted text; `ImportProblem` when nothing."""
    name, data, text = import_input_of(upload=upload, text=text)
    if data is not None:
        return Source(name=name, data=data)
    if looks_like_link(text):
        return fetch_army_forge(text)
    return Source.of_text(text)


def import_input_of(*, upload: Any = None, text: str = "") -> tuple[str, bytes | None, str]:
    """The cheap checks of `import_source_of`, all a web request does before it queues the
    import (`import_jobs`): (name, the upload's bytes or None, the text); `ImportProblem` when
    nothing was given or it is above the size limit. A link is fetched later, on the worker."""
    if upload is not None:
        if upload.size > MAX_SOURCE_BYTES:
            raise ImportProblem(
                [("file", _("The file is larger than %(max)d bytes.") % {"max": MAX_SOURCE_BYTES})]
            )
        return upload.name or "upload", upload.read(MAX_SOURCE_BYTES + 1), ""
    if not text.strip():
        raise ImportProblem([("text", _("Choose a file, paste a list or paste an Army Forge link."))])
    if len(text) > MAX_SOURCE_BYTES:
        raise ImportProblem(
            [("text", _("The text is longer than %(max)d characters.") % {"max": MAX_SOURCE_BYTES})]
        )
    return "text", None, text


def import_report_rows(outcome: ImportOutcome) -> dict[str, Any]:
    """The report as a page shows it: each unit with the gap between our price and the source's,
    and the totals (exact: the source's prices are whole or decimal numbers as written)."""
    rows = []
    for unit in outcome.imported.units:
        gap = None
        if unit.source_points is not None and unit.formula_points is not None:
            gap = unit.formula_points - unit.source_points
        rows.append({**unit.as_dict(), "gap": gap})
    ours = [u.formula_points for u in outcome.imported.units if u.formula_points is not None]
    total = sum(ours) if ours else None
    source_total = outcome.imported.source_total
    return {
        "format": outcome.imported.format,
        "units": rows,
        "source_total": source_total,
        "formula_total": total,
        "gap": total - source_total if total is not None and source_total is not None else None,
        "unpriced_rules": outcome.imported.unpriced_rules(),
        "left_out": outcome.imported.left_out,
    }
