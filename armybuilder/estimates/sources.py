"""Where the units of an estimate come from: the catalogue, a list, or the reference targets.

An estimate works on units in the unit format; this module turns "catalogue unit 12",
"unit 34 of list 7", "the Infantry reference target" or "the whole list 7" into those
units, after the same visibility checks as everywhere else: the catalogue's
(`rules.selectors.units_visible_to`) and the builder's (`armybuilder.lists.selectors`). A unit of a
list is written out by the builder's own export (`armybuilder.lists.interchange.army_list_to_dict`),
so it is the unit with its chosen upgrades, exactly as it is priced and printed.

Each source and target has a `key` ("unit:12", "list_unit:34", "list:7", "ref:infantry-10",
"ref:*" for every reference target) that the form offers as a choice and resolves back,
checking visibility again, so a tampered form can name nothing the user may not see.
Something the user may not see resolves to `None`, exactly like something that does not
exist.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import F
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from armybuilder.lists.backends import rows as list_rows
from armybuilder.lists.interchange import army_list_to_dict
from armybuilder.lists.selectors import (
    army_list_by_share_token,
    army_list_get_for_user,
    army_list_unit_get,
    army_list_units,
    army_lists_visible_to,
)
from armybuilder.models import ArmyList, ListUnit
from rules.models import UnitTemplate
from rules.selectors import units_visible_to
from rules.systems.registry import get_system

User = AbstractBaseUser | AnonymousUser

#: How many of the user's own lists, and of other players' public lists, a target menu offers.
MAX_TARGET_LISTS = 20
REFERENCE_SET = "ref:*"
#: The reference set's name as an estimate stores it, translated where it is shown.
REFERENCE_SET_NAME = gettext_noop("Reference targets")

#: A menu of targets: (group label, [(key, label)]), as Django's grouped choices.
Choices = list[tuple[str, list[tuple[str, str]]]]


@dataclass(frozen=True)
class UnitSource:
    """One unit to estimate with: its key, what to call it, its system, the unit itself, and
    the list it belongs to (if any: its menu of targets leaves that list out)."""

    key: str
    label: str
    system_key: str
    unit: Mapping[str, Any]
    list_id: int | None = None
    #: One of the system's reference targets: the estimate marks it (`inputs.with_references`),
    #: so its pages translate its English name where a player's unit's is shown as written.
    reference: bool = False


@dataclass(frozen=True)
class ListSource:
    """A list (or the reference set) to estimate with: its name and its units, each named. The
    reference set's names are the English msgids (`reference`), translated where shown."""

    key: str
    label: str
    system_key: str
    name: str
    units: list[tuple[str, Mapping[str, Any]]] = field(default_factory=list)
    list_id: int | None = None
    reference: bool = False


def _int(value: Any) -> int | None:
    text = str(value or "")
    return int(text) if text.isdigit() and len(text) < 12 else None


# ------------------------------------------------------------------------------ units


def _template_source(template: UnitTemplate) -> UnitSource:
    return UnitSource(f"unit:{template.pk}", f"{template.name} — {template.faction.name}",
                      template.faction.system.key, template.data)


def catalogue_unit_source(*, user: User, unit_id: Any) -> UnitSource | None:
    """A catalogue unit as its card shows it, if `user` may see its faction."""
    pk = _int(unit_id)
    if pk is None:
        return None
    template = units_visible_to(user=user).select_related("faction__system").filter(pk=pk).first()
    return _template_source(template) if template else None


def _list_unit_dict(army_list: ArmyList, unit: ListUnit) -> dict[str, Any]:
    """The unit with its upgrades, as the builder's export writes it."""
    return army_list_to_dict(army_list=army_list, units=[unit])["units"][0]["unit"]


def _list_unit_source(army_list: ArmyList, unit: ListUnit) -> UnitSource:
    return UnitSource(f"list_unit:{unit.pk}", f"{unit.name} — {army_list.name}", army_list.system.key,
                      _list_unit_dict(army_list, unit), list_id=army_list.pk)


def _readable_list(*, user: User, list_id: Any = None, share_token: str = "") -> ArmyList | None:
    if share_token:
        return army_list_by_share_token(token=share_token)
    pk = _int(list_id)
    return army_list_get_for_user(user=user, list_id=pk) if pk is not None else None


def list_unit_source(*, user: User, unit_id: Any, list_id: Any = None,
                     share_token: str = "") -> UnitSource | None:
    """A unit of a list the user may read (by id, or through its share link)."""
    army_list = _readable_list(user=user, list_id=list_id, share_token=share_token)
    pk = _int(unit_id)
    if army_list is None or pk is None:
        return None
    unit = army_list_unit_get(army_list=army_list, unit_id=pk)
    # A roster's configuration row (a battle size) fields no models: there is nothing to estimate.
    return _list_unit_source(army_list, unit) if unit and not list_rows.is_configuration(unit) else None


def target_name(unit: Mapping[str, Any], slug: str) -> str:
    """A reference target's name in the active language. The unit keeps its English name as
    data (what is computed, cached and exported); each system marks its targets' names for
    translation (`gettext_noop` in its `reference_targets` module)."""
    return _(str(unit.get("name") or slug))


def reference_source(*, system_key: str, slug: str) -> UnitSource | None:
    """One of the system's reference targets ("a typical infantry squad")."""
    try:
        unit = get_system(system_key).reference_targets.get(slug)
    except KeyError:
        return None
    if not unit:
        return None
    return UnitSource(f"ref:{slug}", target_name(unit, slug), system_key, unit, reference=True)


# ------------------------------------------------------------------------------ lists


def _list_source(army_list: ArmyList) -> ListSource:
    units = army_list_units(army_list=army_list)
    written = army_list_to_dict(army_list=army_list, units=units)["units"]
    # The export writes the units that field models, a roster's configuration rows left out.
    fielded = list_rows.fielded(units)
    return ListSource(f"list:{army_list.pk}", army_list.name, army_list.system.key, army_list.name,
                      [(unit.name, entry["unit"]) for unit, entry in zip(fielded, written, strict=True)],
                      list_id=army_list.pk)


def list_source(*, user: User, list_id: Any = None, share_token: str = "") -> ListSource | None:
    """A whole list the user may read (by id, or through its share link), units in order."""
    army_list = _readable_list(user=user, list_id=list_id, share_token=share_token)
    return _list_source(army_list) if army_list else None


def reference_set_source(*, system_key: str) -> ListSource | None:
    """Every reference target of the system, as a list to estimate a whole list against. Its
    name and its units' are stored in English, the estimate marked as against the reference
    set, so each reader reads them in their own language (`describe.estimate_title`,
    `describe.shown_matrix_result`), not the language of whoever asked first."""
    try:
        targets = get_system(system_key).reference_targets
    except KeyError:
        return None
    if not targets:
        return None
    return ListSource(REFERENCE_SET, _(REFERENCE_SET_NAME), system_key, REFERENCE_SET_NAME,
                      [(str(unit.get("name") or slug), unit) for slug, unit in targets.items()],
                      reference=True)


# ------------------------------------------------------------------------------ target menus


def _target_lists(*, user: User, system_key: str, exclude_list_id: int | None) -> list[ArmyList]:
    """The user's own lists of the system, then other players' public ones, most recent first."""
    visible = army_lists_visible_to(user=user).filter(system__key=system_key).select_related(
        "faction", "system", "owner"
    )
    if exclude_list_id is not None:
        visible = visible.exclude(pk=exclude_list_id)
    own = list(visible.filter(owner=user)[:MAX_TARGET_LISTS]) if user.is_authenticated else []
    others = visible.exclude(owner=user) if user.is_authenticated else visible
    return own + list(others.filter(is_public=True)[:MAX_TARGET_LISTS])


def _list_label(army_list: ArmyList, user: User) -> str:
    """The list's name, its faction and points (a system without points: its units), and its
    number: two lists may share a name."""
    faction = army_list.faction.name if army_list.faction else army_list.system.name
    if army_list.points_sized:
        details = _("%(faction)s, %(points)d/%(limit)d pts, #%(id)d") % {
            "faction": faction,
            "points": army_list.total_points,
            "limit": army_list.points_limit,
            "id": army_list.pk,
        }
    else:
        units = ngettext("%(counter)s unit", "%(counter)s units", army_list.unit_count) % {
            "counter": army_list.unit_count
        }
        details = _("%(faction)s, %(size)s, #%(id)d") % {
            "faction": faction, "size": units, "id": army_list.pk
        }
    if user.is_authenticated and army_list.owner_id == user.pk:
        return _("%(list)s (%(details)s)") % {"list": army_list.name, "details": details}
    return _("%(list)s (by %(owner)s; %(details)s)") % {
        "list": army_list.name,
        "owner": army_list.owner.get_username(),
        "details": details,
    }


def _reference_choices(system_key: str) -> list[tuple[str, str]]:
    return [(f"ref:{slug}", target_name(unit, slug))
            for slug, unit in get_system(system_key).reference_targets.items()]


def unit_target_choices(*, user: User, system_key: str, exclude_list_id: int | None = None) -> Choices:
    """Every unit a unit may be estimated against: reference targets, the catalogue units of
    the system by faction, and the units of the lists the user may see (three queries)."""
    groups: Choices = []
    references = _reference_choices(system_key)
    if references:
        groups.append((_("Reference targets"), references))
    catalogue = (units_visible_to(user=user).filter(faction__system__key=system_key).select_related("faction")
                 .order_by(F("faction__owner_id").asc(nulls_first=True), "faction__name", "faction_id",
                           "position", "name"))
    by_faction: dict[int, tuple[str, list[tuple[str, str]]]] = {}
    for template in catalogue:
        group = by_faction.setdefault(template.faction_id, (_("Catalogue: %(faction)s") % {
            "faction": template.faction.name}, []))
        group[1].append((f"unit:{template.pk}", template.name))
    groups += list(by_faction.values())
    lists = _target_lists(user=user, system_key=system_key, exclude_list_id=exclude_list_id)
    units_by_list: dict[int, list[tuple[str, str]]] = {army_list.pk: [] for army_list in lists}
    list_units = (ListUnit.objects.filter(army_list__in=[a.pk for a in lists])
                  .only("pk", "name", "army_list_id").order_by("army_list_id", "position"))
    for unit in list_units:
        units_by_list[unit.army_list_id].append((f"list_unit:{unit.pk}", unit.name))
    for army_list in lists:
        if units_by_list[army_list.pk]:
            label = _("List: %(list)s") % {"list": _list_label(army_list, user)}
            groups.append((label, units_by_list[army_list.pk]))
    return groups


def list_target_choices(*, user: User, system_key: str, exclude_list_id: int | None = None) -> Choices:
    """Every list a list may be estimated against: the visible lists first (the form's default
    is an opponent's list, the question players ask), then the reference set."""
    groups: Choices = []
    lists = _target_lists(user=user, system_key=system_key, exclude_list_id=exclude_list_id)
    if lists:
        groups.append((_("Lists"), [(f"list:{a.pk}", _list_label(a, user)) for a in lists if a.unit_count]))
    reference = reference_set_source(system_key=system_key)
    if reference is not None:
        groups.append((_("Reference targets"), [(REFERENCE_SET, _("All reference targets"))]))
    return [group for group in groups if group[1]]


# ------------------------------------------------------------------------------ resolving a choice


def unit_target(*, user: User, system_key: str, key: str) -> UnitSource | None:
    """The unit a target key names, if the user may see it and it is of `system_key`."""
    kind, _sep, ident = str(key).partition(":")
    target: UnitSource | None = None
    if kind == "ref":
        target = reference_source(system_key=system_key, slug=ident)
    elif kind == "unit":
        target = catalogue_unit_source(user=user, unit_id=ident)
    elif kind == "list_unit" and _int(ident) is not None:
        unit = (ListUnit.objects.select_related("army_list__system", "army_list__owner")
                .filter(pk=_int(ident), army_list__in=army_lists_visible_to(user=user)).first())
        target = _list_unit_source(unit.army_list, unit) if unit else None
    return target if target is not None and target.system_key == system_key else None


def list_target(*, user: User, system_key: str, key: str) -> ListSource | None:
    """The list a target key names ("list:7" or the reference set), if visible and of `system_key`."""
    kind, _sep, ident = str(key).partition(":")
    target: ListSource | None = None
    if key == REFERENCE_SET:
        target = reference_set_source(system_key=system_key)
    elif kind == "list":
        target = list_source(user=user, list_id=ident)
    return target if target is not None and target.system_key == system_key else None
