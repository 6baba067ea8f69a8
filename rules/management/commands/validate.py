"""`python manage.py validate LIST.json`: the total points of a list and every violation.

Prints JSON on stdout: `total`, `points_limit`, `valid` (no violations), the points of each
unit, and `violations` (rule, unit, message, numbers). A list with violations is valid
input (exit 0; it is marked invalid). Invalid input exits with status 2 and
`{"errors": [{"path", "message"}]}` on stderr.

A unit may be written out in full (`unit`) or be a reference into the public catalogue
(`catalogue_unit` with its `options`), as the interchange format allows; references are
resolved from the loaded catalogue (`rules.list_entries`) before the system prices and
validates the list, so both shapes give the same points and violations.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from points.shared_format import UnitFormatError
from rules.list_entries import units_in_full
from rules.management.commands.price import system_of
from rules.management.json_input import InputError, fail, print_json, read_json
from rules.systems.registry import get_system


class Command(BaseCommand):
    requires_system_checks: list[str] = []  # no checks: a list in full touches no database
    help = "Validate an army list (unit-format JSON; '-' reads stdin): total points and violations as JSON."

    def add_arguments(self, parser) -> None:
        parser.add_argument("list_file", help="an army list in the interchange format, or - for stdin")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            document = read_json(options["list_file"])
            try:
                system = get_system(system_of(document))
            except KeyError as exc:
                raise InputError([{"path": "system", "message": str(exc.args[0])}]) from None
            if not isinstance(document, dict):
                raise InputError([{"path": "", "message": "a list must be a JSON object"}])
            document, problems = units_in_full(document, system_key=system.key)
            if problems:  # with the list's own errors (points_limit, name…), every one at once
                try:
                    system.validate({**document, "units": []})
                except UnitFormatError as exc:
                    problems = exc.to_dict()["errors"] + problems
                raise InputError(problems)
            violations = system.validate(document)
            units = []
            for entry in document["units"]:
                priced = system.price(entry["unit"])
                count = int(entry.get("count", 1))
                units.append(
                    {
                        "name": priced["name"],
                        "count": count,
                        "points_each": priced["points"],
                        "points": priced["points"] * count,
                    }
                )
        except InputError as exc:
            fail(self.stderr, exc.errors)
        except UnitFormatError as exc:
            fail(self.stderr, exc.to_dict()["errors"])
        except ValueError as exc:  # another system's own invalid-input error
            fail(self.stderr, [{"path": "", "message": str(exc)}])
        total = sum(u["points"] for u in units)
        print_json(
            self.stdout,
            {
                "system": system.key,
                "name": document["name"],
                "points_limit": document["points_limit"],
                "total": total,
                "valid": not violations,
                "units": units,
                "violations": list(violations),
            },
        )
