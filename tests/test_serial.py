"""The lock behind `@pytest.mark.serial` (tests/serial.py): shared for ordinary tests, exclusive
for serial ones, and a waiting serial test is not overtaken by new ordinary ones.

Each `SerialLock` opens its own file descriptions, as each xdist process does, so two of them
in one process contend like two processes (flock locks belong to the open file)."""

from __future__ import annotations

import fcntl
import threading
from pathlib import Path

import pytest

from tests.serial import SerialLock


def _free(path: Path, mode: int) -> bool:
    """Whether a lock of `mode` on `path` could be taken right now (probed without waiting)."""
    with path.open("ab") as probe:
        try:
            fcntl.flock(probe, mode | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        fcntl.flock(probe, fcntl.LOCK_UN)
        return True


def test_ordinary_tests_share_the_lock_and_keep_a_serial_one_out(tmp_path):
    first, second = SerialLock(tmp_path), SerialLock(tmp_path)
    first.enter(serial=False)
    second.enter(serial=False)  # would block forever if ordinary tests excluded each other
    assert not _free(tmp_path / "serial-rw.lock", fcntl.LOCK_EX)
    first.leave()
    second.leave()
    assert _free(tmp_path / "serial-rw.lock", fcntl.LOCK_EX)


def test_a_serial_test_keeps_every_other_test_out(tmp_path):
    lock = SerialLock(tmp_path)
    lock.enter(serial=True)
    assert not _free(tmp_path / "serial-rw.lock", fcntl.LOCK_SH)
    lock.leave()
    assert _free(tmp_path / "serial-rw.lock", fcntl.LOCK_SH)


def test_a_waiting_serial_test_holds_the_turnstile_so_new_tests_wait_behind_it(tmp_path):
    running, serial = SerialLock(tmp_path), SerialLock(tmp_path)
    running.enter(serial=False)
    entered = threading.Event()

    def serial_test() -> None:
        serial.enter(serial=True)
        entered.set()

    waiter = threading.Thread(target=serial_test, daemon=True)
    waiter.start()
    # The serial test now waits for `running` while holding the turnstile; wait until it does.
    for _ in range(10_000):
        if not _free(tmp_path / "serial-turnstile.lock", fcntl.LOCK_EX):
            break
        threading.Event().wait(0.001)
    else:
        pytest.fail("the serial test never took the turnstile")
    assert not entered.is_set()
    running.leave()  # the ordinary test ends: the serial one goes in
    waiter.join(timeout=30)
    assert entered.is_set()
    assert _free(tmp_path / "serial-turnstile.lock", fcntl.LOCK_EX)  # let go once inside
    serial.leave()
