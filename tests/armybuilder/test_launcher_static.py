"""`bin/run` with DEBUG off serves its pages (issue 30, item 12): the launcher collects the
static files the manifest storage needs before the web server starts. Before, every page
answered 500 until `collectstatic` was run by hand.

Real parts: the launcher's `run_app` with the real `manage.py` commands (migrate,
collectstatic) and the real `runserver` child, asked for the home page over HTTP.
The Celery workers are left out (not what this checks) and the catalogue loads are skipped.
"""

from __future__ import annotations

import os
import socket
import time
import urllib.request

import pytest

from armybuilder import launcher

pytestmark = pytest.mark.slow


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_run_with_debug_off_collects_static_files_and_serves_the_home_page(monkeypatch, tmp_path):
    answers: list[tuple[int, str]] = []
    started: list[str] = []
    real_child = launcher.Child

    def child(name, argv, env, *, restart):
        # Only the web server is started. Every Celery child is left out: the pdf and control
        # workers, once real here, outlived the test (only `web` is stopped) and consumed the
        # `pdf` queue of the test process's Redis against another database, so the later worker
        # tests of that process lost their jobs (a roster import that never opened, a catalogue
        # import that never ended).
        started.append(name)
        if name != "web":
            return None
        return real_child(name, argv, env, restart=restart)

    def supervise(children):
        web = next(c for c in children if c is not None)
        try:
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as response:
                        answers.append((response.status, response.read().decode()))
                        break
                except OSError:
                    time.sleep(0.5)
            return 0
        finally:
            web.process.terminate()
            web.process.wait(10)

    port = _free_port()
    monkeypatch.setattr(launcher, "Child", child)
    monkeypatch.setattr(launcher, "supervise", supervise)
    monkeypatch.setattr(launcher, "has_command", lambda env, name: False)
    env = {**os.environ, "DEBUG": "false", "PORT": str(port), "SECRET_KEY": "x" * 50,
           "STATIC_MANIFEST": "true", "WHITENOISE_USE_FINDERS": "false",
           "STATIC_ROOT": str(tmp_path / "static")}  # empty: nothing collected before
    assert launcher.run_app(env) == 0
    assert started == ["web", "worker", "pdf-worker", "control"]  # a worker per queue
    [(status, html)] = answers
    assert status == 200
    assert "/static/css/site." in html and ".css" in html  # a hashed name from the manifest
    assert (tmp_path / "static" / "staticfiles.json").exists()


def test_debug_on_is_read_as_django_environ_reads_it():
    assert launcher.debug_on({"DEBUG": "true"}) and launcher.debug_on({"DEBUG": "1"})
    assert not launcher.debug_on({"DEBUG": "false"}) and not launcher.debug_on({})


def test_a_long_step_says_what_it_does_while_it_runs(capfd):
    """Issue 43, item 9: the first DEBUG=false start compressed static files for minutes in
    silence; a long step now says what it does, that it is still at it, and when it is done."""
    import subprocess
    import sys

    launcher.with_progress([sys.executable, "-c", "import time; time.sleep(1.0)"], dict(os.environ),
                           doing="compressing", every=0.2)
    lines = [line for line in capfd.readouterr().err.splitlines() if line.startswith("[launcher]")]
    assert lines[0] == "[launcher] compressing…"
    assert len([line for line in lines if line.startswith("[launcher] still compressing (")]) >= 3
    assert lines[-1].startswith("[launcher] done compressing in ")
    with pytest.raises(subprocess.CalledProcessError):
        launcher.with_progress([sys.executable, "-c", "raise SystemExit(3)"], dict(os.environ),
                               doing="failing", every=0.2)
