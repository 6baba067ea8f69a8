"""The CPU-time limit of an estimate task (`cpu_limit.cpu_time_limit`): counted in CPU seconds
of this process, fractions of a second included, and put back after the block."""

from __future__ import annotations

import signal
import threading

import pytest

from armybuilder.estimates.cpu_limit import CpuTimeExceeded, cpu_time_limit, process_cpu_seconds


def spin(cpu_seconds: float) -> None:
    """Use `cpu_seconds` of CPU."""
    until = process_cpu_seconds() + cpu_seconds
    while process_cpu_seconds() < until:
        sum(range(1000))


def test_a_block_past_its_cpu_seconds_is_stopped_once_it_has_used_them():
    before = process_cpu_seconds()
    with pytest.raises(CpuTimeExceeded), cpu_time_limit(0.3):
        spin(5.0)
    used = process_cpu_seconds() - before
    # The profiling timer samples CPU time at the kernel's tick: a few hundredths either way.
    assert 0.2 <= used < 1.5
    assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)


def test_a_block_within_its_seconds_ends_normally_and_leaves_no_timer_or_handler():
    handler = signal.getsignal(signal.SIGPROF)
    with cpu_time_limit(5.0):
        assert signal.getitimer(signal.ITIMER_PROF)[0] > 0
        spin(0.05)
    assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)
    assert signal.getsignal(signal.SIGPROF) is handler


def test_a_computation_that_swallows_the_exception_is_stopped_again():
    def stubborn() -> None:
        for _ in range(10):
            try:
                spin(0.2)
            except CpuTimeExceeded:
                continue  # a broad handler inside a computation
        spin(5.0)

    before = process_cpu_seconds()
    with pytest.raises(CpuTimeExceeded), cpu_time_limit(0.1):
        stubborn()
    assert process_cpu_seconds() - before < 3.0


def test_no_limit_with_zero_seconds_or_off_the_main_thread():
    with cpu_time_limit(0):
        assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)
    seen: list[tuple[float, float]] = []

    def elsewhere() -> None:
        with cpu_time_limit(0.01):
            seen.append(signal.getitimer(signal.ITIMER_PROF))

    thread = threading.Thread(target=elsewhere)
    thread.start()
    thread.join()
    assert seen == [(0.0, 0.0)]
