"""Diagnostic tasks: the worker's part of `/healthz`."""

from celery import shared_task

import armybuilder.celery  # the app these tasks bind to, loaded lazily
import armybuilder.jobs  # noqa: F401  (`jobs.run`, every durable background job's task)


@shared_task(name="armybuilder.ping")
def ping() -> str:
    """Answer "pong", so a round trip proves broker, worker and result backend all work."""
    return "pong"
