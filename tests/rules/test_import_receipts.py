"""Import jobs save once however often they are delivered (`rules.import_receipts`), in process:
a delivery that finds the job's receipt finishes from it, a delivery whose receipt collides
with one committed meanwhile keeps nothing of its own work, and receipts are pruned after a
job's lifetime by the periodic reconciliation. `tests/armybuilder/lists/test_roster_import_jobs.py`
kills a real worker between the commit and the stored outcome."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from django.core.management import call_command
from django.utils import timezone

from armybuilder import jobs
from armybuilder.jobs import run_job
from armybuilder.lists import import_jobs
from armybuilder.lists.services import army_list_create
from armybuilder.models import ArmyList, BackgroundJob, JobInput
from rules import battlescribe_jobs
from rules.battlescribe.xml_reader import SourceFile
from rules.import_receipts import (
    KEEP_SECONDS,
    LIST_IMPORT,
    die_after_commit_for_tests,
    import_receipts_prune,
    receipt_record,
    saved_once,
)
from rules.models import Faction, GameSystem, ImportReceipt, UnitTemplate
from tests.armybuilder.lists.test_import_jobs import our_file
from tests.factories.army_lists import make_user, token_client
from tests.factories.list_imports import api_result
from tests.rules.battlescribe.files import FILES, GRIMDARK


def as_if_the_worker_died_before_finishing(job_id: str, *, text: str = "",
                                           files: tuple[tuple[str, bytes], ...] = ()) -> None:
    """The job's rows as a delivery that died after its commit left them: running, input kept."""
    BackgroundJob.objects.filter(pk=job_id).update(state="running", result=None, errors=[], finished=None)
    if text:
        JobInput.objects.create(job_id=job_id, position=0, name="text", text=text)
    for position, (name, data) in enumerate(files):
        JobInput.objects.create(job_id=job_id, position=position, name=name, data=data)


@pytest.mark.django_db
def test_a_redelivered_list_import_finishes_from_its_receipt(inline_pdf_renders: None) -> None:
    call_command("load_catalogue", verbosity=0)
    user = make_user("twice-delivered")
    api = token_client(user)
    queued = api.post("/api/v1/lists/import", json.loads(our_file(2, "Kept once")), format="json")
    done = api_result(api, queued)
    first = done.json()
    assert first["status"] == "done"
    (army_list,) = ArmyList.objects.filter(owner=user)
    receipt = ImportReceipt.objects.get(kind=LIST_IMPORT, job_id=first["id"])
    assert receipt.result == {"saved": True, "list_id": army_list.pk, "list_name": "Kept once",
                              "direct": True}

    as_if_the_worker_died_before_finishing(first["id"], text=our_file(2, "Kept once"))
    assert run_job.apply((first["id"],)).get() == "done"  # the message delivered again

    assert list(ArmyList.objects.filter(owner=user).values_list("pk", flat=True)) == [army_list.pk]
    again = import_jobs.list_import_state(job_id=first["id"], owner_id=user.pk)
    assert (again.state, again.result) == ("done", receipt.result)
    assert not JobInput.objects.filter(job_id=first["id"]).exists()  # dropped as on any finish


@pytest.mark.django_db
def test_a_delivery_whose_receipt_collides_keeps_nothing_of_its_work() -> None:
    """Two deliveries saving at once: the second's receipt meets the first's, committed
    meanwhile; its transaction rolls back with its list, and it answers with the first's outcome."""
    call_command("load_catalogue", verbosity=0)
    user = make_user("raced")
    system = GameSystem.objects.get(key="opr")
    receipt_record(kind=LIST_IMPORT, job_id="job-1", result={"list_id": 41, "saved": True})

    def save() -> dict[str, Any]:
        from django.db import transaction

        with transaction.atomic():
            made = army_list_create(owner=user, system=system, faction=None, name="Second copy",
                                    points_limit=1000)
            result = {"list_id": made.pk, "saved": True}
            receipt_record(kind=LIST_IMPORT, job_id="job-1", result=result)
        return result

    assert saved_once(kind=LIST_IMPORT, job_id="job-1", save=save) == {"list_id": 41, "saved": True}
    assert not ArmyList.objects.filter(name="Second copy").exists()
    # The same job id of the other kind is another job.
    assert saved_once(kind="catalogue", job_id="job-1", save=lambda: {"done": 1}) == {"done": 1}


@pytest.mark.django_db
def test_a_failure_that_is_not_a_receipt_is_raised() -> None:
    from django.db import IntegrityError

    def save() -> dict[str, Any]:
        raise IntegrityError("another constraint")

    with pytest.raises(IntegrityError):
        saved_once(kind=LIST_IMPORT, job_id="job-2", save=save)


@pytest.mark.django_db
def test_receipts_are_pruned_after_a_jobs_lifetime_by_the_reconciliation() -> None:
    from armybuilder.estimates.reconciliation import reconcile

    for job_id in ("old", "young"):
        receipt_record(kind=LIST_IMPORT, job_id=job_id, result={})
    now = timezone.now()
    ImportReceipt.objects.filter(job_id="old").update(created=now - timedelta(seconds=KEEP_SECONDS + 1))
    ImportReceipt.objects.filter(job_id="young").update(created=now - timedelta(seconds=KEEP_SECONDS - 60))
    assert import_receipts_prune(now=now) == 1
    assert list(ImportReceipt.objects.values_list("job_id", flat=True)) == ["young"]
    ImportReceipt.objects.update(created=now - timedelta(seconds=KEEP_SECONDS + 1))
    assert reconcile()["receipts_pruned"] == 1  # the beat's task prunes on every pass
    assert not ImportReceipt.objects.exists()


def test_receipts_outlive_the_jobs_that_read_them() -> None:
    """A job's state is kept for a time; past it a redelivery is skipped, receipt or not."""
    assert KEEP_SECONDS >= jobs.KEEP_SECONDS


def test_the_dying_seam_is_off_unless_its_file_exists(settings: Any, tmp_path: Any) -> None:
    """Production leaves `IMPORT_TEST_DIE_FILE` empty; a named file that does not exist (a worker
    that died once already) is off too. Either way this process lives on."""
    assert settings.IMPORT_TEST_DIE_FILE == ""
    die_after_commit_for_tests()
    settings.IMPORT_TEST_DIE_FILE = str(tmp_path / "absent")
    die_after_commit_for_tests()


@pytest.mark.django_db
def test_a_redelivered_catalogue_import_finishes_from_its_receipt(inline_pdf_renders: None) -> None:
    """The catalogue job had the same window: a rerun would parse and write the files again, over
    whatever the account changed since (here a unit renamed by a newer import)."""
    call_command("load_catalogue", verbosity=0)
    user = make_user("catalogue-twice")
    files = [SourceFile(n, (FILES / n).read_bytes()) for n in GRIMDARK]
    job = battlescribe_jobs.queue_import(system_key="wh40k9", files=files, owner_id=user.pk, language="en")
    assert job.state == "done", job.errors
    receipt = ImportReceipt.objects.get(kind="catalogue", job_id=job.id)
    assert receipt.result == job.summary
    faction = Faction.objects.get(owner=user, slug="bs-cat-marines")
    UnitTemplate.objects.filter(faction=faction, name="Captain").update(name="Captain (newer import)")

    as_if_the_worker_died_before_finishing(job.id, files=tuple((f.name, f.data) for f in files))
    assert run_job.apply((job.id,)).get() == "done"  # the message delivered again

    assert battlescribe_jobs.import_state(job_id=job.id, owner_id=user.pk).summary == job.summary
    assert UnitTemplate.objects.filter(faction=faction, name="Captain (newer import)").count() == 1
    assert Faction.objects.filter(owner=user).count() == len(job.summary["factions"])
