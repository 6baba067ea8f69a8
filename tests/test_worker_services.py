"""Each pytest-xdist process reads its own DATABASE_URL / REDIS_URL (tests/worker_services.py),
and does so before any other plugin's `pytest_load_initial_conftests` (pytest-django imports the
settings there)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from tests.worker_services import own_services

ROOT = Path(__file__).resolve().parent.parent


def test_a_process_takes_the_urls_named_for_it():
    environ = {"PYTEST_XDIST_WORKER": "gw1", "DATABASE_URL": "pg://shared", "REDIS_URL": "redis://shared",
               "DATABASE_URL_GW0": "pg://0", "REDIS_URL_GW0": "redis://0",
               "DATABASE_URL_GW1": "pg://1", "REDIS_URL_GW1": "redis://1"}
    assert own_services(environ) == {"DATABASE_URL": "pg://1", "REDIS_URL": "redis://1"}


def test_outside_xdist_or_without_named_urls_nothing_changes():
    assert own_services({"DATABASE_URL_GW0": "pg://0"}) == {}
    assert own_services({"PYTEST_XDIST_WORKER": "gw0", "DATABASE_URL": "pg://shared"}) == {}


PROBE = '''
import os

SEEN = {}


def pytest_load_initial_conftests(early_config):
    SEEN.update(database=os.environ.get("DATABASE_URL"), redis=os.environ.get("REDIS_URL"))
'''

TESTS = '''
import os

import probe


def check():
    worker = os.environ["PYTEST_XDIST_WORKER"].upper()
    assert probe.SEEN == {"database": "pg://" + worker, "redis": "redis://" + worker}

''' + "".join(f"def test_{n}():\n    check()\n\n" for n in range(8))


def test_every_xdist_process_sees_its_own_urls_before_other_plugins_load(pytester, monkeypatch):
    pytester.makepyfile(probe=PROBE, test_probe=TESTS)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(pytester.path), str(ROOT)]))
    monkeypatch.setenv("DATABASE_URL", "pg://shared")
    monkeypatch.setenv("REDIS_URL", "redis://shared")
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")  # xdist alone: others cost start-up
    for worker in ("GW0", "GW1"):
        monkeypatch.setenv(f"DATABASE_URL_{worker}", f"pg://{worker}")
        monkeypatch.setenv(f"REDIS_URL_{worker}", f"redis://{worker}")
    result = pytester.run(sys.executable, "-m", "pytest", "-p", "xdist", "-p", "no:cacheprovider",
                          "-p", "tests.worker_services", "-p", "probe", "-n", "2", "--dist", "load")
    assert result.ret == pytest.ExitCode.OK, result.stdout.str()
    result.stdout.fnmatch_lines(["*8 passed*"])
