"""gunicorn serving a bench's database on a free loopback port, the one way the benches that
time requests over HTTP start it (`bench_api`, `bench_builder`, `bench_load`): each states
only its worker model and how to tell the server is up, so a change of how the server is
started (its environment, how long it may take, how it is stopped) is made once.

Import after `_django.setup`: the server serves the database the bench's process created.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

import _django

#: How long a server may take to answer its first request, and to stop once asked to.
START_SECONDS = 60
STOP_SECONDS = 15


def free_port() -> int:
    """A port of 127.0.0.1 nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass(frozen=True)
class Server:
    """A running gunicorn: where it listens and its master's process id (whose children are
    its workers, for a bench that counts their CPU)."""

    port: int
    pid: int

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


def command(port: int, *, workers: int, worker_class: str, threads: int, timeout: int,
            keep_alive: int | None) -> list[str]:
    """gunicorn's command line: the project's WSGI application on `port` of 127.0.0.1."""
    argv = [sys.executable, "-m", "gunicorn", "armybuilder.wsgi:application", "--bind", f"127.0.0.1:{port}",
            "--workers", str(workers), "--worker-class", worker_class, "--log-level", "error",
            "--timeout", str(timeout)]
    if worker_class == "gthread":
        argv += ["--threads", str(threads)]
    if keep_alive is not None:
        argv += ["--keep-alive", str(keep_alive)]
    return argv


def stop(processes: Sequence[subprocess.Popen], seconds: float = STOP_SECONDS) -> None:
    """Ask processes to stop, all at once (SIGTERM: gunicorn finishes its requests, a Celery
    worker its tasks), and kill each that has not within `seconds`."""
    for process in processes:
        process.terminate()
    for process in processes:
        try:
            process.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def environment(env: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment of a process serving this bench's database on loopback (gunicorn, or a
    Celery worker beside it), with `env`'s settings over it."""
    from django.db import connection

    return {**os.environ, "DATABASE_NAME": connection.settings_dict["NAME"], "ALLOWED_HOSTS": "127.0.0.1",
            "PYTHONWARNINGS": "ignore:No directory at", **(env or {})}


def answers(port: int, path: str, headers: Mapping[str, str]) -> bool:
    """Whether the server on `port` answers GET `path` with a 200."""
    with contextlib.suppress(OSError):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        try:
            conn.request("GET", path, headers=dict(headers))
            return conn.getresponse().status == 200
        finally:
            conn.close()
    return False


@contextlib.contextmanager
def gunicorn(*, workers: int, worker_class: str = "sync", threads: int = 1, timeout: int = 60,
             keep_alive: int | None = None, ready: str = "/", headers: Mapping[str, str] | None = None,
             env: Mapping[str, str] | None = None) -> Iterator[Server]:
    """gunicorn serving this process's database on a free port of 127.0.0.1, yielded once GET
    `ready` (with `headers`) answers 200, stopped on exit. `env`: settings of the server beyond
    the bench's own (a cache size, the Redis URL)."""
    port = free_port()
    process = subprocess.Popen(command(port, workers=workers, worker_class=worker_class, threads=threads,
                                       timeout=timeout, keep_alive=keep_alive),
                               cwd=_django.ROOT, env=environment(env), start_new_session=True)
    try:
        deadline = time.monotonic() + START_SECONDS
        while not answers(port, ready, headers or {}):
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("gunicorn did not start")
            time.sleep(0.2)
        yield Server(port, process.pid)
    finally:
        stop([process])
