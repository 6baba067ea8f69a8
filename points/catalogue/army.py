"""What every catalogue-priced system checks about an army, and the shape of a violation.

Each system's composition rules (`points/whfb6/`, `points/wh40k9/`, `points/aos1/`,
`points/ru_whfb/`) start from these: the army's units written out in full (the army shape
of `docs/unit-format.md`), the always-on points limit, and violation dicts with the
same keys as the OPR engine's (`rule`, `check`, `unit`, `model`, `message`, `value`, `limit`),
so pages and the API show every system's violations the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
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


#: {id(unit dict): its rounded points} of the units being validated, when the caller has priced
#: them already (`known_unit_points`); never read from a document.
_known_points: ContextVar[Mapping[int, int] | None] = ContextVar("known_unit_points", default=None)


@contextmanager
def known_unit_points(units: Mapping[int, tuple[Mapping[str, Any], int]]) -> Iterator[None]:
    """Within the block, `army_points` takes each unit's points from `units` ({id(unit dict):
    (the unit dict, its rounded points)}) instead of pricing it again. A saved list keeps
    every unit's points, priced when the unit last changed (by the system's price, or by the
    roster engine for an imported faction's list), so checking its points limit on each
    click re-priced every unit for nothing: the one cost of a click that grew with the list.
    The dicts are held by `units`, so an id never stands for another dict meanwhile."""
    token = _known_points.set({key: points for key, (_unit, points) in units.items()})
    try:
        yield
    finally:
        _known_points.reset(token)


def army_points(army: Mapping[str, Any], price: Price) -> int:
    """The army total: the sum of rounded unit totals (each copy of an entry counts), each
    unit's points those the caller knows (`known_unit_points`), else `price`'s."""
    known = _known_points.get() or {}
    total = 0
    for unit in army_units(army):
        points = known.get(id(unit))
        total += int(price(unit)["points"]) if points is None else points
    return total


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
