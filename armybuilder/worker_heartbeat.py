"""The Celery worker's heartbeat in Redis: how `/healthz` tells a busy worker from a dead one.

A ping task is answered only by a free pool process; during a burst of PDF renders every
process is busy for seconds and the ping waits in the queue behind them (issue 17: `/healthz`
took 4.8 s, waiting on the ping and then on a control ping). So the worker's main process
writes the time into a sorted set of Redis (`KEY`, one member per worker host name) every
`INTERVAL` seconds, from a thread of its own that no task blocks (whatever the pool, `solo`
included), and removes its member when it shuts down. A worker whose last beat is older than
`STALE_AFTER` seconds (killed, hung, cut off from Redis) counts as down.
"""

from __future__ import annotations

import logging
import threading
import time

import redis
from django.conf import settings

logger = logging.getLogger(__name__)

KEY = "armybuilder:worker-heartbeats"
#: Seconds between two beats of a worker.
INTERVAL = 1.0
#: A worker whose last beat is older than this is down.
STALE_AFTER = 5.0
#: Members older than this are removed (workers gone without shutting down).
FORGET_AFTER = 3600.0


def _client() -> redis.Redis:
    return redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2, socket_connect_timeout=2)


def beat(*, hostname: str, now: float | None = None) -> None:
    """Record that the worker `hostname` is alive at `now` (default: the current time)."""
    now = time.time() if now is None else now
    client = _client()
    try:
        pipeline = client.pipeline()
        pipeline.zadd(KEY, {hostname: now})
        pipeline.zremrangebyscore(KEY, "-inf", now - FORGET_AFTER)
        pipeline.execute()
    finally:
        client.close()


def forget(*, hostname: str) -> None:
    """Remove the worker's beat (it is shutting down: it is down from now on)."""
    client = _client()
    try:
        client.zrem(KEY, hostname)
    finally:
        client.close()


def latest_beat_age(*, now: float | None = None) -> float | None:
    """Seconds since the most recent beat of any worker, or None when no worker has beaten
    within `STALE_AFTER` seconds. Raises when Redis cannot be reached."""
    now = time.time() if now is None else now
    client = _client()
    try:
        latest = client.zrevrange(KEY, 0, 0, withscores=True)
    finally:
        client.close()
    if not latest:
        return None
    age = max(0.0, now - float(latest[0][1]))
    return age if age <= STALE_AFTER else None


class Heartbeat(threading.Thread):
    """Beats every `INTERVAL` seconds until `stop()`; a failed beat is logged and retried
    (Redis down for a moment makes the worker look down for as long, nothing more)."""

    def __init__(self, hostname: str) -> None:
        super().__init__(name="worker-heartbeat", daemon=True)
        self.hostname = hostname
        self.stopped = threading.Event()

    def run(self) -> None:
        while not self.stopped.is_set():
            try:
                beat(hostname=self.hostname)
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


def start(*, hostname: str) -> None:
    """Start beating for this worker (once per process)."""
    global _running
    if _running is not None and _running.is_alive():
        return
    _running = Heartbeat(hostname)
    _running.start()


def stop() -> None:
    """Stop beating and remove this worker's beat."""
    global _running
    if _running is not None:
        _running.stop()
        _running = None
