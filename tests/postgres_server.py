"""Stopping and starting the test run's own embedded Postgres (pgserver, `bin/test`), for the
fault tests of issue 25: every connection is cut, as in a database restart.

Only the server under this worktree's `.data/pg` is touched (the one `DATABASES` points at
over its unix socket); a run against an external `DATABASE_URL` skips these tests.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest


def embedded_pgdata() -> Path:
    """The data folder of the embedded server the tests use (its socket lives there too)."""
    from django.conf import settings

    database = settings.DATABASES["default"]
    host = database.get("HOST") or (database.get("OPTIONS") or {}).get("host") or ""
    pgdata = Path(host)
    if not host.startswith("/") or not (pgdata / "PG_VERSION").exists():
        pytest.skip("the database is not the embedded pgserver of bin/test")
    return pgdata


def _pg_ctl(pgdata: Path, *args: str) -> None:
    from pgserver._commands import POSTGRES_BIN_PATH

    command = [str(POSTGRES_BIN_PATH / "pg_ctl"), "-D", str(pgdata), *args]
    user = "pgserver" if os.geteuid() == 0 else None  # pgserver runs the server as this user when root
    subprocess.run(command, check=True, user=user, capture_output=True, timeout=60)


@contextlib.contextmanager
def postgres_stopped(seconds: float) -> Iterator[None]:
    """Stop the server (fast: every session is cut), run the block, start the server again
    `seconds` after it stopped."""
    from django.db import connections

    pgdata = embedded_pgdata()
    for conn in connections.all():
        conn.close()
    _pg_ctl(pgdata, "-w", "-m", "fast", "stop")
    stopped = time.monotonic()
    try:
        yield  # the block runs while the server is down
    finally:
        time.sleep(max(0.0, seconds - (time.monotonic() - stopped)))
        _pg_ctl(pgdata, "-w", "-o", '-h ""', "-o", f"-k {pgdata}", "-l", str(pgdata / "log"), "start")
        for conn in connections.all():
            conn.close()
