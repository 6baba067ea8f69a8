"""A list of an imported unit with per-model options (`realm_ranks.cat`) at a size above its
minimum goes out as a .rosz whose upgrade costs are BattleScribe's (per model × models) and
comes back with the same options and points."""

from __future__ import annotations

import io
import zipfile

import pytest
from django.core.management import call_command
from lxml import etree

from armybuilder.lists import selectors
from armybuilder.lists.backends import engine_units as roster_units
from armybuilder.lists.battlescribe_rosters import roster_import
from armybuilder.lists.services import army_list_add_unit, army_list_create
from rules.battlescribe.engine.roster_xml import rosz_of
from rules.battlescribe.xml_reader import SourceFile
from rules.models import Faction, GameSystem
from tests.rules.battlescribe.files import FILES

SCHEMA = etree.XMLSchema(etree.parse(str(FILES / "roster.xsd")))
NS = {"bs": "http://www.battlescribe.net/schema/rosterSchema"}
CHOSEN = {"more-grave-spearman": 5, "opt-rl-sp-great": 1, "opt-rl-sp-mail": 1}
# 15 × 6 + 16 = 106; Great Weapons 2 × 16 models = 32; Grave Mail 1 × 15 spearmen = 15
POINTS = 153


@pytest.fixture
def ranks(db, django_user_model):
    call_command("load_catalogue", verbosity=0)
    call_command(
        "import_battlescribe", str(FILES / "realm.gst"), str(FILES / "realm_ranks.cat"), system="whfb6"
    )
    user = django_user_model.objects.create_user("gravekeeper", password="a-long-test-password")
    system = GameSystem.objects.get(key="whfb6")
    faction = Faction.objects.get(slug="bs-rl-cat-ranks", owner=None)
    army_list = army_list_create(owner=user, system=system, faction=faction, name="Ranks", points_limit=1000)
    unit = faction.units.get(slug="bs-rl-spearmen")
    army_list_add_unit(army_list=army_list, unit=unit, options=CHOSEN, expected_version=None)
    army_list.refresh_from_db()
    return user, system, army_list


def test_per_model_options_round_trip_through_a_roster(ranks):
    user, system, army_list = ranks
    (unit,) = selectors.army_list_units(army_list=army_list)
    assert unit.points == POINTS
    # The faction was imported with its source: the list is a roster of the engine, written as
    # itself (every selection with its own cost) and rebuilt selection for selection.
    data = rosz_of(roster_units.roster_file(army_list, [unit]))
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        (name,) = archive.namelist()
        roster = etree.fromstring(archive.read(name))
    SCHEMA.assertValid(roster)
    assert roster.xpath("bs:costs/bs:cost/@value", namespaces=NS) == [f"{float(POINTS)}"]
    names = set(roster.xpath("//bs:selection/@name", namespaces=NS))
    assert {"Great Weapons", "Grave Mail"} <= names

    result = roster_import(owner=user, system=system, source=SourceFile("ranks.rosz", data))
    assert result.differences == []
    assert result.units == [{"name": "Grave Spearmen", "points": POINTS, "roster_points": float(POINTS)}]
    (back,) = result.army_list.units.all()
    assert (back.selection, back.chosen_options, back.points) == (unit.selection, unit.chosen_options, POINTS)
