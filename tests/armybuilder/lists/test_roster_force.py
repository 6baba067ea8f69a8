"""The force (detachment) picker of a list of a faction imported with its BattleScribe source:
the editor offers the catalogue's forces, a change rebuilds the units in the chosen force
(its rules decide the errors), and a refused choice is shown inside the picker."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.urls import reverse

from armybuilder.lists import services
from rules.battlescribe_import import import_files
from rules.models import Faction, UnitTemplate
from tests.factories.army_lists import make_list, make_user
from tests.rules.battlescribe.files import sources

pytestmark = pytest.mark.django_db

TROOPS = "Patrol Detachment: at least 1 Troops unit needed (now 0)."


@pytest.fixture
def army_list():
    call_command("load_catalogue", verbosity=0)
    owner = make_user()
    faction = import_files(system_key="wh40k9", files=sources("slots.gst", "slots_warband.cat"),
                           owner=owner).factions[0]
    army_list = make_list(owner=owner, faction=faction)
    lord = UnitTemplate.objects.get(faction=faction, slug="bs-se-lord")
    services.army_list_add_unit(
        army_list=army_list, unit=lord, options={}, expected_version=army_list.version
    )
    army_list.refresh_from_db()
    return army_list


def messages(army_list):
    return [v["message"] for v in army_list.violations]


def test_the_editor_offers_the_catalogues_forces(client, army_list):
    client.force_login(army_list.owner)
    page = client.get(reverse("lists:detail", args=[army_list.pk])).content.decode()
    assert 'id="list-force"' in page
    assert '<option value="force-patrol" selected>Patrol Detachment</option>' in page
    assert '<option value="force-vanguard">Vanguard Detachment</option>' in page


def test_another_force_rebuilds_the_list_in_it(client, army_list):
    client.force_login(army_list.owner)
    assert TROOPS in messages(army_list)
    answer = client.post(reverse("lists:roster_force", args=[army_list.pk]),
                         {"roster_force": "force-vanguard", "version": army_list.version},
                         HTTP_HX_REQUEST="true")
    assert answer.status_code == 200
    html = answer.content.decode()
    assert '<option value="force-vanguard" selected>Vanguard Detachment</option>' in html
    assert 'id="unit-rows"' in html and "Warlord" in html  # the rebuilt rows come along
    army_list.refresh_from_db()
    assert army_list.roster_force == "force-vanguard"
    assert TROOPS not in messages(army_list)


def test_a_force_the_catalogue_lacks_is_refused_inside_the_picker(client, army_list):
    client.force_login(army_list.owner)
    version = army_list.version
    answer = client.post(reverse("lists:roster_force", args=[army_list.pk]),
                         {"roster_force": "force-nope", "version": version}, HTTP_HX_REQUEST="true")
    assert answer.status_code == 400
    html = answer.content.decode()
    assert html.lstrip().startswith("<section") and 'id="list-force"' in html
    assert "Choose one of the forces of this catalogue." in html
    army_list.refresh_from_db()
    assert (army_list.version, army_list.roster_force) == (version, "")


def test_a_list_without_a_source_has_no_picker(client):
    call_command("load_catalogue", verbosity=0)
    owner = make_user()
    plain = make_list(owner=owner, faction=Faction.objects.filter(system__key="wh40k9", owner=None).first())
    client.force_login(owner)
    page = client.get(reverse("lists:detail", args=[plain.pk])).content.decode()
    assert 'id="list-force"' not in page
    answer = client.post(reverse("lists:roster_force", args=[plain.pk]), {"roster_force": "x", "version": 1})
    assert answer.status_code == 404
