"""`/healthz` reports database, Redis and worker, and is 200 only when all are up."""

from __future__ import annotations

import json

import pytest

from tests.conftest import stop_worker


@pytest.mark.django_db
def test_healthz_is_200_when_everything_is_up(client, celery_worker_process):
    response = client.get("/healthz")
    body = json.loads(response.content)
    assert response.status_code == 200, body
    assert body["status"] == "ok"
    assert body["down"] == []
    assert body["components"]["database"]["detail"].startswith("PostgreSQL")
    assert body["components"]["redis"]["status"] == "up"
    assert body["components"]["worker"]["detail"] == "pong"


@pytest.mark.django_db
def test_healthz_is_503_naming_the_worker_when_it_is_down(client, celery_worker_process):
    stop_worker(celery_worker_process)
    response = client.get("/healthz")
    body = json.loads(response.content)
    assert response.status_code == 503
    assert body["down"] == ["worker"]
    assert body["components"]["database"]["status"] == "up"
    assert body["components"]["worker"]["status"] == "down"
    assert "error" in body["components"]["worker"]
