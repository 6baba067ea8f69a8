"""A BattleScribe 1.x game system's force types read as the force entries BattleScribe 2 makes of
them (`engine.legacy`): BSData/whfb's "Warhammer Fantasy 8th ed.gst" (1.15) under every 8thBRB
army book offered no force to build a roster in. Data: `oldforce.gst` (1.15 shape, invented)."""

from __future__ import annotations

from rules.battlescribe.engine.constraints import validate
from rules.battlescribe.engine.legacy import upgraded
from rules.battlescribe.engine.roster import Roster
from rules.battlescribe.engine.xmlform import load_files
from rules.battlescribe.list_roster import force_entries
from tests.rules.battlescribe.files import source


def old_data():
    return load_files(source("oldforce.gst"), [source("oldforce_clans.cat")])


def roster_of(data, force_id: str, limit: float, *entries: str) -> Roster:
    roster = Roster(data)
    roster.set_cost_limit("points", limit)
    force = roster.add_force(force_id, "of-cat-clans")
    for entry in entries:
        roster.select_entry(force, entry)
    return roster


def errors(roster: Roster) -> list[tuple[str, str, float, float]]:
    return sorted((e.source, e.field, e.limit, e.actual) for e in validate(roster))


def test_the_force_types_are_the_forces_a_roster_is_built_in():
    data = old_data()
    assert [(d.id, d.name) for d in force_entries(data, "of-cat-clans")] == [
        ("of-standard", "Grand Muster"),
        ("of-last-days", "Last Days"),
    ]
    # the categories declared inside them are the game system's, points its cost type
    assert {c: d.name for c, d in data.categories.items()} == {
        "of-lords": "Lords", "of-core": "Core", "of-rare": "Rare",
    }
    assert [(c.id, c.name) for c in data.cost_types] == [("points", "pts")]
    assert [link.id for link in data.force_entries["of-last-days"].category_links] == [
        "of-last-days-of-lords", "of-last-days-of-core",
    ]


def test_a_category_percentage_is_of_the_armys_points_limit():
    """Core at least 25 % of the limit (500 of 2000), Rare and Lords at most 25 % and 50 %."""
    data = old_data()
    assert errors(roster_of(data, "of-standard", 2000)) == [
        ("of-standard-of-core/minPercentage", "points", 500.0, 0.0),
    ]
    # 10 warriors (80 pts) and 6 cannons (720 pts, over 500) and 8 thanes (1120, over 1000)
    big = roster_of(data, "of-standard", 2000, "of-warriors", *["of-cannon"] * 6, *["of-thane"] * 8)
    assert errors(big) == [
        ("of-standard-of-core/minPercentage", "points", 500.0, 80.0),
        ("of-standard-of-lords/maxPercentage", "points", 1000.0, 1120.0),
        ("of-standard-of-rare/maxPercentage", "points", 500.0, 720.0),
    ]
    # without a points limit there is no share to keep to
    assert errors(roster_of(data, "of-standard", -1, "of-cannon")) == []


def test_a_force_types_own_minimum_counts_the_selections_in_it():
    data = old_data()
    assert ("of-last-days/minSelections", "selections", 2.0, 1.0) in errors(
        roster_of(data, "of-last-days", 100, "of-thane")
    )


def test_a_2_x_game_system_is_read_as_it_is():
    system = {"id": "gs", "battleScribeVersion": "2.03", "forceTypes": [{"id": "f"}]}
    assert upgraded(system) is system
