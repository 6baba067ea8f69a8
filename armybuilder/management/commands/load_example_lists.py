"""`python manage.py load_example_lists`: the example lists of the public gallery, idempotently.

Run after `load_catalogue` (the launcher does both on every start). Exit code 2 when an
example file is broken or builds a list that breaks its system's rules.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from armybuilder.lists.examples import load_example_lists


class Command(BaseCommand):
    help = "Create (or refresh) the example army lists shown in the public gallery."

    def handle(self, *args: Any, **options: Any) -> None:
        report = load_example_lists()
        for name in report.created:
            self.stdout.write(f"created {name}")
        for name in report.unchanged:
            self.stdout.write(f"unchanged {name}")
        if report.problems:
            raise CommandError("\n".join(report.problems), returncode=2)
        ready = len(report.created) + len(report.unchanged)
        self.stdout.write(self.style.SUCCESS(f"{ready} example lists ready."))
