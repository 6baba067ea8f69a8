"""A unit's larger sizes priced by the roster engine (`UnitSelection.sizes`): 40k Power steps and
per-model option prices read from the engine's unit grown one size after another.

The squad below is invented in the shape of BSData/wh40k-9e's Vanguard Veteran Squad: its models
are chosen from a group ("Veterans", 5 to 10), and both its Power and its Jump Pack's price
count the selections of that group by the group's id. BattleScribe counts the models chosen
from the group, so (worked out by hand as BattleScribe totals it):

- Power 5, +4 from 6 models: Power 9 at 6 to 10 models (the importer's own sweep matched no
  selection to a group's id and gave the squad no Power step);
- the Jump Pack costs 0, +3 pts per selection counted from the group: 15 at 5 models, 18 at 6,
  36 at 12, i.e. 3 pts per model (the importer's own sweep read 0 at the larger sizes and kept
  15 for any size).
"""

from __future__ import annotations

import pytest

from rules.battlescribe.xml_reader import SourceFile
from rules.battlescribe_import import parse_import
from tests.rules.battlescribe.files import source


def _limit(limit_id: str, kind: str, value: int) -> str:
    return (
        f'<constraint field="selections" scope="parent" value="{value}.0" percentValue="false" '
        f'shared="true" includeChildSelections="false" includeChildForces="false" id="{limit_id}" '
        f'type="{kind}"/>'
    )


def _counted(kind: str, value: int) -> str:
    """A condition or repeat counting the selections of the "Veterans" group in the squad."""
    tail = 'type="atLeast"' if kind == "condition" else 'repeats="1" roundUp="false"'
    return (
        f'<{kind} field="selections" scope="se-vets" value="{value}.0" percentValue="false" '
        f'shared="true" includeChildSelections="true" includeChildForces="false" '
        f'childId="veterans" {tail}/>'
    )


SQUAD = f"""<?xml version="1.0" encoding="UTF-8"?>
<catalogue id="cat-vets" name="Veterans" revision="1" battleScribeVersion="2.03" library="false"
    gameSystemId="sys-grim" gameSystemRevision="3" xmlns="http://www.battlescribe.net/schema/catalogueSchema">
  <selectionEntries>
    <selectionEntry id="se-vets" name="Veteran Squad" hidden="false" collective="false" import="true"
        type="unit">
      <modifiers>
        <modifier type="increment" field="ct-pl" value="4.0">
          <conditions>{_counted("condition", 6)}</conditions>
        </modifier>
      </modifiers>
      <selectionEntryGroups>
        <selectionEntryGroup id="veterans" name="Veterans" hidden="false" collective="false" import="true"
            defaultSelectionEntryId="se-vet">
          <constraints>{_limit("vets-min", "min", 5)}{_limit("vets-max", "max", 10)}</constraints>
          <selectionEntries>
            <selectionEntry id="se-vet" name="Veteran" hidden="false" collective="false" import="true"
                type="model">
              <profiles>
                <profile id="pr-vet" name="Veteran" hidden="false" typeId="pt-unit" typeName="Unit">
                  <characteristics>
                    <characteristic name="M" typeId="c-m">6&quot;</characteristic>
                    <characteristic name="WS" typeId="c-ws">3+</characteristic>
                    <characteristic name="BS" typeId="c-bs">3+</characteristic>
                    <characteristic name="S" typeId="c-s">4</characteristic>
                    <characteristic name="T" typeId="c-t">4</characteristic>
                    <characteristic name="W" typeId="c-w">2</characteristic>
                    <characteristic name="A" typeId="c-a">2</characteristic>
                    <characteristic name="Ld" typeId="c-ld">8</characteristic>
                    <characteristic name="Save" typeId="c-sv">3+</characteristic>
                  </characteristics>
                </profile>
              </profiles>
              <constraints>{_limit("vet-max", "max", 10)}</constraints>
              <costs>
                <cost name="pts" typeId="ct-pts" value="10.0"/>
                <cost name=" PL" typeId="ct-pl" value="0.0"/>
              </costs>
            </selectionEntry>
          </selectionEntries>
        </selectionEntryGroup>
      </selectionEntryGroups>
      <selectionEntries>
        <selectionEntry id="se-jump" name="Jump Pack" hidden="false" collective="false" import="true"
            type="upgrade">
          <modifiers>
            <modifier type="increment" field="ct-pts" value="3.0">
              <repeats>{_counted("repeat", 1)}</repeats>
            </modifier>
          </modifiers>
          <constraints>{_limit("jump-max", "max", 1)}</constraints>
          <costs>
            <cost name="pts" typeId="ct-pts" value="0.0"/>
            <cost name=" PL" typeId="ct-pl" value="0.0"/>
          </costs>
        </selectionEntry>
      </selectionEntries>
      <costs>
        <cost name="pts" typeId="ct-pts" value="0.0"/>
        <cost name=" PL" typeId="ct-pl" value="5.0"/>
      </costs>
    </selectionEntry>
  </selectionEntries>
</catalogue>
"""


@pytest.fixture(scope="module")
def squad() -> dict:
    files = [source("grimdark.gst"), SourceFile("vets.cat", SQUAD.encode())]
    result = parse_import(system_key="wh40k9", files=files)
    (plan,) = result.plans
    (unit,) = plan.units
    return {"data": unit.values["data"], "options": {o.values["label"]: o.values for o in unit.options}}


def test_power_steps_count_the_models_chosen_from_a_group(squad):
    data = squad["data"]
    assert (data["power_rating"], data["models"][0]["count"]) == (5, 5)
    assert data["power_rating_rules"] == [{"min_models": 6, "power": 9}]


def test_an_option_priced_per_model_counted_from_a_group_costs_that_much_per_model(squad):
    jump = squad["options"]["Jump Pack"]
    assert (jump["cost"], jump["payload"].get("per_model")) == (3, True)
