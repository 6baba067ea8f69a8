"""The army rules the WHFB 6th edition digest contains (`docs/rules/whfb6.md` §13).

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

Beyond the digest, and marked so in their labels (the bundled army books are ours too):
- "slot_chart" [EXTERNAL]: the 6th-edition slot chart quoted in §13 (characters, Lords,
  Core minimum, Special and Rare maxima by points limit);
- "magic_item_points" [EXTERNAL]: a Lord carries at most 100 pts of magic items, a Hero 50;
- "unit_size": each unit within its army-book size; "command": one Champion, Standard
  Bearer and Musician per unit, none on characters (§9.8).
Mundane kit (shields, armour, barding: kind "mundane") is never a magic item.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from points.catalogue.army import army_models, army_units, points_limit_violations, rule_on, violation
from points.catalogue.fantasy_army import (
    CHARACTER_SLOTS,
    MUNDANE,
    command_violations,
    magic_item_allowance_violations,
    slot_counts,
    unit_size_violations,
    unslotted_violations,
)
from points.catalogue.i18n import _, gettext_noop, ngettext
from points.catalogue.item_restrictions import item_restriction_violations

GENERAL_RULE = "General"
BATTLE_STANDARD_RULE = "Battle Standard"
ARCANE = "arcane"

#: What "… only" wordings of imported items mean here (`points.catalogue.item_restrictions`).
REQUIREMENT_WORDS: dict[str, str] = {
    "battle_standard": BATTLE_STANDARD_RULE,
    "army_battle_standard": BATTLE_STANDARD_RULE,
    "general": GENERAL_RULE,
}
#: The list's switch for each check, with what it checks (shown by the list builder).
OPTION_KEYS: dict[str, str] = {
    "general": gettext_noop("Exactly one General, the character with the highest Leadership (§11.5)"),
    "battle_standard": gettext_noop("At most one Battle Standard Bearer (§11.5)"),
    "magic_items": gettext_noop("Magic item limits per character and per army (§13, §14.1)"),
    "magic_item_points": gettext_noop(
        "[EXTERNAL] Magic items worth at most 100 pts on a Lord, 50 pts on a Hero"
    ),
    "slot_chart": gettext_noop(
        "[EXTERNAL] 6th-edition slot chart: characters, Lords, Core, Special, Rare by game size"
    ),
    "unit_size": gettext_noop("Unit sizes within the army book's limits"),
    "command": gettext_noop(
        "One Champion, Standard Bearer and Musician per unit; none for characters (§9.8)"
    ),
    "item_restrictions": gettext_noop(
        "Items for one kind of model only (“Battle Standard Bearer only”, “General only”)"
    ),
}
#: [EXTERNAL] magic item points a character may carry, by slot.
MAGIC_ITEM_ALLOWANCE: dict[str, int] = {"lord": 100, "hero": 50}


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
        items = [
            item
            for item in model.get("items") or []
            if isinstance(item, Mapping) and item.get("kind") != MUNDANE
        ]
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


def slot_chart(points_limit: int) -> dict[str, int]:
    """[EXTERNAL, §13] The chart's row for a points limit: <2000, 2000-2999, 3000-3999, then +1000 each."""
    band = max(0, int(points_limit) // 1000 - 1)
    characters = (3, 4, 6)[band] if band < 3 else 6 + 2 * (band - 2)
    lords = (0, 1, 2)[band] if band < 3 else 2 + (band - 2)
    return {
        "characters": characters,
        "lord": lords,
        "core": 2 + band,
        "special": 3 + band,
        "rare": 1 + band,
    }


def slot_chart_violations(army: Mapping[str, Any]) -> list[dict[str, Any]]:
    """[EXTERNAL] Characters, Lords, Core, Special and Rare units against the chart's row."""
    if not any(True for _unit in army_units(army)):
        return []
    chart = slot_chart(int(army.get("points_limit") or 0))
    counts = slot_counts(army)
    characters = sum(counts[slot] for slot in CHARACTER_SLOTS)
    found = unslotted_violations(army)
    checks = (
        (
            "characters",
            characters,
            chart["characters"],
            "max",
            lambda n: ngettext(
                "The army has %(n)d character; %(limit)d allowed at this game size.",
                "The army has %(n)d characters; %(limit)d allowed at this game size.",
                n,
            ),
        ),
        (
            "lord",
            counts["lord"],
            chart["lord"],
            "max",
            lambda n: ngettext(
                "The army has %(n)d Lord; %(limit)d allowed at this game size.",
                "The army has %(n)d Lords; %(limit)d allowed at this game size.",
                n,
            ),
        ),
        (
            "core",
            counts["core"],
            chart["core"],
            "min",
            lambda n: ngettext(
                "The army has %(n)d Core unit; at least %(limit)d needed at this game size.",
                "The army has %(n)d Core units; at least %(limit)d needed at this game size.",
                n,
            ),
        ),
        (
            "special",
            counts["special"],
            chart["special"],
            "max",
            lambda n: ngettext(
                "The army has %(n)d Special unit; %(limit)d allowed at this game size.",
                "The army has %(n)d Special units; %(limit)d allowed at this game size.",
                n,
            ),
        ),
        (
            "rare",
            counts["rare"],
            chart["rare"],
            "max",
            lambda n: ngettext(
                "The army has %(n)d Rare unit; %(limit)d allowed at this game size.",
                "The army has %(n)d Rare units; %(limit)d allowed at this game size.",
                n,
            ),
        ),
    )
    # Counted messages ("1 Lord", "2 Lords"; Polish, Czech and Russian have more forms).
    for key, n, limit, kind, message in checks:
        if (kind == "max" and n > limit) or (kind == "min" and n < limit):
            found.append(
                violation(
                    "slot_chart",
                    message(n) % {"n": n, "limit": limit},
                    check=f"{kind}_{key}",
                    value=n,
                    limit=limit,
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
    if rule_on(army, "magic_item_points"):
        found += magic_item_allowance_violations(army, MAGIC_ITEM_ALLOWANCE)
    if rule_on(army, "slot_chart"):
        found += slot_chart_violations(army)
    if rule_on(army, "unit_size"):
        found += unit_size_violations(army)
    if rule_on(army, "command"):
        found += command_violations(army)
    if rule_on(army, "item_restrictions"):
        found += item_restriction_violations(army, REQUIREMENT_WORDS)
    return found
