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

from rules.catalogue_files import CataloguePlan, FactionPlan
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
            {
                "system": systems.get(faction_plan.system_key)
                or GameSystem.objects.get(key=faction_plan.system_key),
                "slug": faction_plan.slug,
                "owner_id": faction_plan.owner_id,
            },
            faction_plan.values,
        )
        _write_faction_rows(report, faction, faction_plan)
    return report


def _changed(row: models.Model, values: dict[str, Any]) -> list[str]:
    return [name for name, value in values.items() if getattr(row, name) != value]


def _save_changed(report: SyncReport, row: models.Model, values: dict[str, Any]) -> None:
    changed = _changed(row, values)
    if changed:
        for name in changed:
            setattr(row, name, values[name])
        row.save(update_fields=[*changed, *(["updated"] if hasattr(row, "updated") else [])])
        report.add(type(row), UPDATED)
    else:
        report.add(type(row), UNCHANGED)


def _write_faction_rows(report: SyncReport, faction: Faction, faction_plan: FactionPlan) -> None:
    """Weapons, units and options of one faction: existing rows read in three queries, new rows
    inserted in bulk, changed rows saved one by one, vanished weapons and options deleted.

    (A faction of a few hundred units with thousands of options, as a BattleScribe import
    brings, costs a handful of queries instead of two per row.)
    """
    weapons = {w.slug: w for w in faction.weapons.all()}
    new_weapons = []
    for slug, weapon in faction_plan.weapons.items():
        values = {"name": weapon["name"], "data": weapon}
        if slug in weapons:
            _save_changed(report, weapons[slug], values)
        else:
            new_weapons.append(WeaponProfile(faction=faction, slug=slug, **values))
    WeaponProfile.objects.bulk_create(new_weapons)
    report.add(WeaponProfile, CREATED, len(new_weapons))
    stale_weapons = [w.pk for slug, w in weapons.items() if slug not in faction_plan.weapons]
    if stale_weapons:
        report.add(WeaponProfile, DELETED, WeaponProfile.objects.filter(pk__in=stale_weapons).delete()[0])

    units = {u.slug: u for u in faction.units.all()}
    new_units = [
        UnitTemplate(faction=faction, slug=plan.slug, **plan.values)
        for plan in faction_plan.units
        if plan.slug not in units
    ]
    for plan in faction_plan.units:
        if plan.slug in units:
            _save_changed(report, units[plan.slug], plan.values)
    UnitTemplate.objects.bulk_create(new_units)
    report.add(UnitTemplate, CREATED, len(new_units))
    units.update({u.slug: u for u in new_units})

    options: dict[int, dict[str, UpgradeOption]] = {}
    for option in UpgradeOption.objects.filter(unit__faction=faction):
        options.setdefault(option.unit_id, {})[option.key] = option
    new_options, stale_options = [], []
    for plan in faction_plan.units:
        unit = units[plan.slug]
        existing = options.get(unit.pk, {})
        for option in plan.options:
            if option.key in existing:
                _save_changed(report, existing[option.key], option.values)
            else:
                new_options.append(UpgradeOption(unit=unit, key=option.key, **option.values))
        keys = {o.key for o in plan.options}
        stale_options += [o.pk for key, o in existing.items() if key not in keys]
    UpgradeOption.objects.bulk_create(new_options, batch_size=1000)
    report.add(UpgradeOption, CREATED, len(new_options))
    if stale_options:
        report.add(UpgradeOption, DELETED, UpgradeOption.objects.filter(pk__in=stale_options).delete()[0])
    planned = {plan.slug for plan in faction_plan.units}
    for slug in sorted(set(units) - planned):
        report.not_in_files.append(f"{faction_plan.system_key}/{faction.slug}/{slug}")
