"""`POST /api/v1/estimates` and `GET /api/v1/estimates/{id}`: jobs over the API."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from armybuilder.api.estimates import EstimateCreateView
from armybuilder.api.throttling import EstimateThrottle
from armybuilder.estimates.models import Estimate
from armybuilder.estimates.tasks import run_estimate
from rules.systems.registry import get_system
from tests.factories.aos_units import imported_warscroll
from tests.factories.army_lists import token_client
from tests.factories.estimate_lists import army_list_of, catalogue_unit, distinct_units
from tests.factories.estimate_rows import estimate_set
from tests.factories.opr_documents import LAUNCHER, RIFLE, opr_unit

pytestmark = pytest.mark.django_db

URL = "/api/v1/estimates"
ATTACKER = opr_unit("Veterans", count=5, quality=3, weapons=[RIFLE, LAUNCHER])
DEFENDER = opr_unit("Guards", count=10, defence=5)
UNIT_VS_UNIT = {"kind": "unit_vs_unit", "attacker": ATTACKER, "defender": DEFENDER}
DRAGON = {"reference_target": "dragon", "system": "opr"}



@pytest.fixture
def api(owner: Any) -> APIClient:
    return token_client(owner)


def test_posting_a_unit_against_a_unit_answers_202_with_the_job_url(api):
    response = api.post(URL, {"kind": "unit_vs_unit", "attacker": ATTACKER, "defender": DEFENDER,
                              "situation": {"mode": "shooting", "range_inches": 18}}, format="json")

    assert response.status_code == 202, response.json()
    body = response.json()
    estimate = Estimate.objects.get()
    assert body["id"] == str(estimate.pk)
    assert response["Location"] == body["url"] == f"http://testserver{URL}/{estimate.pk}"
    assert body["status"] == "queued" and body["progress"] == 0.0 and body["result"] is None
    assert estimate.inputs["situation"]["range_inches"] == 18.0


def test_get_shows_the_status_and_then_the_result(api):
    created = api.post(URL, UNIT_VS_UNIT, format="json")
    job = created["Location"]

    queued = api.get(job)
    assert queued.status_code == 200 and queued.json()["status"] == "queued"

    run_estimate(created.json()["id"])
    done = api.get(job).json()

    direct = get_system("opr").attack(ATTACKER, DEFENDER, {})
    assert done["status"] == "done" and done["progress"] == 1.0 and done["error"] == ""
    assert done["result"]["expected"] == pytest.approx(direct["expected"], abs=1e-12)
    assert done["result"]["kills_distribution"] == pytest.approx(direct["kills_distribution"], abs=1e-12)
    assert done["attempts"] == 1 and done["compute_ms"] > 0


def test_a_failed_job_shows_its_error(api):
    created = api.post(URL, UNIT_VS_UNIT, format="json")
    estimate_set(Estimate.objects.get(), status=Estimate.Status.FAILED, error="The worker fell over.")
    body = api.get(created["Location"]).json()
    assert body["status"] == "failed" and body["error"] == "The worker fell over." and body["result"] is None


def test_the_same_question_returns_the_same_job(api):
    body = {"kind": "unit_vs_unit", "attacker": ATTACKER, "defender": DEFENDER}
    first = api.post(URL, body, format="json").json()
    second = api.post(URL, {**body, "situation": {"range_inches": 12}}, format="json").json()
    assert first["id"] == second["id"]
    assert Estimate.objects.count() == 1


def test_a_bad_unit_is_a_400_naming_each_field_by_its_path(api):
    bad = opr_unit("Bad", quality=9)
    bad["models"][0]["weapons"][0]["ap"] = 7
    response = api.post(URL, {"kind": "unit_vs_unit", "attacker": ATTACKER, "defender": bad,
                              "situation": {"mode": "shooting", "charging": True}}, format="json")

    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid"
    assert set(body["details"]) == {"defender.models[0].quality", "defender.models[0].weapons[0].ap",
                                    "situation.charging"}
    assert not Estimate.objects.exists()


@pytest.mark.parametrize(("body", "field"), [
    ({}, "kind"),
    ({"kind": "dice"}, "kind"),
    ({"kind": "unit_vs_unit", "attacker": ATTACKER}, "defender"),
    ({"kind": "unit_vs_unit", "attacker": "Veterans", "defender": DEFENDER}, "attacker"),
    ({"kind": "unit_vs_unit", "attacker": ATTACKER, "defender": DEFENDER, "situation": {"wind": 3}},
     "situation.wind"),
    ({"kind": "unit_vs_unit", "attacker": {"catalogue_unit": 999999}, "defender": DEFENDER},
     "attacker.catalogue_unit"),
    ({"kind": "unit_vs_unit", "attacker": ATTACKER, "defender": DRAGON}, "defender.reference_target"),
    ({"kind": "list_vs_list", "list_a": 1}, "list_b"),
    ({"kind": "list_vs_list", "list_a": 999998, "list_b": 999999}, "list_a"),
])
def test_every_bad_request_is_a_400_with_the_field_at_fault(api, body, field):
    response = api.post(URL, body, format="json")
    assert response.status_code == 400, response.json()
    assert field in response.json()["details"], response.json()


def test_units_may_be_given_by_reference_to_the_catalogue_a_list_or_a_reference_target(api, owner, faction):
    template = catalogue_unit(faction, ATTACKER)
    army_list = army_list_of(owner, [DEFENDER], name="Mine")
    list_unit = army_list.units.get()

    response = api.post(URL, {"kind": "unit_vs_unit", "attacker": {"catalogue_unit": template.pk},
                              "defender": {"list": army_list.pk, "list_unit": list_unit.pk}}, format="json")
    assert response.status_code == 202, response.json()
    inputs = Estimate.objects.get(pk=response.json()["id"]).inputs
    assert inputs["attacker"] == template.data and inputs["defender"] == list_unit.data
    assert "references" not in inputs  # a player's unit: its pages show its name as written

    reference = api.post(URL, {"kind": "unit_vs_unit", "attacker": {"catalogue_unit": template.pk},
                               "defender": {"reference_target": "monster-1", "system": "opr"}}, format="json")
    assert reference.status_code == 202
    inputs = Estimate.objects.get(pk=reference.json()["id"]).inputs
    assert inputs["defender"]["name"].startswith("Monster")
    # Marked as the form marks it: its pages name it in the reader's language, as a reference target.
    assert inputs["references"] == ["defender"]


def test_list_against_list_takes_lists_the_caller_can_read(api, owner, other):
    mine = army_list_of(owner, distinct_units("Mine", 2), name="Mine")
    public = army_list_of(other, distinct_units("Open", 2), name="Open", public=True)
    private = army_list_of(other, distinct_units("Secret", 1), name="Secret")

    refused = api.post(URL, {"kind": "list_vs_list", "list_a": mine.pk, "list_b": private.pk}, format="json")
    assert refused.status_code == 400 and list(refused.json()["details"]) == ["list_b"]

    response = api.post(URL, {"kind": "list_vs_list", "list_a": mine.pk, "list_b": public.pk,
                              "situation": {"mode": "melee"}}, format="json")
    assert response.status_code == 202
    run_estimate(response.json()["id"])
    result = api.get(response["Location"]).json()["result"]
    assert result["list_a"] == {"name": "Mine", "units": ["Mine 0", "Mine 1"]}
    assert len(result["a_vs_b"]) == 2 and len(result["b_vs_a"]) == 2
    cell = result["a_vs_b"][0][0]
    assert {"expected_kills", "p_destroyed", "expected_points_destroyed", "points_efficiency"} <= set(cell)
    # Melee: OPR's second stage adds who wins the melee and the regroup odds to every cell.
    assert 0 <= cell["p_attacker_wins_melee"] <= 1 and 0 <= cell["p_defender_routed"] <= 1


def test_a_private_list_unit_of_another_player_cannot_be_named(api, other):
    private = army_list_of(other, [DEFENDER], name="Secret")
    response = api.post(URL, {"kind": "unit_vs_unit", "attacker": ATTACKER,
                              "defender": {"list": private.pk, "list_unit": private.units.get().pk}},
                        format="json")
    assert response.status_code == 400
    assert list(response.json()["details"]) == ["defender.list_unit"]


def test_an_unknown_job_is_a_404_in_the_error_shape(api):
    response = api.get(f"{URL}/00000000-0000-0000-0000-000000000000")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_creating_jobs_has_its_own_throttle_scope(api, throttle_rates):
    assert EstimateThrottle in EstimateCreateView.throttle_classes
    assert EstimateThrottle.scope == "estimates"
    throttle_rates(estimates="1/minute")
    body = {"kind": "unit_vs_unit", "attacker": ATTACKER, "defender": DEFENDER}

    assert api.post(URL, body, format="json").status_code == 202
    throttled = api.post(URL, body, format="json")
    assert throttled.status_code == 429
    assert throttled.json()["code"] == "throttled" and "Retry-After" in throttled
    assert api.get(f"{URL}/{Estimate.objects.get().pk}").status_code == 200  # reading is not throttled by it


def test_both_operations_are_documented_with_their_responses():
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    create = schema["paths"]["/api/v1/estimates"]["post"]
    read = schema["paths"]["/api/v1/estimates/{estimate_id}"]["get"]
    assert {"202", "400", "429"} <= set(create["responses"])
    assert "Location" in create["responses"]["202"]["headers"]
    assert {"200", "404"} <= set(read["responses"])


def test_imported_units_a_unit_without_a_profile_is_a_400_and_abilities_not_used_are_in_the_result(api):
    skulkers = imported_warscroll("Skulkers", profile=False)
    refused = api.post(URL, {"kind": "unit_vs_unit", "attacker": imported_warscroll("Raiders"),
                             "defender": skulkers}, format="json")
    assert refused.status_code == 400
    assert refused.json()["details"] == {"defender": [
        "“Skulkers” cannot be estimated: its catalogue gives it no profile "
        "(no characteristics to roll with)."]}

    created = api.post(URL, {"kind": "unit_vs_unit", "attacker": imported_warscroll("Raiders"),
                             "defender": imported_warscroll("Guards")}, format="json")
    run_estimate(created.json()["id"])
    result = api.get(created["Location"]).json()["result"]
    assert result["not_used"] == [
        {"role": "attacker", "unit": "Raiders", "abilities": ["Lurking"]},
        {"role": "defender", "unit": "Guards", "abilities": ["Lurking"]},
    ]
