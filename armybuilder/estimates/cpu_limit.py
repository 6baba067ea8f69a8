"""A CPU-time limit for the computing part of an estimate task.

The Celery time limits are wall-clock: on a loaded server a job that would finish is killed,
and on a quiet one a job may burn minutes of CPU before they strike. A limit in CPU seconds
(`ESTIMATE_CPU_SECONDS`) counts only what the job itself uses, whatever the load.

The profiling timer (ITIMER_PROF: user + system CPU time of this process) fires SIGPROF once
the block has used its seconds, and the handler raises `CpuTimeExceeded` into the running
code. Unlike RLIMIT_CPU (whole seconds since the process started), it counts fractions of a
second from the start of the block, so the part of a fanned-out job gets exactly the CPU the
job has left, and a test can set a limit far below a second. The kernel samples the timer at
its tick, so the limit holds to a few hundredths of a second.
"""

from __future__ import annotations

import contextlib
import resource
import signal
import threading
from collections.abc import Iterator
from typing import Any

#: After the first expiry the timer fires again this often (CPU seconds), so code that
#: swallowed the exception (a broad `except` in a computation) is interrupted again.
REFIRE_SECONDS = 0.05


class CpuTimeExceeded(Exception):
    """The block used the CPU seconds it was given."""


def process_cpu_seconds() -> float:
    """User + system CPU time this process has used so far."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


@contextlib.contextmanager
def cpu_time_limit(seconds: float) -> Iterator[None]:
    """Raise `CpuTimeExceeded` in the block once it has used `seconds` of CPU time.

    With `seconds` <= 0, or off the main thread (no signal handler can be set there: an eager
    job in a threaded web server), the block runs unlimited. The timer and the previous
    handler are put back afterwards (a worker's pool process runs many tasks)."""
    if seconds <= 0 or threading.current_thread() is not threading.main_thread():
        yield
        return
    armed = True

    def on_limit(signum: int, frame: Any) -> None:
        if armed:
            raise CpuTimeExceeded(f"more than {seconds:g} s of CPU")

    previous = signal.signal(signal.SIGPROF, on_limit)
    signal.setitimer(signal.ITIMER_PROF, seconds, REFIRE_SECONDS)
    try:
        yield
    finally:
        armed = False  # a signal arriving while the timer is put back raises nothing
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)
