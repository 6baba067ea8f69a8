"""Detachments of 9th-edition matched play: [EXTERNAL] data, not rules of the core booklet.

The Czech core booklet has no detachments and no battlefield roles (`docs/rules/wh40k9.md`
§7.5). The commonly cited slot limits come from outside the seed and are kept as data, not
code: they are below, marked [EXTERNAL], and the check is a switch a list can turn off.

- A list's unit groups may each be given a kind (`GameSystem.group_kinds`: Patrol, Battalion,
  Brigade); the army dict carries `groups` ({group name: kind}) and each unit entry its `group`.
- A datasheet's battlefield role is the unit field `battlefield_role` (the bundled datasheets
  carry theirs, marked [EXTERNAL]; homebrew ones pick it in the designer).
- "detachments": each detachment has between the minimum and the maximum of each role its
  kind allows; a unit without a role cannot fill a slot; once a list has a detachment (it is
  Battle-forged), every unit must be in one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from points.catalogue.army import rule_on, violation
from points.catalogue.i18n import _, gettext_noop

#: [EXTERNAL] The 9th-edition battlefield roles (docs/rules/wh40k9.md §7.5), key -> label.
BATTLEFIELD_ROLES: dict[str, str] = {
    "hq": gettext_noop("HQ"),
    "troops": gettext_noop("Troops"),
    "elites": gettext_noop("Elites"),
    "fast_attack": gettext_noop("Fast Attack"),
    "heavy_support": gettext_noop("Heavy Support"),
    "flyer": gettext_noop("Flyer"),
}
#: [EXTERNAL] Slot limits (min, max) by detachment ("commonly cited", unverified; docs/rules/wh40k9.md §7.5).
DETACHMENT_SLOTS: dict[str, dict[str, tuple[int, int]]] = {
    "patrol": {"hq": (1, 2), "troops": (1, 3), "elites": (0, 2), "fast_attack": (0, 2),
               "heavy_support": (0, 2), "flyer": (0, 2)},
    "battalion": {"hq": (2, 3), "troops": (3, 6), "elites": (0, 6), "fast_attack": (0, 3),
                  "heavy_support": (0, 3), "flyer": (0, 2)},
    "brigade": {"hq": (3, 5), "troops": (6, 12), "elites": (3, 8), "fast_attack": (3, 5),
                "heavy_support": (3, 5), "flyer": (0, 2)},
}
#: What a player picks for a group (`GameSystem.group_kinds`), key -> label.
DETACHMENT_KINDS: dict[str, str] = {
    "patrol": gettext_noop("Patrol Detachment"),
    "battalion": gettext_noop("Battalion Detachment"),
    "brigade": gettext_noop("Brigade Detachment"),
}
GROUP_KIND_TITLE = gettext_noop("Detachment")
OPTION_LABEL = gettext_noop(
    "[EXTERNAL] Detachments (Patrol, Battalion, Brigade) within their slot limits; "
    "once there is one, every unit is in a detachment"
)

#: The unit field of the datasheet's role (`UNIT_FIELDS` of the system).
ROLE_FIELD: dict[str, Any] = {
    "title": "Battlefield role",
    "description": "[EXTERNAL] The 9th-edition role the unit fills in a detachment",
    "type": "string",
    "enum": list(BATTLEFIELD_ROLES),
    "x-enum-labels": BATTLEFIELD_ROLES,
}


def detachments(army: Mapping[str, Any]) -> dict[str, str]:
    """The army's detachments: group name -> kind, for the kinds this system knows."""
    groups = army.get("groups") if isinstance(army.get("groups"), Mapping) else {}
    return {str(name): str(kind) for name, kind in groups.items() if kind in DETACHMENT_SLOTS}


def _entries(army: Mapping[str, Any]) -> list[tuple[str, Mapping[str, Any]]]:
    """(group, unit) for every unit of the army, an entry taken `count` times counted so."""
    found = []
    for entry in army.get("units") or []:
        unit = entry.get("unit") if isinstance(entry, Mapping) else None
        if isinstance(unit, Mapping):
            found += [(str(entry.get("group") or ""), unit)] * int(entry.get("count", 1) or 0)
    return found


def role_counts(army: Mapping[str, Any]) -> dict[str, Counter[str]]:
    """Per detachment, how many units of each battlefield role it holds."""
    kinds = detachments(army)
    counts: dict[str, Counter[str]] = {name: Counter() for name in kinds}
    for group, unit in _entries(army):
        if group in counts:
            counts[group][str(unit.get("battlefield_role") or "")] += 1
    return counts


def detachment_summary(army: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One summary row per detachment: its filled slots against their limits ("HQ 1/1–2 · …")."""
    rows = []
    for name, counts in role_counts(army).items():
        kind = detachments(army)[name]
        slots = DETACHMENT_SLOTS[kind]
        parts = [
            f"{_(BATTLEFIELD_ROLES[role])} {counts[role]}/{low}–{high}"
            for role, (low, high) in slots.items()
            if counts[role] or low
        ]
        over = any(not low <= counts[role] <= high for role, (low, high) in slots.items())
        rows.append({
            "key": f"detachment:{name}",
            "label": f"{name} ({_(DETACHMENT_KINDS[kind])})",
            "value": " · ".join(parts),
            "over": over,
            "detail": True,  # a line of the army's rules panel, not a figure of the totals bar
        })
    return rows


def detachment_violations(army: Mapping[str, Any]) -> list[dict[str, Any]]:
    if not rule_on(army, "detachments"):
        return []
    kinds = detachments(army)
    if not kinds:
        return []
    found = []
    for group, unit in _entries(army):
        where = {"unit": str(unit.get("name") or "")}
        if group not in kinds:
            found.append(violation(
                "detachments",
                _("%(unit)s is in no detachment; in a Battle-forged army every unit is in one.") % where,
                check="outside",
                **where,
            ))
        elif str(unit.get("battlefield_role") or "") not in BATTLEFIELD_ROLES:
            found.append(violation(
                "detachments",
                _("%(unit)s has no battlefield role, so it fills no slot of %(group)s.")
                % {**where, "group": group},
                check="no_role",
                **where,
            ))
    for name, counts in role_counts(army).items():
        kind = kinds[name]
        for role, (low, high) in DETACHMENT_SLOTS[kind].items():
            n = counts[role]
            if low <= n <= high:
                continue
            found.append(violation(
                "detachments",
                _("%(group)s (%(kind)s) has %(n)d %(role)s; it takes %(low)d to %(high)d.")
                % {"group": name, "kind": _(DETACHMENT_KINDS[kind]), "n": n,
                   "role": _(BATTLEFIELD_ROLES[role]), "low": low, "high": high},
                check=f"{kind}_{role}",
                value=n,
                limit=high if n > high else low,
            ))
    return found
