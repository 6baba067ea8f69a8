"""Catalogue points: what a unit costs in a system whose army books print the prices.

For WHFB 6th, 40k 9th, AoS 1st and the Russian WHFB house rules there is no formula: a
model costs what its book says (`points` on each model profile of the unit format) and an
upgrade costs what its option says (the unit's `upgrades`, written there by
`rules.options.apply_options`). A unit costs

    Σ model points × count  +  Σ upgrade cost × times taken  +  Σ item points × count

rounded half-up once, like the OPR engine (`docs/rules/opr-points.md` §1, "Decision
(rounding)"). Where a source prints no points at all the bundled data says so and carries 0.

An item (equipment, a magic item) with `points` on a model profile costs that much per model
of the profile, unless the unit's `upgrades` already price it: an item an option added names
that option (`priced_by`, written by `rules.options`), and its cost is the upgrade's, not
counted twice. Data written before items named their option (no item of the unit names one)
counts an item as priced by an upgrade that costs exactly the item's points (`item_lines`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

#: "catalogue": the points come from the data, not from a formula.
PRICED_FROM = "catalogue"


def round_half_up(value: Fraction) -> int:
    """The one rounding of a unit total (half-up, as the OPR engine rounds)."""
    return int((value + Fraction(1, 2)).__floor__())


def _exact(value: Any) -> Fraction:
    """A written number (int, decimal string, float) exactly; an int without parsing text
    (pricing every option of an import builds hundreds of thousands of these)."""
    if type(value) is int:
        return Fraction(value)
    return Fraction(str(value))


def exact_text(value: Fraction) -> str:
    """An exact value as a short decimal string when it terminates, else "p/q"."""
    if value.denominator == 1:
        return str(value.numerator)
    as_float = float(value)
    if Fraction(repr(as_float)) == value:
        return repr(as_float)
    return f"{value.numerator}/{value.denominator}"


#: The item field naming the upgrade (option key) that priced the item (`rules.options`).
PRICED_BY = "priced_by"


def item_lines(unit: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The items whose own `points` the unit's price adds (module docstring): per model profile
    and item, `{model, name, count, points_each, total}` with exact values as Fractions."""
    upgrades = [u for u in unit.get("upgrades", []) if isinstance(u, Mapping)]
    keys = {str(u.get("key")) for u in upgrades}
    items = [
        (model, item)
        for model in unit["models"]
        for item in model.get("items") or []
        if isinstance(item, Mapping) and item.get("points") not in (None, 0, "0")
    ]
    legacy = upgrades and not any(PRICED_BY in item for _model, item in items)
    legacy_costs = {Fraction(str(u.get("cost", 0))) for u in upgrades} if legacy else set()
    lines = []
    for model, item in items:
        each = _exact(item["points"])
        if str(item.get(PRICED_BY, "")) in keys or each in legacy_costs:
            continue
        count = int(model["count"])
        lines.append({"model": model["name"], "name": item.get("name", ""), "count": count,
                      "points_each": each, "total": each * count})
    return lines


def price_from_catalogue(
    unit: Mapping[str, Any],
    *,
    system_key: str,
    extras: Callable[[Mapping[str, Any]], Mapping[str, Any]] | None = None,
) -> dict[str, Any]:
    """The breakdown of `unit`'s catalogue points (JSON-ready; `points` is the rounded total).

    `unit` must already follow the system's schema: the core sums, it does not read untrusted
    documents (`rules.systems.catalogue_system` checks each unit against the system's profile schema with
    `rules.systems.unit_schema` first and raises `UnitFormatError` with every broken field).
    `extras(unit)` adds system-specific figures (40k: the unit's Power Rating).
    """
    models = []
    total = Fraction(0)
    for model in unit["models"]:
        each = _exact(model.get("points", 0))
        count = int(model["count"])
        models.append(
            {
                "name": model["name"],
                "count": count,
                "points_each": exact_text(each),
                "total": exact_text(each * count),
            }
        )
        total += each * count
    upgrades = []
    for upgrade in unit.get("upgrades", []):
        cost = Fraction(int(upgrade["cost"]) * int(upgrade["count"]))
        upgrades.append(
            {
                "key": upgrade["key"],
                "label": upgrade.get("label", upgrade["key"]),
                "count": int(upgrade["count"]),
                "cost_each": str(upgrade["cost"]),
                "total": exact_text(cost),
            }
        )
        total += cost
    items = item_lines(unit)
    total += sum((line["total"] for line in items), Fraction(0))
    breakdown: dict[str, Any] = {
        "system": system_key,
        "name": unit["name"],
        "priced_from": PRICED_FROM,
        "points": round_half_up(total),
        "exact": exact_text(total),
        "model_count": sum(int(m["count"]) for m in unit["models"]),
        "models": models,
        "upgrades": upgrades,
    }
    if items:
        breakdown["items"] = [
            {**line, "points_each": exact_text(line["points_each"]), "total": exact_text(line["total"])}
            for line in items
        ]
    if unit.get("points_in_source") is False:
        breakdown["points_in_source"] = False  # the data's own mark: the source prints no points
    if extras is not None:
        breakdown.update(extras(unit))
    return breakdown
