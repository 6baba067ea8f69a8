"""The army total the points limit is checked against (`points.catalogue.army`)."""

from __future__ import annotations

from typing import Any

from points.catalogue.army import army_points, known_unit_points, points_limit_violations


def unit(name: str, points: int) -> dict[str, Any]:
    models = [{"name": name, "count": 1, "points": points}]
    return {"format": 1, "system": "wh40k9", "name": name, "models": models}


def priced_by_models(priced: list[str]):
    """A price that sums the models' points and notes which units it priced."""

    def price(unit_dict):
        priced.append(unit_dict["name"])
        return {"points": sum(m["points"] * m["count"] for m in unit_dict["models"])}

    return price


def test_units_whose_points_are_known_are_not_priced_again_the_others_are():
    first, second = unit("First", 100), unit("Second", 40)
    army = {"points_limit": 1000, "units": [{"unit": first, "count": 2}, {"unit": second, "count": 1}]}
    priced: list[str] = []
    with known_unit_points({id(first): (first, 70)}):
        total = army_points(army, priced_by_models(priced))
    assert total == 70 * 2 + 40  # every copy of an entry counts, at the points the caller knows
    assert priced == ["Second"]


def test_outside_the_block_every_unit_is_priced():
    first = unit("First", 100)
    army = {"points_limit": 1000, "units": [{"unit": first, "count": 1}]}
    with known_unit_points({id(first): (first, 70)}):
        pass
    priced: list[str] = []
    assert army_points(army, priced_by_models(priced)) == 100
    assert priced == ["First"]


def test_the_points_limit_message_names_the_known_total():
    first = unit("First", 100)
    army = {"points_limit": 150, "units": [{"unit": first, "count": 1}]}
    assert points_limit_violations(army, priced_by_models([])) == []
    with known_unit_points({id(first): (first, 160)}):
        found = points_limit_violations(army, priced_by_models([]))
    assert [(v["rule"], v["value"], v["limit"]) for v in found] == [("points_limit", "160", "150")]


def test_an_equal_copy_of_a_unit_is_priced_its_own_way():
    known, copy = unit("First", 100), unit("First", 100)
    army = {"points_limit": 1000, "units": [{"unit": copy, "count": 1}]}
    with known_unit_points({id(known): (known, 5)}):
        assert army_points(army, priced_by_models([])) == 100
