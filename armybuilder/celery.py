"""The Celery application: broker and result backend are the Redis of `REDIS_URL`.

Loaded by the worker (`celery -A armybuilder`) and by the modules that define or send tasks,
never by `armybuilder/__init__` (commands must not pay for Celery).
"""

import contextlib
import os
import resource
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from celery import Celery
from celery.signals import worker_init, worker_ready, worker_shutdown

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "armybuilder.settings")
# The dice engine's numpy needs no BLAS threads; OpenBLAS would map a buffer per core at
# import, which counts against the worker's memory limit (RLIMIT_DATA) on a many-core host.
for _threads in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_threads, "1")

app = Celery("armybuilder")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
app.autodiscover_tasks(related_name="gauntlet_tasks")


def limit_worker_memory(limit_mb: int) -> None:
    """Cap this process's data segment (heap and anonymous mappings, numpy arrays included) at
    `limit_mb` MiB; forked pool processes inherit the cap. 0 leaves it unlimited."""
    if limit_mb <= 0:
        return
    _, hard = resource.getrlimit(resource.RLIMIT_DATA)
    wanted = limit_mb * 2**20
    soft = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    resource.setrlimit(resource.RLIMIT_DATA, (soft, hard))


def data_in_use() -> int | None:
    """Bytes of this process's data segment now (`VmData`: what RLIMIT_DATA counts), or None
    where /proc does not say."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmData:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


@contextlib.contextmanager
def memory_bound(extra_bytes: int) -> Iterator[None]:
    """Within the block this process may hold at most `extra_bytes` more data than
    at its start (RLIMIT_DATA lowered for the block, never raised past the worker's own cap,
    and put back after): an allocation past it raises MemoryError. So a job is held to its
    bound even where its cost model under-predicts, whatever the worker's overall cap. The
    limit is the whole process's: off the main thread (an eager job in a threaded web server)
    the block runs unbounded."""
    used = data_in_use()
    if extra_bytes <= 0 or used is None or threading.current_thread() is not threading.main_thread():
        yield
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
    wanted = used + extra_bytes
    for cap in (soft, hard):
        if cap != resource.RLIM_INFINITY:
            wanted = min(wanted, cap)
    resource.setrlimit(resource.RLIMIT_DATA, (wanted, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_DATA, (soft, hard))


@worker_init.connect
def _on_worker_init(**_: Any) -> None:
    from django.conf import settings

    limit_worker_memory(settings.ESTIMATE_WORKER_MEMORY_MB)


@worker_ready.connect
def _on_worker_ready(sender: Any = None, **_: Any) -> None:
    """The worker's heartbeat (`worker_heartbeat`): `/healthz` reads it when every pool
    process is busy and a ping task cannot be answered at once."""
    from celery.worker import state

    from armybuilder import worker_heartbeat

    processes = getattr(getattr(sender, "pool", None), "limit", None) or 0

    def load() -> tuple[int, int]:
        return len(state.active_requests), processes

    worker_heartbeat.start(hostname=getattr(sender, "hostname", None) or f"worker@{os.getpid()}", load=load)


@worker_shutdown.connect
def _on_worker_shutdown(**_: Any) -> None:
    from armybuilder import worker_heartbeat

    worker_heartbeat.stop()
