"""The Celery application: broker and result backend are the Redis of `REDIS_URL`."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "armybuilder.settings")

app = Celery("armybuilder")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
