"""Upgrade options of a unit in a list: the menu kept with the unit, the choice, their points.

The catalogue (`rules.options`) knows what an option does to a unit; this module keeps a
copy of a unit's options with the list unit (so the list does not change when the
catalogue does), turns the player's `{option key: count}` into the resulting unit, and
prices each option once, when the unit is added, so that pages show "+15 pts" without
pricing anything.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.postgres.expressions import ArraySubquery
from django.core.cache import cache
from django.db.models import Expression, JSONField, OuterRef, QuerySet
from django.utils.translation import gettext as _

from armybuilder.lists.errors import ArmyListError
from rules.models import UnitTemplate, UpgradeOption
from rules.options import (
    OPTION_FIELDS,
    OptionError,
    apply_options,
    count_steps,
    next_price,
    option_point_deltas,
)

#: How long the price of each option of a unit is remembered (it only changes with the engine).
OPTION_PRICES_CACHE_SECONDS = 24 * 3600


def option_menu(template: UnitTemplate) -> list[dict[str, Any]]:
    """The template's upgrade options as plain dicts, in catalogue order.

    Uses the template's `upgrade_menu` when it was read with it (`with_upgrade_menu`), else
    `template.options.all()`, so a caller that prefetched `options` pays no query either.
    """
    menu = getattr(template, "upgrade_menu", None)
    if menu is not None:
        return [{name: option[name] for name in OPTION_FIELDS} for option in menu]
    return [{name: getattr(option, name) for name in OPTION_FIELDS} for option in template.options.all()]


class _RowAsJson(Expression):
    """The whole row of the query's table as one JSON object (`to_jsonb(<table>)`).

    `option_menu` picks `OPTION_FIELDS` from it. Django's `JSONObject` over the nine fields
    says the same, but compiling its eighteen expressions took about 0.7 ms of CPU per added
    unit, more than reading the menu in a query of its own.
    """

    output_field = JSONField()

    def as_sql(self, compiler: Any, connection: Any) -> tuple[str, list[Any]]:
        table = compiler.quote_name_unless_alias(compiler.query.get_initial_alias())
        return f"to_jsonb({table})", []


def with_upgrade_menu(templates: QuerySet[UnitTemplate]) -> QuerySet[UnitTemplate]:
    """`templates`, each with its upgrade options (`upgrade_menu`, what `option_menu` reads) in
    the same query: adding a unit then reads the unit and its menu in one round trip instead of
    two."""
    options = UpgradeOption.objects.filter(unit=OuterRef("pk")).order_by("position", "key").values(
        option=_RowAsJson()
    )
    return templates.annotate(upgrade_menu=ArraySubquery(options))


def default_choice(menu: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """Options a unit comes with: each at its minimum count."""
    return {option["key"]: int(option.get("min_count") or 0) for option in menu if option.get("min_count")}


def resolve_options(
    *,
    base_data: Mapping[str, Any],
    menu: Sequence[Mapping[str, Any]],
    chosen: Mapping[str, int],
    prefix: str = "",
) -> tuple[dict[str, Any], dict[str, int]]:
    """The unit with `chosen` applied, and the choice normalised (options not taken left out).

    Options missing from `chosen` start at their minimum. Every problem is reported at once
    as an `ArmyListError` with the paths of `rules.options` (`options.<key>`,
    `groups.<group>`), each after `prefix` (an import says which unit: `units[3].`).
    """
    keys = {option["key"] for option in menu}
    errors: list[tuple[str, str]] = []
    choice = default_choice(menu)
    for key, count in chosen.items():
        if key not in keys:
            errors.append((f"{prefix}options.{key}", _("This unit has no such option.")))
        elif isinstance(count, bool) or not isinstance(count, int):
            errors.append((f"{prefix}options.{key}", _("Must be a whole number.")))
        else:
            choice[key] = count
    if errors:
        raise ArmyListError(errors)
    choice = {key: count for key, count in choice.items() if count != 0}
    try:
        data = apply_options(dict(base_data), list(menu), choice)
    except OptionError as exc:
        raise ArmyListError((f"{prefix}{path}", message) for path, message in exc.errors) from None
    return data, choice


def option_prices(
    *, system_key: str, base_data: Mapping[str, Any], menu: Sequence[Mapping[str, Any]]
) -> dict[str, int]:
    """`{option key: points taking it once adds}` to the unit as it comes, for the picker.

    Computed when the unit is added (it depends on the unit, not on the choice), and
    remembered in the cache, so adding a unit the server has priced before prices nothing.
    """
    if not menu:
        return {}
    # Keyed by content: the same unit and menu always cost the same, whichever list adds them.
    digest = hashlib.sha256(json.dumps([system_key, base_data, menu], sort_keys=True, default=str).encode())
    key = f"armybuilder:option-prices:{digest.hexdigest()}"
    prices = cache.get(key)
    if prices is None:
        prices = option_point_deltas(system_key, dict(base_data), list(menu))
        cache.set(key, prices, OPTION_PRICES_CACHE_SECONDS)
    return dict(prices)


def option_points_now(
    menu: Sequence[Mapping[str, Any]], chosen: Mapping[str, int], option_points: Mapping[str, int]
) -> dict[str, int]:
    """`{option key: points one more of it adds now}`: the cached `option_points` (the first
    take's price), except that an option priced by count (`payload.costs`: the whole price
    at each count) reads its table at the count taken, so the picker and the API show what
    the player pays for the next one (10 Bestigors 140, the next 10 140, the third 80); an
    option taken as often as it may be gives the price of its last take (a ticked box its own)."""
    out = dict(option_points)
    for option in menu:
        key = str(option.get("key", ""))
        count = int(chosen.get(key, 0) or 0)
        highest = int(option.get("max_count") or 0)
        if highest and count >= highest:
            count = highest - 1  # taken as often as it may be: the price of the last take
        step = next_price(option, max(count, 0))
        if step is not None:
            out[key] = step
    return out


def price_table(option: Mapping[str, Any]) -> list[tuple[int, int]]:
    """[(count, whole price)] of an option priced by count, for the picker; [] otherwise."""
    return list(enumerate(count_steps(option), 1))
