"""Importing BattleScribe data into the catalogue (service): parse, map, check, write.

One path into the catalogue whatever the source: the BattleScribe files are mapped onto
factions in the shape of the bundled YAML files (`rules.battlescribe.units`), checked by
the catalogue loader's own reader (`rules.catalogue_files.read_faction_data`: every unit
priced by its system, every option applied) and written by the loader's writer
(`rules.catalogue_sync.write_catalogue`) in one transaction. A faction's slug comes from the
catalogue's BattleScribe id and a unit's from its entry id, so importing a newer revision
updates the same rows in place, and units that army lists use are never deleted.

`parse_import` needs no database (the command's `--dry-run`); `import_files` writes, into
the public catalogue (`owner=None`, the admin command) or into private factions of `owner`
(the upload page and the API), which are shared like homebrew factions.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from rules.battlescribe.catalogue import Document, document_from_root
from rules.battlescribe.collections_pause import fewer_collections
from rules.battlescribe.editions import edition_errors
from rules.battlescribe.report import group_warnings
from rules.battlescribe.units import map_documents
from rules.battlescribe.xml_reader import (
    MAX_FILE_BYTES,
    MAX_FILES,
    MAX_TOTAL_XML_BYTES,
    MAX_XML_BYTES,
    BattleScribeError,
    SourceFile,
    parse,
    xml_bytes,
)
from rules.battlescribe_lists import gathered_sources, keep_sources, source_shape
from rules.catalogue_files import CatalogueFileError, FactionPlan, read_faction_data, system_rule_names
from rules.catalogue_sync import CataloguePlan, SyncReport, write_catalogue
from rules.models import Faction, GameSystem
from rules.selectors import rule_base_name, rule_lookup_key
from rules.signals import source_updated
from rules.systems.registry import get_system

#: Largest whole upload request (several files); larger requests are refused unread.
MAX_UPLOAD_BYTES = 64 * 1024 * 1024
#: Most selection entries, entry groups and entry links (shared ones and all nested ones
#: included) one import may hold. The largest catalogue of the public 40k data (Space Marines)
#: holds 2,812 and a game system with its library and one army about 6,000; mapping and pricing
#: cost time per entry, so a synthetic file of tens of thousands is refused before that work.
MAX_IMPORT_ENTRIES = 8000


def entry_count(documents: Sequence[Document]) -> int:
    """Every entry, group and link the documents hold, nested ones included."""
    return sum(d.entry_count for d in documents)


def read_uploads(uploads: Sequence[Any]) -> list[SourceFile]:
    """Uploaded files (Django `UploadedFile`s) as `SourceFile`s, each refused above the size limit
    before it is read (Django keeps large uploads on disk, so nothing big is ever in memory)."""
    sources, errors = [], []
    if len(uploads) > MAX_FILES:
        raise BattleScribeError([f"{len(uploads)} files; at most {MAX_FILES} per import"])
    for upload in uploads:
        if upload.size > MAX_FILE_BYTES:
            errors.append(
                f"{upload.name}: the file is {upload.size} bytes; the limit is {MAX_FILE_BYTES} bytes"
            )
            continue
        sources.append(SourceFile(upload.name, upload.read(MAX_FILE_BYTES + 1)))
    if errors:
        raise BattleScribeError(errors)
    check_expanded_sizes(sources)
    return sources


def check_expanded_sizes(sources: Sequence[SourceFile]) -> None:
    """Refuse, in the request, what the worker would refuse for its size: a zip member above
    `MAX_XML_BYTES` or compressed beyond `MAX_ZIP_RATIO`, a plain file above `MAX_XML_BYTES`, and
    files expanding to more than `MAX_TOTAL_XML_BYTES` together. Each message names the limit.

    Before, two 32 MB files passed the request, were stored and queued, and the worker refused
    them (20 MB of XML at most): an upload nothing could import still took space and a job.
    Unzipping is bounded (`xml_bytes` stops at the caps) and cheap beside parsing."""
    errors: list[str] = []
    total = 0
    for source in sources:
        try:
            size = len(xml_bytes(source))
        except BattleScribeError as exc:
            errors += exc.errors
            continue
        if size > MAX_XML_BYTES:
            errors.append(f"{source.name}: the file is {size} bytes of XML; "
                          f"the limit is {MAX_XML_BYTES} bytes")
            continue
        total += size
        if total > MAX_TOTAL_XML_BYTES:
            errors.append(f"{source.name}: the files of one import expand to more than "
                          f"{MAX_TOTAL_XML_BYTES} bytes of XML")
            break
    if errors:
        raise BattleScribeError(errors)


@dataclass
class ImportResult:
    """What an import found: checked faction plans, a JSON-ready summary, warnings."""

    system: str
    plans: list[FactionPlan] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    report: SyncReport | None = None
    factions: list[Faction] = field(default_factory=list)
    #: Lists re-priced because their faction's data changed: `{"list_id", "list", "old_total",
    #: "new_total", "changes": [{"unit", "old", "new", "removed_options", "gone"}]}`.
    repriced: list[dict[str, Any]] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        """`{"system", "factions": [{"name", "units": [{"name", "points", "models", and each
        figure the system's price reports besides points (40k: its Power)}]}], "report": [{"kind",
        "count", "names", "text"}], "warnings", "errors"}`."""
        system = get_system(self.system)
        factions = []
        for plan in self.plans:
            units = []
            for unit in plan.units:
                breakdown = system.price(unit.values["data"])
                units.append(
                    {
                        "name": unit.values["name"],
                        "points": breakdown.get("points"),
                        **{key: breakdown.get(key) for key in system.price_figures},
                        "models": sum(int(m["count"]) for m in unit.values["data"]["models"]),
                    }
                )
            row = next((f for f in self.factions if f.slug == plan.slug), None)
            factions.append(
                {
                    "id": row.pk if row else None,
                    "name": plan.values["name"],
                    "slug": plan.slug,
                    "units": units,
                }
            )
        return {
            "system": self.system,
            "factions": factions,
            "errors": [],
            # What was left out and why, grouped in plain words (`rules.battlescribe.report`).
            "report": [
                {k: g[k] for k in ("kind", "count", "names", "text")} for g in group_warnings(self.warnings)
            ],
            "warnings": self.warnings,
            # Lists re-priced with the new data, and what changed in each.
            "repriced_lists": self.repriced,
        }


@fewer_collections()
def parse_import(
    *,
    system_key: str,
    files: Sequence[SourceFile],
    max_entries: int | None = None,
    shapes: list[tuple[bool, dict[str, Any]]] | None = None,
) -> ImportResult:
    """Parse, map and check `files` for `system_key` without touching the database; files
    holding more than `max_entries` entries (default `MAX_IMPORT_ENTRIES`) are refused before
    they are mapped.

    Raises `BattleScribeError` (bad files, an unknown system, a catalogue without its game
    system) or `CatalogueFileError` (mapped data the catalogue rejects), each message naming
    the file and the element or field. `shapes`, when given, receives each file's
    `source_shape` (what the roster engine keeps), taken from the same parse.
    """
    try:
        system = get_system(system_key)
    except KeyError as exc:
        raise BattleScribeError([f"--system: {exc.args[0]}"]) from None
    if not files:
        raise BattleScribeError(
            ["no files: upload a game system (.gst/.gstz) and its catalogues (.cat/.catz)"]
        )
    if len(files) > MAX_FILES:
        raise BattleScribeError([f"{len(files)} files; at most {MAX_FILES} per import"])
    documents, errors, total = [], [], 0
    own_shapes: list[tuple[bool, dict[str, Any]]] = []
    for source in files:
        try:
            text = xml_bytes(source)
            total += len(text)
            if total > MAX_TOTAL_XML_BYTES:
                raise BattleScribeError(
                    [
                        f"{source.name}: the files of one import expand to more than "
                        f"{MAX_TOTAL_XML_BYTES} bytes of XML"
                    ]
                )
            root = parse(source, text)
            documents.append(document_from_root(source, root))
            own_shapes.append(source_shape(root))
            del root
        except BattleScribeError as exc:
            errors += exc.errors
            if total > MAX_TOTAL_XML_BYTES:
                break
    if shapes is not None:
        shapes.extend(own_shapes)
    if errors:
        raise BattleScribeError(errors)
    wrong_edition = edition_errors(documents, system_key)
    if wrong_edition:
        raise BattleScribeError(wrong_edition)
    entries = entry_count(documents)
    max_entries = MAX_IMPORT_ENTRIES if max_entries is None else max_entries
    if entries > max_entries:
        raise BattleScribeError([
            _("files: these files hold %(count)d entries (selection entries, groups and links); one "
              "import takes at most %(limit)d. Import the game system with fewer catalogues at a time.")
            % {"count": entries, "limit": max_entries}
        ])
    names = system_rule_names(system_key)

    def known(name: str) -> bool:
        return rule_lookup_key(name) in names or rule_lookup_key(rule_base_name(name)) in names

    try:
        mapped = map_documents(
            documents,
            own_shapes,
            system_key=system_key,
            profile_schema=system.profile_schema,
            price=system.price,
            known_rule=known,
            mapping=system.battlescribe,
        )
    except (RecursionError, ValueError, ArithmeticError, KeyError, TypeError) as exc:
        # Units are read one by one (a unit that fails is left out); what fails here is the
        # import as a whole: refused with a message, never an error page.
        files = ", ".join(d.file for d in documents)
        raise BattleScribeError(
            [f"{files}: these files cannot be read together ({type(exc).__name__}: {exc})"]
        ) from None
    if not mapped.factions:
        raise BattleScribeError(["no unit could be imported", *mapped.warnings])
    result = ImportResult(system=system_key, warnings=mapped.warnings)
    by_name = {d.id: d.file for d in documents}
    for faction in mapped.factions:
        source = by_name.get(faction["faction"]["slug"].removeprefix("bs-"), faction["faction"]["name"])
        plan = checked_faction(system_key, faction, source, names, result.warnings)
        if plan is not None:
            result.plans.append(plan)
    if not result.plans:
        raise BattleScribeError(["no unit could be imported", *result.warnings])
    return result


_UNIT_PATH = re.compile(r"(?:^|: )units\[(\d+)\]")


def checked_faction(
    system_key: str, faction: dict[str, Any], source: str, names: set[str], warnings: list[str]
) -> FactionPlan | None:
    """The faction checked by the catalogue's own reader; a unit the reader refuses is left out
    with a warning naming it and why, and the rest are checked again (a faction is refused
    only when nothing of it can be imported, or for a fault that is not one unit's)."""
    units = list(faction["units"])
    for _attempt in range(3):
        try:
            return read_faction_data(system_key, {**faction, "units": units}, source=source, rule_names=names)
        except CatalogueFileError as exc:
            bad: dict[int, list[str]] = {}
            for error in exc.errors:
                found = _UNIT_PATH.search(error.split(f"{source}: ", 1)[-1])
                if found is None:
                    raise  # not one unit's fault: the faction is refused with the reader's errors
                bad.setdefault(int(found.group(1)), []).append(error)
            for i, errors in bad.items():
                unit = units[i] if i < len(units) else {}
                reason = "; ".join(e.split(f"units[{i}]", 1)[-1].lstrip(".: ") for e in errors[:3])
                warnings.append(
                    f"{source}: {unit.get('name', f'unit {i + 1}')}: left out: "
                    f"the catalogue check refuses it ({reason})"
                )
            units = [u for i, u in enumerate(units) if i not in bad]
            if not units:
                warnings.append(f"{source}: no unit of this catalogue passes the catalogue check")
                return None
    return read_faction_data(system_key, {**faction, "units": units}, source=source, rule_names=names)


@fewer_collections()
def import_files(
    *,
    system_key: str,
    files: Sequence[SourceFile],
    owner: AbstractBaseUser | None = None,
    max_entries: int | None = None,
    within: Callable[[ImportResult], None] | None = None,
) -> ImportResult:
    """Parse, check and write `files` in one transaction (public catalogue, or `owner`'s own).

    `within(result)` runs last inside that transaction, so what it writes (the worker's receipt,
    `rules.import_receipts`) commits or rolls back with the catalogue; parsing stays outside it."""
    if not GameSystem.objects.filter(key=system_key).exists():
        raise BattleScribeError([f"system: unknown game system {system_key!r} (load the catalogue first)"])
    shapes: list[tuple[bool, dict[str, Any]]] = []
    result = parse_import(system_key=system_key, files=files, max_entries=max_entries, shapes=shapes)
    owner_id = owner.pk if owner is not None else None
    for plan in result.plans:
        plan.owner_id = owner_id
        if owner_id is not None:
            plan.values["description"] = plan.values["description"] + " Private import."
    # The source itself is kept beside the factions: lists of them are built by the roster engine.
    system_source, catalogue_sources = gathered_sources(shapes)
    with transaction.atomic():
        result.report = write_catalogue(CataloguePlan(factions=result.plans))
        result.factions = list(
            Faction.objects.filter(
                system__key=system_key, owner_id=owner_id, slug__in=[p.slug for p in result.plans]
            ).order_by("name")
        )
        changed = keep_sources(result.factions, system_source, catalogue_sources)
        if changed:
            # Every list of a faction whose data changed is re-priced once, now, so it shows one
            # total everywhere; what changed is reported with the import.
            for _receiver, reports in source_updated.send(sender=None, factions=changed):
                result.repriced += list(reports or [])
            if owner_id is not None:
                # Other players' lists (of a shared faction) are re-priced too, not shown here.
                result.repriced = [r for r in result.repriced if r.get("owner_id") == owner_id]
        if within is not None:
            within(result)
    return result


__all__ = [
    "MAX_IMPORT_ENTRIES", "BattleScribeError", "CatalogueFileError", "ImportResult", "entry_count",
    "import_files", "parse_import",
]
