"""The catalogue import and the roster engine evaluate conditions, repeats and modifiers with one
evaluator (`rules.battlescribe.evaluation` runs `engine.conditions` and `engine.modifiers`).

Each case is a small invented catalogue in the shape of the community data where the importer's
own evaluator and the engine disagreed; the answer is the one BattleScribe gives a unit added
to an empty force, which the engine computes: the import prices each unit as the engine's
roster prices it, and each figure below is worked out by hand.
"""

from __future__ import annotations

import pytest

from rules.battlescribe.engine.roster import Roster
from rules.battlescribe.engine.xmlform import load_files
from rules.battlescribe.xml_reader import SourceFile
from rules.battlescribe_import import parse_import

PTS = "c0st-pts"
GST = f"""<?xml version="1.0" encoding="UTF-8"?>
<gameSystem id="sys-one" name="One Evaluator" revision="1" battleScribeVersion="2.03"
    xmlns="http://www.battlescribe.net/schema/gameSystemSchema">
  <costTypes><costType id="{PTS}" name="pts" defaultCostLimit="-1.0"/></costTypes>
  <profileTypes>
    <profileType id="pt-profile" name="Profile">
      <characteristicTypes><characteristicType id="ct-m" name="Movement"/></characteristicTypes>
    </profileType>
  </profileTypes>
  <categoryEntries><categoryEntry id="cat-core" name="Core" hidden="false"/></categoryEntries>
  <forceEntries>
    <forceEntry id="fe-army" name="Army" hidden="false">
      <categoryLinks>
        <categoryLink id="fe-core" name="Core" hidden="false" targetId="cat-core" primary="false"/>
      </categoryLinks>
    </forceEntry>
  </forceEntries>
</gameSystem>
"""


def _repeat(scope: str, value: int, child: str, repeats: int = 1) -> str:
    return (
        f'<repeat field="selections" scope="{scope}" value="{value}.0" percentValue="false" '
        f'shared="true" includeChildSelections="false" includeChildForces="false" '
        f'childId="{child}" repeats="{repeats}" roundUp="false"/>'
    )


def _unit(unit_id: str, modifiers: str, own_cost: int = 0, model_cost: int = 10, models: int = 10) -> str:
    """A unit of `models` models at `model_cost` each, its own cost `own_cost`, and `modifiers`."""
    return f"""
    <selectionEntry id="{unit_id}" name="{unit_id}" hidden="false" collective="false" import="true"
        type="unit">
      {modifiers}
      <categoryLinks>
        <categoryLink id="{unit_id}-core" name="Core" hidden="false" targetId="cat-core"
            primary="true"/>
      </categoryLinks>
      <selectionEntries>
        <selectionEntry id="{unit_id}-model" name="Warrior" hidden="false" collective="false"
            import="true" type="model">
          <profiles>
            <profile id="{unit_id}-profile" name="Warrior" hidden="false" typeId="pt-profile"
                typeName="Profile">
              <characteristics>
                <characteristic name="Movement" typeId="ct-m">4</characteristic>
              </characteristics>
            </profile>
          </profiles>
          <constraints>
            <constraint field="selections" scope="parent" value="{models}.0" percentValue="false"
              shared="true"
              includeChildSelections="false" includeChildForces="false" id="{unit_id}-min" type="min"/>
            <constraint field="selections" scope="parent" value="{models * 2}.0" percentValue="false"
              shared="true"
              includeChildSelections="false" includeChildForces="false" id="{unit_id}-max" type="max"/>
          </constraints>
          <costs><cost name="pts" typeId="{PTS}" value="{model_cost}.0"/></costs>
        </selectionEntry>
      </selectionEntries>
      <costs><cost name="pts" typeId="{PTS}" value="{own_cost}.0"/></costs>
    </selectionEntry>"""


UNITS = {
    # A modifier group repeating per 5 models around a modifier repeating 3 times per 10 models
    # in the unit: the group applies its contents twice, each time 3 increments: +6.
    "nested-repeats": (
        "<modifierGroups><modifierGroup><repeats>"
        + _repeat("self", 5, "model")
        + '</repeats><modifiers><modifier type="increment" field="' + PTS + '" value="1.0"><repeats>'
        + _repeat("self", 10, "model", 3)
        + "</repeats></modifier></modifiers></modifierGroup></modifierGroups>",
        0,
        106,
    ),
    # A unit's own repeat of scope "parent" counts in the unit's parent, the force: its root
    # selections hold no model, so nothing is added (the unit's models are not its parent's).
    "root-parent-scope": (
        '<modifiers><modifier type="increment" field="' + PTS + '" value="1.0"><repeats>'
        + _repeat("parent", 1, "model")
        + "</repeats></modifier></modifiers>",
        0,
        100,
    ),
    # A condition on the force counts the unit itself: "at least 1 of this unit in the force"
    # holds as soon as it is taken (the importer's own evaluator counted only what the unit
    # held, and left the price at 100).
    "counts-itself": (
        '<modifiers><modifier type="increment" field="' + PTS + '" value="5.0"><conditions>'
        '<condition field="selections" scope="force" value="1.0" percentValue="false" shared="true" '
        'includeChildSelections="false" includeChildForces="false" childId="counts-itself" type="atLeast"/>'
        "</conditions></modifier></modifiers>",
        0,
        105,
    ),
    # A multiply modifier doubling the unit's own 5 pts: the importer's evaluator ignored it (105).
    "multiplied": (
        '<modifiers><modifier type="multiply" field="' + PTS + '" value="2.0"/></modifiers>',
        5,
        110,
    ),
}


def _limit(limit_id: str, kind: str, value: int) -> str:
    return (
        f'<constraint field="selections" scope="parent" value="{value}.0" percentValue="false" '
        f'shared="true" includeChildSelections="false" includeChildForces="false" id="{limit_id}" '
        f'type="{kind}"/>'
    )


#: A unit whose model is a link to a shared model entry taken at least 3 times; the link says at
#: least 1. BattleScribe keeps the target's limit with the link's value (1 model, 10 pts); the
#: importer's own reading took the larger of both minimums (3 models, 30 pts).
LINKED = f"""
    <selectionEntry id="link-lowers-min" name="link-lowers-min" hidden="false" collective="false"
        import="true" type="unit">
      <categoryLinks>
        <categoryLink id="llm-core" name="Core" hidden="false" targetId="cat-core" primary="true"/>
      </categoryLinks>
      <entryLinks>
        <entryLink id="llm-link" name="Champion" hidden="false" collective="false" import="true"
            targetId="shared-champion" type="selectionEntry">
          <constraints>{_limit("llm-min", "min", 1)}</constraints>
        </entryLink>
      </entryLinks>
      <costs><cost name="pts" typeId="{PTS}" value="0.0"/></costs>
    </selectionEntry>"""
SHARED = f"""
    <selectionEntry id="shared-champion" name="Champion" hidden="false" collective="false" import="true"
        type="model">
      <profiles>
        <profile id="champion-profile" name="Champion" hidden="false" typeId="pt-profile" typeName="Profile">
          <characteristics><characteristic name="Movement" typeId="ct-m">4</characteristic></characteristics>
        </profile>
      </profiles>
      <constraints>{_limit("champion-min", "min", 3)}{_limit("champion-max", "max", 5)}</constraints>
      <costs><cost name="pts" typeId="{PTS}" value="10.0"/></costs>
    </selectionEntry>"""


def _catalogue() -> str:
    units = "".join(_unit(key, modifiers, own) for key, (modifiers, own, _points) in UNITS.items())
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<catalogue id="cat-one" name="One Evaluator Army" revision="1" battleScribeVersion="2.03" library="false"
    gameSystemId="sys-one" gameSystemRevision="1" xmlns="http://www.battlescribe.net/schema/catalogueSchema">
  <selectionEntries>{units}{LINKED}
  </selectionEntries>
  <sharedSelectionEntries>{SHARED}
  </sharedSelectionEntries>
</catalogue>
"""


@pytest.fixture(scope="module")
def files() -> list[SourceFile]:
    return [SourceFile("one.gst", GST.encode()), SourceFile("one.cat", _catalogue().encode())]


@pytest.fixture(scope="module")
def imported(files) -> dict[str, int]:
    result = parse_import(system_key="whfb6", files=files)
    (faction,) = result.summary()["factions"]
    return {u["name"]: u["points"] for u in faction["units"]}


def engine_points(files: list[SourceFile], unit_id: str) -> float:
    roster = Roster(load_files(files[0], files[1:]))
    force = roster.add_force("fe-army", "cat-one")
    return roster.select_entry(force, unit_id).cost(PTS)


@pytest.mark.parametrize("unit_id", list(UNITS))
def test_the_import_prices_a_unit_as_the_roster_engine_does(files, imported, unit_id):
    expected = UNITS[unit_id][2]
    assert engine_points(files, unit_id) == expected
    assert imported[unit_id] == expected


def test_a_links_limit_replaces_its_targets_as_in_the_roster_engine(files, imported):
    assert engine_points(files, "link-lowers-min") == 10
    assert imported["link-lowers-min"] == 10
