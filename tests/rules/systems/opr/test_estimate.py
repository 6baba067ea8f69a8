"""The estimate result (docs/unit-format.md's shape), the registry adapter and the matchup matrix."""

from __future__ import annotations

import json

import pytest

from points.opr import price
from rules.matchups import matchup_matrix
from rules.systems.opr.estimate import attack, estimate, estimate_matrix
from rules.systems.opr.situation import Situation
from rules.systems.opr.unit_prices import UnitPrices, points_engine_prices
from tests.factories.opr_combat_units import melee, model, priced, prices_by_name, unit, weapon

INFANTRY = unit(model(count=10, q=4, d=5, weapons=[weapon(), melee("Knife")]), name="Infantry")
TARGETS = unit(model(count=10, q=4, d=4), name="Targets")


def test_the_result_has_the_documented_shape_and_is_json_ready():
    result = estimate(INFANTRY, TARGETS, Situation(), prices=priced(143, 14.3))
    for key in (
        "expected",
        "wounds_distribution",
        "kills_distribution",
        "p_destroyed",
        "expected_points_destroyed",
        "points_efficiency",
        "weapons",
    ):
        assert key in result
    assert set(result["expected"]) == {"attacks", "hits", "wounds", "kills"}
    assert set(result["weapons"][0]["expected"]) >= {"attacks", "hits", "wounds"}
    assert json.loads(json.dumps(result)) == result


def test_points_efficiency_is_expected_points_destroyed_per_100_points_of_the_attacker():
    """docs/unit-format.md's example: 2.5 kills of 14.3-point models by a 143-point unit: 35.75, 25.0."""
    result = estimate(INFANTRY, TARGETS, Situation(), prices=priced(143, 14.3))
    assert result["expected_points_destroyed"] == pytest.approx(35.75, abs=1e-9)
    assert result["points_efficiency"] == pytest.approx(25.0, abs=1e-9)


def test_a_free_attacker_has_no_efficiency():
    assert estimate(INFANTRY, TARGETS, Situation(), prices=priced(0, 14.3))["points_efficiency"] is None


def test_the_points_engine_prices_units_for_the_estimate():
    """The defender's model costs and the attacker's points come from `points.opr.price`."""
    prices = points_engine_prices(INFANTRY)
    assert prices == UnitPrices(143.0, (14.3,))
    result = estimate(INFANTRY, TARGETS, Situation())
    trooper = float(price(TARGETS).models[0].model_cost)
    assert result["expected_points_destroyed"] == pytest.approx(2.5 * trooper)
    assert result["attacker_points"] == 143


def test_the_registry_adapter_takes_unit_format_dicts_and_a_situation_dict():
    as_dict = {
        "format": 1,
        "system": "opr",
        "name": "Infantry",
        "models": [
            {
                "name": "Trooper",
                "count": 10,
                "quality": 4,
                "defence": 5,
                "toughness": 1,
                "weapons": [
                    {"name": "Rifle", "range": 24, "attacks": 1},
                    {"name": "Knife", "range": 0, "attacks": 1},
                ],
            }
        ],
    }
    from_dicts = attack(as_dict, TARGETS, {"mode": "melee", "charging": True})
    assert from_dicts == estimate(INFANTRY, TARGETS, Situation(mode="melee", charging=True))
    assert attack(INFANTRY, TARGETS) == estimate(INFANTRY, TARGETS, Situation())


def test_the_matrix_holds_every_matchup_and_reports_progress():
    a = [INFANTRY, unit(model(count=3, q=3, weapons=[weapon(attacks=3, ap=1)]), name="Veterans")]
    b = [TARGETS, unit(model(count=5, d=3, t=2), name="Heavies"), unit(model(count=1, d=2, t=6), name="Tank")]
    table = {
        "Infantry": UnitPrices(143, (14.3,)),
        "Veterans": UnitPrices(90, (30.0,)),
        "Targets": UnitPrices(160, (16.0,)),
        "Heavies": UnitPrices(150, (30.0,)),
        "Tank": UnitPrices(200, (200.0,)),
    }
    progress = []
    matrix = estimate_matrix(
        a, b, Situation(), prices=prices_by_name(table), on_progress=lambda d, t: progress.append((d, t))
    )
    assert progress == [(i, 6) for i in range(7)]
    assert len(matrix) == 2 and all(len(row) == 3 for row in matrix)
    for i, attacker in enumerate(a):
        for j, defender in enumerate(b):
            assert matrix[i][j] == estimate(attacker, defender, Situation(), prices=prices_by_name(table))


def test_matchup_matrix_is_generic_over_the_attack():
    matrix = matchup_matrix([1, 2], [10, 20, 30], lambda x, y: x * y)
    assert matrix == [[10, 20, 30], [20, 40, 60]]
    assert matchup_matrix([], [1], lambda x, y: 0, on_progress=lambda d, t: None) == []
