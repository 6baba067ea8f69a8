"""`/healthz` reports database, Redis and worker, and is 200 only when all are up."""

from __future__ import annotations

import json
import time

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


@pytest.fixture
def no_heartbeats(settings):
    """No worker heartbeat left over from an earlier test's worker."""
    import redis

    from armybuilder import worker_heartbeat

    client = redis.Redis.from_url(settings.REDIS_URL)
    client.delete(worker_heartbeat.KEY, worker_heartbeat.LOAD_KEY)
    yield
    client.delete(worker_heartbeat.KEY, worker_heartbeat.LOAD_KEY)
    client.close()


@pytest.fixture
def pings(monkeypatch):
    """The timeouts of the ping round trips `/healthz` waits for (the real ones are still sent):
    what it waits for is what makes it slow, so the tests check that rather than a wall clock
    that a loaded machine stretches."""
    from armybuilder import health

    waited: list[float] = []
    real = health._ping_answer

    def recorded(timeout: float):
        waited.append(timeout)
        return real(timeout)

    monkeypatch.setattr(health, "_ping_answer", recorded)
    return waited


@pytest.mark.django_db(transaction=True)
def test_healthz_answers_at_once_and_says_up_while_the_worker_renders_a_long_pdf(
        client, settings, no_heartbeats, celery_worker_process, pings):
    """During a burst of PDFs `/healthz` once took 4.8 s (it waited 3 s on a ping that
    queued behind the renders, then on a control ping). The worker (one process) is busy with
    a long render; `/healthz` reports it up, busy, without waiting on a ping."""
    from armybuilder import worker_heartbeat
    from armybuilder.roster import pdf_jobs
    from tests.armybuilder.test_roster_pdf_jobs import big_list

    settings.CACHES = {**settings.CACHES, settings.API_THROTTLE_CACHE: {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "healthz-busy-tests"}}
    army_list = big_list(200)
    state = pdf_jobs.pdf_request(army_list=army_list, paper="a4", language="en", requester="ip:10.0.0.1")
    deadline = time.monotonic() + 60
    while state.state == "pending" and state.stage == "queued" and time.monotonic() < deadline:
        time.sleep(0.05)
        state = pdf_jobs.pdf_request(army_list=army_list, paper="a4", language="en", requester="ip:10.0.0.1")
    assert state.state == "pending" and state.stage != "queued", state  # the render has started
    while not any(b.all_busy for b in worker_heartbeat.fresh_beats()) and time.monotonic() < deadline:
        time.sleep(0.05)  # the worker's next beat (every second) counts the render

    response = client.get("/healthz")
    after = pdf_jobs.pdf_request(army_list=army_list, paper="a4", language="en", requester="ip:10.0.0.1")

    body = json.loads(response.content)
    assert after.state == "pending", "the render ended before /healthz was asked: not a busy worker"
    assert response.status_code == 200, body
    assert body["components"]["worker"]["status"] == "up"
    assert body["components"]["worker"]["detail"].startswith("busy (1/1 processes at work, heartbeat "), body
    assert pings == [], "a ping would queue behind the render"


@pytest.mark.django_db
def test_healthz_is_a_quick_503_when_the_workers_heartbeat_stopped(client, no_heartbeats, pings):
    """A worker killed without shutting down (no answer to a ping, its last beat older than
    `STALE_AFTER`) is down, and `/healthz` says so after one short ping, not seconds."""
    from armybuilder import health, worker_heartbeat

    worker_heartbeat.beat(hostname="celery@killed", now=time.time() - worker_heartbeat.STALE_AFTER - 1)

    response = client.get("/healthz")

    body = json.loads(response.content)
    assert response.status_code == 503
    assert body["down"] == ["worker"]
    assert "no worker heartbeat" in body["components"]["worker"]["error"]
    assert pings == [health.PING_TIMEOUT_SECONDS] == [0.3]


def test_only_beats_within_stale_after_are_fresh_with_their_load(no_heartbeats):
    from armybuilder import worker_heartbeat

    now = 1_000_000.0
    worker_heartbeat.beat(hostname="celery@a", now=now - 8, running=0, processes=2)
    assert worker_heartbeat.fresh_beats(now=now) == []
    worker_heartbeat.beat(hostname="celery@b", now=now - 2, running=2, processes=2)
    worker_heartbeat.beat(hostname="celery@c", now=now - 1, running=1, processes=2)
    beats = worker_heartbeat.fresh_beats(now=now)
    assert [(b.hostname, b.age, b.running, b.processes, b.all_busy) for b in beats] == [
        ("celery@c", 1.0, 1, 2, False), ("celery@b", 2.0, 2, 2, True)]
    worker_heartbeat.forget(hostname="celery@c")
    worker_heartbeat.forget(hostname="celery@b")
    assert worker_heartbeat.fresh_beats(now=now) == []


@pytest.mark.django_db
def test_healthz_sends_no_ping_when_every_worker_process_is_at_work(client, no_heartbeats, monkeypatch):
    """The heartbeat says all pool processes are running tasks: a ping would only queue."""
    from armybuilder import health, worker_heartbeat

    def no_ping(timeout):
        raise AssertionError("a ping was sent to a worker busy in every process")

    monkeypatch.setattr(health, "_ping_answer", no_ping)
    worker_heartbeat.beat(hostname="celery@busy", running=2, processes=2)

    body = json.loads(client.get("/healthz").content)

    assert body["components"]["worker"]["status"] == "up"
    assert body["components"]["worker"]["detail"].startswith("busy (2/2 processes at work, heartbeat ")
