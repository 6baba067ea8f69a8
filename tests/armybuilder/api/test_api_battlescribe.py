"""`POST /api/v1/battlescribe/imports`: multipart upload into the caller's own factions, imported
by a job (Celery's eager mode here: the job has ended when the 202 comes back; a real worker
runs it in `tests/rules/test_battlescribe_jobs.py`)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command

from rules.models import Faction, UnitTemplate
from rules.selectors import factions_visible_to
from tests.factories.army_lists import token_client
from tests.rules.battlescribe.files import BILLION_LAUGHS, FILES, GRIMDARK

URL = "/api/v1/battlescribe/imports"


@pytest.fixture
def catalogue(db: None, inline_pdf_renders: None) -> None:
    call_command("load_catalogue", verbosity=0)


def imported(client: Any, files: list[SimpleUploadedFile], system: str = "wh40k9") -> dict[str, Any]:
    """The job's final answer: the 202 names it in `Location`, which then answers 200."""
    queued = client.post(URL, {"system": system, "files": files}, format="multipart")
    assert queued.status_code == 202, queued.json()
    assert queued["Location"] == queued.json()["url"]
    answer = client.get(queued["Location"])
    assert answer.status_code == 200
    return answer.json()


def uploads(*names: str) -> list[SimpleUploadedFile]:
    return [SimpleUploadedFile(n, (FILES / n).read_bytes()) for n in names]


def test_import_into_the_callers_private_faction(catalogue: None, owner: Any, other: Any) -> None:
    client = token_client(owner)
    job = imported(client, uploads(*GRIMDARK))
    assert job["status"] == "done" and job["errors"] == []
    body = job["result"]
    faction = Faction.objects.get(owner=owner, slug="bs-cat-marines")
    assert body["factions"] == [
        {
            "id": faction.pk,
            "slug": "bs-cat-marines",
            "name": "Test Marines",
            "units": [
                {"name": "Captain", "points": 85, "power": 5, "models": 1},
                {"name": "Scout Horde", "points": 65, "power": 4, "models": 10},
                {"name": "Tactical Squad", "points": 77, "power": 5, "models": 5},
            ],
        }
    ]
    assert not faction.is_shared
    assert faction in factions_visible_to(user=owner)
    assert faction not in factions_visible_to(user=other)
    # the public catalogue is untouched
    assert not Faction.objects.filter(owner=None, slug="bs-cat-marines").exists()


def test_reimport_updates_in_place(catalogue: None, owner: Any) -> None:
    client = token_client(owner)
    imported(client, uploads(*GRIMDARK))
    first = set(UnitTemplate.objects.filter(faction__owner=owner).values_list("pk", flat=True))
    assert imported(client, uploads(*GRIMDARK))["status"] == "done"
    assert set(UnitTemplate.objects.filter(faction__owner=owner).values_list("pk", flat=True)) == first


def test_bad_file_fails_the_job_naming_it(catalogue: None, owner: Any) -> None:
    files = [*uploads("grimdark.gst"), SimpleUploadedFile("laughs.cat", BILLION_LAUGHS)]
    job = imported(token_client(owner), files)
    assert (job["status"], job["result"]) == ("failed", None)
    assert job["errors"] == [
        "laughs.cat: refused: DTDForbidden (DTDs, entities and external references are not allowed)"
    ]
    assert not Faction.objects.filter(owner=owner).exists()


def test_unknown_system_and_missing_game_system(catalogue: None, owner: Any) -> None:
    client = token_client(owner)
    response = client.post(URL, {"system": "chess", "files": uploads(*GRIMDARK)}, format="multipart")
    assert response.status_code == 400
    assert response.json()["details"]["files"] == [
        "system: unknown game system 'chess' (load the catalogue first)"
    ]
    job = imported(client, uploads("marines.cat"))
    assert job["status"] == "failed"
    assert job["errors"][0].startswith("marines.cat: catalogue: its game system")


def test_a_job_is_only_its_uploaders(catalogue: None, owner: Any, other: Any) -> None:
    queued = token_client(owner).post(URL, {"system": "wh40k9", "files": uploads(*GRIMDARK)},
                                      format="multipart")
    assert token_client(other).get(queued["Location"]).status_code == 404
    assert token_client(owner).get(URL + "/no-such-import").status_code == 404


def test_oversized_request_is_413_unread(catalogue: None, owner: Any) -> None:
    from rules.battlescribe_import import MAX_UPLOAD_BYTES

    response = token_client(owner).generic(
        "POST",
        URL,
        b"",
        content_type="multipart/form-data; boundary=x",
        CONTENT_LENGTH=str(MAX_UPLOAD_BYTES + 1),
    )
    assert response.status_code == 413


def test_anonymous_is_401(anonymous_client: Any) -> None:
    response = anonymous_client.post(URL, {"system": "wh40k9"}, format="multipart")
    assert response.status_code == 401


def test_imports_past_the_accounts_rate_are_a_429(catalogue: None, owner: Any, settings: Any) -> None:
    from django.core.cache import caches

    settings.CACHES = {**settings.CACHES, settings.API_THROTTLE_CACHE: {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "import-rate-tests"}}
    caches[settings.API_THROTTLE_CACHE].clear()
    rest = dict(settings.REST_FRAMEWORK)
    rest["DEFAULT_THROTTLE_RATES"] = {**rest["DEFAULT_THROTTLE_RATES"], "battlescribe_import": "1/hour"}
    settings.REST_FRAMEWORK = rest
    client = token_client(owner)
    first = client.post(URL, {"system": "wh40k9", "files": uploads(*GRIMDARK)}, format="multipart")
    second = client.post(URL, {"system": "wh40k9", "files": uploads(*GRIMDARK)}, format="multipart")
    assert (first.status_code, second.status_code) == (202, 429)
    assert int(second["Retry-After"]) > 0
