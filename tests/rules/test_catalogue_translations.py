"""The bundled sample armies in the reader's language: every faction, unit and option text of
our own armies has Polish, Czech and Russian beside the English one (`translations` in each
faction file, `Faction.in_reader_language`); lists, exports and the API keep the English."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
import yaml
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import translation

from armybuilder.lists import selectors
from armybuilder.lists.examples import EXAMPLES_USERNAME
from armybuilder.models import ArmyList
from armybuilder.roster.cards import build_roster
from rules.catalogue_files import bundled_catalogue_dirs, translatable_texts
from rules.models import Faction
from tests.rules.test_catalogue_loader import data_dir, edit_yaml, load  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db

LANGUAGES = ("pl", "cs", "ru")


def _faction_files():
    for folder in bundled_catalogue_dirs().values():
        for file in sorted((folder / "factions").glob("*.yaml")):
            yield file, yaml.safe_load(file.read_text(encoding="utf-8"))


def _equipment(file: Path) -> dict:
    """The system's equipment by slug, for the items a faction file's options add by slug."""
    path = file.parent.parent / "equipment.yaml"
    items = yaml.safe_load(path.read_text(encoding="utf-8"))["equipment"] if path.exists() else []
    return {item["slug"]: item for item in items}


def test_every_bundled_faction_unit_option_model_weapon_and_item_text_is_translated():
    """Every text a player reads of our own armies (`catalogue_files.translatable_texts`: the
    faction's, units' and options' texts and, since issue 43, the names of models, weapons and
    items) has Polish, Czech and Russian beside the English."""
    untranslated = []
    for file, data in _faction_files():
        translations = data.get("translations") or {}
        untranslated += [
            f"{file.name}: {text} [{language}]"
            for text in sorted(translatable_texts(data, _equipment(file))) for language in LANGUAGES
            if not (translations.get(text) or {}).get(language)
        ]
    assert untranslated == []


def test_model_and_weapon_names_are_among_the_texts_to_translate():
    [(_, concord)] = [(f, d) for f, d in _faction_files() if f.name == "ashen-concord.yaml"]
    texts = translatable_texts(concord)
    assert {"Warden", "Warden Sergeant", "Ash Rifle", "Pyre Thrower", "Magma Gun"} <= texts
    [(_, vellmark)] = [(f, d) for f, d in _faction_files() if f.name == "vellmark-freeholds.yaml"]
    assert {"Sergeant", "Spearman", "Spear", "Light Armour", "Barded Destrier"} <= (
        translatable_texts(vellmark)
    )


def test_an_item_an_option_adds_by_its_slug_is_among_the_texts_to_translate():
    """A Russian roster printed "Heavy Armour" among "Лёгкая броня" and "Щит": the item an
    option adds by its slug in the system's equipment was not a text of the faction file."""
    [(file, ashfang)] = [(f, d) for f, d in _faction_files() if f.name == "ashfang-horde.yaml"]
    assert "Heavy Armour" not in translatable_texts(ashfang)
    assert "Heavy Armour" in translatable_texts(ashfang, _equipment(file))


def test_no_bundled_translation_is_of_a_text_its_file_no_longer_has():
    """A stale key (a unit renamed, an option removed) would be dropped by the loader; the
    bundled files keep none."""
    stale = []
    for file, data in _faction_files():
        texts = translatable_texts(data, _equipment(file))
        stale += [f"{file.name}: {key}" for key in data.get("translations") or {} if key not in texts]
    assert stale == []


def test_a_translation_of_a_text_the_file_no_longer_has_is_left_out(data_dir: Path):  # noqa: F811
    faction = data_dir / "opr" / "factions" / "ashen-concord.yaml"
    edit_yaml(faction, lambda d: d["translations"].update({"Concord Wardenz": {"pl": "Strażnicy"}}))
    load(data_dir)
    translations = Faction.objects.get(system__key="opr", slug="ashen-concord").translations
    assert "Concord Wardenz" not in translations
    assert translations["Concord Wardens"]["pl"] == "Strażnicy Konkordatu"


def test_a_faction_speaks_the_readers_language_and_keeps_its_english():
    load()
    concord = Faction.objects.get(system__key="opr", slug="ashen-concord")
    with translation.override("pl"):
        assert concord.shown_name == "Popielny Konkordat"
        assert concord.in_reader_language("Special weapons") == "Broń specjalna"
        assert concord.in_reader_language("Something a player wrote") == "Something a player wrote"
    with translation.override("ru"):
        assert concord.in_reader_language("Concord Wardens") == "Стражи Конкордата"
    with translation.override("cs"):
        # A profile an option split off is translated part by part.
        assert concord.in_reader_language("Warden (Pyre Thrower)") == "Strážce (Hranicomet)"
        assert concord.in_reader_language("Warden (Something else)") == "Strážce (Something else)"
    with translation.override("en"):
        assert concord.shown_name == concord.name == "Ashen Concord"
        assert concord.in_reader_language("Warden (Pyre Thrower)") == "Warden (Pyre Thrower)"
    homebrew = Faction(name="Ashen Concord", translations={})
    with translation.override("pl"):
        assert homebrew.shown_name == "Ashen Concord"


@pytest.mark.parametrize(("language", "faction", "unit", "option"), [
    ("pl", "Popielny Konkordat", "Strażnicy Konkordatu", "Broń specjalna"),
    ("cs", "Popelavý konkordát", "Strážci konkordátu", "Speciální zbraně"),
    ("ru", "Пепельный Конкордат", "Стражи Конкордата", "Особое оружие"),
    ("en", "Ashen Concord", "Concord Wardens", "Special weapons"),
])
def test_the_catalogue_shows_the_sample_army_in_the_readers_language(language, faction, unit, option):
    load()
    page = Client().get("/catalogue/opr/ashen-concord/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert f"<h1>{faction}</h1>" in page
    assert f">{unit}</a></h3>" in page
    assert f'<span class="option-group">({option})</span>' in page
    system = Client().get("/catalogue/opr/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert f">{faction}</a>" in system


def test_the_editor_and_the_roster_translate_while_the_list_keeps_english_names():
    call_command("load_catalogue", stdout=io.StringIO())
    call_command("load_example_lists", stdout=io.StringIO())
    army_list = ArmyList.objects.select_related("system", "faction").get(
        owner__username=EXAMPLES_USERNAME, system__key="whfb6")
    units = selectors.army_list_units(army_list=army_list)
    with translation.override("cs"):
        roster = build_roster(army_list=army_list, units=units)
        assert roster.cards[0].name == "Markrabě Vellmarku"
        assert "Generál armády" in roster.cards[0].upgrades
    with translation.override("en"):
        assert build_roster(army_list=army_list, units=units).cards[0].name == "Margrave of the Vellmark"
    assert units[0].name == "Margrave of the Vellmark"
    roster_url = reverse("lists:roster", args=[army_list.pk])
    page = Client().get(roster_url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Маркграф Вельмарка" in page and "Вольные владения Вельмарка" in page
    exported = Client().get(reverse("lists:export_json", args=[army_list.pk]), HTTP_ACCEPT_LANGUAGE="ru")
    assert exported.status_code == 200
    assert "Margrave of the Vellmark" in exported.content.decode()
    assert "Маркграф" not in exported.content.decode()


@pytest.mark.parametrize(("language", "spearman", "spear", "armour"), [
    ("pl", "Włócznik", "Włócznia", "Lekki pancerz"),
    ("cs", "Kopiník", "Kopí", "Lehká zbroj"),
    ("ru", "Копейщик", "Копьё", "Лёгкая броня"),
])
def test_the_roster_and_the_editor_name_models_and_weapons_in_the_readers_language(
    language, spearman, spear, armour
):
    """Issue 43, item 10: the sample armies' model and weapon names were English in pl/cs/ru.
    The text export, which the importer reads back, keeps the English."""
    call_command("load_catalogue", stdout=io.StringIO())
    call_command("load_example_lists", stdout=io.StringIO())
    army_list = ArmyList.objects.select_related("system", "faction").get(
        owner__username=EXAMPLES_USERNAME, system__key="whfb6")
    units = selectors.army_list_units(army_list=army_list)
    with translation.override(language):
        card = next(c for c in build_roster(army_list=army_list, units=units).cards
                    if c.name == army_list.faction.in_reader_language("Freeholder Spearmen"))
    assert spearman in [row.name for row in card.profiles]
    assert [row.name for row in card.weapons] == [spear]
    assert f"{spearman}: {armour}" in card.extras
    client = Client()
    roster = client.get(reverse("lists:roster", args=[army_list.pk]), HTTP_ACCEPT_LANGUAGE=language)
    assert f">{spearman}</th>" in roster.content.decode()
    client.force_login(army_list.owner)
    editor = client.get(reverse("lists:detail", args=[army_list.pk]), HTTP_ACCEPT_LANGUAGE=language)
    assert f"23x {spear}" in editor.content.decode()
    text = client.get(reverse("lists:roster_text", args=[army_list.pk]), HTTP_ACCEPT_LANGUAGE=language)
    assert "23x Spear" in text.content.decode() and spear not in text.content.decode()


@pytest.mark.parametrize(("language", "warden", "rifle"), [
    ("pl", "Strażnik", "Popielny Karabin"), ("cs", "Strážce", "Popelavá puška"),
    ("ru", "Страж", "Пепельная винтовка"),
])
def test_the_catalogue_card_names_models_and_weapons_in_the_readers_language(language, warden, rifle):
    load()
    page = Client().get("/catalogue/opr/ashen-concord/concord-wardens/", HTTP_ACCEPT_LANGUAGE=language)
    html = page.content.decode()
    assert f'<th scope="row">{warden}</th>' in html and f'<th scope="row">{rifle}</th>' in html
