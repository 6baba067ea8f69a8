"""An estimate's state is its job's and its result is its own: a refresh reads both in one query,
so a worker finishing between two reads cannot show "done" without the result."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from armybuilder.estimates.job_state import estimate_finish
from armybuilder.estimates.models import Estimate
from tests.factories.estimate_rows import stored_estimate

pytestmark = pytest.mark.django_db


def test_a_refresh_reads_the_estimate_and_its_job_in_one_query():
    estimate = stored_estimate(status=Estimate.Status.RUNNING)
    with CaptureQueriesContext(connection) as queries:
        estimate.refresh_from_db()
        status, result = estimate.status, estimate.result
    assert len(queries) == 1
    assert (status, result) == (Estimate.Status.RUNNING, None)


def test_a_refresh_after_the_job_finished_shows_its_state_and_result_together():
    estimate = stored_estimate(status=Estimate.Status.RUNNING)
    estimate.refresh_from_db()
    assert estimate.status == Estimate.Status.RUNNING  # the job is cached on the object now
    estimate_finish(estimate.pk, result={"answer": 42}, compute_ms=1.0)
    estimate.refresh_from_db()
    assert (estimate.status, estimate.result) == (Estimate.Status.DONE, {"answer": 42})
