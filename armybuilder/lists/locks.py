"""Locked versions: "Lock and share" freezes a list as it is now, for an opponent.

Players send their list before a game and ask for a version that cannot be changed
afterwards (no tailoring against the opponent). A lock is a frozen copy of the list — its
own `ArmyList` row with `locked_at` set, every unit copied as it is — reachable only through
its own share link. Being a list row, everything that reads a list (the page, the roster,
the PDF, the text, JSON and `.rosz` exports, the share card) works on it unchanged, and no
service can change it: the selectors that hand out lists for editing never return a lock.

Its `fingerprint` is a short hash of the list's content (the interchange format, units in
order), so two parties can compare "3F2A-91BC-07DE-55A1" at the table; locking the same
content twice gives the same fingerprint.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.db import transaction
from django.utils import timezone

from armybuilder.lists.interchange import army_list_to_dict
from armybuilder.lists.services import copy_army_list, list_units_in_order, lock_list
from armybuilder.lists.sharing import new_share_token
from armybuilder.models import ArmyList

#: Hex digits of the content hash shown to players, in groups of four.
FINGERPRINT_DIGITS = 16


def content_fingerprint(data: dict[str, Any]) -> str:
    """A short, stable hash of a list's interchange JSON (keys sorted, no whitespace)."""
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    digest = hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:FINGERPRINT_DIGITS].upper()
    return "-".join(digest[i:i + 4] for i in range(0, FINGERPRINT_DIGITS, 4))


@transaction.atomic
def army_list_lock(*, army_list: ArmyList, expected_version: int | None) -> ArmyList:
    """A locked copy of `army_list` as it is at `expected_version`, with its own share link.

    The source row is locked for the copy, so the snapshot is one consistent version.
    """
    source = lock_list(army_list=army_list, expected_version=expected_version)
    units = list_units_in_order(source)
    fingerprint = content_fingerprint(army_list_to_dict(army_list=source, units=units))
    return copy_army_list(source, units, owner_id=source.owner_id, share_token=new_share_token(),
                          locked_from=source, locked_at=timezone.now(), fingerprint=fingerprint)


def army_list_locks(*, army_list: ArmyList) -> list[ArmyList]:
    """The locked versions made of `army_list`, newest first (its history of locks)."""
    return list(
        ArmyList.objects.filter(locked_from=army_list, locked_at__isnull=False)
        .only("id", "name", "share_token", "locked_at", "fingerprint", "total_points", "unit_count")
        .order_by("-locked_at", "-id")
    )
