"""Project-wide fixtures: a real Celery worker process and the compose file."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytest_plugins = ["tests.skip_policy", "tests.serial", "pytester"]


def start_worker(database_name: str | None = None, *extra: str) -> subprocess.Popen:
    """A `celery worker` subprocess on the real Redis; it uses the test database when named.

    The pool is `solo` unless `extra` names another (`"--pool", "prefork", "--concurrency", "1"`:
    a child process runs the tasks, so a test can kill it mid-task). It consumes every queue
    (`CELERY_TASK_ROUTES`) unless `extra` names them (`"-Q", "control"`).
    """
    env = dict(os.environ)
    if database_name:
        env["DATABASE_NAME"] = database_name
    pool = [] if "--pool" in extra else ["--pool", "solo"]
    queues = [] if "-Q" in extra else ["-Q", "celery,pdf,control"]
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "armybuilder", "worker", *pool, *queues,
         "--loglevel", "WARNING", "--without-heartbeat", "--without-gossip", "--without-mingle", *extra],
        cwd=ROOT, env=env, start_new_session=True,
    )


def stop_worker(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def wait_for_worker(timeout: float = 30.0) -> None:
    from armybuilder.tasks import ping

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if ping.apply_async(expires=2).get(timeout=2) == "pong":
                return
        except Exception:
            time.sleep(0.2)
    raise RuntimeError("the Celery worker did not answer a ping")


@pytest.fixture
def celery_worker_process(settings) -> Iterator[subprocess.Popen]:
    """A real worker process, pointed at the test database, answering pings."""
    from django.db import connection

    process = start_worker(connection.settings_dict["NAME"])
    try:
        wait_for_worker()
        yield process
    finally:
        stop_worker(process)


@pytest.fixture
def inline_pdf_renders() -> Iterator[None]:
    """Roster PDFs rendered in the test process when asked for (Celery's eager mode), so a
    test can ask for a PDF and get its bytes in one request, without a worker."""
    from armybuilder.celery import app

    previous = app.conf.task_always_eager
    app.conf.task_always_eager = True
    try:
        yield
    finally:
        app.conf.task_always_eager = previous


@pytest.fixture(autouse=True)
def generous_site_rates(request: pytest.FixtureRequest) -> None:
    """Page, login and PDF rates no ordinary test reaches (tests log in and load pages far
    more often than a person); the tests of the limits lower them again."""
    try:
        settings = request.getfixturevalue("settings")
    except pytest.FixtureLookupError:  # run without pytest-django (`-p no:django`)
        return
    rest = dict(settings.REST_FRAMEWORK)
    rest["DEFAULT_THROTTLE_RATES"] = {**rest["DEFAULT_THROTTLE_RATES"], "login": "100000/hour",
                                      "login_address": "100000/hour", "page": "100000/min",
                                      "pdf": "100000/hour", "battlescribe_import": "100000/hour",
                                      "list_import": "100000/hour"}
    settings.REST_FRAMEWORK = rest


def pytest_unconfigure(config: pytest.Config) -> None:
    """Silence pgserver's exit-time log line: the launcher test starts an embedded server in
    this process, and pgserver's atexit cleanup logs after pytest has closed the streams its
    handlers write to, which printed a "Logging error" traceback after a green run."""
    logging.getLogger("pgserver").disabled = True


@pytest.fixture(autouse=True)
def default_language_after_each_test() -> Iterator[None]:
    """Reset the thread's language after each test: the test client's requests activate the
    language they ask for (LocaleMiddleware) and leave it active, so a test that reads a page
    in Polish made the next test's labels Polish when tests ran in another order."""
    yield
    from django.utils import translation

    translation.deactivate()
