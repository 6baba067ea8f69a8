"""The rate limits on the real store (issue 18, item 1): Redis, shared by two server
processes, so a limit holds across workers; and what each limit does when Redis is down.

The other API tests swap the throttle store for an in-process one; these run two real
gunicorn processes against a private Redis server and the test database.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import redis
from django.db import connection

from tests.conftest import ROOT
from tests.factories.army_lists import PASSWORD
from tests.redis_server import RedisServer, connection_attempts, free_port, running_redis

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def fast_password_hashing() -> None:
    """The servers check passwords with the real hashers, so accounts are made with them too."""


def start_server(redis_url: str, **env: str) -> tuple[subprocess.Popen, str]:
    port = free_port()
    environment = {**os.environ, "DATABASE_NAME": connection.settings_dict["NAME"], "REDIS_URL": redis_url,
                   "DEBUG": "false", "HTTPS": "false", "SECRET_KEY": "throttle-test",
                   "STATIC_MANIFEST": "false", "API_THROTTLE_IP": "5/day", "API_THROTTLE_USER": "100000/day",
                   "API_THROTTLE_LOGIN": "3/day", "PAGE_RATE": "100000/min", **env}
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "armybuilder.wsgi:application", "--bind", f"127.0.0.1:{port}",
         "--workers", "1", "--timeout", "30", "--log-level", "warning"],
        cwd=ROOT, env=environment, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            httpx.get(f"{url}/accounts/login/", timeout=5)
            return process, url
        except httpx.HTTPError:
            time.sleep(0.2)
    process.kill()
    raise RuntimeError("gunicorn did not start")


@pytest.fixture(scope="module")
def started_servers(django_db_setup: None) -> Iterator[tuple[RedisServer, list[str]]]:
    """A private Redis and two gunicorn processes on the test database, started once for the
    module (each start took 3-5 s on the loaded CI machine); `two_servers` resets them."""
    with running_redis() as redis_server:
        started = [start_server(redis_server.url(0)) for _ in range(2)]
        try:
            yield redis_server, [url for _, url in started]
        finally:
            for process, _ in started:
                process.terminate()
                process.wait(timeout=10)


@pytest.fixture
def two_servers(started_servers: tuple[RedisServer, list[str]]) -> tuple[RedisServer, list[str]]:
    """The module's servers with Redis up and empty: no test sees another's counters."""
    redis_server, _ = started_servers
    if redis_server.process is None:  # a test stopped it
        redis_server.start()
    redis.Redis.from_url(redis_server.url(0)).flushall()
    return started_servers


def test_the_address_rate_holds_across_two_server_processes(two_servers: Any, db: None) -> None:
    _, (first, second) = two_servers

    statuses = [httpx.get(f"{(first, second)[n % 2]}/api/v1/systems", timeout=10).status_code
                for n in range(7)]

    assert statuses == [200, 200, 200, 200, 200, 429, 429]


def test_login_attempts_count_across_processes_and_paths(two_servers: Any, owner: Any) -> None:
    _, (first, second) = two_servers
    wrong = {"username": "owner", "password": "wrong"}

    statuses = [httpx.post(f"{first}/api/v1/auth/token", json=wrong, timeout=10).status_code,
                httpx.post(f"{second}/api/v1/auth/token", json=wrong, timeout=10).status_code,
                httpx.post(f"{first}/api/v1/auth/token", json=wrong, timeout=10).status_code,
                httpx.post(f"{second}/api/v1/auth/token", json={"username": "owner", "password": PASSWORD},
                           timeout=10).status_code]

    assert statuses == [400, 400, 400, 429]


def test_with_redis_down_reads_go_on_and_logins_fail_closed(two_servers: Any, owner: Any) -> None:
    redis_server, (first, second) = two_servers
    redis_server.stop()

    read = httpx.get(f"{first}/api/v1/systems", timeout=20)
    login = httpx.post(f"{second}/api/v1/auth/token", json={"username": "owner", "password": PASSWORD},
                       timeout=20)

    assert read.status_code == 200  # request rates fail open: a Redis hiccup is no outage
    assert login.status_code == 503 and login.json()["code"] == "unavailable"

    redis_server.start()
    assert httpx.post(f"{second}/api/v1/auth/token", json={"username": "owner", "password": PASSWORD},
                      timeout=20).status_code == 200


def test_with_redis_down_each_limit_tries_the_store_once_and_answers(owner: Any, settings: Any) -> None:
    """Why a dead Redis costs a request no waiting: each throttle tries the store once, no retry
    loop. Counted in this process, not timed (`bench/bench_faults.py` times the refusal)."""
    from rest_framework.test import APIClient

    port = free_port()
    settings.CACHES = {**settings.CACHES, settings.API_THROTTLE_CACHE: {
        "BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": f"redis://127.0.0.1:{port}/0",
        "KEY_PREFIX": "api-throttle", "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 2}}}
    client = APIClient()

    with connection_attempts(port) as read_attempts:
        read = client.get("/api/v1/systems")
    with connection_attempts(port) as login_attempts:
        login = client.post("/api/v1/auth/token", {"username": "owner", "password": PASSWORD}, format="json")

    assert read.status_code == 200 and login.status_code == 503
    assert read_attempts == [port] and login_attempts == [port]


def test_a_window_counter_is_one_round_trip_that_counts_and_expires_with_its_window() -> None:
    """`_count` on Redis: 1, 2, 3 in a window, a lifetime set once (a period and a second), a
    value Django's cache reads back, and a new window starts at 1 again."""
    from django.core.cache.backends.redis import RedisCache

    from armybuilder.api.throttling import SharedCacheThrottle

    with running_redis() as redis_server:
        store = RedisCache(redis_server.url(0), {"KEY_PREFIX": "t"})

        class Throttle(SharedCacheThrottle):
            scope = "user"
            cache = store  # type: ignore[assignment]
            rate = "100/min"

        throttle = Throttle()
        assert [throttle._count("w:1") for _ in range(3)] == [1, 2, 3]
        client = store._cache.get_client()
        ttl = client.ttl(store.make_and_validate_key("w:1"))
        assert 0 < ttl <= throttle.duration + 1
        assert store.get("w:1") == 3
        assert throttle._count("w:2") == 1
        sent = client.info("commandstats")
        assert "cmdstat_exists" not in sent  # no existence check before counting
