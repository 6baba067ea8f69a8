"""Example lists in the public gallery of a fresh install, so a new player sees a good list.

Each file under a system package's `example_lists/` (`rules/systems/<key>/example_lists/`,
found through `rules.systems.package_data`) describes one list by catalogue references
(the faction's slug, each unit's slug and the options taken), in whatever game system it
names. `load_example_lists` builds each through the ordinary services — so the list is
priced and validated exactly as a player's would be — owned by one inactive system user
and public in the gallery. It is idempotent: a list already matching its file is left
alone; one that differs (the file or the catalogue changed) is rebuilt.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction

from armybuilder.lists.errors import ArmyListError
from armybuilder.lists.evaluation import list_settings
from armybuilder.lists.services import (
    army_list_add_unit,
    army_list_create,
    army_list_set_group_kinds,
    army_list_unit_set_details,
)
from armybuilder.models import ArmyList
from rules.models import Faction, GameSystem, UnitTemplate
from rules.systems.package_data import example_list_files
from rules.systems.registry import all_systems

#: The owner of the example lists: inactive, no usable password, never logs in.
EXAMPLES_USERNAME = "examples"
_MISSING = (GameSystem.DoesNotExist, Faction.DoesNotExist, UnitTemplate.DoesNotExist)


@dataclass
class ExampleReport:
    created: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def examples_owner() -> AbstractBaseUser:
    """The system user owning the examples (created inactive on first use)."""
    user_model = get_user_model()
    user, created = user_model.objects.get_or_create(
        **{user_model.USERNAME_FIELD: EXAMPLES_USERNAME}, defaults={"is_active": False}
    )
    if created:
        user.set_unusable_password()
        user.save()
    return user


def example_files() -> list[Path]:
    """Every system's example list files: systems in the registry's order, then by file name."""
    return [path for system in all_systems() for path in example_list_files(system.key)]


def read_example_files(paths: list[Path] | None = None) -> list[tuple[Path, dict[str, Any]]]:
    """The example files (default: every system's), parsed, in the gallery's order."""
    paths = example_files() if paths is None else paths
    return [(path, yaml.safe_load(path.read_text(encoding="utf-8"))) for path in paths]


def _signature_of_spec(spec: Mapping[str, Any], settings: dict[str, Any]) -> tuple:
    return (
        int(spec["points_limit"]),
        tuple(sorted((spec.get("options") or {}).items())),
        tuple(sorted(settings.items())),
        tuple((str(u["unit"]), tuple(sorted((u.get("options") or {}).items()))) for u in spec["units"]),
        tuple(str(u.get("group") or "") for u in spec["units"]),
        tuple(sorted((spec.get("groups") or {}).items())),
    )


def _signature_of_list(army_list: ArmyList) -> tuple:
    units = army_list.units.order_by("position")
    return (
        army_list.points_limit,
        tuple(sorted(army_list.structure_options.items())),
        tuple(sorted(list_settings(army_list).items())),
        tuple(
            (
                unit.catalogue_ref.split("/", 1)[-1],
                tuple(sorted((k, v) for k, v in unit.chosen_options.items() if v)),
            )
            for unit in units
        ),
        tuple(unit.group for unit in units),
        tuple(sorted((army_list.group_kinds or {}).items())),
    )


@transaction.atomic
def load_example_list(*, spec: dict[str, Any], owner: AbstractBaseUser) -> tuple[ArmyList, bool]:
    """(the example list, whether it was (re)built). Raises `ArmyListError` on a bad file."""
    system = GameSystem.objects.get(key=spec["system"])
    faction = Faction.objects.get(system=system, slug=spec["faction"], owner__isnull=True)
    existing = ArmyList.objects.filter(owner=owner, system=system, name=spec["name"]).first()
    if existing is not None:
        wanted = _signature_of_spec(spec, {**list_settings(existing), **(spec.get("settings") or {})})
        if _signature_of_list(existing) == wanted:
            return existing, False
        existing.delete()
    army_list = army_list_create(
        owner=owner,
        system=system,
        faction=faction,
        name=spec["name"],
        points_limit=int(spec["points_limit"]),
        structure_options=spec.get("options") or {},
        settings=spec.get("settings") or {},
        is_public=True,
    )
    for entry in spec["units"]:
        template = UnitTemplate.objects.get(faction=faction, slug=entry["unit"])
        added = army_list_add_unit(
            army_list=army_list, unit=template, options=entry.get("options") or {}, expected_version=None
        )
        if entry.get("group"):  # a detachment or a free group
            army_list_unit_set_details(
                list_unit=added, custom_name="", notes="", group=entry["group"], expected_version=None
            )
    if spec.get("groups"):
        army_list_set_group_kinds(army_list=army_list, group_kinds=spec["groups"], expected_version=None)
    army_list.refresh_from_db()
    return army_list, True


def load_example_lists(paths: list[Path] | None = None) -> ExampleReport:
    """Build every example list that is missing or out of date; report invalid ones as problems."""
    report = ExampleReport()
    owner = examples_owner()
    for path, spec in read_example_files(paths):
        try:
            army_list, built = load_example_list(spec=spec, owner=owner)
        except (ArmyListError, *_MISSING) as exc:
            report.problems.append(f"{path.name}: {exc}")
            continue
        (report.created if built else report.unchanged).append(army_list.name)
        if not army_list.is_valid:
            messages = "; ".join(str(v.get("message")) for v in army_list.violations)
            report.problems.append(f"{path.name}: the list breaks rules: {messages}")
    return report
