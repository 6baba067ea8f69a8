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


@pytest.mark.parametrize(("key", "fragment"), [("whfb6", "too large for an exact estimate"),
                                               ("ru_whfb", "too large for an exact estimate")])
def test_a_fantasy_horde_past_the_engine_limit_is_refused_before_queueing(client, key, fragment):
    system = get_system(key)
    _attacker, defender = list(system.reference_targets.values())[:2]
    horde = copy.deepcopy(defender)
    horde["models"][0].update(count=1000, w=3)  # 3000 wounds: the unit format allows it
    before = Estimate.objects.count()
    # Horde against horde: 3001 × 3001 wound states, past the joint table the engine computes
    # (a horde against a small unit is milliseconds, and accepted).
    response = client.post(URL, {"kind": "unit_vs_unit", "attacker": horde, "defender": horde,
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


@pytest.mark.parametrize("key", ["whfb6", "ru_whfb"])
def test_a_fantasy_horde_against_a_small_unit_is_accepted(key):
    """Issue 42: the engine's old limit of 1000 wounds refused a horde of 3000 wounds that a
    small unit fights or shoots at in milliseconds (a joint table of 3001 × its own few states);
    only what is costly is refused now, and this is predicted well under the per-matchup limit."""
    from armybuilder.estimates.bounds import MAX_MATCHUP_BYTES, MAX_MATCHUP_SECONDS, matchup_cost

    system = get_system(key)
    attacker, defender = list(system.reference_targets.values())[:2]
    horde = copy.deepcopy(defender)
    horde["models"][0].update(count=1000, w=3)
    for situation in ({"mode": "melee", "charging": True}, {"mode": "shooting", "range_inches": 10}):
        seconds, size = matchup_cost(system, attacker, horde, situation)
        assert seconds < MAX_MATCHUP_SECONDS / 4 and size < MAX_MATCHUP_BYTES / 4
