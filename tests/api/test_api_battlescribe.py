"""`POST /api/v1/battlescribe/imports`: multipart upload into the caller's own factions."""

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
def catalogue(db: None) -> None:
    call_command("load_catalogue", verbosity=0)


def uploads(*names: str) -> list[SimpleUploadedFile]:
    return [SimpleUploadedFile(n, (FILES / n).read_bytes()) for n in names]


def test_import_into_the_callers_private_faction(catalogue: None, owner: Any, other: Any) -> None:
    client = token_client(owner)
    response = client.post(URL, {"system": "wh40k9", "files": uploads(*GRIMDARK)}, format="multipart")
    assert response.status_code == 201, response.json()
    body = response.json()
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
    client.post(URL, {"system": "wh40k9", "files": uploads(*GRIMDARK)}, format="multipart")
    first = set(UnitTemplate.objects.filter(faction__owner=owner).values_list("pk", flat=True))
    again = client.post(URL, {"system": "wh40k9", "files": uploads(*GRIMDARK)}, format="multipart")
    assert again.status_code == 201
    assert set(UnitTemplate.objects.filter(faction__owner=owner).values_list("pk", flat=True)) == first


def test_bad_file_is_a_400_naming_it(catalogue: None, owner: Any) -> None:
    files = [*uploads("grimdark.gst"), SimpleUploadedFile("laughs.cat", BILLION_LAUGHS)]
    response = token_client(owner).post(URL, {"system": "wh40k9", "files": files}, format="multipart")
    assert response.status_code == 400
    assert response.json()["details"] == {
        "files": [
            "laughs.cat: refused: DTDForbidden (DTDs, entities and external references are not allowed)"
        ]
    }
    assert not Faction.objects.filter(owner=owner).exists()


def test_unknown_system_and_missing_game_system(catalogue: None, owner: Any) -> None:
    client = token_client(owner)
    response = client.post(URL, {"system": "chess", "files": uploads(*GRIMDARK)}, format="multipart")
    assert response.status_code == 400
    assert response.json()["details"]["files"] == [
        "system: unknown game system 'chess' (load the catalogue first)"
    ]
    response = client.post(URL, {"system": "wh40k9", "files": uploads("marines.cat")}, format="multipart")
    assert response.status_code == 400
    assert response.json()["details"]["files"][0].startswith("marines.cat: catalogue: its game system")


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
