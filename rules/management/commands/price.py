"""`python manage.py price UNIT.json`: the points of one unit with its full breakdown.

Prints JSON on stdout: `points` (int), `exact` (decimal string), `category` (warrior or
shooter), `models` (per model: base, weapon and ability terms) and every term behind them.
The unit's `system` picks the game system from the registry; a document that names none is
refused (the command never assumes a system). Invalid input exits with status 2 and
`{"errors": [{"path", "message"}]}` on stderr.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from points.shared_format import UnitFormatError
from rules.management.json_input import InputError, fail, print_json, read_json
from rules.systems.registry import all_systems, get_system


def system_named(document: Any) -> str | None:
    """The `system` key a document names (the registry's key), None when it names none."""
    if isinstance(document, dict) and isinstance(document.get("system"), str) and document["system"]:
        return document["system"]
    return None


def system_of(document: Any) -> str:
    """The `system` key of a document; InputError on `system` when the document names none."""
    if (key := system_named(document)) is not None:
        return key
    known = ", ".join(system.key for system in all_systems())
    raise InputError([{"path": "system", "message": f"name the game system by its key (one of: {known})"}])


class Command(BaseCommand):
    requires_system_checks: list[str] = []  # pure computation: no models, no database
    help = "Price one unit (unit-format JSON; '-' reads stdin) and print the breakdown as JSON."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "unit_file", help="a unit in the interchange format (docs/unit-format.md), or - for stdin"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            document = read_json(options["unit_file"])
            try:
                system = get_system(system_of(document))
            except KeyError as exc:
                raise InputError([{"path": "system", "message": str(exc.args[0])}]) from None
            result = system.price(document)
        except InputError as exc:
            fail(self.stderr, exc.errors)
        except UnitFormatError as exc:
            fail(self.stderr, exc.to_dict()["errors"])
        except ValueError as exc:  # another system's own invalid-input error
            fail(self.stderr, [{"path": "", "message": str(exc)}])
        print_json(self.stdout, result)
