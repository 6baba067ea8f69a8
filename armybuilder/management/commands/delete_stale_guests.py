"""`manage.py delete_stale_guests [--days N]`: delete the guest accounts (`accounts.guests`)
whose session began more than N days ago (default `GUEST_DAYS`, 28), with their lists.

A guest's session cookie expires `GUEST_DAYS` days after it began, so a guest older than
that has no way back to its lists; run this from cron (or by hand) so abandoned guests do
not pile up. A smaller N deletes lists a guest can still open.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandParser
from django.utils import timezone

from armybuilder.accounts.guests import GUEST_DAYS, GUEST_PREFIX, is_guest


class Command(BaseCommand):
    help = "Delete guest accounts (and their lists) whose session began more than --days days ago."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--days", type=int, default=GUEST_DAYS)

    def handle(self, *args: Any, days: int, **options: Any) -> None:
        cutoff = timezone.now() - timedelta(days=max(days, 0))
        stale = User.objects.filter(username__startswith=GUEST_PREFIX, date_joined__lt=cutoff)
        ids = [user.pk for user in stale.iterator() if is_guest(user)]
        deleted = User.objects.filter(pk__in=ids).delete()[0] if ids else 0
        self.stdout.write(f"{len(ids)} guest accounts deleted ({deleted} rows with their lists).")
