"""Items only one kind of model may carry ("Battle Standard Bearer only", "Army Battle
Standard only", "Warlord only", "may only be given to the army General").

An item names the rule its bearer needs in one of two ways:
- the structured field `requires_rule` (the bundled catalogues' `equipment.yaml` and the
  unit format's item): the name of the rule, e.g. "Battle Standard";
- the common wordings of imported data (BattleScribe catalogues put the restriction in the
  entry's name, "Spider Banner (Goblin BSB only)", or its text), read by `text_requirement`.

An item's kind can also say it: a magic banner (kind `banner`) is carried by a standard bearer
(docs/rules/whfb6.md §14: "magic banners only for standard bearers whom the army list allows"), so
a character carrying one needs the battle standard rule whatever the item's name says
(`KIND_REQUIREMENTS`; a unit's own standard bearer, not a character, is left to its army list).

Each system says which of its rules a wording means (`REQUIREMENT_WORDS` of its
composition module): "Battle Standard Bearer" is the rule "Battle Standard" in WHFB 6th and
"Army Battle Standard" in the Russian rules; "Warlord" is 40k's. A model breaks the
restriction when it carries the item without the rule; the violation names item and model.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from points.catalogue.army import army_models, violation
from points.catalogue.i18n import _

#: Who an item is for, as the wordings of imported data say it: (pattern, requirement key).
WORDINGS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\barmy\s+battle\s+standard(?:\s+bearer)?\s+only\b", re.I), "army_battle_standard"),
    (re.compile(r"\b(?:battle\s+standard(?:\s+bearer)?|bsb)\s+only\b", re.I), "battle_standard"),
    (re.compile(r"\bwarlord\s+only\b|\bonly\s+(?:be\s+)?(?:given\s+to|taken\s+by)\s+(?:your\s+|the\s+)?"
                r"warlord\b", re.I), "warlord"),
    (re.compile(r"\bgeneral\s+only\b|\bonly\s+(?:be\s+)?(?:given\s+to|taken\s+by)\s+(?:the\s+)?"
                r"(?:army\s+)?general\b", re.I), "general"),
)


#: Who an item is for, by its kind, when the bearer is a character: (kind, requirement key).
KIND_REQUIREMENTS: dict[str, str] = {"banner": "battle_standard"}


def text_requirement(text: str) -> str | None:
    """The requirement key an item's name or text states ("(Goblin BSB only)" → battle_standard)."""
    for pattern, key in WORDINGS:
        if pattern.search(text):
            return key
    return None


def _rules(model: Mapping[str, Any]) -> set[str]:
    return {str(rule).split("(")[0].strip().lower() for rule in model.get("rules") or []}


def required_rule(
    item: Mapping[str, Any], words: Mapping[str, str], model: Mapping[str, Any] | None = None
) -> str | None:
    """The rule the bearer of `item` needs: its `requires_rule`, else what its name, text or
    description says, else (on a character `model`) what its kind says, as this system names
    the rule (`words`: requirement key → rule)."""
    given = item.get("requires_rule")
    if given:
        return str(given)
    text = " ".join(str(item.get(key) or "") for key in ("name", "text", "description"))
    key = text_requirement(text)
    if key is None and model is not None and model.get("character"):
        key = KIND_REQUIREMENTS.get(str(item.get("kind") or "").lower())
    return words.get(key) if key else None


def item_restriction_violations(army: Mapping[str, Any], words: Mapping[str, str]) -> list[dict[str, Any]]:
    """Every item carried by a model without the rule it requires, naming item and model."""
    found = []
    for unit, model in army_models(army):
        have = _rules(model)
        for item in model.get("items") or []:
            if not isinstance(item, Mapping):
                continue
            rule = required_rule(item, words, model)
            if rule is None or rule.lower() in have:
                continue
            found.append(
                violation(
                    "item_restrictions",
                    _("%(model)s carries %(item)s, which only a model with “%(rule)s” may carry.")
                    % {"model": model.get("name", ""), "item": item.get("name", ""), "rule": _(rule)},
                    unit=str(unit.get("name", "")),
                    model=str(model.get("name", "")),
                )
            )
    return found
