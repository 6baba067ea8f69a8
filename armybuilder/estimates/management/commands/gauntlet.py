"""`manage.py gauntlet LIST.json [OPPONENT.json ...] [--json] [--language LANG]`

Measures every unit of a list (our JSON export format) against every unit of the opponents
(lists in the same format; the system's reference targets when none is given), in a turn of
shooting and a turn of fighting (`armybuilder.estimates.gauntlet`). With `--json`, one
object: `units`, `opponents`, `matchups` (each with the full situation used, so any pair can
be checked against `manage.py estimate`) and `left_out` (matchups past the estimate bounds).
The reference set and its targets are named in `--language` (else the active language, the
site's default from the command line) and marked, as the pages name them: the reference set's
row of `opponents` (`reference: true`) and a unit's best and worst target
(`best_target_reference`); a player's list or unit as written. The matchups name both units as
their data does (a reference target by its English name), so a pair can be looked up there.
Bad input exits with status 2 and `{"errors": [...]}` on stderr, like `estimate`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.utils import translation

from armybuilder.estimates.bounds import matchup_cost, over_limit
from armybuilder.estimates.gauntlet import MODES, GauntletUnit, Opponent, measure, reference_units, unit_worth
from armybuilder.estimates.gauntlet_text import shown_target, shown_targets
from armybuilder.estimates.inputs import situation_clean
from armybuilder.estimates.request_errors import EstimateRequestError
from armybuilder.estimates.sources import REFERENCE_SET_NAME
from points.shared_format import UnitFormatError
from rules.management.json_input import InputError, fail, print_json, read_json
from rules.systems.registry import GameSystem, get_system

#: Units of one file read at most (a list holds at most 200).
MAX_UNITS = 200


def list_units(system: GameSystem, document: Any, role: str
               ) -> tuple[list[GauntletUnit], list[dict[str, str]]]:
    """The units of a list file (each entry `count` times), or the errors naming their paths."""
    if not isinstance(document, Mapping) or not isinstance(document.get("units"), list):
        return [], [{"path": role, "message": "not a list file: it needs a `units` array"}]
    if document.get("system") != system.key:
        return [], [{"path": f"{role}.system", "message": f"not a list of {system.name}"}]
    units, errors = [], []
    for index, entry in enumerate(document["units"][:MAX_UNITS]):
        path = f"{role}.units[{index}]"
        unit = entry.get("unit") if isinstance(entry, Mapping) else None
        if not isinstance(unit, Mapping):
            errors.append({"path": path, "message": "each entry needs a `unit` object"})
            continue
        try:
            worth = unit_worth(system, unit)
        except UnitFormatError as exc:
            errors += [{**e, "path": f"{path}.unit.{e['path']}" if e.get("path") else f"{path}.unit"}
                       for e in exc.to_dict()["errors"]]
            continue
        count = entry.get("count", 1)
        count = count if isinstance(count, int) and 1 <= count <= MAX_UNITS else 1
        name = str(entry.get("custom_name") or unit.get("name") or f"unit {index + 1}")
        units += [GauntletUnit(name=name, data=unit, worth=worth)] * count
    if len(document["units"]) > MAX_UNITS:
        errors.append({"path": f"{role}.units", "message": f"more than {MAX_UNITS} units"})
    return units, errors


def shown_report(report: Mapping[str, Any], *, against_references: bool) -> dict[str, Any]:
    """The report in the reader's words (the active language): the reference set's row and each
    unit's best and worst target as the pages and the API name them (`gauntlet_text`), the
    reference set's row marked; the matchups as measured, by the units' data names."""
    opponents = [{**row, "name": shown_target(row["name"], reference=against_references),
                  "reference": against_references} for row in report["opponents"]]
    units = [{**row, **shown_targets(row)} for row in report["units"]]
    return {**report, "units": units, "opponents": opponents}


class Command(BaseCommand):
    requires_system_checks: list[str] = []  # pure computation: no models, no database
    help = "Every unit of a list against every unit of its opponents (or the reference targets), as JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("list", help="the list to measure (our JSON export format)")
        parser.add_argument("opponents", nargs="*", help="opponent lists (default: the reference targets)")
        parser.add_argument("--json", action="store_true", help="print one JSON object (the default output)")
        parser.add_argument("--language", choices=[code for code, _ in settings.LANGUAGES],
                            help="name the reference targets in this language (default: the active one)")

    def handle(self, *args: Any, **options: Any) -> None:
        errors: list[dict[str, str]] = []
        documents: dict[str, Any] = {}
        roles = ["list"] + [f"opponents[{i}]" for i in range(len(options["opponents"]))]
        for role, filename in zip(roles, [options["list"], *options["opponents"]], strict=True):
            try:
                documents[role] = read_json(filename)
            except InputError as exc:
                errors += [{**e, "path": role} for e in exc.errors]
        if errors:
            fail(self.stderr, errors)
        try:
            system = get_system(str(documents["list"].get("system")))
        except (KeyError, AttributeError):
            fail(self.stderr, [{"path": "list.system", "message": "no such game system"}])
        if not system.can_attack:
            fail(self.stderr, [{"path": "list.system", "message": f"{system.name} has no estimate yet"}])

        units, errors = list_units(system, documents["list"], "list")
        opponents: list[Opponent] = []
        for role in roles[1:]:
            enemy_units, enemy_errors = list_units(system, documents[role], role)
            errors += enemy_errors
            opponents.append(Opponent(name=str(documents[role].get("name") or role), units=enemy_units))
        if not opponents:
            opponents = [Opponent(name=REFERENCE_SET_NAME, units=reference_units(system))]
        try:
            situations = {mode: situation_clean({"mode": mode}, system=system) for mode in MODES}
        except EstimateRequestError as exc:
            fail(self.stderr, [{"path": path, "message": message}
                               for path, messages in exc.errors.items() for message in messages])
        if errors:
            fail(self.stderr, errors)

        # Refuse, before any work, every pair past the estimate bounds (as `estimate` does).
        too_large = []
        seen: set[tuple[str, str, str]] = set()
        enemies = [enemy for opponent in opponents for enemy in opponent.units]
        pairs = [pair for u in units for e in enemies for pair in ((u, e), (e, u))]
        for attacker, defender in pairs:
            for mode, situation in situations.items():
                if (attacker.name, defender.name, mode) in seen:
                    continue
                seen.add((attacker.name, defender.name, mode))
                reason = over_limit(*matchup_cost(system, attacker.data, defender.data, situation))
                if reason:
                    message = f"{attacker.name} against {defender.name} ({mode}): {reason}"
                    too_large.append({"path": "opponents", "message": message})
        if too_large:
            fail(self.stderr, too_large)
        remembered: dict[str, Any] = {}  # the same pair twice (a unit taken twice) is computed once

        def cached(key: str, compute: Any) -> Any:
            if key not in remembered:
                remembered[key] = compute()
            return remembered[key]

        report = measure(system, units, opponents, situations, cached=cached)
        with translation.override(options["language"] or translation.get_language()):
            shown = shown_report(report.as_dict(), against_references=not options["opponents"])
        print_json(self.stdout, {"system": system.key, **shown})
