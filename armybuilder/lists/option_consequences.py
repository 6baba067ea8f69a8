"""What ticking an upgrade would break, said on the option before it is ticked.

For each option of a list unit, the unit is built with the player's current choice plus that
option (in a pick-one group: that option instead of the one taken) and validated by the list's
game system as an army of that unit alone, under the list's points limit, structure rules and
settings. The violations about the unit that the current choice does not already have are the
option's consequences: "its weapons are worth 87 pts, and the rules allow at most 5× the
model's own cost (85.8 pts)" is shown beside the OPR upgrade that causes it, not discovered after the click.

Results are cached by content (unit, menu, choice, list rules) and stored language-neutral —
each message with its English original and arguments (`message_record`) — so the picker
translates them for whoever reads the page.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

from django.core.cache import cache

from armybuilder.lists.evaluation import list_settings
from armybuilder.models import ArmyList, ListUnit
from points.catalogue.i18n import message_record
from points.shared_format import FORMAT_VERSION
from rules.options import OptionError, apply_options
from rules.systems.registry import get_system

CONSEQUENCES_CACHE_SECONDS = 24 * 3600
#: A unit with a longer menu (an imported BattleScribe unit can offer hundreds of entries) is
#: not checked option by option: one validation per option would make its row slow to render.
MAX_OPTIONS_CHECKED = 40


def pick_one_groups(menu: Sequence[Mapping[str, Any]]) -> set[str]:
    """Named groups whose options exclude each other: several options, each taken at most
    once, and at most one of them in all (the picker shows them as radio buttons)."""
    members: dict[str, list[Mapping[str, Any]]] = {}
    for option in menu:
        if option.get("group"):
            members.setdefault(str(option["group"]), []).append(option)
    return {
        name
        for name, options in members.items()
        if len(options) > 1
        and all(int(o.get("max_count") or 0) <= 1 for o in options)
        and _group_cap(options) == 1
    }


def _group_cap(options: Sequence[Mapping[str, Any]]) -> int | None:
    """The group's total cap as `rules.options` reads it: an explicit `group_max` wins, else the
    largest `max_count` of its members."""
    stated = [o["payload"]["group_max"] for o in options if isinstance(o.get("payload"), Mapping)
              and "group_max" in o["payload"]]
    if stated:
        caps = [int(cap) for cap in stated if cap is not None]
        return min(caps) if caps else None
    return max(int(o.get("max_count") or 0) for o in options)


def option_consequences(*, army_list: ArmyList, list_unit: ListUnit) -> dict[str, list[dict[str, Any]]]:
    """`{option key: [violation records]}`: what taking the option (once more) would newly break
    on this unit. Options that cannot be taken from the current choice are left out."""
    menu = list(list_unit.available_options or [])
    if not menu or len(menu) > MAX_OPTIONS_CHECKED or list_unit.selection:
        # A unit of a roster (`backends.engine_units`) is not made by applying its menu to its data:
        # the engine answers for it, and its errors show as soon as an option is taken.
        return {}
    army = {
        "format": FORMAT_VERSION,
        "system": army_list.system.key,
        "name": army_list.name,
        "points_limit": army_list.points_limit,
        "options": dict(army_list.structure_options),
    }
    settings = list_settings(army_list)
    if settings:
        army["settings"] = settings
    content = [army_list.system.key, list_unit.base_data, menu, list_unit.chosen_options, army]
    digest = hashlib.sha256(json.dumps(content, sort_keys=True, default=str).encode()).hexdigest()
    key = f"armybuilder:option-consequences:{digest}"
    found = cache.get(key)
    if found is None:
        found = _consequences(army, dict(list_unit.base_data), menu, dict(list_unit.chosen_options))
        cache.set(key, found, CONSEQUENCES_CACHE_SECONDS)
    return found


def _consequences(
    army: Mapping[str, Any], base: dict[str, Any], menu: list[Mapping[str, Any]], chosen: dict[str, int]
) -> dict[str, list[dict[str, Any]]]:
    validate = get_system(str(army["system"])).validate

    def unit_violations(choice: Mapping[str, int]) -> dict[tuple[Any, ...], dict[str, Any]] | None:
        try:
            data = apply_options(base, menu, choice)
        except OptionError:
            return None
        found = {}
        for violation in validate({**army, "units": [{"unit": data, "count": 1}]}):
            if not violation.get("unit"):
                continue  # about the army as a whole (a slot minimum, no General): not this option's doing
            # Plain values only (a `Message` is a `str` that pickles badly into the cache).
            record = {
                name: str(value) if isinstance(value, str) else value
                for name, value in {**violation, **message_record(violation.get("message", ""))}.items()
            }
            text = record.get("message_id") or record.get("message")
            signature = (record.get("rule"), record.get("check"), text)
            found[signature] = record
        return found

    current = unit_violations(chosen)
    if current is None:
        return {}
    pick_one = pick_one_groups(menu)
    result: dict[str, list[dict[str, Any]]] = {}
    for option in menu:
        key = str(option["key"])
        group = str(option.get("group") or "")
        choice = dict(chosen)
        if group in pick_one:
            if choice.get(key):
                continue  # already the one taken
            for other in menu:
                if str(other.get("group") or "") == group:
                    choice.pop(str(other["key"]), None)
            choice[key] = 1
        else:
            choice[key] = choice.get(key, 0) + 1
        after = unit_violations(choice)
        if after is None:
            continue
        new = [record for signature, record in after.items() if signature not in current]
        if new:
            result[key] = new
    return result
