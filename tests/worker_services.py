"""Each pytest-xdist process talks to its own PostgreSQL and Redis (`bin/test` starts them).

The launcher names them `DATABASE_URL_GW<n>` / `REDIS_URL_GW<n>`; this plugin (`-p
tests.worker_services`, which the launcher passes with `-n`) makes them the process's
`DATABASE_URL` / `REDIS_URL` before Django reads its settings, so the settings, the Celery
workers a test starts and the fault tests that stop the database server all see this
process's servers only. A run without xdist leaves the environment alone.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest


def own_services(environ: dict[str, str] | os._Environ[str]) -> dict[str, str]:
    """The DATABASE_URL and REDIS_URL of this xdist process, from the launcher's per-process
    variables; empty outside xdist or when the launcher named none."""
    worker = environ.get("PYTEST_XDIST_WORKER", "")
    if not worker:
        return {}
    suffix = worker.upper()  # gw1 -> GW1
    return {name: environ[f"{name}_{suffix}"] for name in ("DATABASE_URL", "REDIS_URL")
            if environ.get(f"{name}_{suffix}")}


@pytest.hookimpl(wrapper=True)
def pytest_load_initial_conftests() -> Iterator[None]:
    """Runs before pytest-django's hook of the same name, which imports the settings."""
    os.environ.update(own_services(os.environ))
    return (yield)
