"""The foundation works on real parts: PostgreSQL, Redis, a Celery worker (issue 2)."""

from __future__ import annotations

import redis
from django.conf import settings
from django.db import connection


def test_database_is_a_real_postgresql(db):
    with connection.cursor() as cursor:
        cursor.execute("SELECT version()")
        (version,) = cursor.fetchone()
    assert version.startswith("PostgreSQL")
    assert connection.vendor == "postgresql"


def test_redis_answers_on_redis_url():
    client = redis.Redis.from_url(settings.REDIS_URL)
    assert client.ping() is True
    client.set("armybuilder:test", "1", ex=5)
    assert client.get("armybuilder:test") == b"1"


def test_celery_uses_redis_as_broker_and_backend():
    from armybuilder.celery import app

    assert app.conf.broker_url == settings.REDIS_URL
    assert app.conf.result_backend == settings.REDIS_URL


def test_real_worker_runs_a_task_through_redis(celery_worker_process):
    from armybuilder.tasks import ping

    result = ping.delay()
    assert result.get(timeout=20) == "pong"
    assert result.successful()
