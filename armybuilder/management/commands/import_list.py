"""`python manage.py import_list FILE [--system KEY] [--format auto|…] [--dry-run] [--json] [--user NAME]`.

Imports a list (or an Army Forge army book, as a private faction) from any format we read
through the same service as the Import page and `POST /api/v1/lists/import`
(`armybuilder.lists.imports.import_source`). With `--json` it prints one object:
`{"list": <our list file>}` or `{"faction": …}`, and `"report"` (`source_total`, `units` with
`name`, `size`, `source_points`, `formula_points` and `unpriced`, then `unpriced_rules` and
`left_out`). Bad input: exit status 2 with the errors as JSON on stderr, each naming its line
or field; nothing is saved.

`--user` names the account that owns the new list (required unless `--dry-run`; a dry run
without it reads as a new account with no factions of its own, and saves nothing).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from armybuilder.lists.importers import FORMATS, ImportProblem, Source
from armybuilder.lists.importers.base import MAX_SOURCE_BYTES
from armybuilder.lists.imports import import_source


class _RolledBack(Exception):
    pass


class Command(BaseCommand):
    help = "Import a list or army book (our JSON, Army Forge, BattleScribe, New Recruit, text)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="The file to import (- for standard input).")
        parser.add_argument("--system", default=None, help="Key of the game system (else detected).")
        parser.add_argument("--format", default="auto", choices=FORMATS)
        parser.add_argument("--dry-run", action="store_true", help="Check and report; save nothing.")
        parser.add_argument(
            "--json", action="store_true", help="Print the list (or faction) and report as JSON."
        )
        parser.add_argument("--user", default=None, help="Owner of the imported list (its username).")

    def _fail(self, errors: list[tuple[str, str]]) -> None:
        self.stderr.write(
            json.dumps({"errors": [{"where": w, "message": m} for w, m in errors]}, ensure_ascii=False)
        )
        raise CommandError("the source cannot be imported", returncode=2)

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["file"]
        try:
            if path == "-":
                import sys

                data = sys.stdin.buffer.read(MAX_SOURCE_BYTES + 1)
            else:
                with Path(path).open("rb") as handle:
                    data = handle.read(MAX_SOURCE_BYTES + 1)
        except OSError as exc:
            self._fail([(path, exc.strerror or str(exc))])
        if len(data) > MAX_SOURCE_BYTES:
            self._fail([(path, f"larger than {MAX_SOURCE_BYTES} bytes")])
        source = Source(name=Path(path).name, data=data)
        users = get_user_model()
        result: dict[str, Any] = {}
        try:
            with transaction.atomic():
                if options["user"]:
                    user = users.objects.filter(username=options["user"]).first()
                    if user is None:
                        self._fail([("--user", f"no account named {options['user']!r}")])
                elif options["dry_run"]:
                    user = users.objects.create_user(username="import-list-dry-run-reader", is_active=False)
                else:
                    self._fail([("--user", "name the account that owns the list (or use --dry-run)")])
                outcome = import_source(
                    user=user,
                    source=source,
                    format=options["format"],
                    system_key=options["system"],
                    dry_run=options["dry_run"],
                )
                result = outcome.as_dict()
                if not options["user"]:
                    raise _RolledBack  # the stand-in reader of a dry run is not kept
        except _RolledBack:
            pass
        except ImportProblem as exc:
            self._fail(exc.errors)
        if options["json"]:
            self.stdout.write(json.dumps(result, ensure_ascii=False, indent=2))
            return
        report = result["report"]
        what = result.get("list", {}).get("name") or result.get("faction", {}).get("name")
        verb = "checked" if options["dry_run"] else "imported"
        self.stdout.write(
            f"{verb} {what!s} ({report['format']}): {len(report['units'])} units, "
            f"source total {report['source_total']}"
        )
        for unit in report["units"]:
            without = f" (without {', '.join(unit['unpriced'])})" if unit.get("unpriced") else ""
            self.stdout.write(
                f"  {unit['name']} [{unit['size']}]: source {unit['source_points']}, "
                f"ours {unit['formula_points']}{without}"
            )
        if report.get("unpriced_rules"):
            rules = report["unpriced_rules"]
            self.stdout.write(f"  {len(rules)} rules not priced by the formula: {', '.join(rules)}")
        for line in report["left_out"]:
            self.stdout.write(f"  left out: {line}")
