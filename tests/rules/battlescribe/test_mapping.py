"""One list of cost-type names for the points (`rules.battlescribe.mapping`, issue 39): the
catalogue import and the roster engine's lists ask the same mapping which cost type is the
points, so data naming it "pkt" (Polish) or "body" (Czech) is not read as costing 0 by one."""

from __future__ import annotations

from dataclasses import replace

from rules.battlescribe.mapping import DEFAULT, POINTS_COST_TYPES, BattleScribeMapping
from rules.systems.registry import get_system


def test_the_common_list_holds_the_names_community_data_gives_its_points():
    assert {"pts", "points", "pkt", "body"} <= set(POINTS_COST_TYPES)
    assert DEFAULT.is_points(" Pkt") and DEFAULT.is_points("body") and not DEFAULT.is_points("PL")


def test_a_mapping_naming_no_points_reads_the_common_list():
    mapping = BattleScribeMapping(points_cost_types=())
    assert mapping.points_type({"a": " PL", "b": "pkt"}) == "b"


def test_a_system_mapping_finds_its_points_among_the_data_cost_types_in_order():
    mapping = get_system("whfb6").battlescribe
    assert mapping.points_type({"x": " Casting Dice", "y": "body", "z": "pts"}) == "y"
    assert mapping.points_type({"x": " Casting Dice"}) is None
    assert replace(mapping, points_cost_types=("pts",)).points_type({"y": "body"}) is None


def test_the_roster_engine_side_reads_the_same_points_type_as_the_import():
    """`rules.battlescribe_lists.cost_fields` (a list the engine builds) and the import
    (`UnitMapper.points_id`) both ask `is_points`: a "pkt" cost type is the points for both."""
    from rules.battlescribe.engine.model import GameData
    from rules.battlescribe_lists import cost_fields

    data = GameData(
        {
            "id": "sys",
            "name": "System",
            "costTypes": [{"id": "ct-pl", "name": "PL"}, {"id": "ct-pkt", "name": "pkt"}],
        },
        [],
    )
    assert cost_fields(data, "whfb6")[0] == "ct-pkt"
