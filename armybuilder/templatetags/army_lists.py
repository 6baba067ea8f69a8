"""Template filters that describe a unit of a list (see `armybuilder.roster.describe`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django import template
from django.utils import translation
from django.utils.translation import gettext as _

from armybuilder.lists import backends
from armybuilder.lists.backends import rows as list_rows
from armybuilder.lists.evaluation import army_summary, group_kinds_of, list_settings, unit_summary
from armybuilder.lists.forms import OPTION_PREFIX, pick_input_name
from armybuilder.lists.option_consequences import option_consequences, pick_one_groups
from armybuilder.lists.unit_options import option_points_now, price_table
from armybuilder.models import ArmyList, ListUnit
from armybuilder.roster import describe
from points.catalogue.i18n import translated_again
from rules.list_settings import enum_labels, settings_properties
from rules.option_labels import option_label
from rules.source_language import decimal_text
from rules.systems.registry import get_system

register = template.Library()


@register.filter
def violation_message(violation: dict[str, Any], army_list: ArmyList | None = None) -> str:
    """A stored violation's message in the reader's language (it was stored in the language
    of whoever last changed the list); with the list, the names it quotes (a unit's, a
    model's) as its bundled faction translates them: a Russian roster said "Генерал (Snag
    Boss, Ld 6)" under a card headed "Босс Кривозубов"."""
    faction = army_list.faction if army_list is not None and army_list.faction_id else None
    if faction is None:
        return translated_again(violation, number=decimal_text)
    return translated_again(violation, number=lambda text: decimal_text(faction.in_reader_language(text)))


@register.filter
def model_count(unit: dict[str, Any]) -> int:
    return describe.model_count(unit)


@register.filter
def weapon_summary(list_unit: ListUnit) -> str:
    """The unit's weapons with how many carry each, named in the reader's language where its
    bundled faction translates them."""
    return describe.weapon_summary(list_unit.data or {}, list_unit.option_text)


@register.filter
def is_configuration(list_unit: ListUnit) -> bool:
    """Whether the row is one of its roster's configuration selections (a battle size, an
    allegiance): shown as the roster's, never as a unit (`backends.rows.is_configuration`)."""
    return list_rows.is_configuration(list_unit)


@register.filter
def upgrade_summary(list_unit: ListUnit) -> str:
    return ", ".join(describe.chosen_upgrades(list_unit))


@register.filter
def option_count(list_unit: ListUnit, key: str) -> int:
    """How many of option `key` the unit has taken (0 when not taken)."""
    return int(list_unit.chosen_options.get(key, 0))


@register.filter
def option_points(list_unit: ListUnit, key: str) -> int | None:
    return list_unit.option_points.get(key)


@register.simple_tag
def option_groups(
    list_unit: ListUnit,
    errors: Sequence[tuple[str, str]] | None = None,
    submitted: Mapping[str, int] | None = None,
) -> list[dict[str, Any]]:
    """The unit's upgrade options grouped for the picker, each with its count, price and input id.

    Groups keep the catalogue's order of their first option; options without a group
    form one group of their own, named by the template. A named group of several options
    carries its shared limit (`rules.options`: the largest max/min of its members), so the
    picker can say "2 in all" before a player goes past it. After a refused change,
    `errors` (paths `options.<key>` / `groups.<group>`) are put beside their field or group
    and `submitted` keeps what the player typed, so nothing they did is lost.
    """
    messages: dict[str, list[str]] = {}
    for path, message in errors or ():
        messages.setdefault(path, []).append(message)
    army_list = getattr(list_unit, "army_list", None)
    consequences = option_consequences(army_list=army_list, list_unit=list_unit) if army_list else {}
    pick_one = pick_one_groups(list_unit.available_options or [])
    groups: dict[str, list[dict[str, Any]]] = {}
    # What one more of each option costs at the count taken (options priced by count step).
    prices = option_points_now(
        list_unit.available_options or [], list_unit.chosen_options or {}, list_unit.option_points or {}
    )
    for option in list_unit.available_options:
        key = option["key"]
        maximum = int(option.get("max_count") or 0)
        minimum = int(option.get("min_count") or 0)
        count = (submitted or {}).get(key, list_unit.chosen_options.get(key, 0))
        groups.setdefault(str(option.get("group") or ""), []).append(
            {
                "key": key,
                "label": list_unit.option_text(option_label(option)) or key,
                "min": minimum,
                "max": maximum,
                "count": int(count),
                "points": prices.get(key),
                # An option priced by count: its whole price at each count, and at the count taken.
                "steps": price_table(option),
                "taken_points": dict(price_table(option)).get(int(count)),
                "is_checkbox": maximum <= 1,
                "is_fixed": maximum <= 1 and minimum >= 1,
                "input_id": f"unit-{list_unit.pk}-option-{key}",
                "input_name": f"{OPTION_PREFIX}{key}",
                "errors": messages.get(f"options.{key}", []),
                # What taking it would break, in the reader's language, before it is taken.
                "consequences": [
                    translated_again(record, number=decimal_text) for record in consequences.get(key, [])
                ],
            }
        )
    result = []
    for name, options in groups.items():
        shared = bool(name) and len(options) > 1
        result.append(
            {
                "name": name,
                # The group's name as the reader reads it (`name` stays the stored English).
                "title": list_unit.option_text(name),
                "options": options,
                "shared_max": max(option["max"] for option in options) if shared else None,
                "shared_min": max(option["min"] for option in options) if shared else None,
                "errors": messages.get(f"groups.{name}", []) if name else [],
                # A pick-one group is radio buttons named after the group (`pick_input_name`).
                "pick_one": name in pick_one,
                "radio_name": pick_input_name(name) if name in pick_one else "",
                "taken": any(option["count"] for option in options),
            }
        )
    return result


@register.simple_tag
def list_summary(army_list: ArmyList) -> list[dict[str, Any]]:
    """The army-wide figures the list's system reports besides points (40k: Power Level),
    each `{key, label, value, limit?}`; empty for systems without any (no query then)."""
    if not get_system(army_list.system.key).summarises_army:
        return []
    # An answer shows the figures twice (the totals and the summary), each summing every unit:
    # worked out once per version of the list (every change of a unit or a setting moves the
    # version on) and language (the labels).
    key = (army_list.version, translation.get_language())
    kept = getattr(army_list, "_summary_rows", None)
    if kept is not None and kept[0] == key:
        return [dict(row) for row in kept[1]]
    units = backends.units_in_order(army_list)
    figures = army_summary(army_list=army_list, units=units)
    rows = [{**row, "label": str(row.get("label", ""))} for row in figures]
    army_list._summary_rows = (key, rows)  # type: ignore[attr-defined]
    return [dict(row) for row in rows]


@register.simple_tag
def unit_figures(army_list: ArmyList, list_unit: ListUnit) -> list[dict[str, Any]]:
    """The figures the system reports for one unit besides points (WHFB: a character's magic
    items used / allowed), each `{key, label, model?, value, limit?, over?}`."""
    return unit_summary(army_list=army_list, unit=list_unit)


@register.simple_tag
def group_kind_menu(army_list: ArmyList, list_unit: ListUnit) -> dict[str, Any] | None:
    """The kinds a unit's group can be (40k: detachments, `GameSystem.group_kinds`), with the
    group's current one; None for a system whose groups are free."""
    system = get_system(army_list.system.key)
    if not system.group_kinds:
        return None
    stored = group_kinds_of(army_list, system.group_kinds)
    current = stored.get(list_unit.group, "") if list_unit.group else ""
    return {
        "title": _(system.group_kind_title),
        "choices": [(key, _(label)) for key, label in system.group_kinds.items()],
        "current": current,
        "current_label": _(system.group_kinds[current]) if current else "",
    }


@register.simple_tag
def list_settings_shown(army_list: ArmyList) -> list[dict[str, str]]:
    """The list's own parameters as (title, value label) for read-only pages."""
    schema = get_system(army_list.system.key).list_settings_schema
    values = list_settings(army_list)
    shown = []
    for key, prop in settings_properties(schema).items():
        value = values.get(key)
        labels = dict(enum_labels(prop))
        title, label = str(prop.get("title", key)), str(labels.get(value, value))
        shown.append({"key": key, "title": _(title), "value": _(label)})
    return shown
