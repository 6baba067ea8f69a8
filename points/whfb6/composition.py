"""The army rules the WHFB 6th edition digest contains (`shared/spec/systems/000_whfb6.md` §13).

The digest has no army-composition chart (no Lords/Heroes/Core/Special/Rare, no
percentages): the slot chart in §13 is marked [EXTERNAL, UNVERIFIED] and is deliberately
NOT enforced here. What the source does say, and what this module checks:

- the points limit (always);
- "general": exactly one General, and he is the character with the highest Ld (§11.5);
- "battle_standard": at most one Battle Standard Bearer (§11.5);
- "magic_items": each character carries at most one magic item of each type; a wizard
  carries either one normal arcane item or several scrolls/stones; arcane items are for
  wizards only; at most one bound-spell item per character; no magic item appears twice
  in the army except the non-unique ones (scrolls, power stones) (§13, §14.1).

A model is the General or the BSB when it has the rule "General" / "Battle Standard"
(options of the catalogue add them). Each check can be switched off per list.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from points.catalogue.army import army_models, army_units, points_limit_violations, rule_on, violation
from points.catalogue.i18n import _

GENERAL_RULE = "General"
BATTLE_STANDARD_RULE = "Battle Standard"
ARCANE = "arcane"

#: The list's switch for each check, with what it checks (shown by the list builder).
OPTION_KEYS: dict[str, str] = {
    "general": "Exactly one General, the character with the highest Leadership (§11.5)",
    "battle_standard": "At most one Battle Standard Bearer (§11.5)",
    "magic_items": "Magic item limits per character and per army (§13, §14.1)",
}


def _has_rule(model: Mapping[str, Any], name: str) -> bool:
    return any(str(rule).split("(")[0].strip() == name for rule in model.get("rules") or [])


def general_violations(army: Mapping[str, Any]) -> list[dict[str, Any]]:
    """§11.5: every army has exactly one General, the character with the highest Ld."""
    if not any(True for _unit in army_units(army)):
        return []
    generals = [(unit, model) for unit, model in army_models(army) if _has_rule(model, GENERAL_RULE)]
    if not generals:
        return [violation("general", _("The army has no General: give the rule “General” to one character."))]
    found = []
    if len(generals) > 1:
        names = ", ".join(str(model["name"]) for _unit, model in generals)
        found.append(
            violation(
                "general",
                _("The army has %(n)d Generals (%(names)s); it must have exactly one.")
                % {"n": len(generals), "names": names},
                value=len(generals),
                limit=1,
            )
        )
    unit, general = generals[0]
    best = max((int(m.get("ld") or 0) for _u, m in army_models(army) if m.get("character")), default=0)
    ld = int(general.get("ld") or 0)
    if ld < best:
        found.append(
            violation(
                "general",
                _(
                    "The General (%(name)s, Ld %(ld)d) must be the character with the "
                    "highest Leadership (%(best)d)."
                )
                % {"name": general["name"], "ld": ld, "best": best},
                check="general_highest_ld",
                unit=str(unit["name"]),
                model=str(general["name"]),
                value=ld,
                limit=best,
            )
        )
    return found


def battle_standard_violations(army: Mapping[str, Any]) -> list[dict[str, Any]]:
    """§11.5: the army's battle standard is carried by one model at most."""
    bearers = sum(
        int(model.get("count", 1))
        for _u, model in army_models(army)
        if _has_rule(model, BATTLE_STANDARD_RULE)
    )
    if bearers <= 1:
        return []
    return [
        violation(
            "battle_standard",
            _("The army has %(n)d Battle Standard Bearers; at most one is allowed.") % {"n": bearers},
            value=bearers,
            limit=1,
        )
    ]


def magic_item_violations(army: Mapping[str, Any]) -> list[dict[str, Any]]:
    """§13–14.1: per-character and per-army magic item limits."""
    found: list[dict[str, Any]] = []
    in_army: Counter[str] = Counter()
    for unit, model in army_models(army):
        items = [item for item in model.get("items") or [] if isinstance(item, Mapping)]
        where = {"unit": str(unit["name"]), "model": str(model["name"])}
        for item in items:
            if item.get("unique", True):
                in_army[str(item["name"])] += int(model.get("count", 1))
        kinds = Counter(str(item.get("kind")) for item in items if item.get("unique", True))
        for kind, n in kinds.items():
            if n > 1:
                found.append(
                    violation(
                        "magic_items",
                        _(
                            "%(model)s carries %(n)d magic items of the type "
                            "“%(kind)s”; at most one of each type."
                        )
                        % {"model": model["name"], "n": n, "kind": kind},
                        check="one_item_per_type",
                        value=n,
                        limit=1,
                        **where,
                    )
                )
        arcane = [item for item in items if item.get("kind") == ARCANE]
        if arcane and not int(model.get("wizard_level") or 0):
            found.append(
                violation(
                    "magic_items",
                    _("%(model)s is not a wizard and cannot carry arcane items.") % {"model": model["name"]},
                    check="arcane_wizards_only",
                    **where,
                )
            )
        if any(item.get("unique", True) for item in arcane) and any(
            not item.get("unique", True) for item in arcane
        ):
            found.append(
                violation(
                    "magic_items",
                    _(
                        "%(model)s carries a normal arcane item and scrolls or "
                        "stones; a wizard carries one or the other."
                    )
                    % {"model": model["name"]},
                    check="arcane_item_or_scrolls",
                    **where,
                )
            )
        bound = sum(1 for item in items if item.get("bound_spell"))
        if bound > 1:
            found.append(
                violation(
                    "magic_items",
                    _("%(model)s carries %(n)d bound-spell items; at most one.")
                    % {"model": model["name"], "n": bound},
                    check="one_bound_spell_item",
                    value=bound,
                    limit=1,
                    **where,
                )
            )
    for name, n in in_army.items():
        if n > 1:
            found.append(
                violation(
                    "magic_items",
                    _("%(item)s appears %(n)d times in the army; a magic item may appear only once.")
                    % {"item": name, "n": n},
                    check="unique_items",
                    value=n,
                    limit=1,
                )
            )
    return found


def validate(
    army: Mapping[str, Any], price: Callable[[Mapping[str, Any]], Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """Every violation of the army: the points limit, then each switched-on check."""
    found = points_limit_violations(army, price)
    if rule_on(army, "general"):
        found += general_violations(army)
    if rule_on(army, "battle_standard"):
        found += battle_standard_violations(army)
    if rule_on(army, "magic_items"):
        found += magic_item_violations(army)
    return found
