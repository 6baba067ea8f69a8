"""`manage.py price` and `validate` start without what they do not use (issue 16)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
UNIT = {"format": 1, "system": "opr", "name": "Infantry", "models": [{
    "name": "Trooper", "count": 10, "quality": 4, "defence": 4, "toughness": 1, "rules": [],
    "weapons": [{"name": "Rifle", "range": 24, "attacks": 1, "ap": 0, "rules": []}]}]}
#: Loaded by other commands, never by pricing one unit: the Celery app and its broker client,
#: numpy and the dice engine, every installed app's models and admin, other game systems,
#: and the pure-Python JSON Schema validator (only invalid documents need its explanations).
NOT_LOADED = ("celery", "kombu", "numpy", "rules.dice", "django.contrib.admin", "django.contrib.auth.models",
              "rest_framework", "rules.systems.wh40k9", "rules.systems.whfb6", "rules.systems.aos1",
              "jsonschema")


def imported_modules(*args: str, importtime: bool = True) -> tuple[subprocess.CompletedProcess, set[str]]:
    env = {**os.environ, "DEBUG": "true"}
    env.setdefault("DATABASE_URL", "postgres://unused@127.0.0.1:1/unused")
    env.setdefault("REDIS_URL", "redis://127.0.0.1:1/0")
    flags = ["-X", "importtime"] if importtime else []
    done = subprocess.run([sys.executable, *flags, "manage.py", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    modules = set(re.findall(r"^import time:\s+\d+ \|\s+\d+ \|\s+(\S+)$", done.stderr, re.MULTILINE))
    return done, modules


@pytest.mark.parametrize("command", ["price", "validate"])
def test_pricing_and_validating_load_no_celery_numpy_or_other_systems(tmp_path, command):
    document = UNIT if command == "price" else {
        "format": 1, "system": "opr", "name": "Patrol", "points_limit": 500, "units": [{"unit": UNIT}]}
    path = tmp_path / "input.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    done, modules = imported_modules(command, str(path))
    assert done.returncode == 0, done.stderr[-2000:]
    assert "rules.systems.opr.unit_format" in modules
    loaded = sorted(m for m in modules if any(m == name or m.startswith(name + ".") for name in NOT_LOADED))
    assert loaded == []


def test_the_price_command_still_prices_and_reports_bad_input_with_status_2(tmp_path):
    path = tmp_path / "unit.json"
    path.write_text(json.dumps({**UNIT, "models": []}), encoding="utf-8")
    done, _ = imported_modules("price", str(path), importtime=False)
    assert done.returncode == 2
    assert json.loads(done.stderr)["errors"][0]["path"] == "models"
