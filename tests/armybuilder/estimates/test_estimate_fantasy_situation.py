"""Issue 24 through the product for Warhammer Fantasy: the new situation field (the Army
Battle Standard) comes from the schema to the API and the command, the who-fights outcomes
reach the result, and the points sentence says which side has no points."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.template.loader import render_to_string

from rules.systems.registry import get_system
from tests.armybuilder.estimates.test_estimate_command import command_env
from tests.factories.fantasy_units import unit

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize("system", ["whfb6", "ru_whfb"])
def test_the_situation_schema_offers_the_army_battle_standard(client, system):
    schema = client.get(f"/api/v1/systems/{system}/situation-schema").json()["schema"]
    assert {"attacker_army_standard", "defender_army_standard"} <= set(schema["properties"])


def test_the_command_takes_the_army_battle_standard_and_reports_who_fought(tmp_path):
    """§9.1, §11.5: the battle standard's +1 (not with a unit standard); §6.2 who fights."""
    attacker = {**unit("Swordsmen", 20, points=6), "system": "whfb6"}
    defender = {**unit("Spearmen", 20, points=5), "system": "whfb6"}
    files = []
    for name, document in (("a.json", attacker), ("b.json", defender)):
        (tmp_path / name).write_text(json.dumps(document), encoding="utf-8")
        files.append(str(tmp_path / name))
    situation = {"mode": "melee", "attacker_army_standard": True}
    done = subprocess.run(
        [sys.executable, "manage.py", "estimate", *files, "--situation", "mode=melee",
         "--situation", "attacker_army_standard=true"],
        cwd=ROOT, env=command_env(), capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    direct = get_system("whfb6").attack(attacker, defender, situation)
    assert result["outcomes"] == json.loads(json.dumps(direct["outcomes"]))
    fighting = {o["key"]: o["value"] for o in result["outcomes"] if o["kind"] == "number"}
    assert fighting["attacker_fighting"] == 5 and fighting["defender_fighting"] == 5


@pytest.mark.django_db
def test_a_pointed_attacker_against_a_target_without_points_says_the_target_has_none():
    """A 90-point unit against a target without points (the reference spearmen as a digest
    example prints them, `points: 0`): the sentence names the target, not the attacker, as the
    side without points."""
    whfb = get_system("whfb6")
    attacker = {**unit("Swordsmen", 15, points=6), "system": "whfb6"}
    spearmen = whfb.reference_targets["spearmen-20"]
    unpriced = {**spearmen, "models": [{**spearmen["models"][0], "points": 0}]}
    result = whfb.attack(attacker, unpriced, {"mode": "melee"})
    assert result["attacker_points"] == 90 and result["points_efficiency"] is None
    estimate = SimpleNamespace(status="done", kind="unit_vs_unit", result=result, points_sized=True,
                               pk="00000000-0000-0000-0000-000000000000", system="whfb6", inputs={})
    context = {"estimate": estimate, "factions": {"attacker": None, "defender": None}}
    html = render_to_string("estimates/_result.html", context)
    assert "The target costs no points, so no points are destroyed and there is no efficiency." in html
    assert "The attacker costs no points" not in html


def test_figures_that_explain_one_matchup_stay_out_of_the_heat_map_cells():
    """`"matrix": false` outcomes (models in contact, the break test's Ld) are on the result
    page but not in list-vs-list cells; the combat's probabilities still are."""
    from armybuilder.estimates.compute import matrix_cell

    whfb = get_system("whfb6")
    result = whfb.attack(unit("A", 20), unit("D", 20), {"mode": "melee"})
    labels: dict = {}
    cell = matrix_cell(result, labels)
    assert "p_win_combat" in cell and "p_defender_breaks" in cell
    assert not [key for key in cell if "fighting" in key or "break_ld" in key]
    assert not [key for key in labels if "fighting" in key or "break_ld" in key]


def test_a_pointed_attacker_against_a_reference_target_has_a_points_efficiency():
    """Issue 43: the reference targets carry our points, so a WHFB estimate against one says
    how many of the target's points a point of the attacker destroys."""
    whfb = get_system("whfb6")
    attacker = {**unit("Swordsmen", 15, points=6), "system": "whfb6"}
    result = whfb.attack(attacker, whfb.reference_targets["spearmen-20"], {"mode": "melee"})
    assert result["attacker_points"] == 90 and result["defender_points"] == 120
    assert result["points_efficiency"] > 0
