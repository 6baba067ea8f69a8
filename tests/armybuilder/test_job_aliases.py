"""Messages the previous release queued still run after a deploy (`armybuilder.job_aliases`).

Each test sends a message under an old task name, with the old arguments (and, for the imports,
the job cache entries the old release wrote beside it), to a real worker of this release, and
waits for the durable job it becomes to end done.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from django.core.cache import caches
from django.core.management import call_command

from armybuilder.celery import app
from armybuilder.estimates.gauntlet_panel import gauntlet_state
from armybuilder.job_aliases import old_list_import
from armybuilder.models import ArmyList, BackgroundJob
from armybuilder.roster import pdf_jobs
from tests.armybuilder.lists.test_import_fault_runs import ended
from tests.factories.army_lists import INFANTRY, make_faction, make_list, make_unit, make_user
from tests.rules.battlescribe.files import FILES, GRIMDARK

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def eventually(check: Callable[[], Any], *, timeout: float = 90) -> Any:
    deadline = time.monotonic() + timeout
    while not (found := check()):
        assert time.monotonic() < deadline, "never happened"
        time.sleep(0.1)
    return found


def test_old_import_messages_become_durable_jobs_under_their_ids(celery_worker_process: Any) -> None:
    """`lists.import_list` and `rules.import_battlescribe` with the input in the job cache, as
    the release before the durable jobs queued them: each is imported once, and its id (the one
    the page or API client polls) is the durable job's."""
    call_command("load_catalogue", verbosity=0)
    owner = make_user("before-the-deploy")
    store = caches["jobs"]
    list_job, catalogue_job = uuid.uuid4().hex, uuid.uuid4().hex
    our_file = json.dumps({"format": 1, "system": "opr", "name": "Queued before", "points_limit": 1000,
                           "units": [{"unit": INFANTRY, "count": 1}]})
    asked = {"format": "auto", "system": "", "faction": None, "dry_run": False, "name": "text", "text": ""}
    store.set_many({
        f"list-import:{list_job}": {"state": "queued", "owner": owner.pk, "mode": "api_json",
                                    "since": time.time(), "language": "en", "request": asked},
        f"list-import:{list_job}:input": {"name": "text", "data": None, "text": our_file},
        f"bs-import:{catalogue_job}": {"state": "queued", "owner": owner.pk, "system": "wh40k9",
                                       "since": time.time(), "language": "en"},
        f"bs-import:{catalogue_job}:files": [(name, (FILES / name).read_bytes()) for name in GRIMDARK],
    }, timeout=3600)

    app.send_task("lists.import_list", args=(list_job,), queue="pdf")
    app.send_task("rules.import_battlescribe", args=(catalogue_job,), queue="pdf")
    eventually(lambda: BackgroundJob.objects.filter(pk__in=[list_job, catalogue_job]).count() == 2)
    imported, catalogue = (ended(job_id, owner, timeout=120) for job_id in (list_job, catalogue_job))

    assert (imported.kind, imported.state, imported.errors) == ("list_import", "done", [])
    assert list(ArmyList.objects.filter(owner=owner).values_list("name", flat=True)) == ["Queued before"]
    assert (catalogue.kind, catalogue.state, catalogue.errors) == ("catalogue_import", "done", [])
    assert catalogue.result["factions"]
    assert store.get(f"list-import:{list_job}:input") is None  # moved into Postgres

    # Delivered again (the old entries are gone, the job is made): nothing more.
    assert old_list_import.run(list_job) == "skipped"
    assert ArmyList.objects.filter(owner=owner).count() == 1


def test_old_render_and_gauntlet_messages_become_durable_jobs(celery_worker_process: Any) -> None:
    """`roster.render_pdf` (by its arguments) and `gauntlet.measure` (by the list's id)."""
    faction = make_faction()
    printed = make_list(owner=make_user("printer"), faction=faction, name="Printed",
                        units=[make_unit(faction=faction)])

    app.send_task("roster.render_pdf", args=(printed.pk, printed.version, "a4", "en", {}), queue="pdf")
    app.send_task("gauntlet.measure", args=(printed.pk,))

    render = eventually(lambda: BackgroundJob.objects.filter(kind=pdf_jobs.KIND, state="done").first())
    pdf = pdf_jobs.pdf_request(army_list=printed, paper="a4", language="en", requester="ip:1")
    assert pdf.state == "ready" and pdf.pdf.startswith(b"%PDF-") and render.owner_id == printed.owner_id
    assert eventually(lambda: gauntlet_state(printed, queue=False).state == "ready")
    # Its matchups are stored before its row is finished.
    assert eventually(lambda: BackgroundJob.objects.filter(kind="gauntlet", state="done").count() == 1)
