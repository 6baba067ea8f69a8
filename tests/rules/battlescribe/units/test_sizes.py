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

The mob below is BSData/wh40k-9e's Orks Lootas in small: up to 12 Lootas (14 pts) chosen from a
group of 5 to 15 models, and Spanners (10 pts) of which the mob must take one per 4 Lootas (a
minimum of 1, +1 per 4 Lootas, -1). Its smallest legal selection is 4 Lootas and 1 Spanner (66
pts: the Spanner the data requires fills the mob's fifth place, `smallest._swap_cheaper`); each
larger size is that unit grown by Lootas, with the Spanners the larger size requires: +14 at 5
Lootas, +28 at 6, +42 at 7, +66 at 8 (4 Lootas and a second Spanner), up to +132 at 12 (the
importer's own sweep built each size afresh and lost the Spanner: +0, +14, +28...).
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


def _model(model_id: str, name: str, cost: int, limits: str, modifiers: str = "") -> str:
    return f"""
            <selectionEntry id="{model_id}" name="{name}" hidden="false" collective="false" import="true"
                type="model">
              <modifiers>{modifiers}</modifiers>
              <constraints>{limits}</constraints>
              <costs>
                <cost name="pts" typeId="ct-pts" value="{cost}.0"/>
                <cost name=" PL" typeId="ct-pl" value="0.0"/>
              </costs>
            </selectionEntry>"""


#: A Spanner's minimum: 1, +1 per 4 Lootas in the mob, -1.
SPANNERS = """
                <modifier type="increment" field="spanner-min" value="1.0">
                  <repeats>
                    <repeat field="selections" scope="parent" value="4.0" percentValue="false" shared="true"
                        includeChildSelections="false" includeChildForces="false" childId="se-loota"
                        repeats="1" roundUp="false"/>
                  </repeats>
                </modifier>
                <modifier type="decrement" field="spanner-min" value="1.0"/>"""

MOB = f"""
    <selectionEntry id="se-mob" name="Mob" hidden="false" collective="false" import="true" type="unit">
      <selectionEntryGroups>
        <selectionEntryGroup id="mob" name="Mob" hidden="false" collective="false" import="true"
            defaultSelectionEntryId="se-loota">
          <constraints>{_limit("mob-min", "min", 5)}{_limit("mob-max", "max", 15)}</constraints>
          <selectionEntries>{_model("se-loota", "Loota", 14, _limit("loota-max", "max", 12))}{
    _model(
        "se-spanner",
        "Spanner",
        10,
        _limit("spanner-max", "max", 3) + _limit("spanner-min", "min", 1),
        SPANNERS,
    )
}
          </selectionEntries>
        </selectionEntryGroup>
      </selectionEntryGroups>
      <costs>
        <cost name="pts" typeId="ct-pts" value="0.0"/>
        <cost name=" PL" typeId="ct-pl" value="8.0"/>
      </costs>
    </selectionEntry>"""

#: The mob above with Orks Burna Boyz' Burna Boy: no maximum of its own, the group's 15 the only
#: bound. Its smallest selection is 4 Burna Boys and a Spanner (the group's 5), so a Burna Boy can
#: be added up to 14 of them (15 less the Spanner), 10 more: not 100 more (the importer's guess
#: for a model without a maximum, which read the model's own limits only: "up to 104").
BURNAS = MOB.replace('id="se-mob" name="Mob"', 'id="se-burnas" name="Burnas"').replace(
    'id="mob" name="Mob"', 'id="burnas" name="Burnas"'
).replace(_limit("loota-max", "max", 12), "").replace('"Loota"', '"Burna Boy"')
for _old, _new in [
    ("se-loota", "se-burna"),
    ("se-spanner", "se-burna-spanner"),
    ("spanner-m", "burna-spanner-m"),
    ("mob-m", "burnas-m"),
]:
    BURNAS = BURNAS.replace(_old, _new)

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
    </selectionEntry>{MOB}{BURNAS}
  </selectionEntries>
</catalogue>
"""


@pytest.fixture(scope="module")
def units() -> dict[str, dict]:
    """{unit name: {"data": its record, "options": {label: option}}} of the catalogue above."""
    files = [source("grimdark.gst"), SourceFile("vets.cat", SQUAD.encode())]
    result = parse_import(system_key="wh40k9", files=files)
    (plan,) = result.plans
    return {
        u.values["name"]: {
            "data": u.values["data"],
            "options": {o.values["label"]: o.values for o in u.options},
        }
        for u in plan.units
    }


@pytest.fixture(scope="module")
def squad(units) -> dict:
    return units["Veteran Squad"]


def test_power_steps_count_the_models_chosen_from_a_group(squad):
    data = squad["data"]
    assert (data["power_rating"], data["models"][0]["count"]) == (5, 5)
    assert data["power_rating_rules"] == [{"min_models": 6, "power": 9}]


def test_an_option_priced_per_model_counted_from_a_group_costs_that_much_per_model(squad):
    jump = squad["options"]["Jump Pack"]
    assert (jump["cost"], jump["payload"].get("per_model")) == (3, True)


def test_a_larger_size_takes_the_models_its_size_requires_as_the_smallest_does(units):
    mob = units["Mob"]
    assert [(m["name"], m["count"]) for m in mob["data"]["models"]] == [("Loota", 4), ("Spanner", 1)]
    grow = mob["options"]["Add Loota (up to 12)"]
    assert (grow["cost"], grow["payload"]["costs"]) == (14, [14, 28, 42, 66, 80, 94, 108, 132])


def test_a_model_without_a_maximum_grows_to_its_groups_maximum_less_the_others(units):
    burnas = units["Burnas"]
    assert [(m["name"], m["count"]) for m in burnas["data"]["models"]] == [("Burna Boy", 4), ("Spanner", 1)]
    (grow,) = [o for o in burnas["options"].values() if o["applies_to"] == "Burna Boy"]
    assert (grow["label"], grow["max_count"]) == ("Add Burna Boy (up to 14)", 10)
