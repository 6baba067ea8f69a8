"""Lists after their faction's BattleScribe data changed (issue 40).

A re-import at another revision changes the prices and options the roster engine reads. Each
list of such a faction is re-priced once, in the import's transaction (`rules.signals.
source_updated`): its units are rebuilt by the engine from their saved trees, their points and
options written back and the list's cached total and violations saved with them, so the list,
`/validate` and its error messages show one total. What changed is reported: each unit whose
price moved (old and new), the options it had that no longer exist, and the units whose entry
left the catalogue (they keep what they had until the player changes them).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction

from armybuilder.lists.backends import backend_for
from armybuilder.lists.errors import ArmyListError
from armybuilder.lists.services import list_units_in_order, lock_list, save_list_change
from armybuilder.models import ArmyList
from rules.models import Faction


def reprice_faction_lists(
    sender: Any = None, *, factions: Sequence[Faction], **kwargs: Any
) -> list[dict[str, Any]]:
    """Receiver of `source_updated`: re-price every list of `factions`; the reports of those
    whose total or units changed."""
    reports = []
    for army_list in ArmyList.objects.filter(faction__in=factions).select_related("system").order_by("pk"):
        report = reprice_list(army_list)
        if report is not None:
            reports.append(report)
    return reports


@transaction.atomic
def reprice_list(army_list: ArmyList) -> dict[str, Any] | None:
    """Re-price one list with its faction's current data (its backend's `reprice`); what
    changed, or None (nothing changed, or a list with no source to re-price from)."""
    locked = lock_list(army_list=army_list, expected_version=None)
    units = list_units_in_order(locked)
    if not units:
        return None
    backend = backend_for(locked, units)
    before = {
        unit.pk: (
            unit.name,
            unit.points,
            dict(unit.chosen_options or {}),
            {str(o.get("key")): str(o.get("label", o.get("key"))) for o in unit.available_options or []},
        )
        for unit in units
    }
    old_total = locked.total_points
    try:
        gone = backend.reprice(units)
    except ArmyListError as exc:
        return {
            "list_id": locked.pk,
            "list": locked.name,
            "owner_id": locked.owner_id,
            "old_total": old_total,
            "new_total": old_total,
            "changes": [],
            "error": "; ".join(message for _path, message in exc.errors),
        }
    if gone is None:
        return None
    save_list_change(locked=locked, caller=army_list, units=units, backend=backend)
    changes = []
    for index, unit in enumerate(units):
        name, old, chosen, labels = before[unit.pk]
        if index in gone:
            changes.append({"unit": name, "old": old, "new": None, "removed_options": [], "gone": True})
            continue
        removed = [labels.get(key, key) for key in chosen if key not in (unit.chosen_options or {})]
        if old != unit.points or removed:
            changes.append(
                {"unit": unit.name, "old": old, "new": unit.points, "removed_options": removed, "gone": False}
            )
    if not changes and old_total == locked.total_points:
        return None
    return {
        "list_id": locked.pk,
        "list": locked.name,
        "owner_id": locked.owner_id,
        "old_total": old_total,
        "new_total": locked.total_points,
        "changes": changes,
    }
