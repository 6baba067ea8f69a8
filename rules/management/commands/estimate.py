"""`manage.py estimate ATTACKER.json DEFENDER.json [--melee] [--charging] [--cover] [--moved] [--range N]`

Prints the exact expected-damage result of `shared/spec/opr-combat.md` as JSON (the shape of
`shared/spec/unit-format.md`). The attacker's `system` picks the game system's `attack` from
the registry (default "opr"). Bad input (unreadable file, invalid JSON, a unit that fails the
unit format, an impossible situation) exits with status 2 and `{"errors": [{"path",
"message"}]}` on stderr, paths prefixed with `attacker.` / `defender.` — never a traceback.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from points.management.commands.price import system_of
from points.management.json_input import InputError, fail, print_json, read_json
from points.unit_format import UnitFormatError
from rules.systems.opr.situation import DEFAULT_RANGE_INCHES
from rules.systems.registry import get_system


def _prefixed(role: str, errors: list[dict[str, str]]) -> list[dict[str, str]]:
    """Errors of one input file, their paths prefixed with the file's role."""
    return [{**e, "path": f"{role}.{e['path']}" if e.get("path") else role} for e in errors]


class Command(BaseCommand):
    requires_system_checks: list[str] = []  # pure computation: no models, no database
    help = "Exact expected damage of one unit attacking another (unit-format JSON files), as JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("attacker", help="the attacking unit (unit-format JSON file)")
        parser.add_argument("defender", help="the defending unit (unit-format JSON file)")
        parser.add_argument("--melee", action="store_true", help="a melee attack (default: shooting)")
        parser.add_argument("--charging", action="store_true", help="the attacker charged (implies --melee)")
        parser.add_argument("--cover", action="store_true", help="the defender is in cover")
        parser.add_argument("--moved", action="store_true", help="the attacker moved this activation")
        parser.add_argument(
            "--range", type=float, default=DEFAULT_RANGE_INCHES, help='distance in inches (default 12")'
        )
        parser.add_argument(
            "--defender-activated", action="store_true", help="the defender already activated (Spearhead)"
        )
        parser.add_argument(
            "--enemies-within-12", action="store_true", help='another enemy is within 12" (Cautious)'
        )

    def handle(self, *args: Any, **options: Any) -> None:
        documents: dict[str, Any] = {}
        errors: list[dict[str, str]] = []
        for role in ("attacker", "defender"):
            try:
                documents[role] = read_json(options[role])
            except InputError as exc:
                errors += _prefixed(role, exc.errors)
        if errors:
            fail(self.stderr, errors)

        key = system_of(documents["attacker"])
        try:
            system = get_system(key)
        except KeyError as exc:
            fail(self.stderr, [{"path": "attacker.system", "message": str(exc.args[0])}])
        if system.attack is None:
            fail(self.stderr, [{"path": "attacker.system", "message": f"{system.name} has no estimate yet"}])

        situation = {
            "mode": "melee" if options["melee"] or options["charging"] else "shooting",
            "charging": options["charging"],
            "attacker_moved": options["moved"],
            "defender_in_cover": options["cover"],
            "range_inches": options["range"],
            "defender_activated": options["defender_activated"],
            "enemies_within_12": options["enemies_within_12"],
        }
        for role in ("attacker", "defender"):  # report both files' problems at once
            try:
                system.price(documents[role])
            except UnitFormatError as exc:
                errors += _prefixed(role, exc.to_dict()["errors"])
            except ValueError as exc:  # another system's own invalid-input error
                errors += _prefixed(role, [{"path": "", "message": str(exc)}])
        if errors:
            fail(self.stderr, errors)
        try:
            result = system.attack(documents["attacker"], documents["defender"], situation)
        except UnitFormatError as exc:
            fail(self.stderr, exc.to_dict()["errors"])
        except ValueError as exc:  # an impossible situation (a negative range)
            fail(self.stderr, [{"path": "situation", "message": str(exc)}])
        print_json(self.stdout, result)
