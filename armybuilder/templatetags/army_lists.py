"""Template filters that describe a unit of a list (see `armybuilder.roster.describe`)."""

from __future__ import annotations

from typing import Any

from django import template

from armybuilder.lists.forms import OPTION_PREFIX
from armybuilder.models import ListUnit
from armybuilder.roster import describe

register = template.Library()


@register.filter
def model_count(unit: dict[str, Any]) -> int:
    return describe.model_count(unit)


@register.filter
def weapon_summary(unit: dict[str, Any]) -> str:
    return describe.weapon_summary(unit)


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


@register.filter
def option_groups(list_unit: ListUnit) -> list[dict[str, Any]]:
    """The unit's upgrade options grouped for the picker, each with its count, price and input id.

    Groups keep the catalogue's order of their first option; options without a group
    form one group of their own, named by the template.
    """
    groups: dict[str, list[dict[str, Any]]] = {}
    for option in list_unit.available_options:
        key = option["key"]
        maximum = int(option.get("max_count") or 0)
        minimum = int(option.get("min_count") or 0)
        groups.setdefault(str(option.get("group") or ""), []).append(
            {
                "key": key,
                "label": option.get("label") or key,
                "min": minimum,
                "max": maximum,
                "count": int(list_unit.chosen_options.get(key, 0)),
                "points": list_unit.option_points.get(key),
                "is_checkbox": maximum <= 1,
                "is_fixed": maximum <= 1 and minimum >= 1,
                "input_id": f"unit-{list_unit.pk}-option-{key}",
                "input_name": f"{OPTION_PREFIX}{key}",
            }
        )
    return [{"name": name, "options": options} for name, options in groups.items()]
