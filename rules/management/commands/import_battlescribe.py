"""`manage.py import_battlescribe --system KEY [--dry-run] [--json] FILE...`: BattleScribe data in.

Imports a game system (.gst/.gstz) and catalogues (.cat/.catz) into the public catalogue of
`KEY`, in one transaction, updating a previous import of the same catalogues in place.
`--dry-run` parses, maps and prices everything without a database and writes nothing;
`--json` prints `{"system", "factions": [{"name", "units": [{"name", "points", "models", and
the figures the system's price reports (`GameSystem.price_figures`)}]}], "errors", "warnings"}`
with each unit at its minimum size. Bad input exits with
status 2 and the errors (each naming the file and element).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from rules.battlescribe.xml_reader import MAX_FILE_BYTES, BattleScribeError, SourceFile
from rules.catalogue_files import CatalogueFileError
from rules.management.json_input import INVALID_INPUT_STATUS
from rules.systems.registry import get_system


def read_sources(paths: list[str]) -> list[SourceFile]:
    """The named files' bytes, refusing missing and oversized files before reading them."""
    sources, errors = [], []
    for name in paths:
        path = Path(name)
        try:
            size = path.stat().st_size
            if not path.is_file():
                errors.append(f"{name}: not a file")
            elif size > MAX_FILE_BYTES:
                errors.append(f"{name}: the file is {size} bytes; the limit is {MAX_FILE_BYTES} bytes")
            else:
                sources.append(SourceFile(path.name, path.read_bytes()))
        except OSError as exc:
            errors.append(f"{name}: cannot be read ({exc.strerror or exc})")
    if errors:
        raise BattleScribeError(errors)
    return sources


class Command(BaseCommand):
    requires_system_checks: list[str] = []  # --dry-run runs without a database
    help = "Import BattleScribe game system and catalogue files (.gst/.gstz/.cat/.catz) into a system."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="+", help="a .gst/.gstz and its .cat/.catz files")
        parser.add_argument("--system", required=True, help="key of the game system to import into")
        parser.add_argument("--dry-run", action="store_true", help="parse and price only; no database")
        parser.add_argument("--json", action="store_true", help="print the result as JSON")

    def handle(self, *args: Any, **options: Any) -> None:
        system_key = options["system"]
        try:
            sources = read_sources(options["files"])
            if options["dry_run"]:
                from rules.battlescribe_import import parse_import

                result = parse_import(system_key=system_key, files=sources)
            else:
                from rules.battlescribe_import import import_files

                result = import_files(system_key=system_key, files=sources)
        except (BattleScribeError, CatalogueFileError) as exc:
            self.fail(system_key, exc.errors, as_json=options["json"])
            return
        summary = result.summary()
        system = get_system(system_key)
        if options["json"]:
            self.stdout.write(json.dumps(summary, ensure_ascii=False, indent=2))
            return
        for faction in summary["factions"]:
            self.stdout.write(f"{faction['name']}: {len(faction['units'])} units")
            for unit in faction["units"]:
                figures = "".join(f", {unit[key]} {label}" for key, label in system.price_figures.items()
                                  if unit.get(key) is not None)
                self.stdout.write(f"  {unit['name']}: {unit['points']} pts{figures}, {unit['models']} models")
        for group in summary["report"]:
            self.stdout.write(f"report: {group['text']}")
        for warning in summary["warnings"]:
            self.stdout.write(f"warning: {warning}")
        if result.report is not None:
            for line in result.report.lines():
                self.stdout.write(line)
            self.stdout.write(self.style.SUCCESS(f"Imported into {system_key}."))
        else:
            self.stdout.write("Dry run: nothing was written.")

    def fail(self, system_key: str, errors: list[str], *, as_json: bool) -> None:
        body = {"system": system_key, "factions": [], "errors": errors, "warnings": []}
        if as_json:
            self.stdout.write(json.dumps(body, ensure_ascii=False, indent=2))
        self.stderr.write(json.dumps({"errors": errors}, ensure_ascii=False, indent=2))
        raise SystemExit(INVALID_INPUT_STATUS)
