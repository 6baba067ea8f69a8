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


def _catalogue(entries: str) -> str:
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<catalogue id="cat-queries" name="Engine Queries" revision="1" battleScribeVersion="2.03" library="false"
    gameSystemId="sys-one" gameSystemRevision="1" xmlns="http://www.battlescribe.net/schema/catalogueSchema">
  <selectionEntries>{entries}
  </selectionEntries>
</catalogue>
"""


@pytest.fixture(scope="module")
def options() -> dict[str, dict]:
    files = [SourceFile("one.gst", GST.encode()), SourceFile("q.cat", _catalogue(BEARER).encode())]
    result = parse_import(system_key="whfb6", files=files)
    (plan,) = result.plans
    (unit,) = plan.units
    return {o.values["label"]: o.values for o in unit.options}


def test_a_modifier_of_an_entrys_own_limit_leaves_its_childrens_limits_of_the_same_id(options):
    assert options["Battle Standard"]["max_count"] == 1
    for label, cost in (("Banner A", 10), ("Banner B", 20)):
        banner = options[label]
        assert (banner["cost"], banner["max_count"], banner["payload"]["group_max"]) == (cost, 1, 1)
