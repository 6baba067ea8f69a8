"""`bin/run`'s supervisor: a dead worker is restarted, a dead web server stops everything
(issue 17, item 9). Real child processes, no database."""

from __future__ import annotations

import sys

from armybuilder.launcher import Child, supervise


def test_a_dying_worker_is_restarted_and_the_web_server_ending_stops_everything(tmp_path) -> None:
    """The web server here ends once it sees the worker's third start (1 s and 2 s of back-off
    after the first), so what is asserted is what happened, not how fast: two restarts, then
    everything stopped with the web server's code. A fourth start would need 4 s more."""
    starts = tmp_path / "starts"
    script = f"open({str(starts)!r}, 'a').write('x'); raise SystemExit(1)"
    worker = Child("worker", [sys.executable, "-c", script], {}, restart=True)
    # Gives up with code 3 after a minute of polls, so a supervisor that never restarts fails the
    # test instead of hanging it.
    watch = (f"import pathlib, sys, time\np = pathlib.Path({str(starts)!r})\n"
             "for _ in range(6000):\n"
             "    if p.exists() and p.read_text() == 'xxx': sys.exit(0)\n"
             "    time.sleep(0.01)\n"
             "sys.exit(3)\n")
    web = Child("web", [sys.executable, "-c", watch], {}, restart=False)

    code = supervise([web, worker], interval=0.05)

    assert code == 0
    assert worker.restarts == 2
    assert starts.read_text() == "xxx"
    assert web.poll() == 0 and worker.poll() is not None


def test_compose_serves_https_by_default_and_runs_one_beat_beside_restarting_workers() -> None:
    """Beat is its own single-replica service: scaling the workers must not multiply the
    schedule (each beat would enqueue its own reconciliation)."""
    from pathlib import Path

    import yaml

    root = Path(__file__).resolve().parents[2]
    services = yaml.safe_load((root / "docker-compose.yml").read_text())["services"]
    assert services["web"]["environment"]["HTTPS"] == "${HTTPS:-true}"
    assert " -B" not in services["worker"]["command"]
    # Beat runs inside a worker of the `control` queue only, so the schedule never waits behind work.
    assert services["beat"]["command"].startswith("celery -A armybuilder worker -Q control ")
    assert " -B " in services["beat"]["command"] + " "
    assert services["beat"]["deploy"]["replicas"] == 1
    assert services["worker"]["restart"] == services["beat"]["restart"] == "unless-stopped"
    assert 'HTTPS="${HTTPS:-false}"' in (root / "bin" / "run").read_text()


def test_compose_gunicorn_options_are_one_shell_command() -> None:
    """A newline inside `sh -c` would end the gunicorn command before its options."""
    from pathlib import Path

    import yaml

    root = Path(__file__).resolve().parents[2]
    command = yaml.safe_load((root / "docker-compose.yml").read_text())["services"]["web"]["command"]
    gunicorn = command.split("&&")[-1].strip()
    assert "\n" not in gunicorn.strip('"\n ')
    assert "--worker-class gthread --threads 4" in gunicorn
