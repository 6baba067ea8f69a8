"""Corpus bench of the Army Forge import: every army book and list of a folder, the real path.

    .venv/bin/python -m armybuilder.launcher exec python bench/bench_army_forge_corpus.py DIR \
        [--glob PATTERN] [--limit N] [--json OUT] [--verbose]

Every `*.json` file under DIR (those whose path matches `--glob`; an identical file counted
once; the archives' `_index.json`/`index.json`/`manifest.json` listings skipped) is imported
through the one entry point (`armybuilder.lists.imports.import_source`, a dry run: detect,
read, check with the catalogue loader or the list checks, price; nothing saved) in a fresh
test database with the bundled catalogue (`--write`: saved as the Import page saves it, each
in a transaction rolled back afterwards, so the database's own limits are checked too). An
Army Forge save file is imported after the army books of the folder it names (by uid and game
system, the version it was saved with first), saved as its player would have imported them,
and rolled back with it.
Printed per file:

- status: `ok` (imported), `refused` (an `ImportProblem`: a clear refusal, with its first
  messages), `CRASH` (any other exception: a bug);
- the format read, the units, the rules the formula does not price (kept as text), the
  source's total beside the formula's, the lines the report left out (of them, the book
  upgrades not imported as options), and the wall seconds.

Then the totals: files, imported, refused, units, the lines left out, the rules left unpriced (each with the
number of units that carry it, most common first), the book and formula totals and the load
average. Exit 0 when no file crashed or was refused. `--json OUT` writes every row.
"""

from __future__ import annotations

import argparse
import collections
import fnmatch
import hashlib
import json
import os
import time
import traceback
from pathlib import Path

import _django

_django.environment()

SKIPPED_NAMES = ("_index.json", "index.json", "manifest.json")  # the archives' listings
#: How the book import's report ends an upgrade section it could not express as an option.
UPGRADE_LEFT_OUT = "upgrade not imported"


def corpus(folder: Path, pattern: str | None) -> list[Path]:
    """The files to import: JSON under `folder`, matching `pattern`, each content once."""
    seen: set[str] = set()
    files = []
    for path in sorted(folder.rglob("*.json")):
        if path.name in SKIPPED_NAMES or (pattern and not fnmatch.fnmatch(str(path), pattern)):
            continue
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        if digest in seen:
            continue
        seen.add(digest)
        files.append(path)
    return files


class _RolledBack(Exception):
    pass


def _json(path: Path):
    try:
        return json.loads(path.read_bytes())
    except ValueError:
        return None


def books_of_save(save: dict, books: dict[str, list[tuple[str, str, Path]]]) -> list[Path]:
    """The army books of the folder a save file names (by uid and game system), the version it
    was saved with first: what its player imports before the save file."""
    system = str(save.get("gameSystem") or "").lower()
    versions = {str(v.get("armyId")): str(v.get("version")) for v in save.get("armyVersions") or []}
    wanted = []
    for uid in dict.fromkeys(str(u.get("armyId") or save.get("armyId")) for u in save["list"]["units"]):
        found = [(version, path) for version, of, path in books.get(uid, []) if of in (system, "")]
        exact = [path for version, path in found if version == versions.get(uid)]
        if exact or found:
            wanted.append(exact[0] if exact else max(found)[1])
    return wanted


def import_one(path: Path, user, *, write: bool = False, books: list[Path] = ()) -> dict:
    """Import `path` (after `books`, the army books a save file names, saved as its player
    would have imported them; all rolled back afterwards)."""
    from django.db import transaction

    from armybuilder.lists.importers import ImportProblem, Source
    from armybuilder.lists.imports import import_report_rows, import_source

    row: dict = {"file": str(path)}
    started = time.perf_counter()
    outcome = None
    try:
        source = Source(name=path.name, data=path.read_bytes())
        try:
            with transaction.atomic():
                for book in books:
                    import_source(user=user, source=Source(name=book.name, data=book.read_bytes()))
                # saved as the Import page saves it (--write), then rolled back so the next
                # starts clean
                outcome = import_source(user=user, source=source, dry_run=not write)
                raise _RolledBack
        except _RolledBack:
            pass
    except ImportProblem as exc:
        row.update(status="refused", errors=[f"{w}: {m}" for w, m in exc.errors])
    except Exception:  # a crash is what the bench is there to find
        row.update(status="CRASH", errors=traceback.format_exc().splitlines()[-3:])
    else:
        report = import_report_rows(outcome)
        row.update(
            status="ok",
            format=report["format"],
            units=len(report["units"]),
            source_total=report["source_total"],
            formula_total=report["formula_total"],
            unpriced=report["unpriced_rules"],
            unpriced_by_unit={u["name"]: u["unpriced"] for u in report["units"] if u["unpriced"]},
            left_out=len(report["left_out"]),
            upgrades_left_out=sum(1 for line in report["left_out"] if line.endswith(UPGRADE_LEFT_OUT)),
        )
    row["seconds"] = round(time.perf_counter() - started, 3)
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--glob", default=None, help="Only the paths matching this pattern.")
    parser.add_argument("--limit", type=int, default=0, help="At most this many files.")
    parser.add_argument("--json", type=Path, default=None, help="Write every row to this file.")
    parser.add_argument("--verbose", action="store_true", help="Print each unit's unpriced rules.")
    parser.add_argument("--write", action="store_true",
                        help="Save each import (then roll it back) instead of a dry run.")
    args = parser.parse_args()

    _django.setup()
    from django.contrib.auth import get_user_model

    files = corpus(args.folder, args.glob)
    if args.limit:
        files = files[: args.limit]
    rows = []
    with _django.database():
        user = get_user_model().objects.create_user("bench-army-forge", is_active=False)
        from armybuilder.lists.importers.army_forge_save import is_save_file
        from rules.systems.opr.army_forge_upgrades import book_system

        books: dict[str, list[tuple[str, str, Path]]] = collections.defaultdict(list)
        for path in files:
            data = _json(path)
            if isinstance(data, dict) and "upgradePackages" in data and data.get("uid"):
                version = str(data.get("versionString") or "")
                books[str(data["uid"])].append((version, book_system(data), path))
        for path in files:
            data = _json(path)
            needed = books_of_save(data, books) if is_save_file(data) else []
            row = import_one(path, user, write=args.write, books=needed)
            if needed:
                row["books"] = [str(b.relative_to(args.folder)) for b in needed]
            rows.append(row)
            where = path.relative_to(args.folder)
            if row["status"] == "ok":
                print(
                    f"ok       {where} [{row['format']}]: {row['units']} units, book {row['source_total']}, "
                    f"formula {row['formula_total']}, unpriced {len(row['unpriced'])}, "
                    f"left out {row['left_out']} ({row['upgrades_left_out']} upgrades), {row['seconds']} s",
                    flush=True,
                )
                if row.get("books"):
                    print(f"           read against {', '.join(row['books'])}")
                if args.verbose:
                    for name, rules in row["unpriced_by_unit"].items():
                        print(f"           {name}: {', '.join(rules)}")
            else:
                print(f"{row['status']:8} {where}: {' | '.join(row['errors'][:3])}", flush=True)

    imported = [r for r in rows if r["status"] == "ok"]
    rules: collections.Counter[str] = collections.Counter()
    for row in imported:
        for unit_rules in row["unpriced_by_unit"].values():
            rules.update(set(unit_rules))
    book = sum(r["source_total"] or 0 for r in imported)
    formula = sum(r["formula_total"] or 0 for r in imported)
    by_status = collections.Counter(r["status"] for r in rows)
    print()
    print(f"files {len(rows)}: " + ", ".join(f"{k} {v}" for k, v in sorted(by_status.items())))
    print(f"units {sum(r['units'] for r in imported)}; book total {book}, formula total {formula}"
          + (f" (formula/book {formula / book:.3f})" if book else ""))
    print(f"left out: {sum(r['left_out'] for r in imported)} lines, of which "
          f"{sum(r['upgrades_left_out'] for r in imported)} '{UPGRADE_LEFT_OUT}'")
    print(f"rules not priced by the formula: {len(rules)} distinct; most common (units carrying it):")
    print("  " + ", ".join(f"{name} {count}" for name, count in rules.most_common(40)))
    print(f"seconds: total {sum(r['seconds'] for r in rows):.1f}, slowest "
          f"{max((r['seconds'] for r in rows), default=0):.2f}; load average {os.getloadavg()[0]:.2f}")
    if args.json:
        args.json.write_text(json.dumps({"rows": rows, "unpriced": rules.most_common()}, indent=1))
    return 0 if by_status.get("ok", 0) == len(rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
