"""The cost check before a job is queued (`armybuilder.estimates.bounds`, issue 16)."""

from __future__ import annotations

import copy
from dataclasses import replace

import pytest
from rest_framework.test import APIClient

from armybuilder.estimates import bounds
from armybuilder.estimates.inputs import (
    EstimateRequestError,
    army_inputs,
    list_vs_list_inputs,
    unit_vs_unit_inputs,
)
from armybuilder.estimates.models import Estimate
from rules.systems import generic_cost
from rules.systems.registry import get_system
from tests.factories.estimate_rows import stored_estimate
from tests.factories.opr_documents import RIFLE, opr_unit

KINDS = [["Rending"], ["Deadly(3)"], ["Blast(3)"], []]
#: 32 weapons, half of them Precise: two allocation orders against a mixed unit.
ARSENAL = [{"name": f"W{i}", "range": 24, "attacks": 1 + i % 3, "ap": i % 3,
            "rules": (["Precise"] if i % 2 else []) + KINDS[i % 4]} for i in range(32)]


def heavy_attacker() -> dict:
    return opr_unit("Arsenal", count=20, weapons=ARSENAL)


def mixed_horde() -> dict:
    unit = opr_unit("Horde", count=150, toughness=3, weapons=[])
    heavy = copy.deepcopy(unit["models"][0])
    heavy.update(name="Heavy", toughness=4)
    unit["models"].append(heavy)
    return unit


def test_a_matchup_past_the_limit_is_refused_on_the_defender_naming_the_limit():
    with pytest.raises(EstimateRequestError) as refused:
        unit_vs_unit_inputs(attacker=heavy_attacker(), defender=mixed_horde(), situation={})
    [message] = refused.value.errors["defender"]
    assert "the limit is 2 s and 300 MB per matchup" in message


def test_a_matchup_inside_the_limit_passes():
    shooters = opr_unit("Shooters", weapons=[RIFLE])
    system, inputs = unit_vs_unit_inputs(attacker=shooters, defender=mixed_horde(), situation={})
    assert system == "opr" and inputs["defender"]["models"][1]["toughness"] == 4


def test_a_list_with_one_matchup_past_the_limit_is_refused_naming_the_unit():
    small = opr_unit("Scouts")
    with pytest.raises(EstimateRequestError) as refused:
        mine = [("Scouts", small), ("Arsenal", heavy_attacker())]
        list_vs_list_inputs(system_key="opr", situation={}, list_a=army_inputs(name="Mine", units=mine),
                            list_b=army_inputs(name="Theirs", units=[("Horde", mixed_horde())]))
    assert list(refused.value.errors) == ["list_a.units[1]"]
    assert "300 MB" in refused.value.errors["list_a.units[1]"][0]


def test_a_system_without_a_cost_model_gets_the_generic_bound():
    """(defender models + 1)² states × the attacker's dice (models × weapons × 6)."""
    generic = replace(get_system("opr"), estimate_cost=None)
    seconds, size = bounds.matchup_cost(generic, opr_unit("A", count=10, weapons=[RIFLE, RIFLE]),
                                        opr_unit("D", count=99), {})
    assert seconds == pytest.approx(generic_cost.GENERIC_SECONDS_PER_CELL * 100**2 * 10 * 2 * 6)
    assert size == generic_cost.GENERIC_BYTES_PER_STATE * 100**2
    assert bounds.over_limit(seconds, size) is None
    assert bounds.over_limit(*bounds.matchup_cost(generic, opr_unit("A", count=100, weapons=[RIFLE] * 4),
                                                  opr_unit("D", count=1000), {})) is not None


@pytest.mark.django_db
def test_the_api_answers_400_naming_the_limit_and_queues_nothing(owner):
    client = APIClient()
    client.force_authenticate(owner)
    response = client.post("/api/v1/estimates", {"kind": "unit_vs_unit", "attacker": heavy_attacker(),
                                                 "defender": mixed_horde()}, format="json")
    assert response.status_code == 400, response.json()
    assert "the limit is 2 s and 300 MB per matchup" in str(response.json())
    assert not Estimate.objects.exists()


def test_a_list_job_past_the_total_limit_is_refused_naming_the_limit(settings):
    """Each matchup is allowed, but together they pass half the soft time limit."""
    settings.CELERY_TASK_SOFT_TIME_LIMIT = 1  # half a second of predicted computing in total
    shooters = [(f"S{i}", opr_unit(f"S{i}", count=10 + i, weapons=ARSENAL[:8])) for i in range(6)]
    with pytest.raises(EstimateRequestError) as refused:
        list_vs_list_inputs(system_key="opr", situation={"second_stage": False},
                            list_a=army_inputs(name="Mine", units=shooters),
                            list_b=army_inputs(name="Theirs", units=[("Horde", mixed_horde())]))
    [message] = refused.value.errors["list_b"]
    assert "the limit is 0.5 s per job" in message


@pytest.mark.django_db
def test_the_form_answers_400_with_the_limit_next_to_the_target(client, faction):
    from django.urls import reverse

    from tests.factories.estimate_lists import catalogue_unit

    arsenal = catalogue_unit(faction, heavy_attacker())
    horde = catalogue_unit(faction, mixed_horde())
    response = client.post(f"{reverse('estimates:new')}?unit={arsenal.pk}",
                           {"mode": "shooting", "range_inches": "12", "target": f"unit:{horde.pk}"})
    assert response.status_code == 400
    [message] = response.context["form"].errors["target"]
    assert "the limit is 2 s and 300 MB per matchup" in message
    assert not Estimate.objects.exists()


def _list_inputs(mine: list, theirs: list) -> dict:
    return {"list_a": army_inputs(name="Mine", units=mine),
            "list_b": army_inputs(name="Theirs", units=theirs), "situation": {}}


def test_the_request_prices_each_unit_against_the_other_sides_largest_only(monkeypatch):
    """Linear in the units, not in the matchups: 30 against 30 distinct units are checked with at
    most 2 sides × 30 units × 4 opponents calls of the cost model, not 1,800."""
    from tests.factories.estimate_lists import distinct_units

    calls = []
    real = bounds.cell_cost  # a list job's matchups are priced as its cells
    monkeypatch.setattr(bounds, "cell_cost", lambda *args: calls.append(args) or real(*args))
    mine = [(u["name"], u) for u in distinct_units("A", 30)]
    theirs = [(u["name"], u) for u in distinct_units("B", 30)]
    list_vs_list_inputs(system_key="opr", situation={}, list_a=army_inputs(name="Mine", units=mine),
                        list_b=army_inputs(name="Theirs", units=theirs))
    assert 0 < len(calls) <= 2 * 30 * 2 * bounds.SCREEN_OPPONENTS
    calls.clear()
    costs = bounds.list_vs_list_costs(system=get_system("opr"), inputs=_list_inputs(mine, theirs))
    assert len(calls) == len(costs) == 2 * 30 * 30  # the job's own check prices every pair once


def test_repeated_units_are_priced_once():
    """Ten copies of one unit against ten of another are two distinct matchups."""
    costs = bounds.list_vs_list_costs(system=get_system("opr"), inputs=_list_inputs(
        [("Scouts", opr_unit("Scouts"))] * 10, [("Guards", opr_unit("Guards", count=12))] * 10))
    assert len(costs) == 2


def test_the_job_refuses_what_the_request_let_through_naming_the_unit():
    """On the worker every matchup is priced: a unit past the limit against one that is not
    among the largest of its side fails the job with the unit's name and the limit."""
    small = opr_unit("Scouts")
    inputs = _list_inputs([("Scouts", small), ("Arsenal", heavy_attacker())], [("Horde", mixed_horde())])
    refusal, costs = bounds.job_refusal(system=get_system("opr"), inputs=inputs)
    assert refusal is not None and refusal.startswith("Arsenal: Too large to compute exactly")
    assert "300 MB per matchup" in refusal
    ok = _list_inputs([("Scouts", small)], [("Guards", opr_unit("Guards"))])
    refusal, costs = bounds.job_refusal(system=get_system("opr"), inputs=ok)
    assert refusal is None
    assert costs == bounds.list_vs_list_costs(system=get_system("opr"), inputs=ok)


@pytest.mark.django_db
def test_a_queued_job_past_a_limit_fails_before_computing(owner):
    """A job whose inputs reached the queue past a limit (the request checks only the largest
    opponents) fails on the worker with the reason, and computes nothing."""
    from armybuilder.estimates.tasks import run_estimate

    inputs = _list_inputs([("Arsenal", heavy_attacker())], [("Horde", mixed_horde())])
    estimate = stored_estimate(kind=Estimate.Kind.LIST_VS_LIST, system="opr", owner=owner,
                               inputs=inputs, inputs_hash="past-the-limit")
    assert run_estimate(str(estimate.pk)) == "failed"
    estimate.refresh_from_db()
    assert estimate.status == Estimate.Status.FAILED and estimate.result is None
    assert estimate.error.startswith("Arsenal: Too large to compute exactly")
