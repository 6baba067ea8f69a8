"""Every kind of durable job (`armybuilder.jobs`) on real workers through the faults of issue 38.

The list imports and the estimates have fault runs of their own
(`tests/armybuilder/lists/test_import_fault_runs.py`, `tests/armybuilder/estimates/
test_estimate_fault_runs.py`); this file runs the other kinds together — a BattleScribe roster's
import, a catalogue import, a roster PDF and a list's gauntlet — on a real prefork worker
(queues `celery` and `pdf`) beside a control worker running Celery beat with the one
reconciliation every second, then breaks something while the jobs are held at their start
(`ESTIMATE_TEST_HOLD_AT=job`):

- the whole worker killed (SIGKILL) with every job running, and a new one started: each job is
  done within a minute of the kill, not after the broker's visibility timeout;
- Postgres stopped for 5 s with one job running and the others queued behind it;
- Redis killed and restarted (its queues gone) with one job running and the others queued.

Every job must end done, an import saving exactly once, the PDF served and the gauntlet whole.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.urls import reverse

from armybuilder.estimates.gauntlet_live import gauntlet_inputs, job_key
from armybuilder.estimates.gauntlet_panel import gauntlet_state
from armybuilder.estimates.gauntlet_tasks import gauntlet_queue
from armybuilder.lists.import_jobs import queue_roster_import
from armybuilder.models import ArmyList, BackgroundJob
from armybuilder.roster import pdf_jobs
from rules.battlescribe.xml_reader import SourceFile
from rules.battlescribe_jobs import queue_import
from rules.models import Faction
from tests.armybuilder.estimates.test_estimate_fault_runs import Workers, wait_for_worker_at
from tests.armybuilder.estimates.test_estimate_worker import wait_for_file
from tests.armybuilder.lists.test_import_fault_runs import ended
from tests.armybuilder.lists.test_roster_import_jobs import roster_list
from tests.conftest import wait_for_worker
from tests.factories.army_lists import make_faction, make_list, make_unit, make_user
from tests.postgres_server import postgres_stopped
from tests.redis_server import point_celery_at, running_redis
from tests.rules.battlescribe.files import FILES, GRIMDARK

pytestmark = [pytest.mark.worker, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

KINDS = ("list_import", "catalogue_import", "roster_pdf", "gauntlet")


@pytest.fixture
def fault_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, settings: Any) -> Path:
    """Workers started from now on reconcile every second with a 2 s grace and hold a job at its
    start while the returned file exists; no rate bites."""
    hold = tmp_path / "hold"
    monkeypatch.setenv("RECONCILE_INTERVAL", "1")
    monkeypatch.setenv("ESTIMATE_ORPHAN_GRACE", "2")
    monkeypatch.setenv("ESTIMATE_TEST_HOLD_FILE", str(hold))
    monkeypatch.setenv("ESTIMATE_TEST_HOLD_AT", "job")
    rest = dict(settings.REST_FRAMEWORK)
    rest["DEFAULT_THROTTLE_RATES"] = {**rest["DEFAULT_THROTTLE_RATES"], "list_import": "100000/hour",
                                      "battlescribe_import": "100000/hour", "pdf": "100000/hour"}
    settings.REST_FRAMEWORK = rest
    return hold


class Jobs:
    """One job of each kind, queued for one owner, and what each must end with."""

    def __init__(self, client: Any) -> None:
        self.owner = make_user("fault-owner")
        client.force_login(self.owner)
        roster_source = roster_list(self.owner)  # loads the catalogues, then a roster list
        self.rosz = client.get(reverse("lists:export_rosz", args=[roster_source.pk])).content
        faction = make_faction()
        self.pdf_list = make_list(owner=self.owner, faction=faction, name="Printed",
                                  units=[make_unit(faction=faction, slug="printed")])
        self.measured = make_list(owner=self.owner, faction=faction, name="Measured",
                                  units=[make_unit(faction=faction, slug="measured")])
        self.lists_before = ArmyList.objects.filter(owner=self.owner).count()

    def queue(self) -> list[str]:
        """Queue one job of each kind (in `KINDS` order); their ids."""
        roster = queue_roster_import(owner_id=self.owner.pk, language="en",
                                     source=SourceFile("mine.rosz", self.rosz), system_key="wh40k9")
        files = [SourceFile(name, (FILES / name).read_bytes()) for name in GRIMDARK]
        catalogue = queue_import(system_key="wh40k9", files=files, owner_id=self.owner.pk, language="en")
        pdf_jobs.pdf_request(army_list=self.pdf_list, paper="a4", language="en", requester="user:1")
        render = BackgroundJob.objects.get(kind=pdf_jobs.KIND)
        gauntlet = gauntlet_queue(self.measured, job_key(self.measured, gauntlet_inputs(self.measured)))
        assert gauntlet is not None
        return [roster.id, catalogue.id, render.pk, gauntlet]

    def assert_all_done_once(self, job_ids: list[str], *, timeout: float) -> list[BackgroundJob]:
        finished = [ended(job_id, self.owner, timeout=timeout) for job_id in job_ids]
        assert [(job.kind, job.state, job.errors, job.reason) for job in finished] == [
            (kind, "done", [], "") for kind in KINDS]
        roster, catalogue, _render, _gauntlet = finished
        assert ArmyList.objects.filter(owner=self.owner).count() == self.lists_before + 1  # saved once
        assert ArmyList.objects.filter(pk=roster.result["list_id"], owner=self.owner).exists()
        assert Faction.objects.filter(owner=self.owner).count() == len(catalogue.result["factions"]) > 0
        pdf = pdf_jobs.pdf_request(army_list=self.pdf_list, paper="a4", language="en", requester="user:1")
        assert pdf.state == "ready" and pdf.pdf.startswith(b"%PDF-")
        return finished

    def assert_gauntlet_whole(self, *, timeout: float) -> None:
        """The panel's look finds every matchup (queuing again what a lost cache dropped)."""
        deadline = time.monotonic() + timeout
        while (state := gauntlet_state(self.measured)).state != "ready":
            assert time.monotonic() < deadline, f"the gauntlet never filled: {state.done}/{state.total}"
            time.sleep(0.2)


def all_running(job_ids: list[str], *, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while set(BackgroundJob.objects.filter(pk__in=job_ids).values_list("state", flat=True)) != {"running"}:
        assert time.monotonic() < deadline, list(BackgroundJob.objects.filter(pk__in=job_ids).values_list(
            "kind", "state"))
        time.sleep(0.1)


def test_a_killed_worker_s_jobs_of_every_kind_are_done_within_a_minute(
        client: Any, tmp_path: Path, fault_env: Path, record_property: Any) -> None:
    jobs = Jobs(client)
    fault_env.write_text("hold")
    workers = Workers(tmp_path, concurrency=len(KINDS))
    try:
        wait_for_worker()
        job_ids = jobs.queue()
        all_running(job_ids)  # each held at its start, in a pool process of its own
        workers.kill_work()
        killed = time.monotonic()
        fault_env.unlink()
        workers.work = workers.start_work()
        finished = jobs.assert_all_done_once(job_ids, timeout=90)
        took = time.monotonic() - killed
        jobs.assert_gauntlet_whole(timeout=60)
    finally:
        workers.stop()
    record_property("seconds_from_kill_to_done", round(took, 1))
    # The dead worker's start, then the new one's.
    assert [job.attempts for job in finished] == [2] * len(KINDS)
    assert took < 60, f"{took:.1f} s after the kill"


def test_postgres_stopped_for_five_seconds_with_jobs_of_every_kind_running_and_queued(
        client: Any, tmp_path: Path, fault_env: Path) -> None:
    jobs = Jobs(client)
    fault_env.write_text("hold")
    workers = Workers(tmp_path, concurrency=1)
    try:
        wait_for_worker()
        job_ids = jobs.queue()
        wait_for_file(tmp_path / "hold.reached", timeout=60)
        with postgres_stopped(5):
            fault_env.unlink()  # the held job goes on into a database that is down
        jobs.assert_all_done_once(job_ids, timeout=180)
        jobs.assert_gauntlet_whole(timeout=60)
    finally:
        workers.stop()


def test_redis_killed_and_restarted_with_jobs_of_every_kind_running_and_queued(
        client: Any, tmp_path: Path, fault_env: Path, monkeypatch: pytest.MonkeyPatch, settings: Any) -> None:
    jobs = Jobs(client)
    fault_env.write_text("hold")
    with running_redis() as server:
        url = server.url(0)
        monkeypatch.setenv("REDIS_URL", url)
        settings.REDIS_URL = url
        # The matchups and the progress are in the workers' job cache: read the same one here.
        settings.CACHES = {**settings.CACHES, settings.PDF_CACHE: {**settings.CACHES[settings.PDF_CACHE],
                                                                   "LOCATION": url}}
        workers = None
        try:
            with point_celery_at(url):
                workers = Workers(tmp_path, concurrency=1)
                wait_for_worker_at(url)
                job_ids = jobs.queue()
                wait_for_file(tmp_path / "hold.reached", timeout=60)
                server.stop()  # the queued jobs' messages go with it
                server.start()
                fault_env.unlink()
                jobs.assert_all_done_once(job_ids, timeout=180)
                jobs.assert_gauntlet_whole(timeout=60)
        finally:
            if workers is not None:
                workers.stop()
    connection.close()
