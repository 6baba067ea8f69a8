"""`python manage.py estimate` (docs/unit-format.md, "Command line"): JSON out, status 2 and JSON
errors for bad input, never a traceback. Run as a real process, like a user would."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from points.opr import price
from rules.systems.opr.estimate import attack
from rules.systems.opr.unit_format import parse_unit
from rules.systems.registry import get_system
from tests.factories.army_lists import INFANTRY

ROOT = Path(__file__).resolve().parents[3]

TARGETS = {**INFANTRY, "name": "Targets", "models": [{**INFANTRY["models"][0], "defence": 4}]}


def command_env() -> dict[str, str]:
    """The environment of a command run: settings need these, the command connects to neither."""
    env = {**os.environ, "DEBUG": "true"}
    env.setdefault("DATABASE_URL", "postgres://unused@127.0.0.1:1/unused")
    env.setdefault("REDIS_URL", "redis://127.0.0.1:1/0")
    return env


def estimate(tmp_path: Path, attacker, defender, *flags: str) -> subprocess.CompletedProcess:
    files = []
    for name, document in (("attacker.json", attacker), ("defender.json", defender)):
        path = tmp_path / name
        path.write_text(document if isinstance(document, str) else json.dumps(document), encoding="utf-8")
        files.append(str(path))
    return subprocess.run(
        [sys.executable, "manage.py", "estimate", *files, *flags],
        cwd=ROOT,
        env=command_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_opr_registers_the_exact_attack():
    """DESIGN.md: the system's `attack` in the registry is the exact engine (imported on first
    use since issue 16, so pricing never loads numpy): the same answer, to the last bit."""
    situation = {"mode": "shooting", "range_inches": 18.0}
    assert get_system("opr").attack(INFANTRY, TARGETS, situation) == attack(INFANTRY, TARGETS, situation)


def test_estimate_prints_the_result_as_json(tmp_path):
    """The docs/unit-format.md example: 10 rifles (143 pts, 14.3 a model) against D4 troopers."""
    run = estimate(tmp_path, INFANTRY, TARGETS)
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    assert result["expected"] == pytest.approx({"attacks": 10.0, "hits": 5.0, "wounds": 2.5, "kills": 2.5})
    assert result["weapons"][0]["name"] == "Rifle"
    assert sum(result["kills_distribution"]) == pytest.approx(1)
    assert result["attacker_points"] == 143
    trooper_cost = float(price(parse_unit(TARGETS)).models[0].model_cost)
    assert result["expected_points_destroyed"] == pytest.approx(2.5 * trooper_cost)
    assert result["points_efficiency"] == pytest.approx(100 * result["expected_points_destroyed"] / 143)


def test_melee_flags_choose_melee_weapons_and_the_charge(tmp_path):
    run = estimate(tmp_path, INFANTRY, TARGETS, "--charging", "--cover")
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    assert [w["name"] for w in result["weapons"]] == ["Knife"]
    assert result["situation"]["mode"] == "melee" and result["situation"]["charging"]
    assert result["expected"]["wounds"] == pytest.approx(10 * 0.5 * 1 / 3)


def test_out_of_range_gives_no_attacks(tmp_path):
    run = estimate(tmp_path, INFANTRY, TARGETS, "--range", "30", "--moved")
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["expected"]["attacks"] == 0


def test_invalid_units_exit_2_with_every_error_as_json(tmp_path):
    broken = {**INFANTRY, "models": [{**INFANTRY["models"][0], "quality": 9}]}
    run = estimate(tmp_path, broken, "{not json")
    assert run.returncode == 2
    assert "Traceback" not in run.stderr
    errors = json.loads(run.stderr)["errors"]
    paths = {e["path"] for e in errors}
    assert "defender" in paths
    assert len(errors) == 1  # the unreadable file stops before the units are checked

    run = estimate(tmp_path, broken, TARGETS)
    assert run.returncode == 2
    errors = json.loads(run.stderr)["errors"]
    assert any(e["path"].startswith("attacker.models[0].quality") for e in errors), errors


def test_a_negative_range_is_invalid_input(tmp_path):
    run = estimate(tmp_path, INFANTRY, TARGETS, "--range", "-3")
    assert run.returncode == 2
    assert json.loads(run.stderr)["errors"][0]["path"] == "situation.range_inches"


def test_a_missing_file_is_invalid_input(tmp_path):
    run = subprocess.run(
        [sys.executable, "manage.py", "estimate", str(tmp_path / "nope.json"), str(tmp_path / "nada.json")],
        cwd=ROOT,
        env=command_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 2
    assert [e["path"] for e in json.loads(run.stderr)["errors"]] == ["attacker", "defender"]


def test_an_input_past_the_cost_limit_exits_2_naming_the_limit(tmp_path):
    """20 models with 32 weapons (half Precise) against 150 + 150 mixed models would take
    minutes and gigabytes: refused before computing (the cost model's message, not a result),
    with the limit in the message."""
    kinds = [["Rending"], ["Deadly(3)"], ["Blast(3)"], []]
    weapons = [{"name": f"W{i}", "range": 24, "attacks": 1 + i % 3, "ap": i % 3,
                "rules": (["Precise"] if i % 2 else []) + kinds[i % 4]} for i in range(32)]
    attacker = {**INFANTRY, "models": [{**INFANTRY["models"][0], "count": 20, "weapons": weapons}]}
    defender = {**INFANTRY, "models": [
        {**INFANTRY["models"][0], "name": name, "count": 150, "toughness": toughness, "weapons": []}
        for name, toughness in (("Light", 3), ("Heavy", 4))]}
    done = estimate(tmp_path, attacker, defender)
    assert done.returncode == 2, done.stderr
    error = json.loads(done.stderr)["errors"][0]
    assert error["path"] == "defender"
    assert "the limit is 2 s and 300 MB per matchup" in error["message"]


def test_a_matchup_past_the_job_memory_bound_exits_2_with_the_limit_named(tmp_path, monkeypatch):
    """The command holds an attack to the job's memory bound (`ESTIMATE_JOB_MEMORY_MB`), as the
    worker does: past it, status 2 and a message naming the limit, not a traceback."""
    from rules.systems.opr.unit_format.writer import unit_to_dict
    from tests.rules.systems.opr.test_compute_cost import attacker, defender

    monkeypatch.setenv("ESTIMATE_JOB_MEMORY_MB", "1")
    run = estimate(tmp_path, unit_to_dict(attacker(10, 4)), unit_to_dict(defender(50, 10, 1)))
    assert run.returncode == 2, run.stdout[:200]
    [error] = json.loads(run.stderr)["errors"]
    assert error["path"] == "defender" and "1 MB" in error["message"]
    assert "Traceback" not in run.stderr
