"""Who can see which army list: every read of lists goes through here.

A list is readable by its owner, by everyone when its owner marked it public, and by
whoever holds its share link (`army_list_by_share_token`). It is writable only by its
owner. The single-list getters return `None` for a list the user may not see, exactly as
for a list that does not exist, so a page can answer 404 without telling the two apart.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db.models import Exists, F, OuterRef, Q, QuerySet

from armybuilder.lists.unit_options import with_upgrade_menu
from armybuilder.models import SHARE_TOKEN_MAX_LENGTH, ArmyList, ListUnit
from rules.models import BattleScribeSource, UnitTemplate
from rules.selectors import units_visible_to

#: Related rows every list page shows (system and faction names, the owner's name).
_LIST_RELATED = ("system", "faction", "owner")
#: The same for a list read for its owner, who is the request's user already: joining the
#: user's row again cost about 0.4 ms of CPU on every editor click.
_OWN_LIST_RELATED = ("system", "faction")
#: What a list read for a change never reads of its system's row: the JSON Schema of a model's
#: profile (about 25 KB for 40k; the rules read the registry's, `rules.systems.registry`),
#: parsed on every editor click for nothing (about 0.5 ms of CPU).
_EDIT_UNREAD_RELATED = ("system__profile_schema",)
#: What `secrets.token_urlsafe` produces; anything else cannot be a share token.
_TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]+")


#: Ids beyond a bigint cannot exist; asking Postgres about them would be an error, not a miss.
_MAX_ID = 2**63 - 1


def _search_text(search: str) -> str:
    """The search as Postgres can compare it (no NUL characters), trimmed."""
    return search.replace("\x00", "").strip()


def army_lists_visible_to(*, user: AbstractBaseUser | AnonymousUser) -> QuerySet[ArmyList]:
    """Lists `user` may read: their own and the public ones (anonymous visitors: public only)."""
    lists = ArmyList.objects.select_related(*_LIST_RELATED)
    if not user.is_authenticated:
        return lists.filter(is_public=True)
    # A locked version is read through its own link only (`armybuilder.lists.locks`), never by id.
    return lists.filter(Q(owner=user, locked_at__isnull=True) | Q(is_public=True))


#: The columns a list's summary (a collection's row) never reads: documents that can be large
#: (the undo snapshot, the gauntlet, the violations' texts, settings), read and parsed for every
#: row of a page of lists for nothing.
SUMMARY_DEFERRED = ("undo", "gauntlet", "violations", "settings", "structure_options", "group_kinds")


def army_lists_owned_by(
    *, user: AbstractBaseUser, search: str = "", summary: bool = False
) -> QuerySet[ArmyList]:
    """The player's own lists, most recently changed first, optionally by name (case-insensitive);
    `summary`: only what a collection shows of each (`SUMMARY_DEFERRED` left unread, the owner,
    who is the caller, not joined again)."""
    if summary:
        lists = (ArmyList.objects.select_related(*_OWN_LIST_RELATED).defer(*SUMMARY_DEFERRED)
                 .filter(owner=user, locked_at__isnull=True))
    else:
        lists = ArmyList.objects.select_related(*_LIST_RELATED).filter(owner=user, locked_at__isnull=True)
    if _search_text(search):
        lists = lists.filter(name__icontains=_search_text(search))
    return lists


def public_army_lists(
    *,
    search: str = "",
    system_key: str = "",
    faction_id: int | None = None,
    points_min: int | None = None,
    points_max: int | None = None,
) -> QuerySet[ArmyList]:
    """Lists their owners chose to show, newest first, filtered by name, system, faction and
    points (the list's total, inclusive bounds); an empty filter filters nothing."""
    lists = ArmyList.objects.select_related(*_LIST_RELATED).filter(is_public=True)
    if search:
        lists = lists.filter(name__icontains=_search_text(search))
    if system_key:
        lists = lists.filter(system__key=system_key)
    if faction_id is not None:
        lists = lists.filter(faction_id=faction_id)
    if points_min is not None:
        lists = lists.filter(total_points__gte=points_min)
    if points_max is not None:
        lists = lists.filter(total_points__lte=points_max)
    return lists


def gallery_filter_choices() -> tuple[list[tuple[str, str]], list[tuple[int, str, str]]]:
    """(systems, factions) that public lists use: what the gallery's filters offer."""
    public = ArmyList.objects.filter(is_public=True)
    systems = list(
        public.order_by("system__name").values_list("system__key", "system__name").distinct()
    )
    factions = list(
        public.exclude(faction__isnull=True)
        .order_by("faction__name")
        .values_list("faction_id", "faction__name", "system__key")
        .distinct()
    )
    return systems, factions


def army_list_points_by_category(*, units: Sequence[ListUnit]) -> dict[str, int]:
    """Points of a list's units by their catalogue role (hero, infantry, ...), "other" when unknown.

    One query for the roles of the templates the units came from (a unit keeps its points
    when its template is gone; it then counts as "other").
    """
    roles = dict(
        UnitTemplate.objects.filter(pk__in={u.template_id for u in units if u.template_id}).values_list(
            "pk", "role"
        )
    )
    totals: dict[str, int] = {}
    for unit in units:
        role = roles.get(unit.template_id, "other") or "other"
        totals[role] = totals.get(role, 0) + unit.points
    return totals


def army_lists_compared(
    *, army_lists: Sequence[ArmyList]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Lists side by side: each with its units and points by category, and one row per
    category (in the catalogue's role order) with each list's points and share of its total."""
    sides = []
    categories: list[str] = []
    for army_list in army_lists:
        units = army_list_units(army_list=army_list)
        by_category = army_list_points_by_category(units=units)
        categories += [c for c in by_category if c not in categories]
        sides.append({"list": army_list, "units": units, "by_category": by_category})
    labels = dict(UnitTemplate.Role.choices)
    order = list(labels)
    rows = []
    for category in sorted(categories, key=lambda c: order.index(c) if c in order else len(order)):
        cells = []
        for side in sides:
            points = side["by_category"].get(category, 0)
            total = side["list"].total_points
            cells.append({"points": points, "share": round(100 * points / total) if total else 0})
        rows.append({"label": labels.get(category, category), "cells": cells})
    return sides, rows


def army_list_get_for_user(
    *, user: AbstractBaseUser | AnonymousUser, list_id: int, for_edit: bool = False,
    unread: Sequence[str] = (),
) -> ArmyList | None:
    """The list if `user` may read it (or, with `for_edit`, change it); otherwise `None`.

    `unread`: columns of a list only read (not `for_edit`) that the caller never looks at, left
    out of the query (reading one later costs a query)."""
    if not 0 < list_id <= _MAX_ID:
        return None
    if for_edit:
        if not user.is_authenticated:
            return None
        # Never a locked version: nothing may change it, its owner included.
        army_list = (ArmyList.objects.select_related(*_OWN_LIST_RELATED).defer(*_EDIT_UNREAD_RELATED)
                     .filter(owner=user, pk=list_id, locked_at__isnull=True).first())
        if army_list is not None:
            army_list.owner = user
        return army_list
    # Whether the list's faction was imported with its BattleScribe source, answered by the same
    # query: a read of a list of any other faction (most) asks no second query to learn it has
    # no forces to offer (`engine_units.roster_force_choices`).
    has_source = Exists(BattleScribeSource.objects.filter(faction_id=OuterRef("faction_id")))
    return (army_lists_visible_to(user=user).defer(*unread).filter(pk=list_id)
            .annotate(has_roster_source=has_source).first())


#: What the API's read of a list never shows of it: the undo snapshot (a copy of the units it
#: would restore) and the gauntlet's results, the largest documents of a list's row.
API_READ_UNREAD = ("undo", "gauntlet")
#: The same of a list's units: the unit before its options.
API_READ_UNITS_UNREAD = ("base_data",)


def army_list_by_share_token(*, token: str) -> ArmyList | None:
    """The list a share link points at, while the link is not revoked; otherwise `None`."""
    if not token or len(token) > SHARE_TOKEN_MAX_LENGTH or not _TOKEN_SHAPE.fullmatch(token):
        return None
    return ArmyList.objects.select_related(*_LIST_RELATED).filter(share_token=token).first()


#: What a printed or exported roster never reads of a unit: the unit before its options and
#: each option's points (documents as large as the unit itself), parsed for every unit for nothing.
ROSTER_UNREAD = ("base_data", "option_points")


def army_list_units(*, army_list: ArmyList, unread: Sequence[str] = ()) -> list[ListUnit]:
    """The units of a list in order, in one query, with the list already attached; the columns
    in `unread` are left out (reading one of them later costs a query per unit)."""
    units = list(ListUnit.objects.filter(army_list=army_list).defer(*unread).order_by("position"))
    for unit in units:
        unit.army_list = army_list
    return units


def army_list_unit_get_for_edit(
    *, user: AbstractBaseUser | AnonymousUser, list_id: int, unit_id: int
) -> ListUnit | None:
    """A unit of one of `user`'s own lists, its list (as `army_list_get_for_user(for_edit=True)`
    reads it) attached, or `None` — for another player's list too.

    One query instead of the list's and then the unit's: each editor click on a unit costs
    one round trip less.
    """
    if not (0 < list_id <= _MAX_ID and 0 < unit_id <= _MAX_ID) or not user.is_authenticated:
        return None
    related = [f"army_list__{name}" for name in _OWN_LIST_RELATED]
    unit = (
        ListUnit.objects.select_related(*related)
        .defer(*(f"army_list__{name}" for name in _EDIT_UNREAD_RELATED))
        # Never a unit of a locked version: nothing may change it, its owner included.
        .filter(army_list__owner=user, army_list_id=list_id, pk=unit_id, army_list__locked_at__isnull=True)
        .first()
    )
    if unit is not None:
        unit.army_list.owner = user
    return unit


def army_list_unit_get(*, army_list: ArmyList, unit_id: int) -> ListUnit | None:
    """One unit of `army_list` (already checked by the caller), or `None`."""
    if not 0 < unit_id <= _MAX_ID:
        return None
    unit = ListUnit.objects.filter(army_list=army_list, pk=unit_id).first()
    if unit is not None:
        unit.army_list = army_list
    return unit


def army_list_unit_choice(
    *, army_list: ArmyList, unit_id: int, with_menu: bool = True
) -> UnitTemplate | None:
    """One of `army_list_unit_choices`, with its upgrade options (`option_menu` reads them
    without a query) unless `with_menu` is false, or `None`: one query for the unit a player
    adds. (A roster of the engine reads the unit's options from its catalogue: reading the
    menu with the unit would cost each of its adds the menu's rows for nothing.)"""
    if not 0 < unit_id <= _MAX_ID:
        return None
    choices = army_list_unit_choices(army_list=army_list).order_by().filter(pk=unit_id)
    return (with_upgrade_menu(choices) if with_menu else choices).first()


def army_list_unit_choices(*, army_list: ArmyList) -> QuerySet[UnitTemplate]:
    """Units the owner can add to this list: the list's faction and their own homebrew units
    of the same game system, the list's faction first."""
    units = units_visible_to(user=army_list.owner).filter(faction__system_id=army_list.system_id)
    faction_filter = Q(faction__owner_id=army_list.owner_id)
    if army_list.faction_id is not None:
        faction_filter |= Q(faction_id=army_list.faction_id)
    return (
        units.filter(faction_filter)
        .select_related("faction")
        .order_by(F("faction__owner_id").asc(nulls_first=True), "faction__name", "position", "name")
    )
