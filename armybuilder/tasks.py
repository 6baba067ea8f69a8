"""Diagnostic tasks: the worker's part of `/healthz`."""

from celery import shared_task


@shared_task(name="armybuilder.ping")
def ping() -> str:
    """Answer "pong", so a round trip proves broker, worker and result backend all work."""
    return "pong"
