"""The importer asks the roster engine about the options it offers (`engine.query`): their limits
under the unit, whether a modifier's conditions hold there, and what taking one adds to the unit.

Each case is a small invented catalogue in the shape of the community data where the importer's
own `Pricer` answered otherwise; the expected figures are worked out by hand the way
BattleScribe shows them for a unit added to an empty force.
"""

from __future__ import annotations

import pytest

from rules.battlescribe.xml_reader import SourceFile
from rules.battlescribe_import import parse_import
from tests.rules.battlescribe.test_one_evaluator import GST, PTS


def _limit(limit_id: str, kind: str, value: int, scope: str = "parent") -> str:
    return (
        f'<constraint field="selections" scope="{scope}" value="{value}.0" percentValue="false" '
        f'shared="true" includeChildSelections="false" includeChildForces="false" id="{limit_id}" '
        f'type="{kind}"/>'
    )


def _item(item_id: str, name: str, cost: int) -> str:
    return f"""
            <selectionEntry id="{item_id}" name="{name}" hidden="false" collective="false" import="true"
                type="upgrade">
              <costs><cost name="pts" typeId="{PTS}" value="{cost}.0"/></costs>
            </selectionEntry>"""


#: A hero whose "Battle Standard" upgrade allows 0 of it, +1 by its own modifier of its constraint
#: "maxSelections" (BSData/whfb 8th Empire's Captain). The upgrade holds a "Magic Standards" group
#: whose own limit, at most 1, has the same id, as that data writes every limit's id. The
#: upgrade's modifier is the upgrade's own: at most 1 magic standard, as BattleScribe shows it
#: (the importer's own `Pricer` applied it to the group's limit too: at most 2).
BEARER = f"""
    <selectionEntry id="hero" name="Captain" hidden="false" collective="false" import="true" type="model">
      <profiles>
        <profile id="hero-profile" name="Captain" hidden="false" typeId="pt-profile" typeName="Profile">
          <characteristics><characteristic name="Movement" typeId="ct-m">4</characteristic></characteristics>
        </profile>
      </profiles>
      <selectionEntries>
        <selectionEntry id="bearer" name="Battle Standard" hidden="false" collective="false" import="true"
            type="upgrade">
          <modifiers>
            <modifier type="increment" field="maxSelections" value="1.0">
              <conditions>
                <condition field="selections" scope="roster" value="1.0" percentValue="false"
                    shared="true" includeChildSelections="true" includeChildForces="false"
                    childId="nothing-of-this-id" type="lessThan"/>
              </conditions>
            </modifier>
          </modifiers>
          <constraints>{_limit("maxSelections", "max", 0)}</constraints>
          <selectionEntryGroups>
            <selectionEntryGroup id="standards" name="Magic Standards" hidden="false" collective="false"
                import="true">
              <constraints>{_limit("maxSelections", "max", 1)}</constraints>
              <selectionEntries>{_item("banner-a", "Banner A", 10)}{_item("banner-b", "Banner B", 20)}
              </selectionEntries>
            </selectionEntryGroup>
          </selectionEntryGroups>
          <costs><cost name="pts" typeId="{PTS}" value="25.0"/></costs>
        </selectionEntry>
      </selectionEntries>
      <costs><cost name="pts" typeId="{PTS}" value="50.0"/></costs>
    </selectionEntry>"""


def _model(model_id: str, name: str, low: int, high: int, cost: int) -> str:
    return f"""
        <selectionEntry id="{model_id}" name="{name}" hidden="false" collective="false" import="true"
            type="model">
          <profiles>
            <profile id="{model_id}-profile" name="{name}" hidden="false" typeId="pt-profile"
                typeName="Profile">
              <characteristics>
                <characteristic name="Movement" typeId="ct-m">6</characteristic>
              </characteristics>
            </profile>
          </profiles>
          <constraints>
            {_limit(f"{model_id}-min", "min", low)}{_limit(f"{model_id}-max", "max", high)}
          </constraints>
          <costs><cost name="pts" typeId="{PTS}" value="{cost}.0"/></costs>
        </selectionEntry>"""


#: A squad of at least 5 scouts, chosen from its "Scouts" group, whose cloak is allowed 0 times,
#: +1 per selection counted from that group (a repeat whose childId is the group's id:
#: BSData/wh40k-9e Space Marines' Scout Squad and its Camo cloak). BattleScribe counts the
#: selections chosen from the group, and allows 5 cloaks at the smallest size (the importer's own
#: `Pricer` matched no selection to a group's id, and offered the cloak once).
SCOUTS = f"""
    <selectionEntry id="scouts" name="Scout Squad" hidden="false" collective="false" import="true"
        type="unit">
      <selectionEntryGroups>
        <selectionEntryGroup id="scouts-group" name="Scouts" hidden="false" collective="false" import="true"
            defaultSelectionEntryId="scout">
          <constraints>{_limit("scouts-min", "min", 5)}{_limit("scouts-max", "max", 10)}</constraints>
          <selectionEntries>{_model("scout", "Scout", 0, 10, 10)}
          </selectionEntries>
        </selectionEntryGroup>
      </selectionEntryGroups>
      <selectionEntries>
        <selectionEntry id="cloak" name="Camo cloak" hidden="false" collective="false" import="true"
            type="upgrade">
          <modifiers>
            <modifier type="increment" field="cloak-max" value="1.0">
              <repeats>
                <repeat field="selections" scope="scouts" value="1.0" percentValue="false" shared="true"
                    includeChildSelections="true" includeChildForces="false" childId="scouts-group"
                    repeats="1" roundUp="false"/>
              </repeats>
            </modifier>
          </modifiers>
          <constraints>{_limit("cloak-max", "max", 0)}</constraints>
          <costs><cost name="pts" typeId="{PTS}" value="2.0"/></costs>
        </selectionEntry>
      </selectionEntries>
      <costs><cost name="pts" typeId="{PTS}" value="0.0"/></costs>
    </selectionEntry>"""

#: A knight that becomes a Wizard (a category a modifier adds) once its household, which it must
#: take, is selected; its relic is hidden from a unit that is no Wizard (BSData/wh40k-9e Imperial
#: Knights: "Faction: Questor Mechanicus" added by the household, Mechanicus traditions hidden
#: from the others). At its smallest selection the knight is a Wizard, so BattleScribe shows the
#: relic (the importer's own `Pricer` read the written categories only, and hid it).
KNIGHT = f"""
    <selectionEntry id="knight" name="Knight" hidden="false" collective="false" import="true" type="unit">
      <modifiers>
        <modifier type="add" field="category" value="cat-wizard">
          <conditions>
            <condition field="selections" scope="self" value="1.0" percentValue="false" shared="true"
                includeChildSelections="true" includeChildForces="false" childId="household" type="atLeast"/>
          </conditions>
        </modifier>
      </modifiers>
      <selectionEntries>{_model("knight-model", "Knight", 1, 1, 100)}
        <selectionEntry id="household" name="Household" hidden="false" collective="false" import="true"
            type="upgrade">
          <constraints>{_limit("household-min", "min", 1)}{_limit("household-max", "max", 1)}</constraints>
          <costs><cost name="pts" typeId="{PTS}" value="0.0"/></costs>
        </selectionEntry>
        <selectionEntry id="relic" name="Relic" hidden="false" collective="false" import="true"
            type="upgrade">
          <modifiers>
            <modifier type="set" field="hidden" value="true">
              <conditions>
                <condition field="selections" scope="parent" value="0.0" percentValue="false" shared="true"
                    includeChildSelections="false" includeChildForces="false" childId="cat-wizard"
                    type="notInstanceOf"/>
              </conditions>
            </modifier>
          </modifiers>
          <constraints>{_limit("relic-max", "max", 1)}</constraints>
          <costs><cost name="pts" typeId="{PTS}" value="15.0"/></costs>
        </selectionEntry>
      </selectionEntries>
      <costs><cost name="pts" typeId="{PTS}" value="0.0"/></costs>
    </selectionEntry>"""


def _catalogue(entries: str) -> str:
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<catalogue id="cat-queries" name="Engine Queries" revision="1" battleScribeVersion="2.03" library="false"
    gameSystemId="sys-one" gameSystemRevision="1" xmlns="http://www.battlescribe.net/schema/catalogueSchema">
  <selectionEntries>{entries}
  </selectionEntries>
</catalogue>
"""


#: A squad of at least 5 scouts, chosen from its "Scouts" group, whose cloak is allowed 0 times,
#: +1 per selection counted from that group (a repeat whose childId is the group's id:
#: BSData/wh40k-9e Space Marines' Scout Squad and its Camo cloak). BattleScribe counts the
#: selections chosen from the group, and allows 5 cloaks at the smallest size (the importer's own
#: `Pricer` matched no selection to a group's id, and offered the cloak once).
SCOUTS = f"""
    <selectionEntry id="scouts" name="Scout Squad" hidden="false" collective="false" import="true"
        type="unit">
      <selectionEntryGroups>
        <selectionEntryGroup id="scouts-group" name="Scouts" hidden="false" collective="false" import="true"
            defaultSelectionEntryId="scout">
          <constraints>{_limit("scouts-min", "min", 5)}{_limit("scouts-max", "max", 10)}</constraints>
          <selectionEntries>{_model("scout", "Scout", 0, 10, 10)}
          </selectionEntries>
        </selectionEntryGroup>
      </selectionEntryGroups>
      <selectionEntries>
        <selectionEntry id="cloak" name="Camo cloak" hidden="false" collective="false" import="true"
            type="upgrade">
          <modifiers>
            <modifier type="increment" field="cloak-max" value="1.0">
              <repeats>
                <repeat field="selections" scope="scouts" value="1.0" percentValue="false" shared="true"
                    includeChildSelections="true" includeChildForces="false" childId="scouts-group"
                    repeats="1" roundUp="false"/>
              </repeats>
            </modifier>
          </modifiers>
          <constraints>{_limit("cloak-max", "max", 0)}</constraints>
          <costs><cost name="pts" typeId="{PTS}" value="2.0"/></costs>
        </selectionEntry>
      </selectionEntries>
      <costs><cost name="pts" typeId="{PTS}" value="0.0"/></costs>
    </selectionEntry>"""

#: A knight that becomes a Wizard (a category a modifier adds) once its household, which it must
#: take, is selected; its relic is hidden from a unit that is no Wizard (BSData/wh40k-9e Imperial
#: Knights: "Faction: Questor Mechanicus" added by the household, Mechanicus traditions hidden
#: from the others). At its smallest selection the knight is a Wizard, so BattleScribe shows the
#: relic (the importer's own `Pricer` read the written categories only, and hid it).
KNIGHT = f"""
    <selectionEntry id="knight" name="Knight" hidden="false" collective="false" import="true" type="unit">
      <modifiers>
        <modifier type="add" field="category" value="cat-wizard">
          <conditions>
            <condition field="selections" scope="self" value="1.0" percentValue="false" shared="true"
                includeChildSelections="true" includeChildForces="false" childId="household" type="atLeast"/>
          </conditions>
        </modifier>
      </modifiers>
      <selectionEntries>{_model("knight-model", "Knight", 1, 1, 100)}
        <selectionEntry id="household" name="Household" hidden="false" collective="false" import="true"
            type="upgrade">
          <constraints>{_limit("household-min", "min", 1)}{_limit("household-max", "max", 1)}</constraints>
          <costs><cost name="pts" typeId="{PTS}" value="0.0"/></costs>
        </selectionEntry>
        <selectionEntry id="relic" name="Relic" hidden="false" collective="false" import="true"
            type="upgrade">
          <modifiers>
            <modifier type="set" field="hidden" value="true">
              <conditions>
                <condition field="selections" scope="parent" value="0.0" percentValue="false" shared="true"
                    includeChildSelections="false" includeChildForces="false" childId="cat-wizard"
                    type="notInstanceOf"/>
              </conditions>
            </modifier>
          </modifiers>
          <constraints>{_limit("relic-max", "max", 1)}</constraints>
          <costs><cost name="pts" typeId="{PTS}" value="15.0"/></costs>
        </selectionEntry>
      </selectionEntries>
      <costs><cost name="pts" typeId="{PTS}" value="0.0"/></costs>
    </selectionEntry>"""


def _catalogue(entries: str) -> str:
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<catalogue id="cat-queries" name="Engine Queries" revision="1" battleScribeVersion="2.03" library="false"
    gameSystemId="sys-one" gameSystemRevision="1" xmlns="http://www.battlescribe.net/schema/catalogueSchema">
  <selectionEntries>{entries}
  </selectionEntries>
</catalogue>
"""


#: The squad offered through a root link to the shared entry (as a chapter offers it).
SCOUTS_LINK = """
    <entryLink id="scouts-link" name="Scout Squad" hidden="false" collective="false" import="true"
        targetId="scouts" type="selectionEntry"/>"""


@pytest.fixture(scope="module")
def units() -> dict[str, dict[str, dict]]:
    """{unit name: {option label: option}} of the catalogue of every case above."""
    catalogue = _catalogue(BEARER + KNIGHT + SCOUTS)
    files = [SourceFile("one.gst", GST.encode()), SourceFile("q.cat", catalogue.encode())]
    result = parse_import(system_key="whfb6", files=files)
    (plan,) = result.plans
    return {u.values["name"]: {o.values["label"]: o.values for o in u.options} for u in plan.units}


@pytest.fixture(scope="module")
def options(units) -> dict[str, dict]:
    return units["Captain"]


def test_a_modifier_of_an_entrys_own_limit_leaves_its_childrens_limits_of_the_same_id(options):
    assert options["Battle Standard"]["max_count"] == 1
    for label, cost in (("Banner A", 10), ("Banner B", 20)):
        banner = options[label]
        assert (banner["cost"], banner["max_count"], banner["payload"]["group_max"]) == (cost, 1, 1)


def test_a_limit_raised_per_model_counted_in_the_unit_by_its_id_allows_one_per_model(units):
    cloak = units["Scout Squad"]["Camo cloak"]
    assert (cloak["cost"], cloak["max_count"]) == (2, 5)


def test_a_hidden_modifier_asking_what_the_unit_is_sees_the_categories_modifiers_give_it(units):
    relic = units["Knight"]["Relic"]
    assert (relic["cost"], relic["max_count"]) == (15, 1)
