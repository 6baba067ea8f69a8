"""Writes to the catalogue (HackSoft "services"): homebrew factions and the units saved in them.

A signed-in player's custom units live in their own homebrew faction, one per game system,
created on the first save. Only the owner changes it; sharing it makes it readable (not
writable) by everyone (`rules.selectors.factions_visible_to`). The designer page, the
army-list builder and the REST API all save through these functions, so a unit is always
validated and priced by its system before it is stored, and its cached points are right.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from points.shared_format import FORMAT_VERSION, FieldError, UnitFormatError
from rules.models import Faction, GameSystem, UnitTemplate
from rules.unit_validation import unit_checked_points

#: Slug of a user's homebrew faction: one per user and system (unique with the owner).
HOMEBREW_SLUG = "homebrew-{user_id}"
UNIT_SLUG_MAX = 80


def homebrew_faction_get_or_create(*, user: AbstractBaseUser, system: GameSystem) -> Faction:
    """The user's homebrew faction in `system`, created (unshared) the first time it is needed."""
    if not user.is_authenticated:
        raise PermissionDenied(_("Sign in to keep your own units."))
    faction, _created = Faction.objects.get_or_create(
        system=system,
        owner=user,
        slug=HOMEBREW_SLUG.format(user_id=user.pk),
        defaults={
            "name": _("%(user)s's homebrew") % {"user": user.get_username()},
            "description": _("Custom units designed in the unit designer."),
        },
    )
    return faction


def _system_of(data: Mapping[str, Any]) -> GameSystem:
    key = data.get("system")
    system = GameSystem.objects.filter(key=key).first() if isinstance(key, str) else None
    if system is None:
        raise UnitFormatError([FieldError("system", _("unknown game system"))])
    return system


def _unique_slug(faction: Faction, name: str, *, exclude: int | None = None) -> str:
    base = (slugify(name) or "unit")[: UNIT_SLUG_MAX - 4]
    taken = set(
        faction.units.exclude(pk=exclude).filter(slug__startswith=base).values_list("slug", flat=True)
    )
    slug, n = base, 2
    while slug in taken:
        slug, n = f"{base}-{n}", n + 1
    return slug


@transaction.atomic
def homebrew_unit_save(
    *,
    user: AbstractBaseUser,
    data: Mapping[str, Any],
    unit: UnitTemplate | None = None,
    role: str = UnitTemplate.Role.OTHER,
    description: str = "",
) -> UnitTemplate:
    """Validate, price and store a custom unit in the user's homebrew faction.

    `data` is a unit in the interchange format with its `system` key. With `unit`, that unit
    (which must be the user's own) is replaced; without, a new one is created. Raises
    `UnitFormatError` (every problem, with field paths) for an invalid unit and
    `PermissionDenied` for someone else's unit.
    """
    if not user.is_authenticated:
        raise PermissionDenied(_("Sign in to keep your own units."))
    system = _system_of(data)
    stored = {**copy.deepcopy(dict(data)), "format": FORMAT_VERSION, "system": system.key}
    points = unit_checked_points(system=system, data=stored)
    if unit is not None:
        if unit.faction.owner_id != user.pk:
            raise PermissionDenied(_("Only the owner can change this unit."))
        if unit.faction.system_id != system.pk:
            raise UnitFormatError(
                [FieldError("system", _("a saved unit cannot move to another game system"))]
            )
        faction = unit.faction
    else:
        faction = homebrew_faction_get_or_create(user=user, system=system)
        unit = UnitTemplate(faction=faction, position=faction.units.count())
    unit.name = str(stored["name"])
    unit.slug = _unique_slug(faction, unit.name, exclude=unit.pk)
    unit.role = role if role in UnitTemplate.Role.values else UnitTemplate.Role.OTHER
    unit.description = description
    unit.data = stored
    unit.points = points
    unit.save()
    return unit


def homebrew_unit_delete(*, user: AbstractBaseUser, unit: UnitTemplate) -> None:
    """Delete one of the user's custom units (army lists keep their own snapshot of it)."""
    if unit.faction.owner_id is None or unit.faction.owner_id != user.pk:
        raise PermissionDenied(_("Only the owner can delete this unit."))
    unit.delete()


def homebrew_faction_set_shared(*, user: AbstractBaseUser, faction: Faction, shared: bool) -> Faction:
    """Let everyone read the user's homebrew faction (or take that back)."""
    if faction.owner_id is None or faction.owner_id != user.pk:
        raise PermissionDenied(_("Only the owner can share this faction."))
    if faction.is_shared != shared:
        faction.is_shared = shared
        faction.save(update_fields=["is_shared", "updated"])
    return faction
