"""BattleScribe imports on a real Celery worker: the upload answers before the import runs,
the page's htmx poll and the API's 202s follow the job until its result is there."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse

from rules.battlescribe.catalogue import read_document
from rules.battlescribe.xml_reader import BattleScribeError, SourceFile
from rules.battlescribe_import import entry_count, parse_import
from rules.battlescribe_jobs import import_state
from rules.models import Faction
from tests.armybuilder.api.conftest import token_client
from tests.rules.battlescribe.files import FILES, GRIMDARK
from tests.rules.battlescribe.generated import catalogue, game_system

PASSWORD = "a-long-test-password"


def uploads() -> list[SimpleUploadedFile]:
    return [SimpleUploadedFile(n, (FILES / n).read_bytes()) for n in GRIMDARK]


def until_finished(get: Any, *, seconds: float = 90) -> list[Any]:
    """Every answer to `get()` until one is no longer pending (the worker may be slow)."""
    answers = [get()]
    deadline = time.monotonic() + seconds
    while answers[-1].status_code == 202 and time.monotonic() < deadline:
        time.sleep(0.1)
        answers.append(get())
    return answers


@pytest.mark.django_db(transaction=True)
def test_the_worker_imports_what_the_page_and_the_api_queued(client, django_user_model,
                                                             celery_worker_process) -> None:
    call_command("load_catalogue", verbosity=0)
    user = django_user_model.objects.create_user("importer", password=PASSWORD)
    assert client.login(username="importer", password=PASSWORD)

    posted = client.post(reverse("rules:battlescribe_upload"), {"system": "wh40k9", "files": uploads()})
    assert posted.status_code == 302
    job_id = posted["Location"].rstrip("/").rsplit("/", 1)[-1]
    first = client.get(posted["Location"], headers={"HX-Request": "true"})
    deadline = time.monotonic() + 90
    fragment = first.content.decode()
    while 'data-state="done"' not in fragment and 'data-state="failed"' not in fragment:
        assert time.monotonic() < deadline, fragment
        assert 'hx-trigger="every 2s"' in fragment  # still polling while queued or running
        time.sleep(0.1)
        fragment = client.get(posted["Location"], headers={"HX-Request": "true"}).content.decode()
    assert 'data-state="done"' in fragment and "hx-get" not in fragment
    assert "<td>Tactical Squad</td><td>77</td><td>5</td><td>5</td>" in fragment
    assert Faction.objects.filter(owner=user, slug="bs-cat-marines").exists()
    assert import_state(job_id=job_id, owner_id=user.pk).state == "done"

    api = token_client(user)
    queued = api.post("/api/v1/battlescribe/imports", {"system": "wh40k9", "files": uploads()},
                      format="multipart")
    assert queued.status_code == 202 and queued.json()["status"] in ("queued", "running")
    assert queued["Retry-After"] == "2" and queued["Location"] == queued.json()["url"]
    answers = until_finished(lambda: api.get(queued["Location"]))
    assert all(a["Retry-After"] == "2" for a in answers[:-1])
    assert answers[-1].status_code == 200
    body = answers[-1].json()
    assert body["status"] == "done"
    assert [u["name"] for u in body["result"]["factions"][0]["units"]] == [
        "Captain", "Scout Horde", "Tactical Squad"]


def test_entries_are_counted_nested_and_shared_and_bound_the_import() -> None:
    """The bound counts every entry the files hold, so a generated catalogue of many units is
    refused before it is mapped, naming the limit; the same files within the bound import."""
    big = SourceFile("big.cat", catalogue(40))
    count = entry_count([read_document(big)])
    assert count >= 40
    with pytest.raises(BattleScribeError) as refused:
        parse_import(system_key="wh40k9", files=[SourceFile("gen.gst", game_system()), big],
                     max_entries=count - 1)
    assert f"hold {count} entries" in str(refused.value.errors[0])
    assert f"at most {count - 1}" in str(refused.value.errors[0])
    assert parse_import(system_key="wh40k9", files=[SourceFile("gen.gst", game_system()), big],
                        max_entries=count).plans
