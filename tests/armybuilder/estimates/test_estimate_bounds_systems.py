"""Every system's own engine limits refuse a request before a job is queued (issue 16): a 400
on the API naming the limit, and nothing stored. OPR's cost model has its own grid test
(`tests/rules/systems/opr/test_compute_cost.py`); here the catalogue systems' hooks are checked end to end."""

from __future__ import annotations

import copy

import pytest

from armybuilder.estimates.models import Estimate
from rules.systems.registry import get_system

pytestmark = pytest.mark.django_db

URL = "/api/v1/estimates"


@pytest.mark.parametrize(("key", "fragment"), [("whfb6", "1000 wounds"), ("ru_whfb", "1000 wounds")])
def test_a_fantasy_horde_past_the_engine_limit_is_refused_before_queueing(client, key, fragment):
    system = get_system(key)
    attacker, defender = list(system.reference_targets.values())[:2]
    horde = copy.deepcopy(defender)
    horde["models"][0].update(count=1000, w=2)  # 2000 wounds: the unit format allows it
    before = Estimate.objects.count()
    response = client.post(URL, {"kind": "unit_vs_unit", "attacker": attacker, "defender": horde,
                                 "situation": {"mode": "melee"}}, content_type="application/json")
    assert response.status_code == 400, response.json()
    [message] = response.json()["details"]["defender"]
    assert fragment in message
    assert Estimate.objects.count() == before


@pytest.mark.parametrize("key", ["whfb6", "ru_whfb"])
def test_the_fantasy_cost_prediction_is_the_engines_size_check(key):
    """Predicted seconds grow with the work the engine would do and stay small for real units."""
    system = get_system(key)
    attacker, defender = list(system.reference_targets.values())[:2]
    small = system.estimate_cost(attacker, defender, {"mode": "melee", "charging": True})
    bigger = copy.deepcopy(defender)
    bigger["models"][0]["count"] *= 10
    large = system.estimate_cost(attacker, bigger, {"mode": "melee", "charging": True})
    assert 0 < small[0] < 0.1 and small[0] <= large[0] < 2
