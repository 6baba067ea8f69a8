"""A list of an imported AoS unit sized by a numbered selection ("10 Bloodhorns" taken 1 to 3
times, `mortal_host.cat`) at 20 models goes out as a .rosz with 2 of that selection and comes
back at 20 models with the same points."""

from __future__ import annotations

import io
import zipfile

import pytest
from django.core.management import call_command
from django.urls import reverse
from lxml import etree

from armybuilder.lists import selectors
from armybuilder.lists.battlescribe_rosters import roster_import
from armybuilder.lists.services import army_list_add_unit, army_list_create
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


def downloaded(client, user, army_list) -> tuple[bytes, etree._Element]:
    """The list's .rosz as the download gives it, and its roster element."""
    client.force_login(user)
    response = client.get(reverse("lists:export_rosz", args=[army_list.pk]))
    assert response.status_code == 200
    with zipfile.ZipFile(io.BytesIO(response.content)) as archive:
        (name,) = archive.namelist()
        return response.content, etree.fromstring(archive.read(name))


def selections_of(roster: etree._Element, entry_id: str) -> int:
    """How many selections of `entry_id` the roster holds (one with a number, or several)."""
    found = roster.xpath(
        f"//bs:selection[@entryId='{entry_id}' or substring(@entryId, string-length(@entryId) - "
        f"{len(entry_id)})='::{entry_id}']",
        namespaces=NS,
    )
    return sum(int(s.get("number", "1")) for s in found)


def test_a_unit_sized_by_a_numbered_selection_round_trips_through_a_roster(host, client):
    user, system, army_list = host
    (unit,) = selectors.army_list_units(army_list=army_list)
    assert (unit.points, unit.data["models"][0]["count"]) == (200, 20)
    data, roster = downloaded(client, user, army_list)
    assert selections_of(roster, "mo-horns-10") == 2

    result = roster_import(owner=user, system=system, source=SourceFile("horns.rosz", data))
    assert result.differences == []
    (back,) = result.army_list.units.all()
    assert (back.data["models"][0]["count"], back.points) == (20, 200)


def test_a_unit_cheaper_at_its_largest_size_costs_battlescribes_price_in_a_list_and_its_roster(host, client):
    """30 Tuskguard (3 of "10 Tuskguard", 60 points off at 3) cost 360 in the list, as in
    BattleScribe, not 3 x 140; the roster says 3 selections and comes back at 360."""
    user, system, army_list = host
    faction = army_list.faction
    army_list_add_unit(army_list=army_list, unit=faction.units.get(slug="bs-mo-tusk"),
                       options={"more-tuskguard": 2}, expected_version=None)
    army_list.refresh_from_db()
    tusk = next(u for u in selectors.army_list_units(army_list=army_list) if u.name == "Tuskguard")
    assert (tusk.points, tusk.data["models"][0]["count"]) == (360, 30)
    data, roster = downloaded(client, user, army_list)
    assert selections_of(roster, "mo-tusk-10") == 3
    result = roster_import(owner=user, system=system, source=SourceFile("tusks.rosz", data))
    assert result.differences == []
    back = result.army_list.units.get(name="Tuskguard")
    assert (back.data["models"][0]["count"], back.points) == (30, 360)
