"""An estimate's result page names a bundled army's units, models and weapons in the reader's
language (issue 43, item 10): the job stores the engine's names, in English, and the page
reads them through the attacker's faction (`describe.reader_factions`)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from armybuilder.estimates.describe import reader_factions
from armybuilder.estimates.models import Estimate
from armybuilder.estimates.tasks import run_estimate
from rules.models import Faction, UnitTemplate
from tests.factories.army_lists import make_faction, make_user
from tests.factories.estimate_lists import army_list_of, catalogue_unit
from tests.factories.opr_documents import LAUNCHER, RIFLE, opr_unit

pytestmark = pytest.mark.django_db

NEW = reverse("estimates:new")
SITUATION = {"mode": "shooting", "range_inches": "18", "target": "ref:infantry-10"}
POLISH = {"Veterans": {"pl": "Weterani"}, "Veteran": {"pl": "Weteran"}, "Rifle": {"pl": "Karabin"},
          "Launcher": {"pl": "Wyrzutnia"}}


@pytest.fixture
def translated(faction: Faction) -> Faction:
    faction.translations = POLISH
    faction.save(update_fields=["translations"])
    return faction


@pytest.fixture
def veterans(translated: Faction) -> UnitTemplate:
    return catalogue_unit(translated,
                          opr_unit("Veterans", count=5, model_name="Veteran", weapons=[RIFLE, LAUNCHER]))


def finished(client: Any, unit: UnitTemplate) -> Estimate:
    response = client.post(f"{NEW}?unit={unit.pk}", SITUATION)
    assert response.status_code == 302, response.content.decode()[:2000]
    estimate = Estimate.objects.get(pk=re.search(r"/estimates/([0-9a-f-]{36})/$", response["Location"])[1])
    run_estimate(str(estimate.pk))
    return estimate


def page_in(client: Any, estimate: Estimate, language: str) -> str:
    response = client.get(reverse("estimates:detail", args=[estimate.pk]), HTTP_ACCEPT_LANGUAGE=language)
    return response.content.decode()


def weapon_cells(html: str) -> list[str]:
    start = html.index('class="card per-weapon"')
    table = html[start:html.index("</table>", start)]
    return [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<tr><td>(.*?)</td>", table)]


def test_the_per_weapon_table_names_weapons_and_models_in_the_readers_language(client, veterans):
    estimate = finished(client, veterans)

    polish, english = (page_in(client, estimate, language) for language in ("pl", "en"))

    assert sorted(weapon_cells(polish)) == ["Karabin (Weteran)", "Wyrzutnia (Weteran)"]
    assert sorted(weapon_cells(english)) == ["Launcher (Veteran)", "Rifle (Veteran)"]
    assert "<h1>Atak: Weterani → " in polish and "<h1>Veterans attacking " in english
    # the job keeps the engine's names: only the page translates
    stored = Estimate.objects.get(pk=estimate.pk).result["weapons"]
    assert {w["name"] for w in stored} == {"Rifle", "Launcher"}


def test_the_polled_fragment_translates_the_finished_table_too(client, veterans):
    estimate = finished(client, veterans)

    html = client.get(reverse("estimates:status", args=[estimate.pk]), HTTP_HX_REQUEST="true",
                      HTTP_ACCEPT_LANGUAGE="pl").content.decode()

    assert sorted(weapon_cells(html)) == ["Karabin (Weteran)", "Wyrzutnia (Weteran)"]


def test_a_homebrew_unit_of_the_same_name_is_shown_in_its_players_words(client, translated):
    player = make_user("brewer")
    mine = catalogue_unit(make_faction(owner=player, slug="my-guard"),
                          opr_unit("Veterans", count=5, model_name="Veteran", weapons=[RIFLE]))
    client.force_login(player)
    estimate = finished(client, mine)

    html = page_in(client, estimate, "pl")

    assert weapon_cells(html) == ["Rifle (Veteran)"]
    assert reader_factions(estimate=estimate) == {"attacker": None, "defender": None}


def test_the_attackers_faction_is_found_by_its_units_name_among_bundled_ones(client, veterans, translated):
    make_faction(slug="another-army")  # bundled, without translations: never the reader's names
    estimate = finished(client, veterans)

    assert reader_factions(estimate=estimate) == {"attacker": translated, "defender": None}


def listing_titles_in(client: Any, language: str) -> list[str]:
    html = client.get(reverse("estimates:list"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    body = html[html.index('<table class="estimate-list">'):]
    return [re.sub(r"<[^>]+>", "", title) for title in re.findall(r"<td><a [^>]*>(.*?)</a></td>", body)]


def test_the_listing_names_a_bundled_unit_as_its_result_page_does(client, veterans):
    estimate = finished(client, veterans)

    h1 = re.search(r"<h1>(.*?)</h1>", page_in(client, estimate, "pl"))[1]
    assert h1.startswith("Atak: Weterani → ")
    assert listing_titles_in(client, "pl") == [h1]
    assert listing_titles_in(client, "en")[0].startswith("Veterans attacking ")


def test_the_listing_shows_a_homebrew_unit_of_the_same_name_as_written(client, veterans):
    player = make_user("brewer")
    mine = catalogue_unit(make_faction(owner=player, slug="my-guard"),
                          opr_unit("Veteran Squad", count=5, model_name="Veteran", weapons=[RIFLE]))
    client.force_login(player)
    finished(client, mine)

    assert listing_titles_in(client, "pl")[0].startswith("Atak: Veteran Squad → ")


def test_the_matrix_names_a_bundled_armys_units_in_the_readers_language(client, owner, veterans):
    mine = army_list_of(owner, [veterans.data, opr_unit("Scouts", count=5, weapons=[RIFLE])], name="Moja")
    client.force_login(owner)
    response = client.post(f"{NEW}?list={mine.pk}", {**SITUATION, "target": "ref:*"})
    assert response.status_code == 302, response.content.decode()[:2000]
    estimate = Estimate.objects.get(pk=re.search(r"/estimates/([0-9a-f-]{36})/$", response["Location"])[1])
    run_estimate(str(estimate.pk))

    rows = re.findall(r'<tr><th scope="row">([^<]*)</th>', page_in(client, estimate, "pl"))
    # both matrices: list A's units are the rows of each; a unit no bundled army has, as written
    assert rows[:2] == ["Weterani", "Scouts"] and rows[2:4] == ["Weterani", "Scouts"]
    assert Estimate.objects.get(pk=estimate.pk).result["list_a"]["units"] == ["Veterans", "Scouts"]
