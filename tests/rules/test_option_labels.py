"""An add-models option's label the BattleScribe importer writes ("Add Burna Boy (up to 14)") is
our sentence, not the data's: the unit page and the API show it in the reader's language, made
from the parts the importer keeps in the option's payload (`rules.option_labels`). A label stored
without them (every other option, units imported before) is shown as written.

The catalogue is the hand-written one of `tests/rules/battlescribe/units/test_sizes.py`: its
"Burnas" mob (a group of 5 to 15, a Burna Boy without a maximum of its own) takes 4 Burna Boys
and a Spanner, and offers Burna Boys up to 14 (15 less the Spanner)."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import translation
from rest_framework.test import APIClient

from rules.battlescribe.xml_reader import SourceFile
from rules.battlescribe_import import import_files
from rules.models import UnitTemplate
from rules.option_labels import option_label
from tests.rules.battlescribe.files import source
from tests.rules.battlescribe.units.test_sizes import SQUAD

#: The Burna Boys' option at 14, in each language (14: Polish and Russian "many", Czech "many").
SHOWN = {
    "en": "Add Burna Boy (up to 14)",
    "pl": "Dodaj: Burna Boy (do 14 modeli)",
    "cs": "Přidat: Burna Boy (až 14 modelů)",
    "ru": "Добавить: Burna Boy (до 14 моделей)",
}


@pytest.fixture
def burnas(db: None) -> UnitTemplate:
    call_command("load_catalogue", verbosity=0)
    files = [source("grimdark.gst"), SourceFile("vets.cat", SQUAD.encode())]
    faction = import_files(system_key="wh40k9", files=files).factions[0]
    return UnitTemplate.objects.get(faction=faction, name="Burnas")


@pytest.mark.parametrize("language", sorted(SHOWN))
def test_the_unit_page_and_the_api_show_a_generated_label_in_the_readers_language(burnas, language):
    option = burnas.options.get(applies_to="Burna Boy", kind="add_models")
    assert option.label == SHOWN["en"]  # stored in English: lists and the text export read it
    faction = burnas.faction
    page = Client().get(
        f"/catalogue/{faction.system.key}/{faction.slug}/{burnas.slug}/", HTTP_ACCEPT_LANGUAGE=language
    )
    assert page.status_code == 200
    assert f'<span class="option-label">{SHOWN[language]}</span>' in page.content.decode()
    api = APIClient().get(f"/api/v1/units/{burnas.pk}", HTTP_ACCEPT_LANGUAGE=language)
    assert api.status_code == 200
    labels = {o["key"]: o["label"] for o in api.json()["options"]}
    assert labels[option.key] == SHOWN[language]


@pytest.mark.parametrize(
    ("language", "per", "up_to", "shown"),
    [
        ("pl", 5, 15, "Dodaj 5× Bestigors (do 15 modeli)"),
        ("cs", 1, 3, "Přidat: Bestigors (až 3 modely)"),
        ("ru", 1, 21, "Добавить: Bestigors (до 21 модели)"),
        ("ru", 10, 30, "Добавить 10× Bestigors (до 30 моделей)"),
        ("en", 10, 30, "Add 10 Bestigors (up to 30)"),
    ],
)
def test_a_generated_label_takes_the_plural_form_of_its_count(language, per, up_to, shown):
    option = {
        "kind": "add_models",
        "label": "as imported",
        "payload": {"count": per, "label_parts": {"model": "Bestigors", "per": per, "up_to": up_to}},
    }
    with translation.override(language):
        assert option_label(option) == shown


def test_a_label_stored_without_its_parts_is_shown_as_written():
    """A unit imported before the parts were written keeps its English label."""
    option = {"kind": "add_models", "label": "Add Orc Boyz (up to 110)", "payload": {"count": 1}}
    with translation.override("ru"):
        assert option_label(option) == "Add Orc Boyz (up to 110)"
