"""A BattleScribe 1.x game system read as BattleScribe 2 reads it when it opens the old file.

A 1.x game system (BSData/whfb's "Warhammer Fantasy 8th ed.gst", 1.15, under every 8thBRB army
book) has no `forceEntries` and no `categoryEntries`: its forces are `forceTypes`, each with its
`categories` inside, and force and category alike carry their limits as attributes
(`minSelections`, `maxPoints`, `minPercentage`… with -1 for none). It declares no cost types
either: points were built in. Read as written, a roster of it had no force to hold its units.

BattleScribe 2 converts such a file on opening it; `upgraded` does the same on the engine's dict
shape: each force type a force entry (same id and name, nested force types as child forces),
each category a category entry of the game system (same id, which the 2.x army books link their
units to) linked from every force that holds it (link id `<force id>-<category id>`), the
attribute limits as the constraints BattleScribe writes for them (ids `minSelections`,
`maxPercentage`…; a percentage counts the category's points against the roster's points limit,
`limit::points`), the points as the cost type "points" named "pts", and each profile type's
`characteristics` its `characteristicTypes`. The shapes are those of
BattleScribe's own conversions of this very file and of its 2.x successors in BSData/whfb's
forks (the Spanish 8th edition: `<categoryLink id="<force>-<category>">` with
`field="limit::points" scope="roster" percentValue="true"`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: The cost type BattleScribe 2 gives the built-in points of a 1.x game system (id, name).
POINTS_ID, POINTS_NAME = "points", "pts"

#: (attribute, constraint type, field, scope, includeChildSelections, includeChildForces) as
#: BattleScribe 2 converts a 1.x limit; a `None` field is the points cost type. A maximum counts
#: the forces inside the force too, a minimum does not (as BattleScribe writes them).
_LIMITS: tuple[tuple[str, str, str | None, str, bool, bool], ...] = (
    ("minSelections", "min", "selections", "parent", False, False),
    ("maxSelections", "max", "selections", "parent", False, True),
    ("minPoints", "min", None, "parent", True, False),
    ("maxPoints", "max", None, "parent", True, True),
    ("minPercentage", "min", "limit::" + POINTS_ID, "roster", True, False),
    ("maxPercentage", "max", "limit::" + POINTS_ID, "roster", True, True),
)


def is_legacy(raw: Mapping[str, Any]) -> bool:
    """Whether a file in the dict shape was written by BattleScribe 0.x or 1.x."""
    version = str(raw.get("battleScribeVersion", "") or "")
    return version.split(".")[0] in ("0", "1")


def upgraded(raw: Mapping[str, Any]) -> Mapping[str, Any]:
    """The game system `raw` as BattleScribe 2 reads it: a 1.x one with force types gets its
    force entries, category entries and points cost type; any other is returned as it is."""
    if not is_legacy(raw) or raw.get("forceEntries") or not raw.get("forceTypes"):
        return raw
    out = dict(raw)
    if not out.get("costTypes"):
        out["costTypes"] = [{"id": POINTS_ID, "name": POINTS_NAME, "defaultCostLimit": "-1.0"}]
    categories = list(out.get("categoryEntries") or [])
    known = {str(c.get("id", "")) for c in categories}
    out["forceEntries"] = [_force(f, categories, known) for f in _list(raw.get("forceTypes"))]
    out["categoryEntries"] = categories
    out["profileTypes"] = [_profile_type(p) for p in _list(raw.get("profileTypes"))]
    return out


def _profile_type(raw: Mapping[str, Any]) -> Mapping[str, Any]:
    """A 1.x profile type lists its characteristic types as `characteristics` (id, name): 2.x
    calls them `characteristicTypes`."""
    if raw.get("characteristicTypes") or not raw.get("characteristics"):
        return raw
    out = {k: v for k, v in raw.items() if k != "characteristics"}
    out["characteristicTypes"] = [
        {"id": str(c.get("id", "")), "name": str(c.get("name", ""))}
        for c in _list(raw.get("characteristics"))
    ]
    return out


def _list(value: Any) -> list[Mapping[str, Any]]:
    return [v for v in value if isinstance(v, Mapping)] if isinstance(value, list) else []


def _force(raw: Mapping[str, Any], categories: list[dict[str, Any]], known: set[str]) -> dict[str, Any]:
    force_id = str(raw.get("id", ""))
    links = []
    for category in _list(raw.get("categories")):
        category_id = str(category.get("id", ""))
        name = str(category.get("name", ""))
        if category_id not in known:
            known.add(category_id)
            categories.append({"id": category_id, "name": name, "hidden": "false"})
        links.append(
            {
                "id": f"{force_id}-{category_id}",
                "name": name,
                "hidden": "false",
                "targetId": category_id,
                "primary": "false",
                "constraints": _constraints(category),
            }
        )
    return {
        "id": force_id,
        "name": str(raw.get("name", "")),
        "hidden": "false",
        "constraints": _constraints(raw),
        "categoryLinks": links,
        "forceEntries": [_force(f, categories, known) for f in _list(raw.get("forceTypes"))],
    }


def _constraints(raw: Mapping[str, Any]) -> list[dict[str, str]]:
    """The constraints of a 1.x force type's or category's limit attributes: a minimum above 0
    and a maximum other than -1 (none) each become one."""
    out = []
    for attribute, kind, field, scope, children, forces in _LIMITS:
        try:
            value = float(raw.get(attribute, "") or "")
        except ValueError:
            continue
        if (kind == "min" and value <= 0) or (kind == "max" and value < 0):
            continue
        out.append(
            {
                "id": attribute,
                "type": kind,
                "value": f"{value}",
                "field": field or POINTS_ID,
                "scope": scope,
                "percentValue": "true" if "Percentage" in attribute else "false",
                "shared": "false",
                "includeChildSelections": "true" if children else "false",
                "includeChildForces": "true" if forces else "false",
            }
        )
    return out


__all__ = ["POINTS_ID", "POINTS_NAME", "is_legacy", "upgraded"]
