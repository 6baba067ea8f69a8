"""An estimate against the system's reference targets names them in the reader's language and
marks them as reference targets, whoever asked and in whatever language: the job stores their
English msgids and a marker (`inputs.with_references`), its pages translate. A player's unit
named exactly like a reference target is the player's words: shown as written, unmarked."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse
from django.utils import translation

from armybuilder.estimates.describe import estimate_title
from armybuilder.estimates.inputs import unit_vs_unit_inputs, with_references
from armybuilder.estimates.models import Estimate
from armybuilder.estimates.services import estimate_create
from armybuilder.estimates.tasks import run_estimate
from rules.models import Faction, UnitTemplate
from rules.systems.registry import get_system
from tests.factories.aos_units import LURKING, imported_warscroll
from tests.factories.estimate_lists import army_list_of, catalogue_unit, distinct_units
from tests.factories.opr_documents import LAUNCHER, RIFLE, opr_unit

pytestmark = pytest.mark.django_db

NEW = reverse("estimates:new")
SITUATION = {"mode": "shooting", "range_inches": "18"}
INFANTRY = "Infantry (10 × D5 T1)"
INFANTRY_IN = {"ru": "Пехота (10 × D5 T1)", "pl": "Piechota (10 × D5 T1)"}
LABEL_IN = {"ru": "эталонная цель", "pl": "cel wzorcowy"}
REFERENCE_SET_IN = {"ru": "Эталонные цели", "pl": "Cele wzorcowe"}
BEST_NOTE_IN = {"ru": "каждого отряда ростера «%s»", "pl": "każdej jednostki rozpiski „%s”"}


@pytest.fixture
def veterans(faction: Faction) -> UnitTemplate:
    return catalogue_unit(faction, opr_unit("Veterans", count=5, quality=3, weapons=[RIFLE, LAUNCHER]))


def asked_in_english(client: Any, query: str, target: str) -> Estimate:
    response = client.post(f"{NEW}?{query}", {**SITUATION, "target": target}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 302, response.content.decode()[:2000]
    estimate = Estimate.objects.get(pk=re.search(r"/estimates/([0-9a-f-]{36})/$", response["Location"])[1])
    run_estimate(str(estimate.pk))
    return Estimate.objects.get(pk=estimate.pk)


def page(client: Any, name: str, language: str, *args: Any) -> str:
    response = client.get(reverse(name, args=args), HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


def listing_title(html: str) -> str:
    """The title of the only estimate of "Your estimates"."""
    body = html[html.index('<table class="estimate-list">') :]
    return re.sub(r"<[^>]+>", "", re.search(r"<td><a [^>]*>(.*?)</a></td>", body)[1])


@pytest.mark.parametrize("language", ["ru", "pl"])
def test_a_unit_against_a_reference_target_reads_it_in_the_readers_language(
    client, owner, veterans, language
):
    client.force_login(owner)
    estimate = asked_in_english(client, f"unit={veterans.pk}", "ref:infantry-10")
    assert estimate.inputs["defender"]["name"] == INFANTRY and estimate.inputs["references"] == ["defender"]

    shown = f"{INFANTRY_IN[language]} ({LABEL_IN[language]})"
    detail = page(client, "estimates:detail", language, estimate.pk)
    assert re.search(r"<h1>\w+: Veterans → (.*?)</h1>", detail)[1] == shown
    assert listing_title(page(client, "estimates:list", language)).endswith(f" {shown}")
    assert INFANTRY not in detail


def test_a_players_unit_named_like_a_reference_target_is_shown_as_written(client, owner, veterans):
    mine = army_list_of(owner, [opr_unit(INFANTRY, count=10, defence=5)], name="Mine")
    client.force_login(owner)
    estimate = asked_in_english(client, f"unit={veterans.pk}", f"list_unit:{mine.units.get().pk}")
    assert "references" not in estimate.inputs

    for language in ("ru", "pl"):
        detail = page(client, "estimates:detail", language, estimate.pk)
        assert re.search(r"<h1>\w+: Veterans → (.*?)</h1>", detail)[1] == INFANTRY
        assert LABEL_IN[language] not in detail and INFANTRY_IN[language] not in detail
        assert listing_title(page(client, "estimates:list", language)).endswith(f" {INFANTRY}")


@pytest.mark.parametrize("language", ["ru", "pl"])
def test_a_list_against_the_reference_set_reads_it_in_the_readers_language(client, owner, language):
    mine = army_list_of(owner, distinct_units("Mine", 1), name="Mine")
    client.force_login(owner)
    estimate = asked_in_english(client, f"list={mine.pk}", "ref:*")
    # Stored in English, whoever asked: the reader's page translates.
    assert estimate.inputs["list_b"]["name"] == "Reference targets"
    assert INFANTRY in [unit["name"] for unit in estimate.inputs["list_b"]["units"]]
    assert estimate.inputs["references"] == ["list_b"]

    detail = page(client, "estimates:detail", language, estimate.pk)
    assert re.search(r"<h1>Mine [—–] (.*?)</h1>", detail)[1] == REFERENCE_SET_IN[language]
    columns = re.findall(r'<th scope="col">([^<]*)</th>', detail)
    assert INFANTRY_IN[language] in columns and INFANTRY not in columns
    # No case to agree with: the name stands after a dash, in quotes, or after an arrow.
    assert BEST_NOTE_IN[language] % REFERENCE_SET_IN[language] in detail
    reference_set = REFERENCE_SET_IN[language]
    assert f"Mine → {reference_set}" in detail and f"{reference_set} → Mine" in detail
    assert listing_title(page(client, "estimates:list", language)).endswith(f" {REFERENCE_SET_IN[language]}")


AOS_INFANTRY_IN = {"ru": "Пехота (10 × W1, спасбросок 4+, Храбрость 6)",
                   "pl": "Piechota (10 × W1, obrona 4+, Odwaga 6)"}


@pytest.mark.parametrize("language", ["ru", "pl"])
def test_the_abilities_not_used_name_a_reference_target_in_the_readers_language(client, owner, language):
    """The "not used by this estimate" line names the side as the title does. No reference target
    carries an ability kept as text today, so one is given one here: the page must not fall back
    to the English name the job stores."""
    target = {**get_system("aos1").reference_targets["infantry-10"], "abilities": [LURKING]}
    system_key, inputs = unit_vs_unit_inputs(attacker=imported_warscroll("Raiders", abilities=[]),
                                             defender=target, situation={"mode": "melee"})
    estimate = estimate_create(kind=Estimate.Kind.UNIT_VS_UNIT, system=system_key,
                               inputs=with_references(inputs, ["defender"]), owner=owner)
    run_estimate(str(estimate.pk))
    client.force_login(owner)

    detail = page(client, "estimates:detail", language, estimate.pk)
    block = detail[detail.index('id="abilities-not-used"'):]
    line = re.search(r'<li data-role="defender"><strong>(.*?)</strong>.*?: (.*?)</li>', block)
    assert (line[1], line[2]) == (AOS_INFANTRY_IN[language], "Lurking")


def test_an_older_estimate_without_the_marker_is_named_as_stored():
    inputs = {"attacker": {"name": "Veterans"}, "defender": {"name": INFANTRY}}
    kind = Estimate.Kind.UNIT_VS_UNIT
    with translation.override("ru"):
        older = estimate_title(kind=kind, inputs=inputs)
        marked = estimate_title(kind=kind, inputs={**inputs, "references": ["defender"]})
    assert older == f"Атака: Veterans → {INFANTRY}"
    assert marked == f"Атака: Veterans → {INFANTRY_IN['ru']} ({LABEL_IN['ru']})"
