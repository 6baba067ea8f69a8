"""The gauntlet names its enemies as a player reads them (`gauntlet_text.shown_target`): a
reference target's name in the reader's language and marked as a reference target, in the
panel's best and worst matchups, each unit's best and worst target and its sentences, and the
API; a player's list or unit is named as they wrote it, even when it reads like a reference
target's name (never through gettext)."""

from __future__ import annotations

import copy
import html

import pytest
from django.core.cache import caches
from django.urls import reverse
from django.utils import translation

from armybuilder.estimates.gauntlet_live import compute_missing
from armybuilder.estimates.gauntlet_panel import gauntlet_state
from armybuilder.models import ArmyList
from rules.systems.registry import get_system
from tests.factories.army_lists import INFANTRY, make_faction, make_list, make_unit, make_user, token_client

pytestmark = pytest.mark.django_db

#: The label a reference target carries on the page, and in running text, per language.
LABELS = {"ru": "эталонная цель", "pl": "cel wzorcowy"}
#: An OPR reference target's English name (its msgid), which a player's unit and list take below.
LOOKALIKE = "Infantry (10 × D5 T1)"


@pytest.fixture(autouse=True)
def empty_job_cache():
    caches["jobs"].clear()


@pytest.fixture
def army():
    faction = make_faction()
    return make_list(owner=make_user(), faction=faction, name="Measured", units=[make_unit(faction=faction)])


def translated(name: str, language: str) -> str:
    with translation.override(language):
        return translation.gettext(name)


def panel(client, army_list: ArmyList, language: str) -> str:
    client.force_login(army_list.owner)
    url = reverse("lists:gauntlet", args=[army_list.pk])
    return html.unescape(client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode())


def matchups(page: str) -> str:
    return page.split('class="gauntlet-pairings"')[1].split("</div>\n  </div>")[0]


@pytest.mark.parametrize("language", ["ru", "pl"])
def test_reference_targets_show_translated_and_marked(client, army, language):
    compute_missing(army)
    report = gauntlet_state(army, queue=False).report
    shown = report.best_pairings() + report.worst_pairings()
    assert len(shown) == 6 and all(pair["target_reference"] for pair in shown)
    page = panel(client, army, language)
    pairings = matchups(page)
    label = LABELS[language]
    for pair in shown:
        name = translated(pair["target"], language)
        assert name != pair["target"]  # the system's names are translated in this language
        assert f"Infantry → {name} <small class=\"gauntlet-reference\">{label}</small>" in pairings
        assert pair["target"] not in pairings
    # The unit's own row: its best and worst target, labelled, and its sentence names them so.
    row = page.split(f'id="gauntlet-unit-{army.units.get().pk}"')[1]
    figures = report.units[0]
    for key in ("best_target", "worst_target"):
        assert figures[f"{key}_reference"] is True
        name = translated(figures[key], language)
        assert f"{name} <small class=\"gauntlet-reference\">{label}</small>" in row
        assert f"{name} ({label})" in row  # the sentence
    # The player's unit "Infantry" is theirs: never the catalogue's translation of the word.
    assert pairings.count("<li>Infantry → ") == 6
    assert f"<li>{translated('Infantry', language)} → " not in pairings


def test_a_players_list_named_like_a_reference_target_is_not_translated(client, army):
    faction = make_faction()
    lookalike = {**copy.deepcopy(INFANTRY), "name": LOOKALIKE}
    rival = make_list(owner=army.owner, faction=faction, name=LOOKALIKE,
                      units=[make_unit(faction=faction, data=lookalike, with_options=False)])
    ArmyList.objects.filter(pk=army.pk).update(gauntlet={"reference": False, "lists": [rival.pk]})
    army.refresh_from_db()
    compute_missing(army)
    page = panel(client, army, "ru")
    assert translated(LOOKALIKE, "ru") != LOOKALIKE
    assert translated(LOOKALIKE, "ru") not in page and LABELS["ru"] not in page
    assert f"Infantry → {LOOKALIKE} (" in matchups(page)
    assert f'<li data-opponent="{LOOKALIKE}"><strong>{LOOKALIKE}</strong>' in page  # the trade
    row = page.split(f'id="gauntlet-unit-{army.units.get().pk}"')[1]
    assert f'data-figure="best"><dt>Лучшая цель</dt><dd>{LOOKALIKE}</dd>' in row.replace("\n", "")


def test_the_api_names_targets_as_the_panel_does(army):
    """The API's `best_target`/`worst_target` and explanation in the request's language, with
    whether each is a reference target; a player's unit as written."""
    faction = make_faction()
    rival = make_list(owner=army.owner, faction=faction, name=LOOKALIKE,
                      units=[make_unit(faction=faction, data={**copy.deepcopy(INFANTRY), "name": LOOKALIKE},
                                       with_options=False)])
    names = {str(unit["name"]) for unit in get_system("opr").reference_targets.values()}
    client = token_client(army.owner)
    url = f"/api/v1/lists/{army.pk}/gauntlet"
    for gauntlet in ({"reference": True, "lists": []}, {"reference": False, "lists": [rival.pk]}):
        ArmyList.objects.filter(pk=army.pk).update(gauntlet=gauntlet)
        army.refresh_from_db()
        compute_missing(army)
        unit = client.get(url, HTTP_ACCEPT_LANGUAGE="ru").json()["units"][0]
        for key in ("best_target", "worst_target"):
            if gauntlet["reference"]:
                english = next(name for name in names if translated(name, "ru") == unit[key])
                assert unit[f"{key}_reference"] is True and english != unit[key]
            else:
                assert unit[f"{key}_reference"] is False and unit[key] == LOOKALIKE
        marked = f"({LABELS['ru']})" in unit["explanation"][0]
        assert marked is gauntlet["reference"]
