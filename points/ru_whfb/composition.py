"""The army rules chapter 7 of the Russian WHFB house rules gives (`shared/spec/systems/004_ru.md` §3).

The chapter has no points, no percentages and no slot limits ([NOT IN SOURCE]); it names
one General ("usually the strongest character") and one Army Battle Standard Bearer. So
this module checks the points limit (always), at most one General and at most one Army
Battle Standard (each switchable). A model holds the role when it has the rule "General" /
"Army Battle Standard".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from points.catalogue.army import army_models, points_limit_violations, rule_on, violation
from points.catalogue.i18n import _

GENERAL_RULE = "General"
ARMY_STANDARD_RULE = "Army Battle Standard"

OPTION_KEYS: dict[str, str] = {
    "general": "At most one General (chapter 7, rule 45)",
    "army_standard": "At most one Army Battle Standard Bearer (chapter 7, rule 44)",
}


def _holders(army: Mapping[str, Any], rule: str) -> int:
    return sum(
        int(model.get("count", 1))
        for _u, model in army_models(army)
        if any(str(r).split("(")[0].strip() == rule for r in model.get("rules") or [])
    )


def validate(
    army: Mapping[str, Any], price: Callable[[Mapping[str, Any]], Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """The points limit, then at most one General and one Army Battle Standard Bearer."""
    found = points_limit_violations(army, price)
    generals = _holders(army, GENERAL_RULE)
    if rule_on(army, "general") and generals > 1:
        found.append(
            violation(
                "general",
                _("The army has %(n)d Generals; at most one is allowed.") % {"n": generals},
                value=generals,
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
    return found
