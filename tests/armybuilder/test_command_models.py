"""Command models (champion, standard bearer, musician) carry the kit and rules of the models
they lead, in every view of a list (issue 43, item 6).

The bundled armies wrote each command model out in full and forgot parts of it: the Vellmark
Standard Bearer's spear had no Fight in Ranks, the knights' standard bearer had no hand
weapon, no armour and no Charge Only, the Kholm Desyatnik lost Fight in Extra Rank. They are
now written `like: <model>` (`rules.catalogue_files._Reader.added_model`); these tests read
the example Vellmark muster (spearmen with all three, knights with a standard) in the roster
page, its PDF, the text export, the editor and the game's rules reference."""

from __future__ import annotations

import io
import re
import subprocess

import pytest
import yaml
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from armybuilder.lists import selectors
from armybuilder.lists.examples import EXAMPLES_USERNAME
from armybuilder.models import ArmyList
from armybuilder.roster.cards import build_roster
from rules.catalogue_files import bundled_catalogue_dirs, read_catalogue
from tests.rules.test_catalogue_loader import data_dir, edit_yaml  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db

COMMAND_RULES = {"Champion", "Standard Bearer", "Musician"}


@pytest.fixture
def muster() -> ArmyList:
    call_command("load_catalogue", stdout=io.StringIO())
    call_command("load_example_lists", stdout=io.StringIO())
    return ArmyList.objects.select_related("system", "faction").get(
        owner__username=EXAMPLES_USERNAME, system__key="whfb6")


def test_every_bundled_command_model_carries_the_kit_and_rules_of_the_models_it_leads():
    plan = read_catalogue()
    checked = 0
    for faction in plan.factions:
        for unit in faction.units:
            led = unit.values["data"]["models"][0]
            for option in unit.options:
                model = option.values["payload"].get("model") or {}
                if not COMMAND_RULES & set(model.get("rules") or ()):
                    continue
                checked += 1
                where = f"{faction.slug}/{unit.slug}/{option.key}"
                assert model["weapons"] == led.get("weapons", []), where
                assert model.get("items") == led.get("items"), where
                assert set(led.get("rules") or ()) <= set(model["rules"]), where
                assert model.get("troop_type") == led.get("troop_type"), where
                assert model["count"] == 1 and model["points"] == led["points"], where
    assert checked == 18


def test_a_command_model_written_like_a_model_the_unit_lacks_is_refused(data_dir):  # noqa: F811
    from rules.catalogue_files import CatalogueFileError

    def misspell(data):
        option = next(o for u in data["units"] for o in u.get("options") or ()
                      if isinstance(o["payload"].get("model"), dict) and o["payload"]["model"].get("like"))
        option["payload"]["model"]["like"] = "Nobody"

    edit_yaml(data_dir / "whfb6" / "factions" / "vellmark-freeholds.yaml", misspell)
    with pytest.raises(CatalogueFileError, match="no model 'Nobody' in this unit"):
        read_catalogue(data_dir)


def test_no_bundled_command_model_is_written_out_in_full():
    """The data keeps no copy to drift: a command model names the model it is like."""
    for folder in bundled_catalogue_dirs().values():
        for file in sorted((folder / "factions").glob("*.yaml")):
            data = yaml.safe_load(file.read_text(encoding="utf-8"))
            for unit in data["units"]:
                for option in unit.get("options") or ():
                    model = (option.get("payload") or {}).get("model") or {}
                    if COMMAND_RULES & set(model.get("rules") or ()):
                        assert "like" in model and "weapons" not in model, (file.name, option["key"])


def _spearmen_and_knights(cards):
    spearmen = next(c for c in cards if c.name == "Freeholder Spearmen")
    knights = next(c for c in cards if c.name == "Knights of the Ashen Vow")
    return spearmen, knights


def test_the_roster_cards_give_command_models_the_units_weapons_and_rules(muster):
    units = selectors.army_list_units(army_list=muster)
    spearmen, knights = _spearmen_and_knights(build_roster(army_list=muster, units=units).cards)
    rows = {row.name: row for row in spearmen.profiles}
    assert rows["Sergeant"].rules == ["Champion"] and rows["Sergeant"].count == 1
    assert rows["Standard Bearer"].rules == ["Standard Bearer"]
    assert rows["Musician"].rules == ["Musician"]
    [spear] = spearmen.weapons  # one line: every model's spear is the same spear
    assert (spear.name, spear.count, spear.rules) == ("Spear", 23, ["Fight in Ranks"])
    for name in ("Sergeant", "Standard Bearer", "Musician"):
        assert f"{name}: Shield" in spearmen.extras and f"{name}: Light Armour" in spearmen.extras
    lines = {(w.name, w.count, tuple(w.rules)) for w in knights.weapons}
    assert lines == {("Lance", 7, ("Charge Only",)), ("Hand weapon", 7, ())}
    assert {"Standard Bearer: Heavy Armour", "Standard Bearer: Barding"} <= set(knights.extras)


def test_the_roster_page_and_the_text_export_show_them(muster):
    client = Client()
    page = client.get(reverse("lists:roster", args=[muster.pk])).content.decode()
    assert re.search(r"Sergeant</t[hd]>.*?Champion", page, re.S)
    assert "Standard Bearer: Heavy Armour" in page
    text = client.get(reverse("lists:roster_text", args=[muster.pk])).content.decode()
    assert "23x Spear" in text and "7x Lance, 7x Hand weapon" in text
    assert re.search(r"Sergeant ×1: .*A2", text)


def test_the_editor_shows_each_command_models_weapons_in_the_units_row(muster):
    client = Client()
    client.force_login(muster.owner)
    page = client.get(reverse("lists:detail", args=[muster.pk])).content.decode()
    assert "23x Spear" in page and "7x Lance, 7x Hand weapon" in page


@pytest.mark.usefixtures("inline_pdf_renders")
def test_the_pdf_prints_them(muster, tmp_path):
    response = Client().get(reverse("lists:roster_pdf", args=[muster.pk]))
    assert response.status_code == 200
    pdf = tmp_path / "roster.pdf"
    pdf.write_bytes(response.content)
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True,
                          check=True).stdout
    assert re.search(r"Spear\s+23\b.*Fight in Ranks", text)
    assert re.search(r"Lance\s+7\b.*Charge Only", text)
    assert "Standard Bearer: Heavy Armour" in text
