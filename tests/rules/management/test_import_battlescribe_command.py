"""`manage.py import_battlescribe`: dry run without a database, JSON output, exit 2 on bad
input, and a real import into Postgres that re-imports a newer revision in place."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

from armybuilder.lists.services import army_list_add_unit, army_list_create
from rules.battlescribe.xml_reader import MAX_FILE_BYTES
from rules.models import Faction, GameSystem, UnitTemplate
from tests.rules.battlescribe.files import FILES, GRIMDARK, MALFORMED

ROOT = Path(__file__).resolve().parents[3]


def run(*args: str, cwd: Path = FILES) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DATABASE_NAME")}
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "import_battlescribe", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_dry_run_json_without_a_database():
    done = run("--system", "wh40k9", "--dry-run", "--json", *GRIMDARK)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["system"] == "wh40k9"
    assert out["errors"] == []
    assert [(f["name"], f["units"]) for f in out["factions"]] == [
        (
            "Test Marines",
            [
                {"name": "Captain", "points": 85, "power": 5, "models": 1},
                {"name": "Scout Horde", "points": 65, "power": 4, "models": 10},
                {"name": "Tactical Squad", "points": 77, "power": 5, "models": 5},
            ],
        )
    ]
    assert len(out["warnings"]) == 2


def test_bad_input_exits_2_naming_the_file(tmp_path):
    (tmp_path / "broken.gst").write_bytes(MALFORMED)
    done = run("--system", "wh40k9", "--dry-run", "--json", str(tmp_path / "broken.gst"))
    assert done.returncode == 2
    assert json.loads(done.stdout)["errors"] == [
        "broken.gst: line 3, column 43: malformed XML (mismatched tag: line 3, column 43)"
    ]
    assert "Traceback" not in done.stderr


def test_huge_file_refused_before_reading(tmp_path):
    huge = tmp_path / "huge.catz"
    with huge.open("wb") as f:  # sparse: 100 MB without writing them
        f.truncate(100 * 1024 * 1024)
    done = run("--system", "wh40k9", "--dry-run", str(huge))
    assert done.returncode == 2
    assert json.loads(done.stderr)["errors"] == [
        f"{huge}: the file is {100 * 1024 * 1024} bytes; the limit is {MAX_FILE_BYTES} bytes"
    ]


def test_unknown_system_and_missing_game_system_exit_2():
    done = run("--system", "chess", "--dry-run", *GRIMDARK)
    assert done.returncode == 2 and "unknown game system 'chess'" in done.stderr
    done = run("--system", "wh40k9", "--dry-run", "marines.cat", "armoury.cat")
    assert done.returncode == 2 and "marines.cat: catalogue: its game system" in done.stderr


@pytest.fixture
def catalogue(db):
    call_command("load_catalogue", verbosity=0)


def import_files(*names: str, **extra) -> None:
    call_command("import_battlescribe", *[str(FILES / n) for n in names], system="wh40k9", **extra)


def test_import_into_postgres_then_reimport_in_place(catalogue, django_user_model, tmp_path):
    import_files(*GRIMDARK)
    faction = Faction.objects.get(system__key="wh40k9", slug="bs-cat-marines", owner=None)
    units = {u.slug: u for u in faction.units.all()}
    assert {s: u.points for s, u in units.items()} == {
        "bs-se-captain": 85,
        "bs-se-horde": 65,
        "bs-se-tactical": 77,
    }
    assert units["bs-se-tactical"].options.count() == 4
    assert faction.version == "rev 7"

    user = django_user_model.objects.create_user("player", password="pw-12345678")
    army = army_list_create(
        owner=user,
        system=GameSystem.objects.get(key="wh40k9"),
        faction=faction,
        name="Test",
        points_limit=500,
    )
    list_unit = army_list_add_unit(army_list=army, unit=units["bs-se-captain"], expected_version=None)

    newer = (FILES / "marines.cat").read_text().replace('revision="7"', 'revision="8"')
    newer = newer.replace(
        '<cost name="pts" typeId="ct-pts" value="80.0"/>', '<cost name="pts" typeId="ct-pts" value="90.0"/>'
    )
    (tmp_path / "marines.cat").write_text(newer)
    call_command(
        "import_battlescribe",
        str(FILES / "grimdark.gst"),
        str(FILES / "armoury.cat"),
        str(tmp_path / "marines.cat"),
        system="wh40k9",
    )
    faction.refresh_from_db()
    assert faction.version == "rev 8"
    captain = UnitTemplate.objects.get(pk=units["bs-se-captain"].pk)  # same row, updated
    assert captain.points == 95
    assert Faction.objects.filter(slug="bs-cat-marines").count() == 1
    assert faction.units.count() == 3
    list_unit.refresh_from_db()
    assert list_unit.template_id == captain.pk


def test_failed_import_writes_nothing(catalogue, tmp_path):
    (tmp_path / "broken.cat").write_bytes(MALFORMED)
    before = (Faction.objects.count(), UnitTemplate.objects.count())
    with pytest.raises(SystemExit) as exited:
        call_command(
            "import_battlescribe",
            *[str(FILES / n) for n in GRIMDARK],
            str(tmp_path / "broken.cat"),
            system="wh40k9",
        )
    assert exited.value.code == 2
    assert (Faction.objects.count(), UnitTemplate.objects.count()) == before
