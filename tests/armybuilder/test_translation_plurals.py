"""Counted words take the right plural form in each language (issue 14, point 1).

Polish, Czech and Russian have three forms where English has two ("1 jednostka, 2
jednostki, 5 jednostek"), and 22 and 25 fall into different forms again. Rendered through
the real templates and the real catalogues.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.html import strip_tags

COUNTS = (1, 2, 5, 22, 25)
UNITS = {
    "en": ["1 unit", "2 units", "5 units", "22 units", "25 units"],
    "pl": ["1 jednostka", "2 jednostki", "5 jednostek", "22 jednostki", "25 jednostek"],
    "cs": ["1 jednotka", "2 jednotky", "5 jednotek", "22 jednotek", "25 jednotek"],
    "ru": ["1 отряд", "2 отряда", "5 отрядов", "22 отряда", "25 отрядов"],
}
RULES_BROKEN = {
    # The words Polish players use (issue 30): "błędy w rozpisce", errors in the list.
    "pl": ["1 błąd w rozpisce", "2 błędy w rozpisce", "5 błędów w rozpisce", "22 błędy w rozpisce",
           "25 błędów w rozpisce"],
    "cs": ["1 porušené pravidlo", "2 porušená pravidla", "5 porušených pravidel", "22 porušených pravidel",
           "25 porušených pravidel"],
    "ru": ["1 нарушенное правило", "2 нарушенных правила", "5 нарушенных правил", "22 нарушенных правила",
           "25 нарушенных правил"],
}
MODELS = {
    "pl": ["1 model", "2 modele", "5 modeli", "22 modele", "25 modeli"],
    "cs": ["1 model", "2 modely", "5 modelů", "22 modelů", "25 modelů"],
    "ru": ["1 модель", "2 модели", "5 моделей", "22 модели", "25 моделей"],
}


def summary(count: int, language: str) -> dict[str, str]:
    """The list editor's summary panel for a list of `count` units breaking `count` rules."""
    army_list = SimpleNamespace(
        version=1, total_points=1500, points_limit=2000, points_over=0, points_left=500, unit_count=count,
        violation_count=count, violations=[{"rule": "x", "message": "…"}] * count,
        system=SimpleNamespace(key="opr"),  # a system without army-wide figures besides points
        faction_id=None,  # no faction whose names the messages would translate
    )
    with translation.override(language):
        html = render_to_string("armybuilder/_list_summary.html", {"army_list": army_list})
    units = html.split('<p class="summary-units">', 1)[1].split("</p>", 1)[0]
    broken = html.split('id="violations-heading">', 1)[1].split("</h3>", 1)[0]
    # "1500 of 2000 points · 5 units": the count is the part after the dot.
    return {"units": strip_tags(units).split("·")[-1].strip(), "broken": strip_tags(broken).strip()}


@pytest.mark.parametrize("language", ["en", "pl", "cs", "ru"])
def test_unit_counts_on_the_list_editor_take_the_languages_plural_forms(language):
    assert [summary(n, language)["units"] for n in COUNTS] == UNITS[language]


@pytest.mark.parametrize("language", ["pl", "cs", "ru"])
def test_broken_rules_take_the_languages_plural_forms(language):
    assert [summary(n, language)["broken"] for n in COUNTS] == RULES_BROKEN[language]


@pytest.mark.parametrize("language", ["pl", "cs", "ru"])
def test_model_counts_of_catalogue_cards_take_the_languages_plural_forms(language):
    with translation.override(language):
        shown = [translation.ngettext("%(n)s model", "%(n)s models", n) % {"n": n} for n in COUNTS]
    assert shown == MODELS[language]


@pytest.mark.parametrize(("language", "count", "expected"), [
    ("pl", 22, "Rozpiska i jej 22 jednostki (1500 pkt) zostaną usunięte. Tego nie da się cofnąć."),
    ("cs", 25, "Soupiska a jejích 25 jednotek (1500 b.) budou smazány. Nelze to vrátit."),
    ("ru", 21, "Ростер и его 21 отряд (1500 очк.) будут удалены. Это нельзя отменить."),
])
def test_the_delete_confirmation_counts_units_in_the_players_language(language, count, expected):
    with translation.override(language):
        text = translation.ngettext(
            "The list and its %(counter)s unit (%(points)s points) will be deleted. This cannot be undone.",
            "The list and its %(counter)s units (%(points)s points) will be deleted. This cannot be undone.",
            count,
        ) % {"counter": count, "points": 1500}
    assert text == expected
