"""`manage.py battlescribe_corpus_report DIR --system KEY [--points N ...] [--glob PATTERN] [--json]`

For each catalogue of a folder of BattleScribe files (with its game system and the catalogues
it links), what BattleScribe offers against what the import offers, and, for every entry
BattleScribe offers, the errors its lone selection introduces and its price in a list against
the "Add a unit" price (`rules.battlescribe.corpus_report`). Needs no database. Prints one line
per catalogue and then the entries to look at (`--verbose`: every one), or with `--json` one
JSON object `{"system", "points", "catalogues": [...], "totals": {...}}`. Exits 0 when nothing
is to be looked at (no refusal, no entry missing or never shown, no lone selection breaking a
limit), 1 otherwise, 2 for a folder without catalogues.
"""

from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from rules.battlescribe.corpus_report import catalogue_files, report_catalogue
from rules.systems.registry import get_system


class Command(BaseCommand):
    help = "What BattleScribe offers in each catalogue of a folder against the product's import and lists."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("folder", help="Folder of .gst and .cat files (one game system's data).")
        parser.add_argument("--system", required=True, help="Game system key to import into (e.g. whfb6).")
        parser.add_argument(
            "--points", type=int, nargs="*", default=[2000], help="Points limits to check at (default 2000)."
        )
        parser.add_argument("--glob", default="*", help="Catalogue file names to report on (e.g. 'Orcs*').")
        parser.add_argument("--json", action="store_true", help="Print one JSON object.")
        parser.add_argument("--verbose", action="store_true", help="List every entry looked at.")

    def handle(self, *args, **options) -> None:
        folder = Path(options["folder"])
        try:
            get_system(options["system"])
        except KeyError as exc:
            raise CommandError(f"--system: {exc.args[0]}", returncode=2) from None
        if not folder.is_dir():
            raise CommandError(f"{folder}: not a folder.", returncode=2)
        found = catalogue_files(folder, options["glob"])
        if not found:
            raise CommandError(f"{folder}: no catalogue matches {options['glob']!r}.", returncode=2)
        reports = [
            report_catalogue(options["system"], info, files, options["points"] or [None])
            for info, files in found
        ]
        totals = {
            "catalogues": len(reports),
            "refused": sum(r.status != "ok" for r in reports),
            "offered": sum(len(r.limits[0].offered) if r.limits else 0 for r in reports),
            "imported": sum(len(r.imported) for r in reports),
            "missing": sum(len(r.missing) for r in reports),
            "never_shown": sum(len(r.never_shown) for r in reports),
            "introduced_errors": sum(len(lim.with_errors) for r in reports for lim in r.limits),
            "price_mismatches": sum(len(lim.price_mismatches) for r in reports for lim in r.limits),
        }
        if options["json"]:
            self.stdout.write(
                json.dumps(
                    {
                        "system": options["system"],
                        "points": options["points"],
                        "catalogues": [r.as_json() for r in reports],
                        "totals": totals,
                    },
                    ensure_ascii=False,
                )
            )
        else:
            self._print(reports, totals, options["verbose"])
        if any(totals[k] for k in ("refused", "missing", "never_shown", "introduced_errors")):
            raise SystemExit(1)

    def _print(self, reports, totals, verbose: bool) -> None:
        out = self.stdout.write
        out(f"{'catalogue':<45} {'status':<9} offered imported missing never-shown errors prices")
        for r in reports:
            offered = len(r.limits[0].offered) if r.limits else 0
            errors = sum(len(lim.with_errors) for lim in r.limits)
            prices = sum(len(lim.price_mismatches) for lim in r.limits)
            out(
                f"{r.file[:45]:<45} {r.status:<9} {offered:>7} {len(r.imported):>8} {len(r.missing):>7} "
                f"{len(r.never_shown):>11} {errors:>6} {prices:>6}"
            )
            for problem in r.problems:
                out(f"    refused: {problem}")
            for m in r.missing if verbose or len(r.missing) <= 10 else r.missing[:10]:
                out(f"    missing: {m['entry']} ({m['entry_id']}) {m['reason']}")
            for n in r.never_shown:
                out(f"    never shown by BattleScribe, imported: {n['entry']} ({n['entry_id']})")
            for lim in r.limits:
                at = f"at {lim.points_limit} pts" if lim.points_limit is not None else "without a limit"
                listed = [c for c in lim.checks if c.errors or c.failure] if verbose else lim.with_errors
                shown = listed if verbose else listed[:10]
                for c in shown:
                    for e in c.errors if verbose else [e for e in c.errors if e["kind"] == "limit"]:
                        out(
                            f"    {at}: {c.name}: {e['message']} "
                            f"(XML value {e['xml_value']}, after modifiers {e['value']:g})"
                        )
                    if c.failure:
                        out(f"    {at}: {c.name}: {c.failure}")
                for c in lim.price_mismatches:
                    out(
                        f"    {at}: {c.name}: {c.menu_points} pts in the catalogue, "
                        f"{c.roster_points} in a list"
                    )
        out(
            f"{totals['catalogues']} catalogues ({totals['refused']} refused): {totals['offered']} entries "
            f"offered by BattleScribe, {totals['imported']} imported, {totals['missing']} missing, "
            f"{totals['never_shown']} never shown but imported; {totals['introduced_errors']} entries whose "
            f"lone selection breaks a limit; {totals['price_mismatches']} priced differently in the "
            "catalogue and in a list"
        )
