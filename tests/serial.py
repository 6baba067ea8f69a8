"""`@pytest.mark.serial`: a test that no other test process may overlap.

Under pytest-xdist (`bin/test` runs two processes) most tests share nothing: each process has
its own database and Redis server (`tests/worker_services.py`). A few change what every process
sees, such as a package written into the source tree, which the registry of a process running
another test at that moment would discover. Such a test is marked `serial`; it then runs while
no other process is inside a test, and no other process starts one until it ends.

How: a readers-writer lock on files in the run's shared temporary folder (`flock`). Every test
holds it shared; a serial test holds it exclusively. A turnstile lock in front keeps a waiting
serial test from being starved by a process that keeps starting new tests. Serial tests are
also moved to the front of the collection, so they run while the other process is on its first
tests rather than making it wait in the middle of the run. Without xdist nothing is locked.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from pathlib import Path

import pytest


def _in_xdist() -> bool:
    return bool(os.environ.get("PYTEST_XDIST_WORKER"))


@pytest.hookimpl(trylast=True)  # after pytest-django's own reordering
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Serial tests first, in their collected order (every process sorts alike, as xdist needs)."""
    if _in_xdist():
        items.sort(key=lambda item: item.get_closest_marker("serial") is None)


class SerialLock:
    """The two lock files of the run, opened once per process."""

    def __init__(self, folder: Path) -> None:
        self.turnstile = (folder / "serial-turnstile.lock").open("ab")
        self.readers_writer = (folder / "serial-rw.lock").open("ab")

    def enter(self, serial: bool) -> None:
        fcntl.flock(self.turnstile, fcntl.LOCK_EX)
        try:
            fcntl.flock(self.readers_writer, fcntl.LOCK_EX if serial else fcntl.LOCK_SH)
        finally:
            fcntl.flock(self.turnstile, fcntl.LOCK_UN)

    def leave(self) -> None:
        fcntl.flock(self.readers_writer, fcntl.LOCK_UN)


def pytest_configure(config: pytest.Config) -> None:
    if _in_xdist():
        # xdist gives each process <run's temporary folder>/popen-gw<n>; the parent is shared.
        config.stash[_LOCK] = SerialLock(Path(config.option.basetemp).parent)


_LOCK = pytest.StashKey[SerialLock]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[None]:
    """The whole protocol holds the lock, so module- and session-scoped fixtures a test sets up
    or tears down (which may read the registry too) are inside it as well."""
    lock = item.config.stash.get(_LOCK, None)
    if lock is None:
        return (yield)
    lock.enter(serial=item.get_closest_marker("serial") is not None)
    try:
        return (yield)
    finally:
        lock.leave()
