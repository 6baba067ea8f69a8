"""Rosters as BattleScribe writes them (`realm_roster.ros`, hand-written in that shape) come in
as lists with the right options and points, and a list of an imported faction goes out with
the BattleScribe ids BattleScribe needs to open it: the game system, force entry, cost type,
model and category ids of the imported data (not made-up ones)."""

from __future__ import annotations

import io
import zipfile

import pytest
from django.core.management import call_command
from lxml import etree

from armybuilder.lists import selectors
from armybuilder.lists.battlescribe_rosters import entry_ids, roster_import
from armybuilder.roster.battlescribe import roster_document
from rules.battlescribe.unit_roster import roster_rosz
from rules.models import BattleScribeSource, GameSystem
from tests.rules.battlescribe.files import FILES, source

SCHEMA = etree.XMLSchema(etree.parse(str(FILES / "roster.xsd")))
NS = {"bs": "http://www.battlescribe.net/schema/rosterSchema"}


@pytest.fixture
def imported(db, django_user_model):
    call_command("load_catalogue", verbosity=0)
    call_command(
        "import_battlescribe", str(FILES / "realm.gst"), str(FILES / "realm_undead.cat"), system="whfb6"
    )
    user = django_user_model.objects.create_user("necromancer", password="a-long-test-password")
    return user, GameSystem.objects.get(key="whfb6")


@pytest.fixture
def imported_without_source(imported):
    """The faction as an import made before sources were kept: its lists stay in the unit
    format (the path these tests cover); `test_roster_engine_rebuilds_the_roster` covers the
    engine's."""
    BattleScribeSource.objects.all().delete()
    return imported


def test_roster_engine_rebuilds_the_roster(imported):
    user, system = imported
    result = roster_import(owner=user, system=system, source=source("realm_roster.ros"))
    # Rebuilt selection for selection; where the engine's cost differs from the file's, it says so.
    assert [u["roster_points"] for u in result.units] == [132.0, 160.0]
    assert result.differences == [
        f"{u['name']}: {u['points']} pts here, {u['roster_points']} in the roster"
        for u in result.units
        if u["points"] != u["roster_points"]
    ]
    back = list(result.army_list.units.order_by("position"))
    assert [u.selection["entry"] for u in back] == ["rl-boneguard", "rl-lord"]


def test_entry_id_paths():
    assert entry_ids("rl-lord-weapons::rl-weapons-sword::rl-sword") == [
        "rl-sword",
        "rl-weapons-sword",
        "rl-lord-weapons",
    ]
    assert entry_ids("se-captain") == ["se-captain"]


def test_battlescribe_roster_becomes_a_list(imported_without_source):
    user, system = imported_without_source
    result = roster_import(owner=user, system=system, source=source("realm_roster.ros"))
    assert result.differences == []
    # Bone Guard 6 + 4 models × 8 + 2 + Spears 10 + Standard Bearer 10 + Banner of Dust 30 = 132;
    # Bone Lord 115 + required BSB 25 + Sword of Might 20 = 160
    assert result.units == [
        {"name": "Bone Guard", "points": 132, "roster_points": 132.0},
        {"name": "Bone Lord", "points": 160, "roster_points": 160.0},
    ]
    army_list = result.army_list
    assert (army_list.name, army_list.points_limit, army_list.faction.name) == (
        "Dust and Bones",
        1500,
        "Realm Undead",
    )
    units = {u.name: u for u in selectors.army_list_units(army_list=army_list)}
    labels = {o["key"]: o["label"] for o in units["Bone Guard"].available_options}
    assert sorted(labels[k] for k in units["Bone Guard"].chosen_options) == [
        "Banner of Dust",
        "Spears",
        "Standard Bearer",
    ]


def test_export_names_the_imported_battlescribe_data(imported_without_source):
    user, system = imported_without_source
    army_list = roster_import(owner=user, system=system, source=source("realm_roster.ros")).army_list
    document = roster_document(
        army_list=army_list, units=list(selectors.army_list_units(army_list=army_list))
    )
    with zipfile.ZipFile(io.BytesIO(roster_rosz(document))) as archive:
        roster = etree.fromstring(archive.read("roster.ros"))
    SCHEMA.assertValid(roster)
    assert roster.get("gameSystemId") == "sys-realm"
    (force,) = roster.xpath("bs:forces/bs:force", namespaces=NS)
    assert (
        force.get("entryId"),
        force.get("name"),
        force.get("catalogueId"),
        force.get("catalogueRevision"),
    ) == (
        "rl-force",
        "Realm Army",
        "rl-cat-undead",
        "7",
    )
    assert set(roster.xpath("//bs:cost/@typeId", namespaces=NS)) == {"c0st-pts0-0000-0001"}
    assert roster.xpath("bs:costs/bs:cost/@value", namespaces=NS) == ["292.0"]
    guard = force.xpath("bs:selections/bs:selection[@name='Bone Guard']", namespaces=NS)[0]
    assert guard.xpath("bs:selections/bs:selection[@type='model']/@entryId", namespaces=NS) == ["rl-bg-model"]
    assert guard.xpath("bs:categories/bs:category/@entryId", namespaces=NS) == ["rl-core"]
