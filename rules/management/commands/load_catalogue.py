"""`python manage.py load_catalogue [--data-dir DIR]`: load the bundled catalogue, idempotently.

Reads and checks every file first (`rules.catalogue_files`); only a fully valid catalogue is
written, in one transaction (`rules.catalogue_sync`). Prints what was created, updated or
left unchanged; a malformed file stops the command with every problem listed by file and
field path, and nothing in the database changes. `bin/run` calls it on every start.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from rules.catalogue_files import CatalogueFileError, read_catalogue
from rules.catalogue_sync import write_catalogue


class Command(BaseCommand):
    help = "Load (or refresh) the bundled catalogue: game systems, special rules, equipment, factions, units."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--data-dir",
            type=Path,
            default=None,
            help="Folder holding one sub-folder per game system key "
            "(default: each system's bundled rules/systems/<key>/catalogue/).",
        )

    def handle(self, *args: Any, data_dir: Path | None, **options: Any) -> None:
        try:
            plan = read_catalogue(data_dir)
        except CatalogueFileError as exc:
            raise CommandError(
                "The catalogue was not loaded; nothing was changed:\n" + "\n".join(exc.errors)
            ) from None
        report = write_catalogue(plan)
        for line in report.lines():
            self.stdout.write(line)
        source = data_dir or "the system packages"
        changed = report.changed
        self.stdout.write(self.style.SUCCESS(f"Catalogue loaded from {source} ({changed} rows changed)."))
