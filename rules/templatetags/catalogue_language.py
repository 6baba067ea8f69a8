"""Template filters that show catalogue data in the player's language (`rules.source_language`)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils import translation
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from rules import source_language
from rules.source_language import decimal_text, rule_display_name

register = template.Library()


@register.filter
def rule_shown(ref: Any) -> str:
    """A unit's rule reference (`rules.unit_cards.RuleRef`) as the player reads it: the
    source-language name when they read the system's source language, else as written."""
    rule = getattr(ref, "rule", None)
    written = str(getattr(ref, "written", ref))
    if rule is None:
        return written
    return rule_display_name(written, rule, source_language=rule.system.source_language)


@register.filter
def rule_name(rule: Any) -> str:
    """A catalogue rule's name in the reader's language where the source has it."""
    return source_language.rule_name(rule)


@register.filter
def rule_other_name(rule: Any) -> str:
    """The rule's name in the other language (English beside the source name for the
    source's readers, the source name beside the English for everyone else), or ""."""
    shown = source_language.rule_name(rule)
    other = rule.name if shown != rule.name else rule.source_name
    return other if other and other != shown else ""


@register.filter
def rule_other_name_lang(rule: Any) -> str:
    """The language of `rule_other_name`."""
    return "en" if source_language.rule_name(rule) != rule.name else rule.system.source_language


@register.filter
def rule_text(rule: Any) -> str:
    """A catalogue rule's text in the reader's language where the source has it, else English."""
    return source_language.rule_text(rule)


@register.filter
def rule_text_lang(rule: Any) -> str:
    """The language of `rule_text` (for the `lang` attribute of the element holding it)."""
    return source_language.rule_text_language(rule)


@register.filter
def lang_attr(language: str) -> SafeString:
    """` lang="en"` when `language` is not the page's (screen readers switch voice, and the
    i18n browser test knows the text is meant to be in another language); else nothing."""
    current = (translation.get_language() or "").split("-")[0]
    if not language or language.split("-")[0] == current:
        return mark_safe("")
    return format_html(' lang="{}"', language)


@register.filter
def choice_label(choice: Any) -> Any:
    """An enum value of a profile field as the player reads it ("melee" → "walka wręcz");
    numbers and unknown words unchanged (the option's value stays the machine word)."""
    return translation.gettext(choice) if isinstance(choice, str) and choice else choice


@register.filter
def exact(value: Any) -> str:
    """An engine decimal string ("1.25") with the locale's decimal separator."""
    return decimal_text(str(value))


@register.filter
def in_faction_language(text: Any, faction: Any) -> Any:
    """A unit's name, an option's label or group of `faction` in the reader's language where
    the bundled catalogue translates it (`Faction.in_reader_language`); else as written."""
    if faction is None or not text or not hasattr(faction, "in_reader_language"):
        return text
    return faction.in_reader_language(str(text))
