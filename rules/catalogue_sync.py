"""Writing a checked catalogue plan into Postgres: upsert by natural key, count what changed.

Re-running the loader updates rows in place and never duplicates them: every row is found
by its natural key (system key; system + rule key; system + slug; faction + slug; unit +
option key), compared field by field, and saved only when something differs. Options and
weapons of a loaded faction that the files no longer list are deleted (they only make sense
with their unit); units and factions that vanished from the files are kept, because army
lists may still point at them, and reported as such. Everything runs in one transaction.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from django.db import models, transaction

from rules.catalogue_files import CataloguePlan
from rules.models import (
    Equipment,
    Faction,
    GameSystem,
    SpecialRule,
    UnitTemplate,
    UpgradeOption,
    WeaponProfile,
)

CREATED, UPDATED, UNCHANGED, DELETED = "created", "updated", "unchanged", "deleted"


@dataclass
class SyncReport:
    """Per catalogue model, how many rows were created, updated, left unchanged or deleted."""

    counts: dict[str, Counter] = field(default_factory=dict)
    not_in_files: list[str] = field(default_factory=list)

    def add(self, model: type[models.Model], outcome: str, n: int = 1) -> None:
        self.counts.setdefault(model._meta.verbose_name_plural.title(), Counter())[outcome] += n

    def lines(self) -> list[str]:
        out = [
            f"{name}: {c[CREATED]} created, {c[UPDATED]} updated, {c[UNCHANGED]} unchanged"
            + (f", {c[DELETED]} deleted" if c[DELETED] else "")
            for name, c in self.counts.items()
        ]
        out += [f"kept (no longer in the files): {label}" for label in self.not_in_files]
        return out

    @property
    def changed(self) -> int:
        return sum(c[CREATED] + c[UPDATED] + c[DELETED] for c in self.counts.values())


def _upsert(
    report: SyncReport, model: type[models.Model], lookup: dict[str, Any], values: dict[str, Any]
) -> models.Model:
    row = model.objects.filter(**lookup).first()
    if row is None:
        row = model.objects.create(**lookup, **values)
        report.add(model, CREATED)
        return row
    changed = [name for name, value in values.items() if getattr(row, name) != value]
    if changed:
        for name in changed:
            setattr(row, name, values[name])
        row.save(update_fields=[*changed, *(["updated"] if hasattr(row, "updated") else [])])
        report.add(model, UPDATED)
    else:
        report.add(model, UNCHANGED)
    return row


@transaction.atomic
def write_catalogue(plan: CataloguePlan) -> SyncReport:
    """Write `plan` (from `rules.catalogue_files.read_catalogue`) in one transaction."""
    report = SyncReport()
    systems = {}
    for row in plan.systems:
        values = {k: v for k, v in row.items() if k != "key"}
        systems[row["key"]] = _upsert(report, GameSystem, {"key": row["key"]}, values)
    for system_key, key, values in plan.rules:
        _upsert(report, SpecialRule, {"system": systems[system_key], "key": key}, values)
    for system_key, slug, values in plan.equipment:
        _upsert(report, Equipment, {"system": systems[system_key], "slug": slug, "faction": None}, values)
    for faction_plan in plan.factions:
        faction = _upsert(
            report,
            Faction,
            {"system": systems[faction_plan.system_key], "slug": faction_plan.slug, "owner": None},
            faction_plan.values,
        )
        for slug, weapon in faction_plan.weapons.items():
            _upsert(
                report,
                WeaponProfile,
                {"faction": faction, "slug": slug},
                {"name": weapon["name"], "data": weapon},
            )
        stale_weapons = faction.weapons.exclude(slug__in=list(faction_plan.weapons))
        report.add(WeaponProfile, DELETED, stale_weapons.delete()[0])
        for unit_plan in faction_plan.units:
            unit = _upsert(
                report, UnitTemplate, {"faction": faction, "slug": unit_plan.slug}, unit_plan.values
            )
            for option in unit_plan.options:
                _upsert(report, UpgradeOption, {"unit": unit, "key": option.key}, option.values)
            stale_options = unit.options.exclude(key__in=[o.key for o in unit_plan.options])
            report.add(UpgradeOption, DELETED, stale_options.delete()[0])
        for gone in faction.units.exclude(slug__in=[u.slug for u in faction_plan.units]):
            report.not_in_files.append(f"{faction_plan.system_key}/{faction.slug}/{gone.slug}")
    return report
