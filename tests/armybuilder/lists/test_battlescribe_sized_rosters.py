"""A list of an imported AoS unit sized by a numbered selection ("10 Bloodhorns" taken 1 to 3
times, `mortal_host.cat`) at 20 models goes out as a .rosz with 2 of that selection and comes
back at 20 models with the same points."""

from __future__ import annotations

import io
import zipfile

import pytest
from django.core.management import call_command
from lxml import etree

from armybuilder.lists import selectors
from armybuilder.lists.battlescribe_rosters import roster_import
from armybuilder.lists.services import army_list_add_unit, army_list_create
from armybuilder.roster.battlescribe import roster_document
from rules.battlescribe.roster_writer import roster_rosz
from rules.battlescribe.xml_reader import SourceFile
from rules.models import Faction, GameSystem
from tests.rules.battlescribe.files import FILES

NS = {"bs": "http://www.battlescribe.net/schema/rosterSchema"}
CHOSEN = {"more-bloodhorns": 1}


@pytest.fixture
def host(db, django_user_model):
    call_command("load_catalogue", verbosity=0)
    call_command(
        "import_battlescribe", str(FILES / "mortal.gst"), str(FILES / "mortal_host.cat"), system="aos1"
    )
    user = django_user_model.objects.create_user("hornblower", password="a-long-test-password")
    system = GameSystem.objects.get(key="aos1")
    faction = Faction.objects.get(slug="bs-mo-cat-host", owner=None)
    army_list = army_list_create(owner=user, system=system, faction=faction, name="Horns", points_limit=1000)
    army_list_add_unit(army_list=army_list, unit=faction.units.get(slug="bs-mo-horns"), options=CHOSEN,
                       expected_version=None)
    army_list.refresh_from_db()
    return user, system, army_list


def test_a_unit_sized_by_a_numbered_selection_round_trips_through_a_roster(host):
    user, system, army_list = host
    (unit,) = selectors.army_list_units(army_list=army_list)
    assert (unit.points, unit.data["models"][0]["count"]) == (200, 20)
    data = roster_rosz(roster_document(army_list=army_list, units=[unit]))
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        (name,) = archive.namelist()
        roster = etree.fromstring(archive.read(name))
    [size] = roster.xpath("//bs:selection[@entryId='mo-horns-10']", namespaces=NS)
    assert size.get("number") == "2"

    result = roster_import(owner=user, system=system, source=SourceFile("horns.rosz", data))
    assert result.differences == []
    (back,) = result.army_list.units.all()
    assert (back.chosen_options, back.points) == (CHOSEN, 200)
