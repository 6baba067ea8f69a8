"""Army Forge's own save file (its "Export" of a list), read against its army books.

A save file (`saveVersion`, `list.units`) names each unit only by its id in the army book and
each upgrade by the uids of its section and option. Each unit is resolved against its book
(the system's Army Forge reader: `Book`, `resolve_unit`) into the share JSON's unit shape and
then read as a shared list is (`army_forge.read_list`), so both end as the same list.

The books come from the upload itself — a `.zip` holding the save file and its books, all
JSON — or from the catalogue: a book imported before (Army Forge books import,
`rules.army_forge_books`), found by its uid and Army Forge game system among the factions the
player may read, the version the list was saved with first. A book found nowhere is named in
the refusal with how to bring it.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _

from armybuilder.lists.importers.army_forge import FORMAT, _units, army_forge_system, read_list
from armybuilder.lists.importers.base import MAX_SOURCE_BYTES, Context, Imported, ImportProblem, Source
from armybuilder.untrusted_json import JsonTooDeep, loads_bounded
from rules.army_forge_books import books_for

#: At most this many files in an uploaded archive (a save file and its books).
MAX_ARCHIVE_FILES = 20
#: No member of an archive may expand more than this ratio (a zip bomb).
MAX_ZIP_RATIO = 100


def is_save_file(data: Any) -> bool:
    """Army Forge's own save file: `saveVersion` and a `list` of `units`."""
    return (
        isinstance(data, Mapping)
        and "saveVersion" in data
        and isinstance(data.get("list"), Mapping)
        and isinstance(data["list"].get("units"), list)
    )


def _is_book(data: Any) -> bool:
    return isinstance(data, Mapping) and "upgradePackages" in data and isinstance(data.get("units"), list)


@dataclass
class _Upload:
    """What one upload holds: the save file and the books beside it (each `(name, JSON)`)."""

    save_file: Mapping[str, Any]
    books: list[tuple[str, Mapping[str, Any]]]


def _archive_json(source: Source) -> list[tuple[str, Any]]:
    """Every JSON file of a zip upload, parsed, within the size, count and ratio limits."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(source.data))
    except (zipfile.BadZipFile, ValueError):
        return []
    members = [m for m in archive.infolist() if not m.is_dir() and m.filename.lower().endswith(".json")]
    if len(members) > MAX_ARCHIVE_FILES:
        raise ImportProblem([(source.name, _("The archive holds more than %(max)d JSON files.")
                              % {"max": MAX_ARCHIVE_FILES})])
    found = []
    total = 0
    for member in members:
        where = f"{source.name}: {member.filename}"
        too_large = ImportProblem(
            [(where, _("The archive expands to more than %(max)d bytes.") % {"max": MAX_SOURCE_BYTES})]
        )
        total += member.file_size
        ratio = member.file_size / max(member.compress_size, 1)
        if member.file_size > MAX_SOURCE_BYTES or total > MAX_SOURCE_BYTES or ratio > MAX_ZIP_RATIO:
            raise too_large
        with archive.open(member) as stream:  # the directory's sizes can lie: count what comes out
            data = stream.read(MAX_SOURCE_BYTES + 1)
        if len(data) > MAX_SOURCE_BYTES or len(data) > MAX_ZIP_RATIO * max(member.compress_size, 1):
            raise too_large
        try:
            found.append((member.filename, loads_bounded(data.decode("utf-8-sig"))))
        except (JsonTooDeep, ValueError, UnicodeDecodeError):
            raise ImportProblem([(where, _("This is not valid JSON."))]) from None
    return found


def _upload(source: Source) -> _Upload | None:
    """The save file (and books) `source` holds, or None when it holds no save file."""
    if is_save_file(source.json):
        return _Upload(save_file=source.json, books=[])
    if not source.data.startswith(b"PK"):
        return None
    files = _archive_json(source)
    saves = [data for _name, data in files if is_save_file(data)]
    if len(saves) != 1:
        return None
    return _Upload(save_file=saves[0], books=[(name, data) for name, data in files if _is_book(data)])


def _book_link(uid: str, game_system: str, numbers: Mapping[str, int]) -> str:
    """Where Army Forge publishes the book's JSON (the Import page fetches this link)."""
    root = settings.ARMY_FORGE_URL.rstrip("/")
    number = numbers.get(game_system)
    return f"{root}/api/army-books/{uid}" + (f"?gameSystem={number}" if number else "")


class ArmyForgeSave:
    key = "army_forge_save"
    label = "Army Forge save file (with its army books)"

    def detect(self, source: Source) -> bool:
        try:
            return _upload(source) is not None
        except ImportProblem:
            return source.data.startswith(b"PK")  # an archive we refuse: `read` says why

    def read(self, source: Source, context: Context) -> Imported:
        upload = _upload(source)
        if upload is None:
            raise ImportProblem([(source.name, _(
                "This is not an Army Forge save file (nor a .zip holding one and its army books)."))])
        system = army_forge_system(context)
        reader = system.foreign_units[FORMAT]
        save = upload.save_file
        listed = save["list"]
        game_system = str(save.get("gameSystem") or listed.get("gameSystem") or "").lower()
        entries = _units(listed, "units")
        versions = {str(v.get("armyId")): str(v.get("version") or "") for v in save.get("armyVersions") or []
                    if isinstance(v, Mapping)}
        needed: list[str] = []
        for entry in entries:
            army = str(entry.get("armyId") or save.get("armyId") or "") if isinstance(entry, Mapping) else ""
            if army and army not in needed:
                needed.append(army)
        uploaded = [reader.Book.of(data) for _name, data in upload.books]
        books: dict[str, Any] = {}
        missing: list[tuple[str, str]] = []
        for army in needed:
            wanted = versions.get(army, "")
            mine = [b for b in uploaded if b.uid == army and b.system in (game_system, "")]
            if mine:
                books[army] = next((b for b in mine if b.version == wanted), mine[0])
                continue
            kept = books_for(user=context.user, uid=army, game_system=game_system)
            if kept:
                row = next((r for r in kept if r.version == wanted), kept[0])
                books[army] = reader.Book.of(row.book)
                continue
            name = str(save.get("armyName") or "") if army == str(save.get("armyId") or "") else ""
            missing.append((army, name))
        if missing:
            raise ImportProblem([self._missing(source, uid, name, versions.get(uid, ""), game_system, reader)
                                 for uid, name in missing])
        imported = Imported(format=self.key, system_key=system.key)
        resolved: list[dict[str, Any]] = []
        for entry in entries:
            if not isinstance(entry, Mapping):
                continue
            book = books[str(entry.get("armyId") or save.get("armyId") or "")]
            result = reader.resolve_unit(book, entry)
            imported.left_out += [_(message) % values for message, values in result.left_out]
            if result.entry is not None:
                resolved.append(result.entry)
        if not resolved:
            raise ImportProblem([("list.units", _("None of the save file's units is in its army book."))])
        read_list(listed, resolved, system, imported, path="list.units")
        return imported

    @staticmethod
    def _missing(source: Source, uid: str, name: str, version: str, game_system: str,
                 reader: Any) -> tuple[str, str]:
        """The refusal for a book found neither in the upload nor in the player's catalogue."""
        book = _("“%(name)s” (%(uid)s)") % {"name": name, "uid": uid} if name else uid
        if version:
            book = _("%(book)s, version %(version)s") % {"book": book, "version": version}
        return (source.name, _(
            "This Army Forge save file lists its units by their ids in the army book %(book)s, which is "
            "not in your catalogue. Import that army book first (paste %(link)s on the Import page, or "
            "upload its JSON), or upload a .zip holding the save file and the book; then import the "
            "save file again.") % {"book": book, "link": _book_link(uid, game_system, reader.SYSTEM_IDS)})

