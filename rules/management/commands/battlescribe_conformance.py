"""`manage.py battlescribe_conformance SPECS_DIR [--json]`

Runs every YAML spec of a WarHub/battlescribe-spec checkout (its `specs/` folder, or any
folder of specs in the same form) through the BattleScribe roster engine
(`rules.battlescribe.engine.conformance`) and prints a summary: totals, per category, and
each failed spec with the first difference found. With `--json`, prints exactly one JSON
object: `{"total", "passed", "failed": [spec ids], "by_category": {category: {"total",
"passed"}}}`. Exits 0 when every spec passes, 1 otherwise; a folder that does not exist or
holds no spec exits 2 with a message.
"""

from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from rules.battlescribe.engine.conformance import run_suite, spec_files


class Command(BaseCommand):
    help = "Run a folder of BattleScribe conformance specs (YAML) through the roster engine."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("specs_dir", help="Folder of spec YAML files (searched recursively).")
        parser.add_argument("--json", action="store_true", help="Print one JSON object instead of a summary.")

    def handle(self, *args, **options) -> None:
        folder = Path(options["specs_dir"])
        if not folder.is_dir():
            raise CommandError(f"{folder}: not a folder of specs.", returncode=2)
        if not spec_files(folder):
            raise CommandError(f"{folder}: holds no .yaml spec.", returncode=2)
        suite = run_suite(folder)
        if options["json"]:
            self.stdout.write(json.dumps(suite.as_json(), sort_keys=False))
        else:
            self.stdout.write(
                f"{suite.passed} of {suite.total} specs pass ({100.0 * suite.passed / suite.total:.1f}%)."
            )
            for category, counts in suite.by_category().items():
                self.stdout.write(f"  {category}: {counts['passed']}/{counts['total']}")
            for result in suite.results:
                if not result.passed:
                    self.stdout.write(f"FAIL {result.id} ({result.category}): {result.message}")
        if suite.passed != suite.total:
            raise SystemExit(1)
