"""The army rules chapter 7 of the Russian WHFB house rules gives (`docs/rules/ru_whfb.md` §3).

The chapter has no points, no percentages and no slot limits ([NOT IN SOURCE]); it names
one General ("usually the strongest character") and one Army Battle Standard Bearer. So
this module checks the points limit (always), exactly one General and at most one Army
Battle Standard (each switchable). A model holds the role when it has the rule "General" /
"Army Battle Standard".

The rules are "mostly WFB 8th edition", so the composition the chapter leaves out is the
8th-edition percentage chart, enforced here marked [EXTERNAL]: Lords and Heroes at most
25% of the points limit each, Core at least 25%, Special at most 50%, Rare at most 25%;
a Lord carries at most 100 pts of magic items and a Hero 50 ([EXTERNAL]). Unit sizes and
command groups (rules 40-43 of the chapter: Champion, Standard Bearer, Musician) are
checked from the army book data (ours). Mundane kit is never a magic item.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from points.catalogue.army import army_models, army_units, points_limit_violations, rule_on, violation
from points.catalogue.fantasy_army import (
    command_violations,
    magic_item_allowance_violations,
    percentage_violations,
    unit_size_violations,
    unslotted_violations,
)
from points.catalogue.i18n import _, gettext_noop
from points.catalogue.item_restrictions import item_restriction_violations

GENERAL_RULE = "General"
ARMY_STANDARD_RULE = "Army Battle Standard"

#: What "… only" wordings of imported items mean here (`points.catalogue.item_restrictions`).
REQUIREMENT_WORDS: dict[str, str] = {
    "battle_standard": ARMY_STANDARD_RULE,
    "army_battle_standard": ARMY_STANDARD_RULE,
    "general": GENERAL_RULE,
}
OPTION_KEYS: dict[str, str] = {
    "general": gettext_noop("Exactly one General (chapter 7, rule 45)"),
    "army_standard": gettext_noop("At most one Army Battle Standard Bearer (chapter 7, rule 44)"),
    "percentages": gettext_noop(
        "[EXTERNAL] 8th-edition chart: Lords, Heroes, Rare ≤ 25%, Special ≤ 50%, Core ≥ 25%"
    ),
    "magic_item_points": gettext_noop(
        "[EXTERNAL] Magic items worth at most 100 pts on a Lord, 50 pts on a Hero"
    ),
    "unit_size": gettext_noop("Unit sizes within the army book's limits"),
    "command": gettext_noop("One Champion, Standard Bearer and Musician per unit; none for characters"),
    "item_restrictions": gettext_noop(
        "Items for one kind of model only (“Army Battle Standard only”, “General only”)"
    ),
}
#: [EXTERNAL] 8th-edition percentages of the points limit.
MAXIMUM_PERCENT: dict[str, int] = {"lord": 25, "hero": 25, "special": 50, "rare": 25}
MINIMUM_PERCENT: dict[str, int] = {"core": 25}
MAGIC_ITEM_ALLOWANCE: dict[str, int] = {"lord": 100, "hero": 50}


def _holders(army: Mapping[str, Any], rule: str) -> int:
    return sum(
        int(model.get("count", 1))
        for _u, model in army_models(army)
        if any(str(r).split("(")[0].strip() == rule for r in model.get("rules") or [])
    )


def validate(
    army: Mapping[str, Any], price: Callable[[Mapping[str, Any]], Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """The points limit, then each switched-on check."""
    found = points_limit_violations(army, price)
    generals = _holders(army, GENERAL_RULE)
    has_units = any(True for _unit in army_units(army))
    if rule_on(army, "general") and generals > 1:
        found.append(
            violation(
                "general",
                _("The army has %(n)d Generals; it must have exactly one.") % {"n": generals},
                value=generals,
                limit=1,
            )
        )
    if rule_on(army, "general") and has_units and generals == 0:
        found.append(
            violation(
                "general",
                _("The army has no General: give the rule “General” to one character."),
                check="no_general",
                value=0,
                limit=1,
            )
        )
    bearers = _holders(army, ARMY_STANDARD_RULE)
    if rule_on(army, "army_standard") and bearers > 1:
        found.append(
            violation(
                "army_standard",
                _("The army has %(n)d Army Battle Standard Bearers; at most one is allowed.")
                % {"n": bearers},
                value=bearers,
                limit=1,
            )
        )
    if rule_on(army, "percentages"):
        found += unslotted_violations(army)
        found += percentage_violations(army, price, maxima=MAXIMUM_PERCENT, minima=MINIMUM_PERCENT)
    if rule_on(army, "magic_item_points"):
        found += magic_item_allowance_violations(army, MAGIC_ITEM_ALLOWANCE)
    if rule_on(army, "unit_size"):
        found += unit_size_violations(army)
    if rule_on(army, "command"):
        found += command_violations(army)
    if rule_on(army, "item_restrictions"):
        found += item_restriction_violations(army, REQUIREMENT_WORDS)
    return found
