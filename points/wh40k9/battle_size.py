"""The army rules of the 40k 9th edition core booklet (`docs/rules/wh40k9.md` §7).

The booklet sizes battles by Power Level, not points, and its *Only War* table gives the
COMBINED Power Level of both armies (§7.2, §13 item 21): Combat Patrol 50, Incursion 100,
Strike Force 200, Onslaught 300. **Decision:** one army's share is half of that (25, 50,
100, 150), which is what a list is checked against; above Onslaught the game is
Apocalypse, below 15 combined it is Kill Team. The matched-play points limits are
[NOT IN SOURCE] and are not used; the bundled units carry 0 points.

Checks (each switchable per list except the points limit):
- the points limit (always);
- "battle_size": the army's Power Level fits its battle size: the list setting
  `battle_size` (`LIST_SETTINGS_SCHEMA`, default Strike Force), read from the army's
  `settings` (an older army's top-level `battle_size` is still honoured);
- "unit_size": each model profile stays within its datasheet's No. column
  (`min_count`–`max_count`); one unit per datasheet may be understrength (§1.1, §7.5);
- "warlord": exactly one model is the Warlord (the rule "Warlord", §7.3);
- "detachments" [EXTERNAL, not in the booklet]: `points.wh40k9.detachments`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from points.catalogue.army import army_models, army_units, points_limit_violations, rule_on, violation
from points.catalogue.i18n import _, gettext_noop
from points.catalogue.item_restrictions import item_restriction_violations
from points.wh40k9.detachments import OPTION_LABEL as DETACHMENTS_LABEL
from points.wh40k9.detachments import detachment_summary, detachment_violations
from points.wh40k9.power import power_rating

#: Battle sizes of the Only War mission: combined Power Level of BOTH armies (§7.2).
COMBINED_POWER_LEVEL: dict[str, int] = {
    "combat_patrol": 50,
    "incursion": 100,
    "strike_force": 200,
    "onslaught": 300,
}
#: Decision: a list is checked against its own half of the combined Power Level.
ARMIES_PER_BATTLE = 2
LARGEST_BATTLE_SIZE = "onslaught"
DEFAULT_BATTLE_SIZE = "strike_force"
WARLORD_RULE = "Warlord"
BATTLE_SIZE_LABELS: dict[str, str] = {
    "combat_patrol": "Combat Patrol (25 PL per army)",
    "incursion": "Incursion (50 PL per army)",
    "strike_force": "Strike Force (100 PL per army)",
    "onslaught": "Onslaught (150 PL per army)",
}
#: The list's own parameters (`GameSystem.list_settings_schema`).
LIST_SETTINGS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "battle_size": {
            "title": "Battle size",
            "description": "Only War: half the combined Power Level of both armies",
            "type": "string",
            "enum": list(COMBINED_POWER_LEVEL),
            "x-enum-labels": BATTLE_SIZE_LABELS,
            "default": DEFAULT_BATTLE_SIZE,
        }
    },
}

#: What "… only" wordings of imported items mean here (`points.catalogue.item_restrictions`).
REQUIREMENT_WORDS: dict[str, str] = {
    "warlord": WARLORD_RULE,
}
OPTION_KEYS: dict[str, str] = {
    "battle_size": gettext_noop(
        "Power Level within the battle size (Only War, half the combined total per army)"
    ),
    "unit_size": gettext_noop(
        "Unit sizes within the datasheet's No. column; one understrength unit per datasheet"
    ),
    "warlord": gettext_noop("Exactly one Warlord"),
    "detachments": DETACHMENTS_LABEL,
    "item_restrictions": gettext_noop(
        "Items for one kind of model only (“Warlord only”)"
    ),
}


def power_level(army: Mapping[str, Any]) -> int:
    """The army's Power Level: the sum of its units' Power Ratings (§7.1)."""
    return sum(power_rating(unit) for unit in army_units(army))


def power_limit(battle_size: str) -> int:
    """One army's share of a battle size's combined Power Level."""
    return COMBINED_POWER_LEVEL[battle_size] // ARMIES_PER_BATTLE


def battle_size_of(army: Mapping[str, Any]) -> str:
    """The army's battle size: its setting, else an old top-level field, else the default."""
    settings = army.get("settings") if isinstance(army.get("settings"), Mapping) else {}
    return str(settings.get("battle_size") or army.get("battle_size") or DEFAULT_BATTLE_SIZE)


def army_summary(army: Mapping[str, Any]) -> list[dict[str, Any]]:
    """What a 40k player reads off a list besides points: its Power Level and the battle size's share."""
    size = battle_size_of(army)
    row: dict[str, Any] = {"key": "power_level", "label": _("Power Level"), "value": power_level(army)}
    if size in COMBINED_POWER_LEVEL:
        row["limit"] = power_limit(size)
    return [row, *detachment_summary(army)]


def battle_size_violations(army: Mapping[str, Any]) -> list[dict[str, Any]]:
    size = battle_size_of(army)
    if size not in COMBINED_POWER_LEVEL:
        return [violation("battle_size", _("Unknown battle size “%(size)s”.") % {"size": size})]
    level, limit = power_level(army), power_limit(size)
    if level <= limit:
        return []
    return [
        violation(
            "battle_size",
            _("The army's Power Level is %(level)d, over %(limit)d, its share of %(size)s.")
            % {"level": level, "limit": limit, "size": size.replace("_", " ").title()},
            value=level,
            limit=limit,
        )
    ]


def unit_size_violations(army: Mapping[str, Any]) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    understrength: Counter[str] = Counter()
    for unit in army_units(army):
        short = False
        for model in unit.get("models") or []:
            count, low, high = int(model.get("count", 1)), model.get("min_count"), model.get("max_count")
            where = {"unit": str(unit["name"]), "model": str(model["name"])}
            if high is not None and count > int(high):
                found.append(
                    violation(
                        "unit_size",
                        _("%(unit)s has %(n)d %(model)s; the datasheet allows at most %(max)d.")
                        % {**where, "n": count, "max": int(high)},
                        check="max_models",
                        value=count,
                        limit=int(high),
                        **where,
                    )
                )
            if low is not None and count < int(low):
                short = True
        if short:
            understrength[str(unit["name"])] += 1
    for name, n in understrength.items():
        if n > 1:
            found.append(
                violation(
                    "unit_size",
                    _("%(n)d units of %(unit)s are understrength; only one may be.") % {"n": n, "unit": name},
                    check="understrength",
                    unit=name,
                    value=n,
                    limit=1,
                )
            )
    return found


def warlord_violations(army: Mapping[str, Any]) -> list[dict[str, Any]]:
    if not any(True for _unit in army_units(army)):
        return []
    warlords = sum(
        int(model.get("count", 1))
        for _u, model in army_models(army)
        if any(str(r).split("(")[0].strip() == WARLORD_RULE for r in model.get("rules") or [])
    )
    if warlords == 1:
        return []
    if warlords == 0:
        return [
            violation(
                "warlord",
                _("The army has no Warlord: give the rule “Warlord” to one model."),
                value=0,
                limit=1,
            )
        ]
    return [
        violation(
            "warlord",
            _("The army has %(n)d Warlords; it must have exactly one.") % {"n": warlords},
            value=warlords,
            limit=1,
        )
    ]


def validate(
    army: Mapping[str, Any], price: Callable[[Mapping[str, Any]], Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """Every violation of the army: the points limit, then each switched-on check."""
    found = points_limit_violations(army, price)
    if rule_on(army, "battle_size"):
        found += battle_size_violations(army)
    if rule_on(army, "unit_size"):
        found += unit_size_violations(army)
    if rule_on(army, "warlord"):
        found += warlord_violations(army)
    found += detachment_violations(army)  # [EXTERNAL], switched by "detachments"
    if rule_on(army, "item_restrictions"):
        found += item_restriction_violations(army, REQUIREMENT_WORDS)
    return found
