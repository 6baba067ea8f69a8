"""The durable background jobs' reconciliation (`armybuilder.jobs.jobs_reconcile`), in process:
what it does with each state, given what the broker holds and which workers beat. The same with
real workers and real faults: `tests/armybuilder/lists/test_import_fault_runs.py`."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
import redis
from django.conf import settings
from django.utils import timezone

from armybuilder import jobs
from armybuilder.broker_tasks import queued_task_ids
from armybuilder.lists.import_jobs import list_import_state
from armybuilder.models import BackgroundJob, JobInput
from tests.factories.army_lists import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def pdf_queue(settings: Any) -> Iterator[redis.Redis]:
    """The broker's `pdf` queue, emptied before and after (what was sent is read from it)."""
    client = redis.Redis.from_url(settings.REDIS_URL)
    client.delete(jobs.QUEUE)
    yield client
    client.delete(jobs.QUEUE)


def a_job(state: str, *, attempts: int = 1, worker: str = "work@host", age: float = 60,
          owner: Any = None, kind: str = "list_import") -> BackgroundJob:
    then = timezone.now() - timedelta(seconds=age)
    job = BackgroundJob.objects.create(
        id=f"{state}{attempts}{worker}".replace("@", "")[:32].ljust(32, "0"), kind=kind,
        owner=owner or make_user(), state=state, attempts=attempts, worker=worker, language="en",
        request={"mode": "api_json", "asked": {}}, touched=then, started=then if state != "queued" else None)
    JobInput.objects.create(job=job, position=0, name="text", text="{}")
    return job


def state_of(job: BackgroundJob) -> tuple[str, int]:
    job.refresh_from_db()
    return job.state, job.attempts


def test_a_queued_job_whose_message_is_gone_is_sent_again(pdf_queue: redis.Redis):
    job = a_job("queued", attempts=0)
    outcome = jobs.jobs_reconcile(held=set(), workers_alive=True, live_workers={"work@host"})
    assert outcome == jobs.JobsReconciled(resent_queued=1)
    assert state_of(job) == ("queued", 0)
    assert queued_task_ids((jobs.QUEUE,)) == {job.pk}


def test_a_queued_job_whose_message_is_held_is_left_alone(pdf_queue: redis.Redis):
    job = a_job("queued", attempts=0)
    assert jobs.jobs_reconcile(held={job.pk}, workers_alive=True, live_workers=set()) == jobs.JobsReconciled()
    assert state_of(job) == ("queued", 0) and queued_task_ids((jobs.QUEUE,)) == set()
    assert job.touched > timezone.now() - timedelta(seconds=5)  # seen alive


def test_a_running_job_whose_worker_stopped_beating_is_sent_again(pdf_queue: redis.Redis):
    job = a_job("running", attempts=1, worker="dead@host")
    outcome = jobs.jobs_reconcile(held=set(), workers_alive=True, live_workers={"other@host"})
    assert outcome == jobs.JobsReconciled(resent_running=1)
    assert state_of(job) == ("queued", 1)  # its next start counts the second attempt
    assert queued_task_ids((jobs.QUEUE,)) == {job.pk}


def test_a_job_lost_on_every_attempt_fails_with_the_true_reason(pdf_queue: redis.Redis):
    owner = make_user("unlucky")
    job = a_job("running", attempts=jobs.MAX_ATTEMPTS, worker="dead@host", owner=owner)
    outcome = jobs.jobs_reconcile(held=set(), workers_alive=True, live_workers=set())
    assert outcome == jobs.JobsReconciled(failed_lost=1)
    assert state_of(job) == ("failed", jobs.MAX_ATTEMPTS)
    assert not JobInput.objects.filter(job=job).exists()
    shown = list_import_state(job_id=job.pk, owner_id=owner.pk)
    assert shown.errors == [
        ("", "The worker running this job stopped each time it was tried; nothing was saved.")]
    assert queued_task_ids((jobs.QUEUE,)) == set()


def test_a_beating_workers_job_is_never_taken_for_lost_before_its_time_limit(pdf_queue: redis.Redis):
    """A solo worker busy with the job answers no inspection, but its heartbeat thread beats."""
    job = a_job("running", worker="busy@host")
    unchanged = jobs.jobs_reconcile(held=set(), workers_alive=True, live_workers={"busy@host"})
    assert unchanged == jobs.JobsReconciled()
    assert state_of(job) == ("running", 1)
    BackgroundJob.objects.filter(pk=job.pk).update(started=timezone.now() - timedelta(seconds=3600))
    # Past its time limit and held by no one (its database retries ran out): lost.
    outcome = jobs.jobs_reconcile(held=set(), workers_alive=True, live_workers={"busy@host"})
    assert outcome == jobs.JobsReconciled(resent_running=1)


def test_nothing_is_sent_while_the_broker_cannot_be_read(pdf_queue: redis.Redis):
    queued, running = a_job("queued", attempts=0), a_job("running", worker="busy@host")
    assert jobs.jobs_reconcile(held=None, workers_alive=False, live_workers=None) == jobs.JobsReconciled()
    assert (state_of(queued), state_of(running)) == (("queued", 0), ("running", 1))


def test_finished_jobs_are_deleted_after_their_keep_time():
    old, young = a_job("done"), a_job("failed")
    long_ago = timezone.now() - timedelta(seconds=jobs.KEEP_SECONDS + 1)
    BackgroundJob.objects.filter(pk=old.pk).update(finished=long_ago)
    BackgroundJob.objects.filter(pk=young.pk).update(finished=timezone.now())
    assert jobs.jobs_reconcile(held=set(), workers_alive=True, live_workers=set()).deleted == 1
    assert list(BackgroundJob.objects.values_list("pk", flat=True)) == [young.pk]


def test_an_estimates_job_is_left_to_its_own_pass_and_kept_until_deleted(pdf_queue: redis.Redis):
    """An estimate is a job of a kind `armybuilder.jobs` watches (`job_kinds`): the other kinds'
    pass neither sends it on `jobs.run` nor prunes it (its answer is kept as long as the estimate);
    the beat task's one look gives it to the estimates' pass, which sends it again on its own
    task and queue."""
    from armybuilder.estimates.models import JOB_KIND, Estimate
    from armybuilder.estimates.reconciliation import reconcile
    from tests.factories.estimate_rows import estimate_set, stored_estimate

    long_ago = timezone.now() - timedelta(seconds=jobs.KEEP_SECONDS + 1)
    answered = stored_estimate(status=Estimate.Status.DONE, finished=long_ago, result={"expected": {}})
    lost = stored_estimate(inputs_hash="y" * 64)
    estimate_set(lost, created=timezone.now() - timedelta(days=1))  # queued, its message long gone

    assert jobs.jobs_reconcile(held=set(), workers_alive=True, live_workers=set()) == jobs.JobsReconciled()
    assert not pdf_queue.llen(jobs.QUEUE) and BackgroundJob.objects.filter(kind=JOB_KIND).count() == 2

    estimates_queue = redis.Redis.from_url(settings.REDIS_URL)
    estimates_queue.delete("celery")
    try:
        outcome = reconcile()
        assert outcome["requeued"] == 1 and outcome["background_deleted"] == 0
        assert queued_task_ids(["celery"]) == {str(lost.pk)} and not pdf_queue.llen(jobs.QUEUE)
    finally:
        estimates_queue.delete("celery")
    assert Estimate.objects.get(pk=lost.pk).status == Estimate.Status.QUEUED
    assert Estimate.objects.get(pk=answered.pk).result == {"expected": {}}
