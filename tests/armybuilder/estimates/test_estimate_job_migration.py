"""The migration that moves every estimate's state onto a background job
(`estimates/migrations/0004_estimate_state_on_background_job.py`, then 0005 drops the old
columns): stored estimates keep their ids, answers and states, and their pages and API answer
as before; migrating back restores the columns from the jobs."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from armybuilder.estimates.models import Estimate
from armybuilder.job_rows import BackgroundJob

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("estimates", "0003_estimate_touched")]
AFTER = [("estimates", "0005_estimate_state_columns_removed")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def test_stored_estimates_keep_their_ids_answers_and_states_on_their_jobs(client):
    apps = migrate(BEFORE)
    try:
        User = apps.get_model("auth", "User")
        Old = apps.get_model("estimates", "Estimate")
        owner = User.objects.create(username="migrated")
        created = timezone.now() - timedelta(days=3)
        done, failed, queued = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
        Old.objects.create(id=done, kind="unit_vs_unit", system="opr", inputs={"attacker": {"name": "A"}},
                           inputs_hash="a" * 64, status="done", progress=1.0, attempts=1, owner=owner,
                           result={"expected": {"kills": 1.5}}, started=created, finished=created,
                           compute_ms=12.5)
        Old.objects.create(id=failed, kind="unit_vs_unit", system="opr", inputs={}, inputs_hash="b" * 64,
                           status="failed", progress=1.0, attempts=3, error="The computation took longer "
                           "than the time limit.")
        Old.objects.create(id=queued, kind="list_vs_list", system="opr", inputs={}, inputs_hash="c" * 64)
        Old.objects.filter(pk=done).update(created=created)

        migrate(AFTER)

        first = Estimate.objects.select_related("job").get(pk=done)
        assert first.job_id == done.hex and first.job.kind == "estimate"
        assert (first.status, first.progress, first.attempts, first.owner_id, first.job.owner_id) == (
            "done", 1.0, 1, owner.pk, owner.pk)
        assert first.result == {"expected": {"kills": 1.5}} and first.compute_ms == 12.5
        assert first.job.created == created and first.started == created
        second = Estimate.objects.get(pk=failed)
        assert (second.status, second.error, second.attempts) == (
            "failed", "The computation took longer than the time limit.", 3)
        assert Estimate.objects.get(pk=queued).status == "queued"
        assert BackgroundJob.objects.filter(kind="estimate").count() == 3
        # The old id still answers on the API and the pages (an anonymous one: readable by its id).
        assert client.get(f"/api/v1/estimates/{failed}").json()["status"] == "failed"
        assert client.get(f"/estimates/{failed}/").status_code == 200

        apps = migrate(BEFORE)  # and back: the columns are written again from the jobs
        Old = apps.get_model("estimates", "Estimate")
        back = Old.objects.get(pk=failed)
        assert (back.status, back.attempts, back.error) == ("failed", 3, second.error)
    finally:
        migrate(AFTER)
