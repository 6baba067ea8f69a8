"""`manage.py estimate [--system KEY] ATTACKER.json DEFENDER.json [--situation NAME=VALUE ...]`

Prints the exact expected-damage result of the game system's `attack` (the registry) as
JSON. `--system` defaults to the files' `system`; the situation's fields are the system's
`situation_schema`, each given as `--situation NAME=VALUE` (VALUE a JSON literal — `true`,
`18`, `"melee"` — or a bare string, `melee`), checked exactly as the pages and the API check
them (`armybuilder.estimates.inputs.situation_clean`). Short flags a system declares in its
schema (`x-command-aliases`, e.g. `--melee`, `--range 18`) are offered too; a flag of
another system is an error. Bad input (unreadable file, invalid JSON, a unit that fails the
unit format, an impossible situation) exits with status 2 and `{"errors": [{"path",
"message"}]}` on stderr, every error at once with its path (`attacker.models[0].x`,
`situation.<field>`) — never a traceback.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from armybuilder.estimates.inputs import situation_clean, situation_properties
from armybuilder.estimates.request_errors import EstimateRequestError
from points.shared_format import UnitFormatError
from rules.management.commands.price import system_named
from rules.management.json_input import InputError, fail, print_json, read_json
from rules.systems.registry import GameSystem, all_systems, get_system


def _prefixed(role: str, errors: list[dict[str, str]]) -> list[dict[str, str]]:
    """Errors of one input file, their paths prefixed with the file's role."""
    return [{**e, "path": f"{role}.{e['path']}" if e.get("path") else role} for e in errors]


def situation_value(text: str) -> Any:
    """A command-line value: a JSON literal (`true`, `18`, `"x"`), else the bare string."""
    try:
        return json.loads(text)
    except ValueError:
        return text


def _aliases(system: GameSystem) -> dict[str, tuple[str, Mapping[str, Any]]]:
    """flag -> (field, alias) of every short flag `system` declares in its situation schema."""
    return {alias["flag"]: (name, alias) for name, spec in situation_properties(system).items()
            for alias in spec.get("x-command-aliases", ())}


def _dest(flag: str) -> str:
    return "alias_" + flag.lstrip("-").replace("-", "_")


class Command(BaseCommand):
    requires_system_checks: list[str] = []  # pure computation: no models, no database
    help = "Exact expected damage of one unit attacking another (unit-format JSON files), as JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("attacker", help="the attacking unit (unit-format JSON file)")
        parser.add_argument("defender", help="the defending unit (unit-format JSON file)")
        parser.add_argument("--system", help="the game system's key (default: the files' `system`)")
        parser.add_argument("--situation", action="append", default=[], metavar="NAME=VALUE",
                            help="one field of the system's situation; repeat for more")
        seen: set[str] = set()
        for system in all_systems():
            for flag, (name, alias) in _aliases(system).items():
                if flag in seen:
                    continue
                seen.add(flag)
                help_text = f"{system.key}: sets {name}" + (f" to {json.dumps(alias['value'])}"
                                                             if "value" in alias else "")
                if "value" in alias:
                    parser.add_argument(flag, dest=_dest(flag), action="store_true", help=help_text)
                else:
                    parser.add_argument(flag, dest=_dest(flag), metavar="VALUE", help=help_text)

    def _situation(self, system: GameSystem, options: Mapping[str, Any]) -> tuple[dict[str, Any], list]:
        """The situation the options ask for, and the errors of options it cannot take."""
        situation: dict[str, Any] = {}
        errors: list[dict[str, str]] = []
        own = _aliases(system)
        for system_ in all_systems():
            for flag in _aliases(system_):
                value = options.get(_dest(flag))
                if value in (None, False):
                    continue
                if flag not in own:
                    message = f"{flag} is not an option of {system.name}"
                    errors.append({"path": "situation", "message": message})
                    continue
                name, alias = own[flag]
                for other, also in alias.get("also", {}).items():
                    situation.setdefault(other, also)
                situation[name] = alias["value"] if "value" in alias else situation_value(value)
        for item in options["situation"]:
            name, sep, text = item.partition("=")
            if not sep or not name:
                errors.append({"path": "situation", "message": f"{item!r}: write NAME=VALUE"})
                continue
            situation[name.strip()] = situation_value(text)
        return situation, errors

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

        path = "system" if options["system"] else "attacker.system"
        key = options["system"] or system_named(documents["attacker"])
        if key is None:
            fail(self.stderr, [{"path": path, "message": "name the game system by its key (or --system)"}])
        try:
            system = get_system(key)
        except KeyError as exc:
            fail(self.stderr, [{"path": path, "message": str(exc.args[0])}])
        if not system.can_attack:
            fail(self.stderr, [{"path": path, "message": f"{system.name} has no estimate yet"}])

        for role in ("attacker", "defender"):  # report both files' and the situation's problems at once
            if system_named(documents[role]) != system.key:
                errors.append({"path": f"{role}.system", "message": f"not a unit of {system.name}"})
                continue
            try:
                system.price(documents[role])
            except UnitFormatError as exc:
                errors += _prefixed(role, exc.to_dict()["errors"])
            except ValueError as exc:  # another system's own invalid-input error
                errors += _prefixed(role, [{"path": "", "message": str(exc)}])
        asked, option_errors = self._situation(system, options)
        errors += option_errors
        situation: dict[str, Any] = {}
        try:
            situation = situation_clean(asked, system=system)
        except EstimateRequestError as exc:
            errors += [{"path": path, "message": message}
                       for path, messages in exc.errors.items() for message in messages]
        if errors:
            fail(self.stderr, errors)
        from armybuilder.estimates.bounds import matchup_cost, over_limit  # refuse past the limit

        try:
            cost = matchup_cost(system, documents["attacker"], documents["defender"], situation)
            too_large = over_limit(*cost)
            if too_large:
                fail(self.stderr, [{"path": "defender", "message": too_large}])
            from django.conf import settings

            from armybuilder.celery import memory_bound

            with memory_bound(settings.ESTIMATE_JOB_MEMORY_MB * 2**20):  # the job's own bound
                result = system.attack(documents["attacker"], documents["defender"], situation)
        except MemoryError:
            fail(self.stderr, [{"path": "defender", "message": (
                f"this matchup needs more than {settings.ESTIMATE_JOB_MEMORY_MB} MB, the limit of "
                "one estimate: use fewer models, weapons or model profiles")}])
        except UnitFormatError as exc:
            fail(self.stderr, exc.to_dict()["errors"])
        except ValueError as exc:  # a combination the schema could not express
            fail(self.stderr, [{"path": "situation", "message": str(exc)}])
        print_json(self.stdout, result)
