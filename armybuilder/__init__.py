"""The Django project and the army-list product (see `DESIGN.md`).

The Celery app is *not* imported here: every Django process would pay for Celery,
kombu and Redis clients, including `manage.py price`, which needs none of them. It is created
by `armybuilder.celery`, which the worker loads (`celery -A armybuilder` finds it there) and
every module that defines or sends tasks imports first (`armybuilder.tasks`,
`armybuilder.estimates.tasks`), so `@shared_task` functions still bind to it before use.
`armybuilder.celery_app` stays available, loaded on first access.
"""

from typing import Any

__all__ = ("celery_app",)


def __getattr__(name: str) -> Any:
    if name == "celery_app":
        from armybuilder.celery import app

        return app
    raise AttributeError(f"module 'armybuilder' has no attribute {name!r}")
