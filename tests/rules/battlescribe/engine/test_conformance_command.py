"""`manage.py battlescribe_conformance SPECS_DIR [--json]` (issue 26): runs our own small specs,
written in the WarHub/battlescribe-spec YAML form, through the roster engine."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

HERE = Path(__file__).resolve().parent
SPECS = HERE / "specs"
FAILING = HERE / "failing_specs"


def run(*args: str) -> tuple[str, int]:
    out = StringIO()
    try:
        call_command("battlescribe_conformance", *args, stdout=out)
    except SystemExit as exc:
        return out.getvalue(), int(exc.code)
    return out.getvalue(), 0


def test_own_specs_all_pass_and_json_is_one_object():
    text, code = run(str(SPECS), "--json")
    assert code == 0
    assert json.loads(text) == {
        "total": 21,
        "passed": 21,
        "failed": [],
        "by_category": {
            "gamedata/entry": {"total": 1, "passed": 1},
            "gamedata/export": {"total": 1, "passed": 1},
            "gamedata/validation": {"total": 1, "passed": 1},
            "roster/auto-select": {"total": 1, "passed": 1},
            "roster/constraint": {"total": 5, "passed": 5},
            "roster/cost": {"total": 3, "passed": 3},
            "roster/force": {"total": 1, "passed": 1},
            "roster/modifier": {"total": 1, "passed": 1},
            "roster/roundtrip": {"total": 1, "passed": 1},
            "roster/selection": {"total": 6, "passed": 6},
        },
    }


def test_a_wrong_expectation_fails_the_spec_and_exits_1():
    text, code = run(str(FAILING), "--json")
    assert code == 1
    assert json.loads(text) == {
        "total": 1,
        "passed": 0,
        "failed": ["own-deliberately-wrong-total"],
        "by_category": {"cost": {"total": 1, "passed": 0}},
    }


def test_summary_names_the_failed_spec_and_the_difference():
    text, code = run(str(FAILING))
    assert code == 1
    assert "0 of 1 specs pass (0.0%)." in text
    assert "FAIL own-deliberately-wrong-total (cost): step 3: costs[0].value: 15.0, expected 16" in text


def test_missing_folder_is_a_clear_error(tmp_path):
    with pytest.raises(CommandError, match="not a folder of specs"):
        call_command("battlescribe_conformance", str(tmp_path / "nope"))
    with pytest.raises(CommandError, match=r"holds no \.yaml spec"):
        call_command("battlescribe_conformance", str(tmp_path))
