"""`manage.py price` and `manage.py validate` (docs/unit-format.md "Command line"): JSON on stdout;
invalid input
exits 2 with `{"errors": [...]}` on stderr, never a traceback.

Run as real subprocesses, so they check the exit status and streams a user sees. The settings need a
database and a broker URL to import; these commands touch neither, so placeholders do when unset.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.factories.opr_units import INFANTRY_JSON, VETERAN_SQUAD_JSON

ROOT = Path(__file__).resolve().parents[3]


def manage(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env.setdefault("DATABASE_URL", "postgres://unused@127.0.0.1:9/unused")
    env.setdefault("REDIS_URL", "redis://127.0.0.1:9/0")
    if "SECRET_KEY" not in env and env.get("DEBUG", "").lower() != "true":
        env["SECRET_KEY"] = "test-only-secret-key"
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture
def write(tmp_path):
    def _write(name: str, content) -> str:
        path = tmp_path / name
        path.write_text(content if isinstance(content, str) else json.dumps(content), encoding="utf-8")
        return str(path)

    return _write


def errors_of(result: subprocess.CompletedProcess) -> list[dict]:
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stdout == ""
    return json.loads(result.stderr)["errors"]


def test_price_prints_143_for_the_spec_infantry(write):
    """Issue 3 "Done when": `python manage.py price` prints 143 for the spec's Infantry example (§9)."""
    result = manage("price", write("infantry.json", INFANTRY_JSON))
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert (out["points"], out["exact"], out["category"]) == (143, "143", "shooter")
    [m] = out["models"]
    assert (m["base_cost"], m["model_cost"], [w["cost"] for w in m["weapons"]]) == (
        "5",
        "14.3",
        ["7.5", "1.8"],
    )


def test_price_reads_stdin():
    """`-` reads the unit from stdin."""
    result = manage("price", "-", stdin=json.dumps(VETERAN_SQUAD_JSON))
    assert result.returncode == 0, result.stderr
    assert [m["name"] for m in json.loads(result.stdout)["models"]] == ["Veteran", "Sergeant"]


def test_price_missing_file(tmp_path):
    """A missing file: exit 2, the error as JSON on stderr."""
    [error] = errors_of(manage("price", str(tmp_path / "nope.json")))
    assert error["message"].endswith("nope.json: no such file")


def test_price_bad_json(write):
    """Invalid JSON: exit 2 with the line and column."""
    [error] = errors_of(manage("price", write("bad.json", '{"name": "X",')))
    assert "invalid JSON at line 1" in error["message"]


def test_price_schema_errors_all_at_once(write):
    """Schema and rule errors: exit 2, every error with its field path."""
    bad = json.loads(json.dumps(INFANTRY_JSON))
    bad["models"][0]["quality"] = 9
    bad["models"][0]["weapons"][0]["ap"] = 6
    bad["models"][0]["rules"] = ["Bogus"]
    errors = errors_of(manage("price", write("bad.json", bad)))
    assert {(e["path"], e["message"]) for e in errors} == {
        ("models[0].quality", "must be between 2 and 6"),
        ("models[0].weapons[0].ap", "must be between -1 and 5"),
        ("models[0].rules[0]", "unknown rule 'Bogus'"),
    }


@pytest.mark.parametrize("content", ["[]", "42", '"unit"', "null", "1" * 5000, "[" * 100000])
def test_price_odd_documents_never_trace_back(write, content):
    """Whatever the file holds: exit 2 and a JSON error list, never a traceback."""
    assert errors_of(manage("price", write("odd.json", content)))


def test_price_unknown_system(write):
    """A unit of a system the registry does not know: exit 2, error on `system`."""
    [error] = errors_of(manage("price", write("x.json", {**INFANTRY_JSON, "system": "chess"})))
    assert error["path"] == "system" and "unknown game system 'chess'" in error["message"]


def test_validate_prints_total_and_violations(write):
    """`validate LIST.json` prints the total and every violation (exit 0: a list with violations is
    valid input)."""
    army = {
        "format": 1,
        "system": "opr",
        "name": "Patrol",
        "points_limit": 250,
        "options": {"unit_balance": False},
        "units": [{"unit": INFANTRY_JSON, "count": 2}],
    }
    result = manage("validate", write("list.json", army))
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert (out["total"], out["points_limit"], out["valid"]) == (286, 250, False)
    assert out["units"] == [{"name": "Infantry", "count": 2, "points_each": 143, "points": 286}]
    messages = [v["message"] for v in out["violations"]]
    assert "Patrol totals 286 pts, over its points limit of 250" in messages
    assert "Infantry costs 143 pts, over 35% of 250 (87.5)" in messages


def test_validate_bad_list(write):
    """An invalid list: exit 2 with the errors and their paths inside the list."""
    army = {"system": "opr", "name": "Patrol", "points_limit": -5,
            "units": [{"unit": {**INFANTRY_JSON, "models": []}}]}
    errors = errors_of(manage("validate", write("list.json", army)))
    assert {e["path"] for e in errors} == {"points_limit", "units[0].unit.models"}


def test_a_document_naming_no_system_is_refused_on_system(write):
    """The commands never assume a game system: a list or a unit without `system` exits 2 with
    the error on `system`, naming the registry's keys."""
    army = {"name": "Patrol", "points_limit": 500, "units": [{"unit": INFANTRY_JSON}]}
    [error] = errors_of(manage("validate", write("list.json", army)))
    assert error["path"] == "system" and "opr" in error["message"] and "wh40k9" in error["message"]
    unit = {key: value for key, value in INFANTRY_JSON.items() if key != "system"}
    [error] = errors_of(manage("price", write("unit.json", unit)))
    assert error["path"] == "system"


@pytest.mark.django_db
def test_validate_resolves_catalogue_unit_entries_like_units_in_full(tmp_path):
    """The interchange format's `catalogue_unit` entries (`<faction>/<unit>` with option keys)
    are resolved from the loaded catalogue, so `validate` prices and checks them as it does the
    same units written out in full — no KeyError 'unit'. The bundled Vellmark Captain with the
    Battle Standard (25) and the War Banner (25, `docs/rules/whfb6.md` §14) costs
    his 50 + 25 + 25 = 100; a bad reference is named by its path."""
    from io import StringIO

    from django.core.management import call_command

    from rules.models import UnitTemplate
    from rules.options import apply_options

    call_command("load_catalogue", verbosity=0)
    captain = UnitTemplate.objects.get(
        faction__slug="vellmark-freeholds", slug="captain", faction__owner__isnull=True
    )
    menu = [{f: getattr(o, f) for f in ("key", "group", "label", "kind", "applies_to", "payload", "min_count",
                                          "max_count", "cost")} for o in captain.options.all()]
    in_full = apply_options(captain.data, menu, {"battle-standard": 1, "war-banner": 1})
    base = {"format": 1, "system": "whfb6", "name": "Muster", "points_limit": 2000}
    outputs = []
    for units in (
        [{"catalogue_unit": "vellmark-freeholds/captain", "options": ["battle-standard", "war-banner"]}],
        [{"unit": in_full}],
    ):
        path = tmp_path / "list.json"
        path.write_text(json.dumps({**base, "units": units}), encoding="utf-8")
        out = StringIO()
        call_command("validate", str(path), stdout=out)
        outputs.append(json.loads(out.getvalue()))
    assert outputs[0] == outputs[1]
    assert outputs[0]["units"] == [
        {"name": "Vellmark Captain", "count": 1, "points_each": 100, "points": 100}
    ]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**base, "units": [{"catalogue_unit": "vellmark-freeholds/nobody"},
                                                  {"catalogue_unit": "vellmark-freeholds/captain",
                                                   "options": ["no-such"]}]}), encoding="utf-8")
    err = StringIO()
    with pytest.raises(SystemExit) as exit_info:
        call_command("validate", str(bad), stdout=StringIO(), stderr=err)
    assert exit_info.value.code == 2
    paths = {e["path"] for e in json.loads(err.getvalue())["errors"]}
    assert paths == {"units[0].catalogue_unit", "units[1].options.no-such"}


def test_validate_reports_a_bad_entry_with_the_lists_own_errors(write):
    """An entry that is neither a unit in full nor a reference, beside a bad points limit:
    both errors at once, exit 2, and no database touched (the entry is refused first)."""
    army = {"system": "opr", "name": "Patrol", "points_limit": -5, "units": [{"count": 2}, "not an entry"]}
    errors = errors_of(manage("validate", write("list.json", army)))
    assert {e["path"] for e in errors} == {"points_limit", "units[0]", "units[1]"}
