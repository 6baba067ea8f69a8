"""Catalogue data in the player's own language where the source has it.

Each game system was written in one language (`GameSystem.source_language`: the OPR and
Age of Sigmar seeds are Polish, the Warhammer Fantasy and 40k seeds Czech, the house rules
Russian) and every special rule keeps the source's name beside the project's English one
(`SpecialRule.source_name`). A player whose interface language is the system's source
language reads the rules under the names of their own rulebook ("Rozrywający", not
"Rending") and their texts in that language (`SpecialRule.source_text`, bundled in each
system's `rules.source-language.yaml`); everyone else reads the English names and texts,
which templates mark `lang="en"` when the page is in another language.

These helpers run at the display edge (views, template filters, roster building), in the
language of the current request.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django.utils import formats, translation

from rules.models import GameSystem, SpecialRule
from rules.selectors import rule_base_name

#: "Blast(3)", "Fear (2)", "Rending (Lock-On)": a name, then a parenthesised value or qualifier.
_QUALIFIED = re.compile(r"^(?P<name>.+?)\s*\((?P<inner>[^()]*)\)$")


def reads_source_language(source_language: str) -> bool:
    """Whether the current request's language is `source_language` (so source names are shown)."""
    current = (translation.get_language() or "").split("-")[0]
    return bool(source_language) and current == source_language.split("-")[0]


def rule_display_name(written: str, rule: SpecialRule | None, *, source_language: str) -> str:
    """The rule as the player should read it: `written` ("Fear(2)"), or its source-language
    name with the same value ("Strach(2)") when the player reads the source language."""
    if rule is None or not rule.source_name or not reads_source_language(source_language):
        return written
    base = rule_base_name(written)
    suffix = written.strip()[len(base):] if written.strip().startswith(base) else ""
    return f"{rule.source_name}{suffix}"


def rule_name(rule: SpecialRule) -> str:
    """A catalogue rule's name for the current reader (source-language name or English)."""
    if rule.source_name and reads_source_language(rule.system.source_language):
        return rule.source_name
    return rule.name


def rule_text_language(rule: SpecialRule) -> str:
    """The language `rule_text` is written in: the source language or English."""
    if rule.source_text and reads_source_language(rule.system.source_language):
        return rule.system.source_language
    return "en"


def rule_text(rule: SpecialRule) -> str:
    """A catalogue rule's text for the current reader (source-language text or English)."""
    return rule.source_text if rule_text_language(rule) != "en" else rule.text


def source_names(*, system: GameSystem) -> dict[str, str]:
    """English rule name → source-language name, when the current language is the system's
    source language; empty otherwise (one query, only then)."""
    if not reads_source_language(system.source_language):
        return {}
    rules = SpecialRule.objects.filter(system=system).exclude(source_name="")
    return dict(rules.values_list("name", "source_name"))


def term_name(name: str, names: Mapping[str, str]) -> str:
    """A points-breakdown term ("Rending", "Blast(3)", "Rending (Lock-On)") with its rule
    names in the source language; other terms ("7 - Q", "AP 1") unchanged."""
    if not names:
        return name
    if name in names:
        return names[name]
    match = _QUALIFIED.match(name)
    if match:
        inner = match.group("inner")
        return f"{names.get(match.group('name'), match.group('name'))}({names.get(inner, inner)})"
    return name


def decimal_text(value: str) -> str:
    """An engine decimal string ("199.728") with the locale's decimal separator ("199,728"
    in Polish, Czech and Russian); fractions ("29/3") and other text unchanged."""
    if _DECIMAL.match(value):
        return value.replace(".", formats.get_format("DECIMAL_SEPARATOR"))
    return value


def localized_breakdown(breakdown: Any, *, system: GameSystem) -> Any:
    """A points breakdown (the engine's dict) ready to show in the request's language:
    decimals with the locale's separator, and the terms named after rules under their
    source-language names where the player reads that language. Model and weapon names
    are the player's own and stay as written."""
    if not isinstance(breakdown, Mapping):
        return breakdown
    return _localize(breakdown, source_names(system=system), term_list=False)


#: Keys of the breakdown whose items are named terms (rules, rows, multipliers, abilities).
_TERM_LISTS = frozenset({"multiplier_terms", "rows", "hit_terms", "ap_terms", "multipliers", "abilities"})
_DECIMAL = re.compile(r"^-?\d+\.\d+$")


def _localize(node: Any, names: Mapping[str, str], *, term_list: bool) -> Any:
    if isinstance(node, Mapping):
        out = {}
        for key, value in node.items():
            if key == "name" and term_list and isinstance(value, str):
                out[key] = term_name(value, names)
            elif key == "name":
                out[key] = value
            else:
                out[key] = _localize(value, names, term_list=key in _TERM_LISTS)
        return out
    if isinstance(node, list):
        return [_localize(item, names, term_list=term_list) for item in node]
    if isinstance(node, str):
        return decimal_text(node)
    return node
