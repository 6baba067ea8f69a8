"""A card's column headings and cells as a player reads them (`rules.unit_cards`)."""

from __future__ import annotations

from django.utils import translation

from rules.unit_cards import Column, _column, cell, column_heading


def test_a_heading_a_language_abbreviates_keeps_its_full_word_as_the_title():
    """"Дистанция", "Пробивание" as headings pushed a phone's card past the screen."""
    with translation.override("ru"):
        column = _column("range", {"title": "Range"})
        assert (column.short, column.title) == ("Дист.", "Дистанция")
        assert column_heading("Rend") == "Проб."
        assert column_heading("WS") == "WS"  # not abbreviated: its own translation
    with translation.override("en"):
        assert _column("range", {"title": "Range"}).short == "Range"


def test_an_effect_written_for_the_engines_is_not_printed_in_a_cell():
    """A 40k weapon's abilities are its text and, beside it, the effect the engines read."""
    text = "When the bearer fights, it makes 1 additional attack with this weapon."
    value = [text, {"type": "extra_attacks", "value": 1}]
    assert cell(value, Column("abilities", "Abilities", "Abilities")) == text
