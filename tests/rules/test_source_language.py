"""Catalogue data in the language of its source (issue 14, point 2).

Each system's rules keep the names and texts of the rulebook they come from: the OPR seed
is Polish, so a Polish player reads "Nieustraszony" and its Polish text where everyone
else reads "Fearless" and the English summary (marked `lang="en"` on a page in another
language). The texts are bundled in `rules.source-language.yaml` beside `rules.yaml`.
"""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest
import yaml
from django.core.management import CommandError, call_command
from django.test import Client
from django.utils import translation

from rules.catalogue_files import SOURCE_TEXTS_FILE, bundled_catalogue_dirs
from rules.models import SpecialRule
from rules.source_language import localized_breakdown, rule_display_name, term_name
from rules.systems.registry import all_systems

pytestmark = pytest.mark.django_db


def copy_bundled_catalogue(target: Path) -> None:
    """Every system's bundled catalogue as one folder of `<system key>/` sub-folders."""
    for key, folder in bundled_catalogue_dirs().items():
        shutil.copytree(folder, target / key)

FEARLESS_PL = "Gdy oddział po otrzymaniu ran musi wykonać testy morale, wykonuje o jeden test mniej."
FEARLESS_EN = "When the unit has to take morale tests after taking wounds, it takes one test fewer."


def load(data_dir: Path | None = None) -> None:
    call_command("load_catalogue", *(["--data-dir", str(data_dir)] if data_dir else []), stdout=io.StringIO())


def test_every_system_bundles_a_text_in_its_source_language_for_every_rule():
    load()
    for system in all_systems():
        rules = SpecialRule.objects.filter(system__key=system.key)
        assert rules.exists()
        assert list(rules.filter(source_text="").values_list("key", flat=True)) == [], system.key
    assert SpecialRule.objects.get(system__key="opr", key="fearless").source_text == FEARLESS_PL
    assert SpecialRule.objects.get(system__key="ru_whfb", key="extra-attack").source_text == "+1 Атака."


def test_a_text_for_an_unknown_rule_or_in_the_wrong_language_is_refused(tmp_path):
    data_dir = tmp_path / "catalogue"
    copy_bundled_catalogue(data_dir)
    texts = data_dir / "opr" / SOURCE_TEXTS_FILE
    data = yaml.safe_load(texts.read_text(encoding="utf-8"))
    data["language"] = "cs"
    data["texts"]["no-such-rule"] = "Tekst."
    texts.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    with pytest.raises(CommandError) as caught:
        load(data_dir)
    assert "opr/rules.source-language.yaml: language: is 'cs'; the system's source language is 'pl'" in str(
        caught.value)
    assert "texts.no-such-rule: no rule with the key 'no-such-rule' in rules.yaml" in str(caught.value)


@pytest.mark.parametrize(("language", "name", "text", "marked"), [
    ("pl", "Nieustraszony", FEARLESS_PL, False),
    ("cs", "Fearless", FEARLESS_EN, True),
    ("en", "Fearless", FEARLESS_EN, False),
])
def test_a_unit_card_shows_rules_in_the_source_language_to_its_players(language, name, text, marked):
    load()
    page = Client().get("/catalogue/opr/ashen-concord/ashguard-veterans/", HTTP_ACCEPT_LANGUAGE=language)
    body = page.content.decode()
    assert f'">{name}<span class="rule-text"' in body
    assert (f'<span lang="en">{text}</span>' in body) is marked
    assert text in body


def test_rule_names_keep_their_value_in_the_source_language():
    load()
    fear = SpecialRule.objects.select_related("system").get(system__key="opr", key="fear")
    with translation.override("pl"):
        assert rule_display_name("Fear(2)", fear, source_language="pl") == "Strach(2)"
    with translation.override("ru"):
        assert rule_display_name("Fear(2)", fear, source_language="pl") == "Fear(2)"
    names = {"Rending": "Rozrywający", "Blast": "Rozprysk", "Lock-On": "Namierzanie"}
    assert [term_name(t, names) for t in ("Rending", "Blast(3)", "Rending (Lock-On)", "7 - Q", "AP 1")] == [
        "Rozrywający", "Rozprysk(3)", "Rozrywający(Namierzanie)", "7 - Q", "AP 1"]


def test_a_breakdown_shows_decimals_and_rule_terms_in_the_readers_language():
    load()
    from rules.models import GameSystem

    opr = GameSystem.objects.get(key="opr")
    breakdown = {"points": 12, "exact": "12.05", "models": [{
        "name": "Rending", "base_cost": "6.65",
        "weapons": [{"name": "Blade 1.5", "hit_terms": [{"name": "Rending", "value": "0.5"}]}],
    }]}
    with translation.override("pl"):
        shown = localized_breakdown(breakdown, system=opr)
    assert shown == {"points": 12, "exact": "12,05", "models": [{
        "name": "Rending", "base_cost": "6,65",
        "weapons": [{"name": "Blade 1.5", "hit_terms": [{"name": "Rozrywający", "value": "0,5"}]}],
    }]}
    with translation.override("cs"):
        assert localized_breakdown(breakdown, system=opr)["models"][0]["weapons"][0]["hit_terms"] == [
            {"name": "Rending", "value": "0,5"}]
    with translation.override("en"):
        assert localized_breakdown(breakdown, system=opr) == breakdown
