"""A unit's smallest legal selection is the roster engine's auto-selection completed by
`complete_minimums` (issue 39): what the engine leaves open a unit card still fills, and what
the engine chose is kept."""

from __future__ import annotations

from rules.battlescribe.engine.constraints import validate
from rules.battlescribe.engine.roster import Roster
from rules.battlescribe.engine.xmlform import load_files
from rules.battlescribe.units.smallest import complete_minimums, required_choice
from rules.battlescribe.xml_reader import SourceFile
from rules.battlescribe_import import parse_import
from tests.rules.battlescribe.files import source
from tests.rules.battlescribe.test_one_evaluator import GST, PTS, _catalogue, _limit, _repeat

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
    complete_minimums(roster, unit, lambda group, member: took.append((group.name, member.name)))
    assert [(s.option.name, s.number) for s in unit.children] == [("Troll Slayer", 10)]
    assert unit.cost(PTS) == 110
    assert took == [("Slayer unit", "Troll Slayer")]
    assert not any("Slayer unit" in str(e) for e in validate(roster))


def test_a_required_choice_without_a_default_takes_the_cheapest_entry():
    """BSData/whfb's Keeper of Secrets must take a wizard level and names none: Level 3 (70
    pts) is written first, Level 1 (0 pts) last. The smallest legal unit takes the cheapest: here
    the Flail (5 pts), written after the Axe (7 pts)."""
    flail = NESTED[NESTED.index('<selectionEntry id="flail"') : NESTED.index('<selectionEntry id="axe"')]
    start = NESTED.index('<selectionEntry id="axe"')
    axe = NESTED[start : NESTED.index("</selectionEntry>", start) + len("</selectionEntry>")]
    dear_first = NESTED.replace(flail + axe, axe + flail.rstrip())
    assert dear_first.index('id="axe"') < dear_first.index('id="flail"')
    roster, force = _roster(dear_first)
    unit = roster.select_entry(force, "hands")
    took = []
    complete_minimums(roster, unit, lambda group, member: took.append(member.name), cost_type=PTS)
    assert [(s.option.name, s.number) for s in unit.children] == [("Flail", 1)]
    assert unit.cost(PTS) == 105 and took == ["Flail"]
    assert required_choice([], PTS) is None


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


def _between(limit_id: str, low: int, high: int) -> str:
    return _limit(f"{limit_id}-min", "min", low) + _limit(f"{limit_id}-max", "max", high)


def _mob(unit_id: str, fixer_in_mob: bool) -> str:
    """The shape of BSData 40k's Burna Boyz: a mob of 5 to 15 models, the group's default a
    10 pts model carrying its own weapon, and a 10 pts model with a 5 pts default weapon needed
    once per 4 of the default ("min 1, +1 per 4, -1"), at most 3; inside the mob's group, or
    (`fixer_in_mob` False) beside it."""
    fixer = f"""
        <selectionEntry id="{unit_id}-fixer" name="Fixer" hidden="false" collective="false" type="model">
          <modifiers>
            <modifier type="increment" field="{unit_id}-fixer-min" value="1.0">
              <repeats>{_repeat("parent", 4, f"{unit_id}-stoker")}</repeats>
            </modifier>
            <modifier type="decrement" field="{unit_id}-fixer-min" value="1.0"/>
          </modifiers>
          <constraints>{_between(f"{unit_id}-fixer", 1, 3)}</constraints>
          <selectionEntryGroups>
            <selectionEntryGroup id="{unit_id}-tool" name="Tool" hidden="false" collective="false"
                defaultSelectionEntryId="{unit_id}-wrench">
              <constraints>{_between(f"{unit_id}-tool", 1, 1)}</constraints>
              <selectionEntries>
                <selectionEntry id="{unit_id}-wrench" name="Wrench" hidden="false" type="upgrade">
                  <costs><cost name="pts" typeId="{PTS}" value="5.0"/></costs>
                </selectionEntry>
              </selectionEntries>
            </selectionEntryGroup>
          </selectionEntryGroups>
          <costs><cost name="pts" typeId="{PTS}" value="10.0"/></costs>
        </selectionEntry>"""
    return f"""
    <selectionEntry id="{unit_id}" name="{unit_id}" hidden="false" collective="false" type="unit">
      <profiles>
        <profile id="{unit_id}-profile" name="{unit_id}" hidden="false" typeId="pt-profile">
          <characteristics><characteristic name="Movement" typeId="ct-m">5</characteristic></characteristics>
        </profile>
      </profiles>
      <categoryLinks>
        <categoryLink id="{unit_id}-core" name="Core" hidden="false" targetId="cat-core" primary="true"/>
      </categoryLinks>
      <selectionEntryGroups>
        <selectionEntryGroup id="{unit_id}-mob" name="Mob" hidden="false" collective="false"
            defaultSelectionEntryId="{unit_id}-stoker">
          <constraints>{_between(f"{unit_id}-mob", 5, 15)}</constraints>
          <selectionEntries>
            <selectionEntry id="{unit_id}-stoker" name="Stoker" hidden="false" type="model">
              <selectionEntries>
                <selectionEntry id="{unit_id}-torch" name="Torch" hidden="false" type="upgrade">
                  <constraints>{_between(f"{unit_id}-torch", 1, 1)}</constraints>
                </selectionEntry>
              </selectionEntries>
              <costs><cost name="pts" typeId="{PTS}" value="10.0"/></costs>
            </selectionEntry>{fixer if fixer_in_mob else ""}
          </selectionEntries>
        </selectionEntryGroup>
      </selectionEntryGroups>
      <selectionEntries>{"" if fixer_in_mob else fixer}
      </selectionEntries>
    </selectionEntry>"""


#: Two mobs: the Fixer counted in the mob's size, and beside it (not counted).
MOBS = f"""<?xml version="1.0" encoding="UTF-8"?>
<catalogue id="cat-mob" name="Mobs" revision="1" battleScribeVersion="2.03" library="false"
    gameSystemId="sys-one" gameSystemRevision="1" xmlns="http://www.battlescribe.net/schema/catalogueSchema">
  <selectionEntries>{_mob("stokers", True)}{_mob("stokers-apart", False)}
  </selectionEntries>
</catalogue>
"""


def _models(unit) -> list[tuple[str, int]]:
    counts: dict[str, int] = {}
    for sel in unit.children:
        counts[sel.option.name] = counts.get(sel.option.name, 0) + sel.number
    return sorted(counts.items())


def _errors_of(roster: Roster, unit_id: str) -> list[str]:
    return [e.message for e in validate(roster) if e.owner_id.startswith(unit_id) or unit_id in e.source]


def test_a_model_a_modifier_requires_replaces_a_model_of_the_mob_when_that_is_cheaper():
    """Burna Boyz in small: the engine selects 5 Stokers (50 pts), and then 1 Fixer is needed
    (5 // 4). 5 Stokers and a Fixer (65 pts) is legal, but the mob's 5 models may be 4 Stokers
    and the Fixer (4 // 4 = 1 Fixer needed): 55 pts, the cheapest legal unit."""
    roster, force = _roster(MOBS)
    unit = roster.select_entry(force, "stokers")
    assert _models(unit) == [("Stoker", 5)]
    complete_minimums(roster, unit, cost_type=PTS)
    assert _models(unit) == [("Fixer", 1), ("Stoker", 4)]
    assert unit.cost(PTS) == 55
    assert _errors_of(roster, "stokers") == []
    assert set(force.index.deep.all) == set(force.descendants())


def test_without_a_cost_type_or_when_the_swap_breaks_a_limit_the_model_is_added():
    """Without a cost type to compare nothing is swapped (65 pts); a Fixer beside the mob is not
    counted in it, so a Stoker given up would leave the mob under its 5: added (65 pts)."""
    roster, force = _roster(MOBS)
    unit = roster.select_entry(force, "stokers")
    complete_minimums(roster, unit)
    assert _models(unit) == [("Fixer", 1), ("Stoker", 5)]
    assert unit.cost(PTS) == 65
    apart = roster.select_entry(force, "stokers-apart")
    complete_minimums(roster, apart, cost_type=PTS)
    assert _models(apart) == [("Fixer", 1), ("Stoker", 5)]
    assert apart.cost(PTS) == 65
    assert _errors_of(roster, "stokers-apart") == []
    # The trial given up left the force's index of its selections as it was.
    assert set(force.index.deep.all) == set(force.descendants())


def test_the_import_prices_the_cheapest_legal_mob():
    files = [SourceFile("one.gst", GST.encode()), SourceFile("c.cat", MOBS.encode())]
    (faction,) = parse_import(system_key="whfb6", files=files).summary()["factions"]
    assert {u["name"]: u["points"] for u in faction["units"]} == {"stokers": 55, "stokers-apart": 65}


def _weapon(entry_id: str, name: str) -> str:
    return f"""<selectionEntry id="{entry_id}" name="{name}" hidden="false" collective="false" type="upgrade">
      <profiles>
        <profile id="{entry_id}-pr" name="{name}" hidden="false" typeId="pt-weapon" typeName="Weapon">
          <characteristics>
            <characteristic name="Range" typeId="w-range">12&quot;</characteristic>
            <characteristic name="Type" typeId="w-type">Pistol 1</characteristic>
            <characteristic name="S" typeId="w-s">4</characteristic>
            <characteristic name="AP" typeId="w-ap">0</characteristic>
            <characteristic name="D" typeId="w-d">1</characteristic>
            <characteristic name="Abilities" typeId="w-ab">-</characteristic>
          </characteristics>
        </profile>
      </profiles>
      <costs><cost name="pts" typeId="ct-pts" value="0.0"/></costs>
    </selectionEntry>"""


#: BSData wh40k-9e's Sanguinary Priest on Bike (Blood Angels): a shared "Melee weapons" group with
#: a default is linked twice under the model, once inside its "Ranged/Melee weapon" group (whose
#: default is the pistol) and once after its grenades, where a minimum takes the default.
PRIEST = f"""<?xml version="1.0" encoding="UTF-8"?>
<catalogue id="cat-priest" name="Priests" revision="1" battleScribeVersion="2.03" library="false"
    gameSystemId="sys-grim" gameSystemRevision="3" xmlns="http://www.battlescribe.net/schema/catalogueSchema">
  <selectionEntries>
    <selectionEntry id="se-priest" name="Priest" hidden="false" collective="false" type="model">
      <profiles>
        <profile id="pr-priest" name="Priest" hidden="false" typeId="pt-unit" typeName="Unit">
          <characteristics>
            <characteristic name="M" typeId="c-m">6&quot;</characteristic>
            <characteristic name="WS" typeId="c-ws">3+</characteristic>
            <characteristic name="BS" typeId="c-bs">3+</characteristic>
            <characteristic name="S" typeId="c-s">4</characteristic>
            <characteristic name="T" typeId="c-t">4</characteristic>
            <characteristic name="W" typeId="c-w">4</characteristic>
            <characteristic name="A" typeId="c-a">3</characteristic>
            <characteristic name="Ld" typeId="c-ld">8</characteristic>
            <characteristic name="Save" typeId="c-sv">3+</characteristic>
          </characteristics>
        </profile>
      </profiles>
      <selectionEntryGroups>
        <selectionEntryGroup id="seg-either" name="Ranged/Melee weapon" hidden="false" collective="false"
            defaultSelectionEntryId="el-pistol">
          <constraints>{_limit("either-min", "min", 1)}{_limit("either-max", "max", 1)}</constraints>
          <entryLinks>
            <entryLink id="el-pistol" name="Bolt pistol" targetId="se-pistol" type="selectionEntry"/>
            <entryLink id="el-melee-1" name="Melee weapons" hidden="false" targetId="seg-melee"
                type="selectionEntryGroup"/>
          </entryLinks>
        </selectionEntryGroup>
      </selectionEntryGroups>
      <entryLinks>
        <entryLink id="el-grenades" name="Grenades" targetId="se-grenades" type="selectionEntry">
          <constraints>{_limit("grenades-min", "min", 1)}{_limit("grenades-max", "max", 1)}</constraints>
        </entryLink>
        <entryLink id="el-melee-2" name="Melee weapons" hidden="false" targetId="seg-melee"
            type="selectionEntryGroup">
          <constraints>{_limit("melee-min", "min", 1)}{_limit("melee-max", "max", 1)}</constraints>
        </entryLink>
      </entryLinks>
      <costs><cost name="pts" typeId="ct-pts" value="80.0"/></costs>
    </selectionEntry>
  </selectionEntries>
  <sharedSelectionEntries>{_weapon("se-pistol", "Bolt pistol")}{_weapon("se-grenades", "Grenades")}
    {_weapon("se-sword", "Chainsword")}{_weapon("se-axe", "Power axe")}
  </sharedSelectionEntries>
  <sharedSelectionEntryGroups>
    <selectionEntryGroup id="seg-melee" name="Melee weapons" hidden="false" collective="false"
        defaultSelectionEntryId="el-sword">
      <entryLinks>
        <entryLink id="el-sword" name="Chainsword" hidden="false" targetId="se-sword" type="selectionEntry"/>
        <entryLink id="el-axe" name="Power axe" hidden="false" targetId="se-axe" type="selectionEntry"/>
      </entryLinks>
    </selectionEntryGroup>
  </sharedSelectionEntryGroups>
</catalogue>
"""


def test_a_selection_is_the_option_the_engine_took_where_one_entry_is_linked_twice():
    """The importer's tree keeps the very option the engine selected (one model of the data):
    the Chainsword taken through the "Melee weapons" link written after the grenades is that
    one, so the model carries pistol, grenades, chainsword in the data's order. The importer's
    own model matched a selection to the first entry of the same ids, the Chainsword of the
    "Ranged/Melee weapon" group, and listed it before the grenades (BSData's Sanguinary Priest
    on Bike [Legends], the one unit of the four corpora whose record changed with one model)."""
    files = [source("grimdark.gst"), SourceFile("priest.cat", PRIEST.encode())]
    (plan,) = parse_import(system_key="wh40k9", files=files).plans
    (unit,) = plan.units
    (model,) = unit.values["data"]["models"]
    assert [w["name"] for w in model["weapons"]] == ["Bolt pistol", "Grenades", "Chainsword"]
    assert model["points"] == 80
