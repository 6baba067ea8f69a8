"""40k estimates through the product: a unit card, a unit of a list and a whole list are
estimated from the pages and the API with the 40k situation, and the command takes
`--system wh40k9` (issue 10, "Done when")."""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse

from armybuilder.estimates.models import Estimate
from armybuilder.estimates.tasks import run_estimate
from armybuilder.lists.services import army_list_add_unit, army_list_create
from rules.models import Faction, GameSystem, UnitTemplate
from rules.systems.registry import get_system
from tests.armybuilder.estimates.test_estimate_command import command_env
from tests.factories.army_lists import make_faction

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[3]
WH40K = get_system("wh40k9")

CHAINSWORD = {
    "name": "Astartes chainsword",
    "range": 0,
    "type": "Melee",
    "s": "User",
    "ap": -1,
    "d": 1,
    "abilities": [
        "When the bearer fights, it makes 1 additional attack with this weapon.",
        {"type": "extra_attacks", "value": 1},
    ],
}
BOLT_PISTOL = {"name": "Heavy bolt pistol", "range": 18, "type": "Pistol 1", "s": 4, "ap": -1, "d": 1}


def intercessors(count: int = 4, name: str = "Assault Intercessor Squad") -> dict[str, Any]:
    """§1.2's datasheet in the unit format (points 0: the booklet has none)."""

    def trooper(model_name: str, n: int, a: int, ld: int) -> dict[str, Any]:
        return {
            "name": model_name,
            "count": n,
            "points": 0,
            "m": 6,
            "ws": 3,
            "bs": 3,
            "s": 4,
            "t": 4,
            "w": 2,
            "a": a,
            "ld": ld,
            "sv": 3,
            "keywords": ["INFANTRY", "PRIMARIS"],
            "rules": [],
            "weapons": [copy.deepcopy(BOLT_PISTOL), copy.deepcopy(CHAINSWORD)],
        }

    return {
        "format": 1,
        "system": "wh40k9",
        "name": name,
        "models": [trooper("Assault Intercessor", count, 2, 7), trooper("Sergeant", 1, 3, 8)],
    }


@pytest.fixture
def forty_k() -> Faction:
    system, _ = GameSystem.objects.get_or_create(key="wh40k9", defaults={"name": WH40K.name})
    return make_faction(slug="astartes", system=system)


def template(faction: Faction, data: dict[str, Any]) -> UnitTemplate:
    return UnitTemplate.objects.create(
        faction=faction,
        slug=data["name"].lower().replace(" ", "-"),
        name=data["name"],
        data=copy.deepcopy(data),
        points=int(WH40K.price(data)["points"]),
    )


def test_a_40k_unit_card_is_estimated_from_the_page_with_the_40k_situation(client, forty_k):
    squad = template(forty_k, intercessors())
    page = client.get(reverse("estimates:new"), {"unit": squad.pk})
    html = page.content.decode()
    assert page.status_code == 200
    assert "no damage estimates" not in html
    for field in ("mode", "range_inches", "moved", "advanced", "charged", "weapon_profile", "throw_grenade"):
        assert f'name="{field}"' in html, field
    assert "MEQ squad" in html  # the reference targets are offered

    refused = client.post(
        f"{reverse('estimates:new')}?unit={squad.pk}",
        {"target": "ref:meq-5", "mode": "shooting", "charged": "on"},
    )
    assert refused.status_code == 400 and "A charge is a melee attack" in refused.content.decode()

    response = client.post(
        f"{reverse('estimates:new')}?unit={squad.pk}",
        {"target": "ref:meq-5", "mode": "melee", "charged": "on", "range_inches": "1"},
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    estimate = Estimate.objects.get(pk=re.search(r"([0-9a-f-]{36})/$", response["Location"])[1])
    assert estimate.system == "wh40k9" and estimate.inputs["situation"]["charged"] is True
    assert run_estimate(str(estimate.pk)) == "done"
    estimate.refresh_from_db()
    expected = WH40K.attack(intercessors(), WH40K.reference_targets["meq-5"], estimate.inputs["situation"])
    assert estimate.result["expected"]["attacks"] == 4 * 3 + 4 == expected["expected"]["attacks"]
    html = client.get(response["Location"]).content.decode()
    assert "Fight phase, after a charge" in html
    assert "Models fled (Morale and Combat Attrition)" in html and 'data-outcome="models_fled"' in html
    assert "Defender fails its Morale test" in html


def test_the_api_estimates_a_catalogue_unit_against_a_reference_target(client, forty_k):
    squad = template(forty_k, intercessors())
    schema = client.get("/api/v1/systems/wh40k9/situation-schema").json()["schema"]
    assert {"mode", "range_inches", "moved", "advanced", "charged"} <= set(schema["properties"])
    body = {
        "kind": "unit_vs_unit",
        "attacker": {"catalogue_unit": squad.pk},
        "defender": {"reference_target": "geq-10", "system": "wh40k9"},
        "situation": {"mode": "shooting", "range_inches": 9, "moved": True},
    }
    created = client.post("/api/v1/estimates", body, content_type="application/json")
    assert created.status_code == 202, created.json()
    run_estimate(created.json()["id"])
    result = client.get(created["Location"]).json()["result"]
    direct = WH40K.attack(
        intercessors(),
        WH40K.reference_targets["geq-10"],
        {"mode": "shooting", "range_inches": 9.0, "moved": True},
    )
    assert result["expected"] == pytest.approx(direct["expected"], abs=1e-12)
    assert result["expected"]["attacks"] == 5  # one heavy bolt pistol each
    bad = client.post(
        "/api/v1/estimates",
        {**body, "situation": {"advanced": "yes", "hit_modifier": 9}},
        content_type="application/json",
    )
    assert bad.status_code == 400
    assert set(bad.json()["details"]) == {"situation.advanced", "situation.hit_modifier"}


def test_an_attack_past_the_40k_engine_limits_is_refused_before_a_job_is_queued(client):
    """Issue 16: the engine's own limit (total defender wounds) is a 400 naming it, no row stored."""
    horde = copy.deepcopy(WH40K.reference_targets["geq-10"])
    # Six rows of 1,000 models of 200 wounds (the unit format's largest): 1,200,000 wounds,
    # past `damage.MAX_DEFENDER_WOUNDS`.
    horde["models"] = [{**horde["models"][0], "name": f"Row {i}", "count": 1000, "w": 200} for i in range(6)]
    body = {"kind": "unit_vs_unit", "attacker": intercessors(), "defender": horde,
            "situation": {"mode": "shooting", "range_inches": 12}}
    before = Estimate.objects.count()
    refused = client.post("/api/v1/estimates", body, content_type="application/json")
    assert refused.status_code == 400, refused.json()
    [message] = refused.json()["details"]["defender"]
    assert "1000000" in message and "wounds" in message
    assert Estimate.objects.count() == before


def test_a_horde_past_the_old_400_wound_limit_is_estimated(client):
    """Issue 42: a defender of 1,000 one-wound models (the old limit refused anything past 400
    wounds, though it computes in milliseconds) is accepted, and its job answers what the
    engine answers."""
    horde = copy.deepcopy(WH40K.reference_targets["geq-10"])
    horde["models"][0]["count"] = 1000
    situation = {"mode": "shooting", "range_inches": 12}
    body = {"kind": "unit_vs_unit", "attacker": intercessors(), "defender": horde, "situation": situation}
    created = client.post("/api/v1/estimates", body, content_type="application/json")
    assert created.status_code == 202, created.json()
    run_estimate(created.json()["id"])
    result = client.get(created["Location"]).json()["result"]
    direct = WH40K.attack(intercessors(), horde, {**situation, "range_inches": 12.0})
    assert result["expected"] == pytest.approx(direct["expected"], abs=1e-12)
    assert len(result["kills_distribution"]) == len(direct["kills_distribution"])


def _list(owner: Any, faction: Faction, name: str, units: list[dict[str, Any]]) -> Any:
    army = army_list_create(
        owner=owner, system=faction.system, faction=faction, name=name, points_limit=100_000
    )
    for data in units:
        army_list_add_unit(army_list=army, unit=template(faction, data), options={}, expected_version=None)
    army.refresh_from_db()
    return army


def test_a_40k_list_unit_and_a_list_are_estimated(client, owner, forty_k):
    mine = _list(owner, forty_k, "Strike", [intercessors(4, "Alpha"), intercessors(9, "Bravo")])
    theirs = _list(owner, forty_k, "Foe", [intercessors(6, "Charlie")])
    client.force_login(owner)
    unit = mine.units.order_by("position").first()
    page = client.get(reverse("estimates:new"), {"list": mine.pk, "list_unit": unit.pk})
    assert page.status_code == 200 and 'name="advanced"' in page.content.decode()

    created = client.post(
        "/api/v1/estimates",
        {"kind": "list_vs_list", "list_a": mine.pk, "list_b": theirs.pk, "situation": {"mode": "melee"}},
        content_type="application/json",
    )
    assert created.status_code == 202, created.json()
    run_estimate(created.json()["id"])
    result = client.get(created["Location"]).json()["result"]
    cell = result["a_vs_b"][1][0]
    assert {"expected_kills", "p_destroyed", "p_morale_failed", "p_wiped_with_morale"} <= set(cell)
    assert result["outcomes"]["p_morale_failed"]["kind"] == "probability"
    html = client.get(reverse("estimates:detail", args=[created.json()["id"]])).content.decode()
    assert "Defender fails its Morale test" in html and "Bravo" in html


def test_the_command_takes_system_wh40k9_and_the_situation(tmp_path):
    files = []
    for name, unit in (("a.json", intercessors()), ("b.json", WH40K.reference_targets["meq-5"])):
        (tmp_path / name).write_text(json.dumps(unit), encoding="utf-8")
        files.append(str(tmp_path / name))

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "manage.py", "estimate", "--system", "wh40k9", *files, *args],
            cwd=ROOT,
            env=command_env(),
            capture_output=True,
            text=True,
            timeout=120,
        )

    done = run("--situation", "mode=melee", "--situation", "charged=true")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["situation"]["charged"] is True and result["expected"]["attacks"] == 16
    assert {o["key"] for o in result["outcomes"]} >= {"models_fled", "models_lost", "p_morale_failed"}
    alias = run("--melee", "--charged")
    assert alias.returncode == 0 and json.loads(alias.stdout)["expected"] == result["expected"]
    bad = run("--situation", "charged=true", "--situation", "range_inches=500", "--cover")
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert {e["path"] for e in json.loads(bad.stderr)["errors"]} == {"situation", "situation.range_inches"}


NEW_40K_FIELDS = {"reroll_hits": "failed", "reroll_wounds": "ones", "wound_modifier": 1,
                  "defender_feel_no_pain": 5, "cover": True}


def test_the_new_40k_situation_fields_reach_the_page_the_api_and_the_command(client, forty_k, tmp_path):
    """Issue 24: re-rolls, ±1 to wound, Feel No Pain and cover come from the schema alone: the
    form shows them, the API takes them, the command takes them, each giving the engine's answer."""
    squad = template(forty_k, intercessors())
    html = client.get(reverse("estimates:new"), {"unit": squad.pk}).content.decode()
    for field in NEW_40K_FIELDS:
        assert f'name="{field}"' in html, field
    situation = {"mode": "shooting", "range_inches": 12, **NEW_40K_FIELDS}
    direct = WH40K.attack(intercessors(), WH40K.reference_targets["meq-5"], situation)
    created = client.post("/api/v1/estimates", {
        "kind": "unit_vs_unit", "attacker": {"catalogue_unit": squad.pk},
        "defender": {"reference_target": "meq-5", "system": "wh40k9"}, "situation": situation,
    }, content_type="application/json")
    assert created.status_code == 202, created.json()
    run_estimate(created.json()["id"])
    result = client.get(created["Location"]).json()["result"]
    assert result["kills_distribution"] == pytest.approx(direct["kills_distribution"], abs=1e-12)
    assert result["defender_points"] == 100  # our own points for the MEQ target
    page = client.get(reverse("estimates:detail", args=[created.json()["id"]])).content.decode()
    assert "re-roll hits: all failed rolls" in page and "defender&#x27;s Feel No Pain 5+" in page

    files = []
    for name, unit in (("a.json", intercessors()), ("b.json", WH40K.reference_targets["meq-5"])):
        (tmp_path / name).write_text(json.dumps(unit), encoding="utf-8")
        files.append(str(tmp_path / name))
    flags = [arg for key, value in NEW_40K_FIELDS.items()
             for arg in ("--situation", f"{key}={json.dumps(value)}")]
    done = subprocess.run([sys.executable, "manage.py", "estimate", "--system", "wh40k9", *files, *flags],
                          cwd=ROOT, env=command_env(), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["kills_distribution"] == pytest.approx(direct["kills_distribution"],
                                                                          abs=1e-12)
