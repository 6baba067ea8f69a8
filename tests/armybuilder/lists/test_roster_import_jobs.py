"""BattleScribe rosters imported on a real Celery worker, and import jobs that save once.

The roster page and `POST /api/v1/battlescribe/rosters` queue a list import (mode `roster`) and
answer before it runs; the page's htmx poll ends in the editor of the new list (or the roster
form with the file's problem), the API's 202 at the list import job with the roster's units.

A worker that dies after the import committed but before the job stored its outcome hands the
message back (`acks_late`, `reject_on_worker_lost`); the next delivery finds the job's receipt
(`rules.import_receipts`) and finishes from it: one list, not two.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.db import connection
from django.urls import reverse

from armybuilder.lists.import_jobs import list_import_state
from armybuilder.lists.services import army_list_add_unit, army_list_create
from armybuilder.models import ArmyList
from rules.models import Faction, GameSystem, ImportReceipt
from tests.armybuilder.estimates.test_estimate_worker import pool_child
from tests.armybuilder.lists.test_import_jobs import our_file, poll_fragment
from tests.conftest import start_worker, stop_worker, wait_for_worker
from tests.factories.army_lists import PASSWORD, make_user, token_client
from tests.factories.list_imports import api_result, page_result
from tests.rules.battlescribe.files import FILES, GRIMDARK

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def roster_list(owner: Any) -> ArmyList:
    """`owner`'s 40k list of a BattleScribe faction imported from the test catalogues (237 pts)."""
    call_command("load_catalogue", verbosity=0)
    call_command("import_battlescribe", *[str(FILES / n) for n in GRIMDARK], system="wh40k9", verbosity=0)
    faction = Faction.objects.get(slug="bs-cat-marines", owner=None)
    army_list = army_list_create(owner=owner, system=GameSystem.objects.get(key="wh40k9"), faction=faction,
                                 name="Round trip", points_limit=1000)
    units = {u.slug: u for u in faction.units.all()}
    army_list_add_unit(army_list=army_list, unit=units["bs-se-tactical"],
                       options={"more-marine": 2, "opt-se-plasma": 1, "opt-se-sword": 1},
                       expected_version=None)
    army_list_add_unit(army_list=army_list, unit=units["bs-se-captain"], options={"opt-se-jump": 1},
                       expected_version=None)
    return army_list


def exported_roster(client: Any) -> tuple[Any, bytes]:
    """A signed-in player's list of `roster_list`, and its .rosz export."""
    user = make_user("roster-player")
    assert client.login(username="roster-player", password=PASSWORD)
    army_list = roster_list(user)
    exported = client.get(reverse("lists:export_rosz", args=[army_list.pk])).content
    return army_list, exported


def test_the_worker_imports_the_rosters_the_page_and_the_api_queued(
    client: Any, celery_worker_process: Any
) -> None:
    army_list, exported = exported_roster(client)
    user = army_list.owner

    # The page: the same waiting page and poll as the Import page, then the editor of the list.
    posted = client.post(reverse("lists:import_rosz"),
                         {"system": "wh40k9", "file": SimpleUploadedFile("mine.rosz", exported)})
    assert posted.status_code == 302 and posted["Location"].startswith("/lists/import/jobs/")
    end = poll_fragment(client, posted["Location"])
    new_list = ArmyList.objects.exclude(pk=army_list.pk).get(owner=user)
    assert end["HX-Redirect"] == reverse("lists:detail", args=[new_list.pk])
    assert new_list.total_points == 237
    editor = client.get(end["HX-Redirect"])
    assert [str(m) for m in editor.context["messages"]] == ["Roster imported as a list."]

    # A file that cannot even be unzipped: refused in the request (issue 38: every size and
    # shape limit of an upload is checked there), the roster form again, naming the file.
    refused = client.post(reverse("lists:import_rosz"),
                          {"system": "wh40k9", "file": SimpleUploadedFile("x.rosz", b"PKnot a zip")})
    assert refused.status_code == 400
    assert refused.context["errors"] == ["x.rosz: not a readable zip archive (File is not a zip file)"]
    assert refused.context["chosen"] == "wh40k9"
    # A readable file that is not a roster: the job fails, and the roster form names the file.
    posted = client.post(reverse("lists:import_rosz"),
                         {"system": "wh40k9", "file": SimpleUploadedFile("x.ros", b"<roster")})
    failed = page_result(client, posted)
    assert failed.context["errors"][0].startswith("x.ros: line 1, column ")
    assert failed.context["chosen"] == "wh40k9"

    # The API: 202 at the list import job, then the list and the roster's units.
    api = token_client(user)
    queued = api.post("/api/v1/battlescribe/rosters",
                      {"system": "wh40k9", "file": SimpleUploadedFile("list.rosz", exported)},
                      format="multipart")
    assert queued.status_code == 202 and queued.json()["status"] in ("queued", "running")
    assert queued["Location"].startswith("http://testserver/api/v1/lists/imports/")
    assert queued["Retry-After"] == "2"
    done = api_result(api, queued).json()
    assert done["status"] == "done", done["errors"]
    assert ArmyList.objects.get(pk=done["result"]["list_id"], owner=user).total_points == 237
    assert [(u["name"], u["points"], u["roster_points"]) for u in done["result"]["roster"]["units"]] == [
        ("Tactical Squad", 127, 127.0), ("Captain", 110, 110.0)]
    assert ArmyList.objects.filter(owner=user).count() == 3


def test_the_roster_request_queues_without_importing(client: Any, django_assert_max_num_queries: Any) -> None:
    """No worker runs here: the post answers with the job, and no list is written."""
    army_list, exported = exported_roster(client)
    with django_assert_max_num_queries(12):
        posted = client.post(reverse("lists:import_rosz"),
                             {"system": "wh40k9", "file": SimpleUploadedFile("mine.rosz", exported)})
    assert posted.status_code == 302
    waiting = client.get(posted["Location"])
    assert waiting.status_code == 200 and b'id="list-import-pending"' in waiting.content
    assert "Import a BattleScribe roster" in waiting.content.decode()
    assert "The roster is uploaded; the server reads it" in waiting.content.decode()
    assert list(ArmyList.objects.values_list("pk", flat=True)) == [army_list.pk]
    # A later test's worker takes this message: its row is gone with this test's database, so it
    # finds no job and does nothing.


def test_a_worker_killed_after_the_commit_makes_no_second_list(
    client: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first delivery commits the list and its receipt, then SIGKILLs its own pool process
    before the outcome reaches the job cache (`IMPORT_TEST_DIE_FILE`, read by the worker from its
    environment). The message goes back to the queue; the pool's new process runs it again, finds
    the receipt and ends the job done with the one list's id."""
    die = tmp_path / "die-after-commit"
    die.write_text("once")
    monkeypatch.setenv("IMPORT_TEST_DIE_FILE", str(die))
    call_command("load_catalogue", verbosity=0)
    user = make_user("redelivered")
    api = token_client(user)
    worker = start_worker(connection.settings_dict["NAME"], "--pool", "prefork", "--concurrency", "1")
    try:
        wait_for_worker()
        first_child = pool_child(worker)
        queued = api.post("/api/v1/lists/import", json.loads(our_file(2, "Once only")), format="json")
        assert queued.status_code == 202
        done = api_result(api, queued, seconds=120).json()
        second_child = pool_child(worker)
    finally:
        stop_worker(worker)
    assert not die.exists()  # the first delivery died where it should
    assert not first_child.is_running() and second_child.pid != first_child.pid
    lists = list(ArmyList.objects.filter(owner=user))
    assert [(a.name, a.units.count()) for a in lists] == [("Once only", 2)]
    assert done["status"] == "done" and done["result"]["list_id"] == lists[0].pk
    receipt = ImportReceipt.objects.get(kind="list", job_id=done["id"])
    assert receipt.result["list_id"] == lists[0].pk
    assert list_import_state(job_id=done["id"], owner_id=user.pk).result["list_id"] == lists[0].pk
