"""The roster engine on BattleScribe XML (.gst/.cat through the hardened reader), issue 26:
the same data as the YAML specs, in the files players upload."""

from __future__ import annotations

from rules.battlescribe.engine.conformance import snapshot
from rules.battlescribe.engine.constraints import validate
from rules.battlescribe.engine.roster import Roster
from rules.battlescribe.engine.xmlform import load_files
from rules.battlescribe.xml_reader import SourceFile

GST = b"""<?xml version="1.0" encoding="UTF-8"?>
<gameSystem id="gs-x" name="Test System" xmlns="http://www.battlescribe.net/schema/gameSystemSchema">
  <costTypes><costType id="pts" name="pts" defaultCostLimit="100"/></costTypes>
  <categoryEntries><categoryEntry id="cat-troops" name="Troops"/></categoryEntries>
  <forceEntries>
    <forceEntry id="fe-det" name="Detachment">
      <categoryLinks><categoryLink id="cl-det-troops" name="Troops" targetId="cat-troops"/></categoryLinks>
    </forceEntry>
  </forceEntries>
</gameSystem>"""

CAT = b"""<?xml version="1.0" encoding="UTF-8"?>
<catalogue id="cat-a" name="Army A" gameSystemId="gs-x" xmlns="http://www.battlescribe.net/schema/catalogueSchema">
  <sharedSelectionEntries>
    <selectionEntry id="se-squad" name="Squad" type="unit">
      <categoryLinks>
        <categoryLink id="cl-squad" name="Troops" targetId="cat-troops" primary="true"/>
      </categoryLinks>
      <constraints>
        <constraint id="c-squad-max" type="max" value="2" field="selections" scope="force" shared="true"/>
      </constraints>
      <costs><cost name="pts" typeId="pts" value="40"/></costs>
      <modifiers>
        <modifier type="increment" field="pts" value="5">
          <repeats>
            <repeat field="selections" scope="self" value="1" repeats="1" childId="se-trooper" shared="true"/>
          </repeats>
        </modifier>
      </modifiers>
      <selectionEntries>
        <selectionEntry id="se-trooper" name="Trooper" type="model" collective="true">
          <constraints>
            <constraint id="c-trooper-min" type="min" value="3" field="selections" scope="parent"
                        shared="true"/>
          </constraints>
        </selectionEntry>
      </selectionEntries>
    </selectionEntry>
  </sharedSelectionEntries>
  <entryLinks>
    <entryLink id="ln-squad" name="Squad" targetId="se-squad" type="selectionEntry"/>
  </entryLinks>
</catalogue>"""


def load():
    return load_files(SourceFile("test.gst", GST), [SourceFile("army.cat", CAT)])


def test_xml_catalogue_builds_priced_validated_roster():
    roster = Roster(load())
    force = roster.add_force("fe-det")
    squad = roster.select_entry(force, "ln-squad")
    # min 3 troopers auto-selected as one node of 3 (collective child of a root unit)
    assert [(c.name, c.number) for c in squad.children] == [("Trooper", 3)]
    assert squad.entry_id == "ln-squad::se-squad"
    # 40 + 5 per trooper (repeat over the squad's own models)
    assert roster.costs() == {"pts": 55.0}
    assert validate(roster) == []
    roster.select_entry(force, "ln-squad")
    third = roster.select_entry(force, "ln-squad")
    errors = {(e.owner_type, e.owner_id, e.source) for e in validate(roster)}
    assert errors == {("selection", "se-squad", "se-squad/c-squad-max"), ("roster", "", "costLimits/pts")}
    roster.deselect(third)
    assert roster.costs() == {"pts": 110.0}
    assert [(e.owner_type, e.source, e.message) for e in validate(roster)] == [
        ("roster", "costLimits/pts", "pts total 110 is over the limit of 100")
    ]


def test_incremental_evaluation_matches_a_full_reevaluation_after_each_operation():
    roster = Roster(load())
    force = roster.add_force("fe-det")
    squads = [roster.select_entry(force, "ln-squad") for _ in range(3)]
    steps = [
        lambda: roster.set_count(squads[0].children[0], 5),
        lambda: roster.deselect(squads[1]),
        lambda: roster.duplicate(squads[2]),
        lambda: roster.set_count(squads[2], 2),
    ]
    for step in steps:
        step()
        incremental = snapshot(roster)
        roster.full_reevaluation()
        assert snapshot(roster) == incremental


PROFILE_CAT = b"""<?xml version="1.0" encoding="UTF-8"?>
<catalogue id="cat-p" name="Army P" gameSystemId="gs-x" xmlns="http://www.battlescribe.net/schema/catalogueSchema">
  <sharedProfiles>
    <profile id="pr-shared" name="Shared Gun" profileTypeId="pt-w" profileTypeName="Weapon">
      <characteristics>
        <characteristic name="Range" characteristicTypeId="ch-r" value='18"'/>
      </characteristics>
    </profile>
  </sharedProfiles>
  <selectionEntries>
    <selectionEntry id="se-hero" name="Hero" type="unit">
      <profiles>
        <profile id="pr-hero" name="Hero" typeId="pt-u" typeName="Unit">
          <characteristics>
            <characteristic name="M" typeId="ch-m">
              6"
            </characteristic>
            <characteristic name="Ld" typeId="ch-ld">8</characteristic>
            <characteristic name="Notes" typeId="ch-n"/>
          </characteristics>
        </profile>
      </profiles>
      <infoLinks><infoLink id="il-gun" name="Shared Gun" targetId="pr-shared" type="profile"/></infoLinks>
    </selectionEntry>
  </selectionEntries>
</catalogue>"""


def test_xml_characteristics_keep_their_values_in_the_engine_model():
    """A characteristic's value is its text (2.02+) or its `value` attribute (2.01, with the
    legacy `profileTypeId`/`profileTypeName`): both reach a roster's shown profiles, and the
    catalogue import reads its profiles from the same model (`engine.model.parse_profile`)."""
    from rules.battlescribe.engine.info import collect
    from rules.battlescribe.engine.model import parse_profile

    data = load_files(SourceFile("test.gst", GST), [SourceFile("p.cat", PROFILE_CAT)])
    roster = Roster(data)
    hero = roster.select_entry(roster.add_force("fe-det", "cat-p"), "se-hero")
    _rules, profiles = collect(hero)
    shown = {
        p["name"]: (p["typeName"], [(c["name"], c["value"]) for c in p["characteristics"]]) for p in profiles
    }
    assert shown == {
        "Hero": ("Unit", [("M", '6"'), ("Ld", "8"), ("Notes", "")]),
        "Shared Gun": ("Weapon", [("Range", '18"')]),
    }
    (catalogue,) = data.catalogues.values()
    (hero_entry,) = catalogue.root
    assert [parse_profile(p) for p in hero_entry.profiles] == [
        parse_profile({"id": "pr-hero", "name": "Hero", "typeId": "pt-u", "typeName": "Unit",
                       "characteristics": [{"name": "M", "typeId": "ch-m", "value": '6"'},
                                           {"name": "Ld", "typeId": "ch-ld", "value": "8"},
                                           {"name": "Notes", "typeId": "ch-n", "value": ""}]})
    ]
    (gun,) = [parse_profile(p) for p in data.shared_infos.values() if p.get("typeId") == "pt-w"]
    assert (gun.type_id, gun.type_name, gun.characteristics) == ("pt-w", "Weapon", [("Range", "ch-r", '18"')])
