"""The Django project and the army-list product (see shared/DESIGN.md).

The Celery app is imported here so that `@shared_task` functions bind to it whenever
Django starts, in the web process and the worker alike.
"""

from armybuilder.celery import app as celery_app

__all__ = ("celery_app",)
