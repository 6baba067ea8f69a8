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
from rules.catalogue_files import bundled_catalogue_dirs, read_catalogue
from rules.models import Faction
from tests.rules.test_catalogue_loader import data_dir, edit_yaml, load  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db

LANGUAGES = ("pl", "cs", "ru")


def test_every_bundled_faction_unit_and_option_text_is_translated():
    plan = read_catalogue()
    untranslated = []
    for faction in plan.factions:
        texts = {faction.values["name"]}
        for unit in faction.units:
            texts.add(unit.values["name"])
            for option in unit.options:
                texts.update(t for t in (option.values["label"], option.values.get("group")) if t)
        translations = faction.values["translations"]
        untranslated += [
            f"{faction.system_key}/{faction.slug}: {text} [{language}]"
            for text in sorted(texts) for language in LANGUAGES
            if not translations.get(text, {}).get(language)
        ]
    assert untranslated == []


def test_no_bundled_translation_is_of_a_text_its_file_no_longer_has():
    """A stale key (a unit renamed, an option removed) would be dropped by the loader; the
    bundled files keep none."""
    stale = []
    for folder in bundled_catalogue_dirs().values():
        for file in sorted((folder / "factions").glob("*.yaml")):
            data = yaml.safe_load(file.read_text(encoding="utf-8"))
            texts = {data["faction"]["name"]}
            for unit in data["units"]:
                texts.add(unit["name"])
                texts.update(o[k] for o in unit.get("options") or () for k in ("label", "group") if o.get(k))
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
    with translation.override("en"):
        assert concord.shown_name == concord.name == "Ashen Concord"
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
