"""Issue 37 through the product: the rules fixed in the engines (OPR Fear, WHFB who fights,
cavalry spears, the battle standard's own unit) reach the API's estimate jobs and `manage.py
estimate` unchanged, and an item's inline points reach the API's price. Each figure is the
hand calculation of the engine's own test, quoted from the seed there."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from rest_framework.test import APIClient

from armybuilder.estimates.tasks import run_estimate
from rules.systems.opr.unit_format.writer import unit_to_dict
from tests.armybuilder.estimates.test_estimate_command import command_env
from tests.factories.army_lists import token_client
from tests.factories.fantasy_units import unit
from tests.factories.opr_combat_units import melee, model
from tests.factories.opr_combat_units import unit as opr_unit

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[3]
#: Seed "Strach(1)": a Fear(1) Champion (A2) charges two Guards (A1); by hand the attacker wins
#: the melee 247/256 of the time, the defender 63/256 (tests/rules/systems/opr/test_aftermath.py).
FEARED = unit_to_dict(opr_unit(model("Champion", count=1, q=4, d=4, t=3, rules_=["Fear(1)"],
                                     weapons=[melee(attacks=2)])))
PAIR = unit_to_dict(opr_unit(model("Guard", count=2, q=4, d=4, t=1, weapons=[melee(attacks=1)])))
#: §9.2: five defenders with the battle standard lose by 3 to twenty blockers and re-roll their
#: Ld 4 test: P(break) = (30/36)² = 25/36 (tests/rules/systems/fantasy_combat/test_who_fights.py).
BLOCK, BEARERS = unit("Block", 20, a=0), unit("Bearer's unit", 5, a=0, ld=7)


def _outcomes(result: dict[str, Any]) -> dict[str, Any]:
    return {o["key"]: o["value"] for o in result["outcomes"]}


def _estimate_job(api: APIClient, attacker: dict, defender: dict, situation: dict) -> dict[str, Any]:
    created = api.post("/api/v1/estimates", {"kind": "unit_vs_unit", "attacker": attacker,
                                             "defender": defender, "situation": situation}, format="json")
    assert created.status_code == 202, created.json()
    run_estimate(created.json()["id"])
    done = api.get(created["Location"]).json()
    assert done["status"] == "done", done
    return done["result"]


def _command(tmp_path: Path, attacker: dict, defender: dict, *situation: str) -> dict[str, Any]:
    files = []
    for name, document in (("a.json", attacker), ("b.json", defender)):
        (tmp_path / name).write_text(json.dumps(document), encoding="utf-8")
        files.append(str(tmp_path / name))
    flags = [part for field in situation for part in ("--situation", field)]
    done = subprocess.run([sys.executable, "manage.py", "estimate", *files, *flags], cwd=ROOT,
                          env=command_env(), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_opr_fear_decides_the_melee_in_the_api_and_the_command(owner, tmp_path):
    api = token_client(owner)
    by_api = _outcomes(_estimate_job(api, FEARED, PAIR, {"mode": "melee", "charging": True}))
    by_command = _outcomes(_command(tmp_path, FEARED, PAIR, "mode=melee", "charging=true"))
    for outcomes in (by_api, by_command):
        assert outcomes["p_attacker_wins_melee"] == pytest.approx(247 / 256, abs=1e-12)
        assert outcomes["p_defender_wins_melee"] == pytest.approx(63 / 256, abs=1e-12)


def test_the_battle_standards_own_unit_re_rolls_in_the_api_and_the_command(owner, tmp_path):
    api = token_client(owner)
    situation = {"mode": "melee", "round": 2, "defender_army_standard": True}
    by_api = _outcomes(_estimate_job(api, BLOCK, BEARERS, situation))
    by_command = _outcomes(_command(tmp_path, BLOCK, BEARERS, "mode=melee", "round=2",
                                    "defender_army_standard=true"))
    for outcomes in (by_api, by_command):
        assert outcomes["p_defender_breaks"] == pytest.approx(25 / 36, abs=1e-12)


def test_who_fights_and_cavalry_spears_in_the_command(tmp_path):
    """§6.2: 8 wide charging 3 wide brings 5 into contact; §12.1: a knight's "Spear" is a
    cavalry spear — 5 attacks (no second rank), each wounding T3 on S4 when charging."""
    eight, three = unit("Eight", 8), unit("Three", 3)
    fought = _outcomes(_command(tmp_path, eight, three, "mode=melee", "round=2", "attacker_width=8",
                                "defender_width=3"))
    assert (fought["attacker_fighting"], fought["defender_fighting"]) == (5, 3)
    knights = unit("Knights", 10, troop_type="cavalry", weapons=[{"name": "Spear", "range": 0}])
    result = _command(tmp_path, knights, unit("Target", 20, a=0), "mode=melee", "charging=true",
                      "fighting_models=5")
    spear = result["weapons"][0]["expected"]
    assert spear["attacks"] == 5
    assert spear["wounds"] == pytest.approx(5 * 1 / 2 * 2 / 3, abs=1e-12)


def test_the_api_price_adds_an_items_inline_points():
    """A WHFB hero at 60 pts carrying a 15-pt magic banner costs 75."""
    anonymous_client = APIClient()
    hero = unit("Hero", 1, points=60, character=True,
                items=[{"name": "Banner of Speed", "kind": "banner", "points": 15}])
    response = anonymous_client.post("/api/v1/points/price", hero, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["points"] == 75
