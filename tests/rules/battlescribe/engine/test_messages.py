"""Engine errors carry a code and parameters, and read as a sentence naming the unit and the
rule (`engine.messages`), never an id path."""

from __future__ import annotations

from rules.battlescribe.engine.constraints import validate
from rules.battlescribe.engine.gamedata import DataFiles
from rules.battlescribe.engine.gamedata_checks import check
from rules.battlescribe.engine.messages import render, render_data_error
from rules.battlescribe.engine.model import GameData
from rules.battlescribe.engine.roster import Roster


def roster_with_errors() -> Roster:
    data = GameData(
        {
            "id": "gs",
            "costTypes": [{"id": "pts", "name": "pts"}],
            "categoryEntries": [{"id": "cat-hero", "name": "Heroes"}],
            "forceEntries": [
                {
                    "id": "fe",
                    "name": "Warband",
                    "categoryLinks": [
                        {
                            "id": "cl-hero",
                            "targetId": "cat-hero",
                            "name": "Heroes",
                            "constraints": [
                                {
                                    "id": "c-hero",
                                    "type": "min",
                                    "value": 1,
                                    "field": "selections",
                                    "scope": "parent",
                                }
                            ],
                        }
                    ],
                }
            ],
        },
        [
            {
                "id": "cat",
                "selectionEntries": [
                    {
                        "id": "se-wolf",
                        "name": "Giant Wolf",
                        "type": "unit",
                        "costs": [{"typeId": "pts", "value": 60}],
                        "constraints": [
                            {
                                "id": "c-wolf",
                                "type": "max",
                                "value": 1,
                                "field": "selections",
                                "scope": "roster",
                            }
                        ],
                        "selectionEntries": [
                            {
                                "id": "se-spear",
                                "name": "Spear",
                                "type": "upgrade",
                                "constraints": [
                                    {
                                        "id": "c-sp",
                                        "type": "max",
                                        "value": 1,
                                        "field": "selections",
                                        "scope": "parent",
                                    }
                                ],
                            }
                        ],
                    }
                ],
            }
        ],
    )
    roster = Roster(data)
    force = roster.add_force("fe", "cat", None)
    wolf = roster.select_entry(force, "se-wolf")
    roster.select_entry(force, "se-wolf")
    roster.set_count(roster.select_child(wolf, "se-spear"), 2)
    roster.set_cost_limit("pts", 100)
    return roster


def test_roster_errors_have_codes_and_read_as_player_sentences():
    errors = {e.code: e for e in validate(roster_with_errors())}
    assert sorted(e.code for e in validate(roster_with_errors())) == [
        "cost-limit",
        "selections-max",
        "selections-max",
        "selections-min",
    ]
    spear = next(e for e in validate(roster_with_errors()) if e.entry_name == "Spear")
    assert render(spear) == "Giant Wolf may take at most 1 × Spear (has 2)."
    errors = {e.code: e for e in validate(roster_with_errors()) if e.entry_name != "Spear"}
    assert errors["selections-max"].params == {
        "owner": "Giant Wolf",
        "entry": "Giant Wolf",
        "limit": "1",
        "count": "2",
        "cost": "",
    }
    assert render(errors["selections-min"]) == "At least 1 × Heroes needed (has 0)."
    assert render(errors["selections-max"]) == "At most 1 × Giant Wolf allowed (has 2)."
    assert render(errors["cost-limit"], cost_names={"pts": "points"}) == (
        "The army costs 120 pts, over its limit of 100."
    )


def test_a_translation_is_applied_before_the_parameters():
    error = next(e for e in validate(roster_with_errors()) if e.code == "cost-limit")
    catalogue = {"The army costs %(count)s %(entry)s, over its limit of %(limit)s.": "Zu teuer: %(count)s"}
    assert render(error, lambda m: catalogue.get(m, m)) == "Zu teuer: 120"


def test_data_errors_read_as_sentences_naming_the_bad_value():
    data = DataFiles({"id": "gs"}, [{"id": "cat", "entryLinks": [{"id": "el", "targetId": "se-gone"}]}])
    (error,) = check(data)
    assert render_data_error(error) == "A link points at “se-gone”, which is not in the data."
