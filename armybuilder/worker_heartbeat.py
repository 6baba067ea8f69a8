"""The Celery worker's heartbeat in Redis: how `/healthz` tells a busy worker from a dead one.

A ping task is answered only by a free pool process; during a burst of PDF renders every
process is busy for seconds and the ping waits in the queue behind them (`/healthz`
took 4.8 s, waiting on the ping and then on a control ping). So the worker's main process
writes the time into a sorted set of Redis (`KEY`, one member per worker host name) every
`INTERVAL` seconds, from a thread of its own that no task blocks (whatever the pool, `solo`
included), and removes its member when it shuts down. A worker whose last beat is older than
`STALE_AFTER` seconds (killed, hung, cut off from Redis) counts as down.

Each beat also records how many of the worker's pool processes are running a task
(`LOAD_KEY`): when all are, `/healthz` need not send a ping that would only queue.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import redis
from django.conf import settings

logger = logging.getLogger(__name__)

KEY = "armybuilder:worker-heartbeats"
#: Per worker host name: "<tasks running>/<pool processes>" at its last beat.
LOAD_KEY = "armybuilder:worker-load"
#: Seconds between two beats of a worker.
INTERVAL = 1.0
#: A worker whose last beat is older than this is down.
STALE_AFTER = 5.0
#: Members older than this are removed (workers gone without shutting down).
FORGET_AFTER = 3600.0


def _client() -> redis.Redis:
    return redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2, socket_connect_timeout=2)


def beat(*, hostname: str, now: float | None = None, running: int = 0, processes: int = 0) -> None:
    """Record that the worker `hostname` is alive at `now` (default: the current time), with
    `running` of its `processes` pool processes at work (0 processes: not known)."""
    now = time.time() if now is None else now
    client = _client()
    try:
        pipeline = client.pipeline()
        pipeline.zadd(KEY, {hostname: now})
        pipeline.hset(LOAD_KEY, hostname, f"{running}/{processes}")
        pipeline.zremrangebyscore(KEY, "-inf", now - FORGET_AFTER)
        pipeline.execute()
    finally:
        client.close()


def forget(*, hostname: str) -> None:
    """Remove the worker's beat (it is shutting down: it is down from now on)."""
    client = _client()
    try:
        client.pipeline().zrem(KEY, hostname).hdel(LOAD_KEY, hostname).execute()
    finally:
        client.close()


@dataclass(frozen=True)
class WorkerBeat:
    """A worker's last beat: its age in seconds and its pool processes at work."""

    hostname: str
    age: float
    running: int
    processes: int

    @property
    def all_busy(self) -> bool:
        """Every pool process is running a task (a ping would wait behind them)."""
        return self.processes > 0 and self.running >= self.processes


def fresh_beats(*, now: float | None = None) -> list[WorkerBeat]:
    """The workers that have beaten within `STALE_AFTER` seconds, most recent first.
    Raises when Redis cannot be reached."""
    now = time.time() if now is None else now
    client = _client()
    try:
        found = client.zrevrangebyscore(KEY, "+inf", now - STALE_AFTER, withscores=True)
        loads = client.hmget(LOAD_KEY, [name for name, _ in found]) if found else []
    finally:
        client.close()
    beats = []
    for (name, at), load in zip(found, loads, strict=True):
        running, _, processes = (load or b"0/0").decode().partition("/")
        beats.append(
            WorkerBeat(
                hostname=name.decode(),
                age=max(0.0, now - float(at)),
                running=int(running or 0),
                processes=int(processes or 0),
            )
        )
    return beats


class Heartbeat(threading.Thread):
    """Beats every `INTERVAL` seconds until `stop()`; a failed beat is logged and retried
    (Redis down for a moment makes the worker look down for as long, nothing more)."""

    def __init__(self, hostname: str, load: Callable[[], tuple[int, int]]) -> None:
        super().__init__(name="worker-heartbeat", daemon=True)
        self.hostname, self.load = hostname, load
        self.stopped = threading.Event()

    def run(self) -> None:
        while not self.stopped.is_set():
            try:
                running, processes = self.load()
                beat(hostname=self.hostname, running=running, processes=processes)
            except Exception:
                logger.warning("could not write the worker's heartbeat", exc_info=True)
            self.stopped.wait(INTERVAL)

    def stop(self) -> None:
        self.stopped.set()
        self.join(timeout=INTERVAL + 3)
        try:
            forget(hostname=self.hostname)
        except Exception:  # its beat goes stale on its own
            logger.warning("could not remove the worker's heartbeat", exc_info=True)


_running: Heartbeat | None = None


def start(*, hostname: str, load: Callable[[], tuple[int, int]]) -> None:
    """Start beating for this worker (once per process); `load()` tells the tasks running
    and the pool's processes at each beat."""
    global _running
    if _running is not None and _running.is_alive():
        return
    _running = Heartbeat(hostname, load)
    _running.start()


def stop() -> None:
    """Stop beating and remove this worker's beat."""
    global _running
    if _running is not None:
        _running.stop()
        _running = None
