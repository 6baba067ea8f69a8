"""What every catalogue-priced system checks about an army, and the shape of a violation.

Each system's composition rules (`points/whfb6/`, `points/wh40k9/`, `points/aos1/`,
`points/ru_whfb/`) start from these: the army's units written out in full (the army shape
of `docs/unit-format.md`), the always-on points limit, and violation dicts with the
same keys as the OPR engine's (`rule`, `check`, `unit`, `model`, `message`, `value`, `limit`),
so pages and the API show every system's violations the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from points.catalogue.i18n import _

#: The rule key of the points limit, which is always checked (as in OPR's §7.6).
POINTS_LIMIT_RULE = "points_limit"

Price = Callable[[Mapping[str, Any]], Mapping[str, Any]]


def violation(
    rule: str,
    message: str,
    *,
    check: str | None = None,
    unit: str | None = None,
    model: str | None = None,
    value: int = 0,
    limit: int = 0,
) -> dict[str, Any]:
    """One broken rule, in the OPR engine's violation shape."""
    return {
        "rule": rule,
        "check": check or rule,
        "unit": unit,
        "model": model,
        "message": message,
        "value": str(value),
        "limit": str(limit),
    }


def army_units(army: Mapping[str, Any]) -> Iterator[Mapping[str, Any]]:
    """Every unit of the army, an entry taken `count` times yielded `count` times."""
    for entry in army.get("units") or []:
        unit = entry.get("unit") if isinstance(entry, Mapping) else None
        if isinstance(unit, Mapping):
            for _copy in range(int(entry.get("count", 1) or 0)):
                yield unit


def army_models(army: Mapping[str, Any]) -> Iterator[tuple[Mapping[str, Any], Mapping[str, Any]]]:
    """(unit, model profile) for every model profile of every unit of the army."""
    for unit in army_units(army):
        for model in unit.get("models") or []:
            if isinstance(model, Mapping):
                yield unit, model


def rule_on(army: Mapping[str, Any], key: str) -> bool:
    """Whether the list switched the optional rule `key` on (every rule is on unless switched off)."""
    options = army.get("options") or {}
    return bool(options.get(key, True))


def army_points(army: Mapping[str, Any], price: Price) -> int:
    """The army total: the sum of rounded unit totals (each copy of an entry counts)."""
    return sum(int(price(unit)["points"]) for unit in army_units(army))


def points_limit_violations(army: Mapping[str, Any], price: Price) -> list[dict[str, Any]]:
    """The always-on rule: the army total must not exceed the list's points limit."""
    limit = army.get("points_limit")
    if limit is None:
        return []
    total = army_points(army, price)
    if total <= int(limit):
        return []
    return [
        violation(
            POINTS_LIMIT_RULE,
            _("The army costs %(total)d pts, over its limit of %(limit)d pts.")
            % {"total": total, "limit": int(limit)},
            value=total,
            limit=int(limit),
        )
    ]
