"""A .ros that names what the data lacks, or is no roster, is refused with the file and the
selection named (`engine.roster_xml`)."""

from __future__ import annotations

import pytest

from rules.battlescribe.engine.errors import EngineError
from rules.battlescribe.engine.model import GameData
from rules.battlescribe.engine.roster_xml import load_roster, write_roster

DATA = {"id": "gs", "forceEntries": [{"id": "fe", "name": "Band"}]}
CATS = [{"id": "cat", "selectionEntries": [{"id": "se-wolf", "name": "Wolf", "type": "unit"}]}]
ROSTER = """<roster name="R" xmlns="http://www.battlescribe.net/schema/rosterSchema"><forces>
<force entryId="fe" catalogueId="cat"><selections>
<selection name="{name}" entryId="{entry}" number="{number}"/></selections></force></forces></roster>"""


def test_a_roster_round_trips_through_the_engine():
    data = GameData(DATA, CATS)
    roster = load_roster(data, ROSTER.format(name="Wolf", entry="se-wolf", number="3"))
    again = load_roster(data, write_roster(roster))
    assert [(s.option.key, s.number) for s in again.all_selections()] == [("se-wolf", 3)]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            ROSTER.format(name="Troll", entry="se-troll", number="1"),
            "selection 'Troll' names an unknown entry",
        ),
        (
            ROSTER.format(name="Wolf", entry="se-wolf", number="many"),
            r"roster.forces\[0\].selections\[0\].number: not a whole number",
        ),
        ("<catalogue/>", "catalogue: not a BattleScribe roster"),
    ],
)
def test_bad_rosters_are_refused_naming_the_file_and_selection(text, message):
    with pytest.raises(EngineError, match=f"band.ros: {message}"):
        load_roster(GameData(DATA, CATS), text, "band.ros")


def test_a_custom_name_and_notes_round_trip_through_the_engine():
    """BattleScribe keeps a player's name for a selection in `customName` and their notes in
    `<customNotes>`; the engine writes both and reads them back."""
    from rules.battlescribe.engine.roster_xml import read_roster_file
    from rules.battlescribe.xml_reader import SourceFile

    data = GameData(DATA, CATS)
    roster = load_roster(data, ROSTER.format(name="Wolf", entry="se-wolf", number="1"))
    (wolf,) = roster.all_selections()
    wolf.custom_name, wolf.custom_notes = "Old Grey", 'Leads the hunt <always> & "first"'
    text = write_roster(roster)
    assert 'customName="Old Grey"' in text
    assert "<customNotes>Leads the hunt &lt;always&gt; &amp; \"first\"</customNotes>" in text
    (again,) = load_roster(data, text).all_selections()
    assert (again.custom_name, again.custom_notes) == ("Old Grey", 'Leads the hunt <always> & "first"')
    (unit,) = read_roster_file(SourceFile("r.ros", text.encode())).units
    assert (unit.custom_name, unit.custom_notes) == ("Old Grey", 'Leads the hunt <always> & "first"')


def test_the_reader_gives_xml_and_new_recruit_json_the_same_shape():
    """A roster read from BattleScribe's XML and from New Recruit's JSON (the same schema as
    objects) is the same `RosterFile`: units, their points summed over the tree, trees, names."""
    from fractions import Fraction

    from rules.battlescribe.engine.roster_xml import read_roster_file, read_roster_json
    from rules.battlescribe.xml_reader import SourceFile

    xml = b"""<roster name="R" xmlns="http://www.battlescribe.net/schema/rosterSchema">
    <costLimits><costLimit name="pts" typeId="p" value="500.0"/></costLimits><forces>
    <force entryId="fe" catalogueName="Band"><selections>
    <selection name="Wolf" entryId="el::se-wolf" number="2" type="unit" customName="Pack">
    <customNotes>Fast</customNotes><selections>
    <selection name="Fangs" entryId="se-fangs" number="1" type="upgrade"><costs>
    <cost name="pts" typeId="p" value="2.5"/></costs></selection></selections>
    <costs><cost name="pts" typeId="p" value="20.0"/><cost name="PL" typeId="pl" value="1"/></costs>
    </selection></selections></force></forces></roster>"""
    json = {"roster": {"name": "R", "costLimits": [{"name": "pts", "typeId": "p", "value": 500}], "forces": [
        {"entryId": "fe", "catalogueName": "Band", "selections": [
            {"name": "Wolf", "entryId": "el::se-wolf", "number": 2, "type": "unit", "customName": "Pack",
             "customNotes": "Fast", "costs": [{"name": "pts", "typeId": "p", "value": 20},
                                              {"name": "PL", "typeId": "pl", "value": 1}],
             "selections": [{"name": "Fangs", "entryId": "se-fangs", "number": 1, "type": "upgrade",
                             "costs": [{"name": "pts", "typeId": "p", "value": 2.5}]}]}]}]}}
    for roster in (read_roster_file(SourceFile("r.ros", xml)), read_roster_json(json, name="r.json")):
        (wolf,) = roster.units
        assert (wolf.name, wolf.custom_name, wolf.custom_notes, wolf.points) == ("Wolf", "Pack", "Fast",
                                                                                  Fraction(45, 2))
        assert roster.trees == [{"entry": "el::se-wolf", "number": 2,
                                 "children": [{"entry": "se-fangs", "number": 1, "children": []}]}]
        assert (roster.points_limit, roster.catalogue_names) == (500, ["Band"])
        assert roster.force_entry_ids == ["fe"]
        assert roster.declared_points is None


def test_a_list_of_units_is_written_by_the_same_writer_and_read_back():
    """A list without BattleScribe data (`unit_roster`) becomes a roster file, written by the one
    writer: its units, custom names, notes and points come back from the one reader."""
    from rules.battlescribe.engine.roster_xml import read_roster_file
    from rules.battlescribe.unit_roster import RosterDocument, RosterUnit, roster_xml
    from rules.battlescribe.xml_reader import SourceFile

    unit = RosterUnit(name="Spearmen", entry_id="sp", points=65, power=None,
                      models=[{"name": "Spearman", "count": 10}],
                      upgrades=[{"name": "Standard", "entry_id": "std", "count": 1, "points": 5}],
                      categories=["Core"], custom_name="Red spears", notes="Hold the bridge")
    doc = RosterDocument(name="L", system_id="sys", system_name="S", catalogue_id="cat",
                         catalogue_name="C", points_limit=1000, units=[unit])
    roster = read_roster_file(SourceFile("l.ros", roster_xml(doc)))
    (back,) = roster.units
    assert (back.custom_name, back.custom_notes, back.points) == ("Red spears", "Hold the bridge", 65)
    assert [(s.name, s.number, s.points) for s in back.selections] == [
        ("Spearman", 10, 0), ("Standard", 1, 5)]
    assert roster.points_limit == 1000 and roster.declared_difference() is None


def test_a_list_of_units_names_its_cost_types_as_the_systems_mapping_does():
    """The cost types a list writes are named by the system's BattleScribe mapping (one list of
    cost-type names per system), not by a literal: 40k's are "pts" and its unit cost's "PL", a
    system whose points are "pkt" writes "pkt", and the points are read back by that name."""
    from rules.battlescribe.engine.roster_xml import read_roster_file
    from rules.battlescribe.mapping import BattleScribeMapping
    from rules.battlescribe.unit_roster import RosterDocument, RosterUnit, roster_xml
    from rules.battlescribe.xml_reader import SourceFile
    from rules.systems.registry import get_system

    wh40k = get_system("wh40k9").battlescribe
    assert (wh40k.cost_type_name("points"), wh40k.cost_type_name("power")) == ("pts", "PL")
    polish = BattleScribeMapping(points_cost_types=("pkt",))
    unit = RosterUnit(name="Wolves", entry_id="w", points=30, power=2, models=[{"name": "Wolf", "count": 3}])
    doc = RosterDocument(name="L", system_id="sys", system_name="S", catalogue_id="cat",
                         catalogue_name="C", points_limit=750, units=[unit], with_power=True,
                         points_name=polish.cost_type_name("points"),
                         power_name=wh40k.cost_type_name("power"))
    xml = roster_xml(doc)
    assert b'<cost name="pkt" typeId="points" value="30.0"/>' in xml
    assert b'<cost name="PL" typeId="power" value="2.0"/>' in xml
    assert b" PL" not in xml
    roster = read_roster_file(SourceFile("l.ros", xml))
    assert (roster.units[0].points, roster.points_limit) == (30, 750)


@pytest.mark.parametrize("cost_name", ["pts", "Points", "pkt", "body"])
def test_a_rosters_points_are_read_by_the_one_list_of_points_names(cost_name):
    """A roster whose points go by "pkt" or "body" (issue 39: read as 0 points with no limit
    before) is read by the same names as catalogues (`mapping.POINTS_COST_TYPES`)."""
    from rules.battlescribe.engine.roster_xml import read_roster_file
    from rules.battlescribe.xml_reader import SourceFile

    xml = f"""<roster name="R" xmlns="http://www.battlescribe.net/schema/rosterSchema">
    <costLimits><costLimit name="{cost_name}" typeId="p" value="750.0"/></costLimits><forces>
    <force entryId="fe"><selections><selection name="Wolf" entryId="se-wolf" number="1" type="unit">
    <costs><cost name="{cost_name}" typeId="p" value="30.0"/></costs></selection></selections>
    </force></forces></roster>""".encode()
    roster = read_roster_file(SourceFile("r.ros", xml))
    assert (roster.units[0].points, roster.points_limit) == (30, 750)
