"""Army-composition checks shared by the two Warhammer Fantasy systems (WHFB 6th, Russian rules).

Neither seed prints an army list, so the bundled army books are ours and so are the
numbers below; each is marked in its option's label as [EXTERNAL] (from the printed
rulebooks the seeds leave out) or as our own, and every check can be switched off per list.

The unit format carries what these checks read:
- a unit's `slot` ("lord", "hero", "core", "special", "rare") and, optionally, its size
  bounds `min_models` / `max_models` (the army book's "Unit size");
- a model's `character` flag, its `rules` (General, the army standard, Champion, Standard
  Bearer, Musician) and its `items`, each with `kind` and `points` (a `mundane` item —
  shield, armour, barding — is kit, never a magic item).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

from points.catalogue.army import army_models, army_units, rule_on, violation
from points.catalogue.i18n import _

SLOTS = ("lord", "hero", "core", "special", "rare")
CHARACTER_SLOTS = ("lord", "hero")
MUNDANE = "mundane"
COMMAND_RULES = ("Champion", "Standard Bearer", "Musician")

Price = Callable[[Mapping[str, Any]], Mapping[str, Any]]


def has_rule(model: Mapping[str, Any], name: str) -> bool:
    """Whether the model has the rule `name` (a value in brackets is ignored)."""
    return any(str(rule).split("(")[0].strip() == name for rule in model.get("rules") or [])


def slot_of(unit: Mapping[str, Any]) -> str:
    return str(unit.get("slot") or "")


def unit_model_count(unit: Mapping[str, Any]) -> int:
    return sum(int(model.get("count", 1)) for model in unit.get("models") or [])


def points_text(value: Fraction | int) -> str:
    """Points the way players read them: whole numbers plain, otherwise one decimal ('62.5')."""
    value = Fraction(value)
    sign, value = ("-", -value) if value < 0 else ("", value)
    tenths = (value * 10 + Fraction(1, 2)).__floor__()  # half-up, exact (no float rounding)
    return sign + (str(tenths // 10) if tenths % 10 == 0 else f"{tenths // 10}.{tenths % 10}")


def magic_items(model: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The model's magic items: every item except mundane kit."""
    return [
        item for item in model.get("items") or [] if isinstance(item, Mapping) and item.get("kind") != MUNDANE
    ]


def unit_size_violations(army: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Each unit within its army-book size (`min_models`–`max_models`)."""
    found = []
    for unit in army_units(army):
        size, low, high = unit_model_count(unit), unit.get("min_models"), unit.get("max_models")
        where = {"unit": str(unit["name"])}
        if low is not None and size < int(low):
            found.append(
                violation(
                    "unit_size",
                    _("%(unit)s has %(n)d models; the army book asks for at least %(min)d.")
                    % {**where, "n": size, "min": int(low)},
                    check="min_models",
                    value=size,
                    limit=int(low),
                    **where,
                )
            )
        if high is not None and size > int(high):
            found.append(
                violation(
                    "unit_size",
                    _("%(unit)s has %(n)d models; the army book allows at most %(max)d.")
                    % {**where, "n": size, "max": int(high)},
                    check="max_models",
                    value=size,
                    limit=int(high),
                    **where,
                )
            )
    return found


def command_violations(army: Mapping[str, Any]) -> list[dict[str, Any]]:
    """At most one Champion, one Standard Bearer and one Musician per unit, and none in a
    unit of characters or a unit too small to have a rank behind them (fewer than 5 models)."""
    found = []
    for unit in army_units(army):
        for rule in COMMAND_RULES:
            n = sum(int(m.get("count", 1)) for m in unit.get("models") or [] if has_rule(m, rule))
            if n > 1:
                found.append(
                    violation(
                        "command",
                        _("%(unit)s has %(n)d models with “%(rule)s”; a unit has at most one.")
                        % {"unit": unit["name"], "n": n, "rule": _(rule)},
                        check="one_of_each",
                        unit=str(unit["name"]),
                        value=n,
                        limit=1,
                    )
                )
            if n and slot_of(unit) in CHARACTER_SLOTS:
                found.append(
                    violation(
                        "command",
                        _("%(unit)s is a character and cannot have a “%(rule)s”.")
                        % {"unit": unit["name"], "rule": _(rule)},
                        check="characters_no_command",
                        unit=str(unit["name"]),
                    )
                )
    return found


def magic_item_allowance_violations(
    army: Mapping[str, Any], allowance: Mapping[str, int]
) -> list[dict[str, Any]]:
    """A character's magic items cost at most its slot's allowance (Lords and Heroes)."""
    found = []
    for unit, model in army_models(army):
        limit = allowance.get(slot_of(unit))
        if limit is None or not model.get("character"):
            continue
        spent = sum(Fraction(str(item.get("points", 0))) for item in magic_items(model))
        if spent > limit:
            found.append(
                violation(
                    "magic_item_points",
                    _("%(model)s carries %(spent)s pts of magic items; a %(slot)s may carry %(limit)d pts.")
                    % {
                        "model": model["name"],
                        "spent": points_text(spent),
                        "slot": _(slot_of(unit)),
                        "limit": limit,
                    },
                    unit=str(unit["name"]),
                    model=str(model["name"]),
                    value=int(spent),
                    limit=limit,
                )
            )
    return found


def magic_item_summary(
    allowance: Mapping[str, int], army: Mapping[str, Any], unit: Mapping[str, Any]
) -> list[dict[str, Any]]:
    """Each character's magic items: points used, and the slot's allowance while the list
    checks it (the switch "magic_item_points"), so a player sees the budget before breaking it.

    One row per character model: `{"key": "magic_items", "label", "model", "value" (points as
    players read them, "62.5"), "limit"?, "over"}`. Mundane kit is not counted.
    """
    limit = allowance.get(slot_of(unit)) if rule_on(army, "magic_item_points") else None
    rows = []
    for model in unit.get("models") or []:
        if not isinstance(model, Mapping) or not model.get("character"):
            continue
        if slot_of(unit) not in allowance:
            continue
        spent = sum((Fraction(str(item.get("points", 0))) for item in magic_items(model)), Fraction(0))
        row: dict[str, Any] = {
            "key": "magic_items",
            "label": _("Magic item points"),
            "model": str(model.get("name") or ""),
            "value": points_text(spent),
            "over": limit is not None and spent > limit,
        }
        if limit is not None:
            row["limit"] = limit
        rows.append(row)
    return rows


def slot_counts(army: Mapping[str, Any]) -> Counter[str]:
    return Counter(slot_of(unit) for unit in army_units(army))


def slot_points(army: Mapping[str, Any], price: Price) -> dict[str, Fraction]:
    """Exact points spent in each slot (unrounded unit totals)."""
    spent: dict[str, Fraction] = {slot: Fraction(0) for slot in SLOTS}
    for unit in army_units(army):
        if slot_of(unit) in spent:
            spent[slot_of(unit)] += Fraction(str(price(unit)["exact"]))
    return spent


def percentage_violations(
    army: Mapping[str, Any], price: Price, *, maxima: Mapping[str, int], minima: Mapping[str, int]
) -> list[dict[str, Any]]:
    """Points per slot as a share of the points limit: at most `maxima[slot]` %, at least `minima[slot]` %."""
    limit = army.get("points_limit")
    if not limit or not any(True for _u in army_units(army)):
        return []
    spent = slot_points(army, price)
    found = []
    for slot, percent in maxima.items():
        cap = Fraction(int(limit) * percent, 100)
        if spent[slot] > cap:
            found.append(
                violation(
                    "percentages",
                    _("%(slot)s choices cost %(spent)s pts, over %(percent)d%% of the limit (%(cap)s pts).")
                    % {
                        "slot": _(slot).title(),
                        "spent": points_text(spent[slot]),
                        "percent": percent,
                        "cap": points_text(cap),
                    },
                    check=f"max_{slot}",
                    value=int(spent[slot]),
                    limit=int(cap),
                )
            )
    for slot, percent in minima.items():
        floor = Fraction(int(limit) * percent, 100)
        if spent[slot] < floor:
            found.append(
                violation(
                    "percentages",
                    _(
                        "%(slot)s choices cost %(spent)s pts, under %(percent)d%% of the limit (%(floor)s)."
                    )
                    % {
                        "slot": _(slot).title(),
                        "spent": points_text(spent[slot]),
                        "percent": percent,
                        "floor": points_text(floor),
                    },
                    check=f"min_{slot}",
                    value=int(spent[slot]),
                    limit=int(floor),
                )
            )
    return found


def unslotted_violations(army: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A unit without a slot cannot be placed on the chart (homebrew units must pick one)."""
    return [
        violation(
            "slots",
            _("%(unit)s has no army slot (Lord, Hero, Core, Special or Rare).") % {"unit": unit["name"]},
            check="no_slot",
            unit=str(unit["name"]),
        )
        for unit in army_units(army)
        if slot_of(unit) not in SLOTS
    ]
