"""docker-compose.yml and the CI script describe the same app as the README commands."""

from __future__ import annotations

import subprocess
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]


def compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_compose_has_the_six_services_on_the_right_images():
    services = compose()["services"]
    assert set(services) == {"db", "redis", "web", "worker", "pdf-worker", "beat"}
    assert services["db"]["image"] == "postgres:16"
    assert services["redis"]["image"] == "redis:7"
    assert "gunicorn" in services["web"]["command"]
    assert services["worker"]["command"].startswith("celery -A armybuilder worker")


def test_every_queue_has_its_own_workers_and_beat_schedules_onto_the_control_queue(settings):
    """PDFs never starve estimates, the reconciliation never waits behind rows."""
    services = compose()["services"]
    consumed = {name: service["command"].split("-Q ", 1)[1].split()[0]
                for name, service in services.items() if "-Q " in service.get("command", "")}
    assert consumed == {"worker": "celery", "pdf-worker": "pdf", "beat": "control"}
    assert " -B " in services["beat"]["command"]
    assert settings.CELERY_TASK_ROUTES == {"jobs.reconcile": {"queue": "control"},
                                           "estimates.measure_machine": {"queue": "control"},
                                           "roster.render_pdf": {"queue": "pdf"},
                                           "jobs.run": {"queue": "pdf"}}
    assert {entry["options"]["queue"] for entry in settings.CELERY_BEAT_SCHEDULE.values()} == {"control"}


def test_web_and_worker_get_database_and_redis_urls():
    services = compose()["services"]
    for name in ("web", "worker", "pdf-worker", "beat"):
        env = services[name]["environment"]
        assert env["DATABASE_URL"].startswith("postgres://") and "@db:5432/" in env["DATABASE_URL"]
        assert env["REDIS_URL"] == "redis://redis:6379/0"
        assert set(services[name]["depends_on"]) == {"db", "redis"}


def test_ci_runs_exactly_the_readme_test_command():
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    assert "bin/test" in readme.split("## Quick start", 1)[1].split("##", 1)[0]
    assert ci.strip().splitlines()[-1] == "bin/test"


def test_generated_folders_are_ignored_by_git():
    """Asked of git itself, so a pattern that does not match what the tools create fails."""
    paths = [".venv", ".venv/bin/python", ".data/pg/PG_VERSION", "armybuilder/__pycache__/x.pyc",
             "locale/pl/LC_MESSAGES/django.mo", "artifacts/screenshots/x.png"]
    result = subprocess.run(["git", "check-ignore", "--no-index", "--verbose", "--non-matching", *paths],
                            cwd=ROOT, capture_output=True, text=True, check=False)
    not_ignored = [line.split("\t")[-1] for line in result.stdout.splitlines() if line.startswith("::")]
    assert not not_ignored, f"not ignored by git: {not_ignored}"


def test_a_venv_symlink_is_ignored_too(tmp_path):
    """Worktrees share one virtualenv through a `.venv` symlink; `.venv/` in .gitignore
    matches only directories, so such a symlink was once committed by a merge."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / ".gitignore").write_text((ROOT / ".gitignore").read_text())
    (tmp_path / ".venv").symlink_to(tmp_path / "elsewhere")
    result = subprocess.run(["git", "check-ignore", "-q", ".venv"], cwd=tmp_path, check=False)
    assert result.returncode == 0, ".venv as a symlink is not ignored by .gitignore"


def test_the_web_server_runs_threaded_workers_wherever_it_is_started():
    """A gauntlet panel request may wait up to `GAUNTLET_PANEL_WAIT_MS` for the worker's word
    (`armybuilder.estimates.gauntlet_signal`): with gunicorn's default sync workers that wait
    would hold a whole process, so the image and the compose file both run threads."""
    dockerfile = (ROOT / "Dockerfile").read_text()
    cmd = next(line for line in dockerfile.splitlines() if line.startswith("CMD ") and "gunicorn" in line)
    assert '"--worker-class", "gthread"' in cmd and '"--threads"' in cmd
    web = compose()["services"]["web"]["command"]
    assert "--worker-class gthread" in web and "--threads" in web
