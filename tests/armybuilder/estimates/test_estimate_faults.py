"""Estimate jobs when Redis or the worker goes away: nothing strands.

Redis is a private server the test stops and restarts (`tests/redis_server.py`), so the
shared one keeps serving the rest of the run.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
import redis
from django.utils import timezone

from armybuilder.estimates.models import Estimate
from armybuilder.estimates.reconciliation import jobs_reconcile
from armybuilder.estimates.selectors import NEVER_STARTED, WORKER_LOST
from armybuilder.estimates.tasks import MAX_ATTEMPTS
from tests.factories.army_lists import token_client
from tests.factories.estimate_rows import estimate_set
from tests.factories.opr_documents import LAUNCHER, RIFLE, opr_unit
from tests.redis_server import connection_attempts, point_celery_at, running_redis

pytestmark = pytest.mark.django_db(transaction=True)

URL = "/api/v1/estimates"
BODY = {"kind": "unit_vs_unit",
        "attacker": opr_unit("Veterans", count=5, quality=3, weapons=[RIFLE, LAUNCHER]),
        "defender": opr_unit("Guards", count=10, defence=5)}



def queued_messages(url: str) -> int:
    return redis.Redis.from_url(url).llen("celery")


def test_redis_down_is_a_quick_json_503_that_stores_nothing_and_recovery_works(owner: Any) -> None:
    api = token_client(owner)
    with running_redis() as server, point_celery_at(server.url(8)):
        server.stop()
        with connection_attempts(server.port) as attempts:
            down = api.post(URL, BODY, format="json")

        assert down.status_code == 503
        assert down["Content-Type"].startswith("application/json")
        assert down.json()["code"] == "unavailable"
        assert int(down["Retry-After"]) > 0
        assert attempts == [server.port]  # one try at the broker, no retry loop to wait through
        assert Estimate.objects.count() == 0

        server.start()
        again = api.post(URL, BODY, format="json")

        assert again.status_code == 202, again.content
        estimate = Estimate.objects.get()
        assert again.json()["id"] == str(estimate.pk) and estimate.status == Estimate.Status.QUEUED
        assert queued_messages(server.url(8)) == 1


def test_jobs_lost_with_the_broker_fail_at_their_bound_and_are_not_reused(owner: Any, settings: Any) -> None:
    api = token_client(owner)
    settings.ESTIMATE_QUEUED_LIMIT = 60
    with running_redis() as server, point_celery_at(server.url(8)):
        first = api.post(URL, BODY, format="json").json()
        server.stop()  # the queue and its message are gone
        server.start()
        assert queued_messages(server.url(8)) == 0
        # Within the bound the queued job is still the answer to the same question ...
        assert api.post(URL, BODY, format="json").json()["id"] == first["id"]
        estimate_set(first["id"], created=timezone.now() - timedelta(seconds=61))

        outcome = jobs_reconcile(ask_workers=False)
        retried = api.post(URL, BODY, format="json")

    lost = Estimate.objects.get(pk=first["id"])
    assert outcome.failed_queued == 1
    assert (lost.status, lost.error) == (Estimate.Status.FAILED, NEVER_STARTED)
    # ... past it the job is failed and asking again makes a new one that is really queued.
    assert retried.status_code == 202 and retried.json()["id"] != first["id"]
    assert retried.json()["status"] == "queued"


def test_a_running_job_no_live_worker_holds_is_requeued_then_failed_after_its_attempts(owner: Any) -> None:
    api = token_client(owner)
    with running_redis() as server, point_celery_at(server.url(8)):
        job = api.post(URL, BODY, format="json").json()
        redis.Redis.from_url(server.url(8)).delete("celery")
        estimate_set(job["id"], status=Estimate.Status.RUNNING, attempts=1,
                     started=timezone.now() - timedelta(seconds=30))

        held_elsewhere = jobs_reconcile(held={job["id"]}, ask_workers=False)
        requeued = jobs_reconcile(held=set(), ask_workers=False)
        sent = queued_messages(server.url(8))

        estimate_set(job["id"], status=Estimate.Status.RUNNING, attempts=MAX_ATTEMPTS,
                     started=timezone.now() - timedelta(seconds=30))
        given_up = jobs_reconcile(held=set(), ask_workers=False)

    assert held_elsewhere.requeued == 0
    assert requeued.requeued == 1 and sent == 1
    assert given_up.failed_orphans == 1
    estimate = Estimate.objects.get(pk=job["id"])
    assert (estimate.status, estimate.error) == (Estimate.Status.FAILED, WORKER_LOST)


def test_with_no_worker_answering_running_work_is_left_alone_not_sent_again(owner: Any) -> None:
    """No answer from any worker (none runs, or all are too busy to say within the
    timeout) cannot tell lost work from busy work; sending it again could only duplicate it
    (and count attempts against a healthy job). Its time bound still applies."""
    api = token_client(owner)
    with running_redis() as server, point_celery_at(server.url(8)):
        job = api.post(URL, BODY, format="json").json()
        redis.Redis.from_url(server.url(8)).delete("celery")
        estimate_set(job["id"], status=Estimate.Status.RUNNING, attempts=1,
                     started=timezone.now() - timedelta(seconds=30))

        outcome = jobs_reconcile()  # asks the workers: none answers on this private broker
        sent = queued_messages(server.url(8))

    estimate = Estimate.objects.get(pk=job["id"])
    assert outcome.requeued == 0 and sent == 0
    assert (estimate.status, estimate.attempts) == (Estimate.Status.RUNNING, 1)
