"""A unit's smallest legal selection is the roster engine's auto-selection completed by
`complete_minimums` (issue 39): what the engine leaves open a unit card still fills, and what
the engine chose is kept."""

from __future__ import annotations

from rules.battlescribe.engine.constraints import validate
from rules.battlescribe.engine.roster import Roster
from rules.battlescribe.engine.xmlform import load_files
from rules.battlescribe.units.smallest import complete_minimums
from rules.battlescribe.xml_reader import SourceFile
from rules.battlescribe_import import parse_import
from tests.rules.battlescribe.test_one_evaluator import GST, PTS, _catalogue, _limit

#: The shape of AoS's Great Unclean One: an optional "Weapon Options" group holding two groups
#: that each need one weapon and name no default (one per hand).
NESTED = f"""<?xml version="1.0" encoding="UTF-8"?>
<catalogue id="cat-nested" name="Nested" revision="1" battleScribeVersion="2.03" library="false"
    gameSystemId="sys-one" gameSystemRevision="1" xmlns="http://www.battlescribe.net/schema/catalogueSchema">
  <selectionEntries>
    <selectionEntry id="hands" name="hands" hidden="false" collective="false" import="true" type="model">
      <profiles>
        <profile id="hands-profile" name="hands" hidden="false" typeId="pt-profile" typeName="Profile">
          <characteristics><characteristic name="Movement" typeId="ct-m">5</characteristic></characteristics>
        </profile>
      </profiles>
      <categoryLinks>
        <categoryLink id="hands-core" name="Core" hidden="false" targetId="cat-core" primary="true"/>
      </categoryLinks>
      <selectionEntryGroups>
        <selectionEntryGroup id="weapons" name="Weapon Options" hidden="false" collective="false">
          <selectionEntryGroups>
            <selectionEntryGroup id="one-hand" name="One Hand" hidden="false" collective="false">
              <constraints>{_limit("one-min", "min", 1)}{_limit("one-max", "max", 1)}</constraints>
              <selectionEntries>
                <selectionEntry id="flail" name="Flail" hidden="false" collective="false" type="upgrade">
                  <costs><cost name="pts" typeId="{PTS}" value="5.0"/></costs>
                </selectionEntry>
                <selectionEntry id="axe" name="Axe" hidden="false" collective="false" type="upgrade">
                  <costs><cost name="pts" typeId="{PTS}" value="7.0"/></costs>
                </selectionEntry>
              </selectionEntries>
            </selectionEntryGroup>
          </selectionEntryGroups>
        </selectionEntryGroup>
      </selectionEntryGroups>
      <costs><cost name="pts" typeId="{PTS}" value="100.0"/></costs>
    </selectionEntry>
  </selectionEntries>
</catalogue>
"""


def _roster(catalogue: str) -> tuple[Roster, object]:
    data = load_files(SourceFile("one.gst", GST.encode()), [SourceFile("c.cat", catalogue.encode())])
    roster = Roster(data)
    return roster, roster.add_force("fe-army", None)


def test_a_group_minimum_without_a_default_takes_its_first_entry():
    """Dwarfs "Slayers" in small: the engine chooses nothing in a group of at least 10 that
    names no default; completed, the unit holds 10 of the first entry (110 pts), legal."""
    roster, force = _roster(_catalogue())
    unit = roster.select_entry(force, "no-default")
    assert unit.children == []
    took = []
    complete_minimums(roster, unit, took.append)
    assert [(s.option.name, s.number) for s in unit.children] == [("Troll Slayer", 10)]
    assert unit.cost(PTS) == 110
    assert [o.name for o in took] == ["Slayer unit"]
    assert not any("Slayer unit" in str(e) for e in validate(roster))


def test_a_nested_group_minimum_is_completed_and_a_complete_unit_is_left_alone():
    roster, force = _roster(NESTED)
    unit = roster.select_entry(force, "hands")
    complete_minimums(roster, unit)
    assert [(s.option.name, s.number) for s in unit.children] == [("Flail", 1)]
    assert unit.cost(PTS) == 105
    complete_minimums(roster, unit)
    assert [(s.option.name, s.number) for s in unit.children] == [("Flail", 1)]


def test_the_import_prices_the_completed_selection():
    files = [SourceFile("one.gst", GST.encode()), SourceFile("c.cat", NESTED.encode())]
    (faction,) = parse_import(system_key="whfb6", files=files).summary()["factions"]
    assert {u["name"]: u["points"] for u in faction["units"]} == {"hands": 105}
