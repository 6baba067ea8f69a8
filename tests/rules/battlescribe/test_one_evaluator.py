"""The catalogue import and the roster engine evaluate conditions, repeats and modifiers with one
evaluator: the import prices each unit in the engine's roster (`rules.battlescribe.units.smallest`,
`rules.battlescribe.engine.query`).

Each case is a small invented catalogue in the shape of the community data where the importer's
own evaluator and the engine disagreed; the answer is the one BattleScribe gives a unit added
to an empty force, which the engine computes: the import prices each unit as the engine's
roster prices it, and each figure below is worked out by hand.
"""

from __future__ import annotations

import pytest

from rules.battlescribe.engine.constraints import validate
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
  <categoryEntries>
    <categoryEntry id="cat-core" name="Core" hidden="false"/>
    <categoryEntry id="cat-wizard" name="Wizard" hidden="false"/>
  </categoryEntries>
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
        + '</repeats><modifiers><modifier type="increment" field="'
        + PTS
        + '" value="1.0"><repeats>'
        + _repeat("self", 10, "model", 3)
        + "</repeats></modifier></modifiers></modifierGroup></modifierGroups>",
        0,
        106,
    ),
    # A unit's own repeat of scope "parent" counts in the unit's parent, the force: its root
    # selections hold no model, so nothing is added (the unit's models are not its parent's).
    "root-parent-scope": (
        '<modifiers><modifier type="increment" field="'
        + PTS
        + '" value="1.0"><repeats>'
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


#: Ergofarg's WHFB 6th Dwarfs "Slayers" in small: a group of at least 10 of two entries (a model at
#: 11 pts, an upgrade at 26) that names no default.
NO_DEFAULT = f"""
    <selectionEntry id="no-default" name="no-default" hidden="false" collective="false" import="true"
        type="unit">
      <categoryLinks>
        <categoryLink id="nd-core" name="Core" hidden="false" targetId="cat-core" primary="true"/>
      </categoryLinks>
      <selectionEntryGroups>
        <selectionEntryGroup id="nd-group" name="Slayer unit" hidden="false" collective="false"
            import="true">
          <constraints>{_limit("nd-min", "min", 10)}{_limit("nd-max", "max", 30)}</constraints>
          <selectionEntries>
            <selectionEntry id="nd-troll" name="Troll Slayer" hidden="false" collective="false"
                import="true" type="model">
              <profiles>
                <profile id="nd-profile" name="Troll Slayer" hidden="false" typeId="pt-profile"
                    typeName="Profile">
                  <characteristics>
                    <characteristic name="Movement" typeId="ct-m">3</characteristic>
                  </characteristics>
                </profile>
              </profiles>
              <costs><cost name="pts" typeId="{PTS}" value="11.0"/></costs>
            </selectionEntry>
            <selectionEntry id="nd-giant" name="Giant Slayer" hidden="false" collective="false"
                import="true" type="upgrade">
              <costs><cost name="pts" typeId="{PTS}" value="26.0"/></costs>
            </selectionEntry>
          </selectionEntries>
        </selectionEntryGroup>
      </selectionEntryGroups>
      <costs><cost name="pts" typeId="{PTS}" value="0.0"/></costs>
    </selectionEntry>"""


#: A unit whose wizard model (the category is on the model, not the unit) may take a spell that is
#: hidden unless an ancestor is a wizard: BattleScribe looks at every ancestor, so the model's
#: category shows it; the importer's own evaluator looked at the unit alone and left it out.
ANCESTOR = f"""
    <selectionEntry id="ancestor-unit" name="ancestor-unit" hidden="false" collective="false"
        import="true" type="unit">
      <categoryLinks>
        <categoryLink id="au-core" name="Core" hidden="false" targetId="cat-core" primary="true"/>
      </categoryLinks>
      <selectionEntries>
        <selectionEntry id="au-mage" name="Mage" hidden="false" collective="false" import="true"
            type="model">
          <profiles>
            <profile id="au-profile" name="Mage" hidden="false" typeId="pt-profile" typeName="Profile">
              <characteristics>
                <characteristic name="Movement" typeId="ct-m">5</characteristic>
              </characteristics>
            </profile>
          </profiles>
          <categoryLinks>
            <categoryLink id="au-wizard" name="Wizard" hidden="false" targetId="cat-wizard" primary="false"/>
          </categoryLinks>
          <constraints>{_limit("au-min", "min", 1)}{_limit("au-max", "max", 1)}</constraints>
          <selectionEntries>
            <selectionEntry id="au-spell" name="Fireball" hidden="false" collective="false" import="true"
                type="upgrade">
              <modifiers>
                <modifier type="set" field="hidden" value="true">
                  <conditions>
                    <condition field="selections" scope="ancestor" value="0.0" percentValue="false"
                      shared="true" includeChildSelections="false" includeChildForces="false"
                      childId="cat-wizard" type="notInstanceOf"/>
                  </conditions>
                </modifier>
              </modifiers>
              <constraints>{_limit("au-spell-max", "max", 1)}</constraints>
              <costs><cost name="pts" typeId="{PTS}" value="15.0"/></costs>
            </selectionEntry>
          </selectionEntries>
          <costs><cost name="pts" typeId="{PTS}" value="50.0"/></costs>
        </selectionEntry>
      </selectionEntries>
      <costs><cost name="pts" typeId="{PTS}" value="0.0"/></costs>
    </selectionEntry>"""


def _catalogue() -> str:
    units = "".join(_unit(key, modifiers, own) for key, (modifiers, own, _points) in UNITS.items())
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<catalogue id="cat-one" name="One Evaluator Army" revision="1" battleScribeVersion="2.03" library="false"
    gameSystemId="sys-one" gameSystemRevision="1" xmlns="http://www.battlescribe.net/schema/catalogueSchema">
  <selectionEntries>{units}{LINKED}{NO_DEFAULT}{ANCESTOR}
  </selectionEntries>
  <sharedSelectionEntries>{SHARED}
  </sharedSelectionEntries>
</catalogue>
"""


@pytest.fixture(scope="module")
def files() -> list[SourceFile]:
    return [SourceFile("one.gst", GST.encode()), SourceFile("one.cat", _catalogue().encode())]


@pytest.fixture(scope="module")
def result(files):
    return parse_import(system_key="whfb6", files=files)


@pytest.fixture(scope="module")
def imported(result) -> dict[str, int]:
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


def test_a_group_minimum_without_a_default_a_known_difference(files, imported):
    """Dwarfs "Slayers", 110 on the card and 0 in a new list: BattleScribe adds such a unit with
    nothing chosen in the group, 0 pts and an error until the player picks 10, and the engine
    does the same; a unit card has no "not chosen yet", so the import completes the engine's
    selection (`units.smallest.complete_minimums`) into the smallest legal unit, 10 of the
    group's first entry (110), and warns that it chose."""
    roster = Roster(load_files(files[0], files[1:]))
    force = roster.add_force("fe-army", "cat-one")
    unit = roster.select_entry(force, "no-default")
    assert unit.cost(PTS) == 0 and unit.children == []
    assert any("Slayer unit" in str(e) for e in validate(roster))
    assert imported["no-default"] == 110


def test_an_ancestor_condition_looks_at_every_ancestor(files, result):
    (plan,) = result.plans
    (unit,) = [u for u in plan.units if u.values["name"] == "ancestor-unit"]
    assert [o.values["label"] for o in unit.options] == ["Fireball"]
    roster = Roster(load_files(files[0], files[1:]))
    force = roster.add_force("fe-army", "cat-one")
    mage = roster.select_entry(force, "ancestor-unit").children[0]
    assert [o.name for o in mage.option.selectable()] == ["Fireball"]
    spell = roster.select_child(mage, "au-spell")
    assert not spell.effective().hidden
