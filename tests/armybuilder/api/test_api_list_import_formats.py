"""`POST /api/v1/lists/import` with a file, text or an Army Forge link: any format we read,
queued as a job (202 with `Location`) whose answer gives the list (or faction) and the report;
links fetched from the one allowed site only, through a local HTTP server standing in for Army
Forge (never the internet).

Celery's eager mode runs the job inside the post here; `tests/armybuilder/lists/
test_import_jobs.py` runs it on a real worker."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command

from armybuilder.models import ArmyList
from rules.models import Faction
from tests.factories.army_lists import token_client
from tests.factories.list_imports import api_result

FIXTURES = Path(__file__).parents[1] / "lists" / "imports"
LIST = (FIXTURES / "army_forge_list.json").read_bytes()


@pytest.fixture
def client(owner: Any, inline_pdf_renders: Any) -> Any:
    call_command("load_catalogue", verbosity=0)
    return token_client(owner)


class _ArmyForge(BaseHTTPRequestHandler):
    hits: list[str] = []

    def do_GET(self) -> None:
        _ArmyForge.hits.append(self.path)
        if self.path == "/api/tts?id=abc123":
            body = LIST
        elif self.path == "/api/tts?id=huge":
            body = b"{" + b" " * 5000 + b"}"
        elif self.path == "/api/tts?id=slow":
            time.sleep(2)
            body = LIST
        elif self.path == "/api/tts?id=moved":
            self.send_response(302)
            self.send_header("Location", "http://example.invalid/elsewhere")
            self.end_headers()
            return
        else:
            self.send_response(404)
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def army_forge(settings: Any) -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _ArmyForge)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    settings.ARMY_FORGE_URL = base
    settings.ARMY_FORGE_MAX_BYTES = 4096
    settings.ARMY_FORGE_TIMEOUT = 0.5
    _ArmyForge.hits = []
    yield base
    server.shutdown()
    server.server_close()


def test_file_upload_makes_the_list_with_its_report(client):
    answer = api_result(client, client.post(
        "/api/v1/lists/import",
        {"file": SimpleUploadedFile("list.json", LIST, "application/json")},
        format="multipart",
    ))
    assert answer.status_code == 200, answer.json()
    body = answer.json()
    assert body["status"] == "done" and body["result"]["saved"] is True and body["errors"] == []
    saved = client.get(body["result"]["list_url"]).json()
    assert saved["id"] == body["result"]["list_id"] and saved["name"] == "Ember Patrol"
    report = body["result"]["report"]
    assert report["format"] == "army_forge_list"
    assert report["source_total"] == 520
    assert [u["source_points"] for u in report["units"]] == [215, 90, 215]
    assert [u["formula_points"] for u in report["units"]] == [u["points"] for u in saved["units"]]
    assert body["result"]["list_file"]["name"] == "Ember Patrol"


def test_dry_run_saves_nothing(client):
    answer = api_result(client, client.post(
        "/api/v1/lists/import", {"text": LIST.decode(), "dry_run": "true"}, format="multipart"
    ))
    assert answer.status_code == 200
    body = answer.json()
    assert body["dry_run"] is True and body["result"]["saved"] is False and body["result"]["list_id"] is None
    assert body["result"]["list_file"]["name"] == "Ember Patrol"
    assert not ArmyList.objects.exists()


def test_army_book_upload_makes_a_private_faction(client, owner):
    book = (FIXTURES / "army_forge_book.json").read_bytes()
    answer = api_result(client, client.post(
        "/api/v1/lists/import", {"file": SimpleUploadedFile("book.json", book)}, format="multipart"
    ))
    result = answer.json()["result"]
    assert result["faction"]["name"] == "Ember Legion"
    assert Faction.objects.get(pk=result["faction"]["id"]).owner == owner


def test_bad_source_fails_the_job_naming_the_field(client):
    data = json.loads(LIST)
    data["units"][1]["defense"] = 0
    answer = api_result(client, client.post("/api/v1/lists/import", {"text": json.dumps(data)},
                                            format="multipart"))
    assert answer.status_code == 200 and answer.json()["status"] == "failed"
    assert answer.json()["errors"] == [{"field": "units[1].defense",
                                        "message": "Must be a whole number from 2 to 6."}]
    assert answer.json()["result"] is None
    assert not ArmyList.objects.exists()


def test_nothing_given_is_a_400_before_any_job(client):
    answer = client.post("/api/v1/lists/import", {"format": "auto"}, format="multipart")
    assert answer.status_code == 400
    assert answer.json()["details"] == {"text": ["Choose a file, paste a list or paste an Army Forge link."]}


def test_share_link_is_fetched_from_army_forge(client, army_forge):
    answer = api_result(client, client.post(
        "/api/v1/lists/import", {"text": f"{army_forge}/share?id=abc123&name=Ember"}, format="multipart"
    ))
    assert answer.json()["status"] == "done", answer.json()
    assert ArmyList.objects.get(pk=answer.json()["result"]["list_id"]).name == "Ember Patrol"
    assert _ArmyForge.hits == ["/api/tts?id=abc123"]


@pytest.mark.parametrize(
    ("link", "message"),
    [
        ("http://example.invalid/share?id=abc123", "Only Army Forge links"),
        ("{base}/share?id=moved", "Army Forge answered with a redirect"),
        ("{base}/share?id=huge", "Army Forge's answer is larger than 4096 bytes."),
        ("{base}/share?id=gone", "Army Forge answered 404"),
        ("{base}/share?id=slow", "Army Forge took longer than 0.5 s to send the list"),
        ("{base}/share?name=x", "This Army Forge link has no list id"),
    ],
)
def test_links_elsewhere_redirects_and_oversized_answers_are_refused(client, army_forge, link, message):
    answer = api_result(client, client.post("/api/v1/lists/import", {"text": link.format(base=army_forge)},
                                            format="multipart"))
    assert answer.json()["status"] == "failed"
    [error] = answer.json()["errors"]
    assert error["field"] == "url" and error["message"].startswith(message)
    assert "/elsewhere" not in "".join(_ArmyForge.hits)
    assert not ArmyList.objects.exists()


def test_our_json_body_makes_the_list(client):
    body = {"format": 1, "system": "opr", "name": "Plain", "points_limit": 500, "units": []}
    answer = api_result(client, client.post("/api/v1/lists/import", body, format="json"))
    result = answer.json()["result"]
    assert result["saved"] is True and result["report"] is None
    assert client.get(result["list_url"]).json()["name"] == "Plain"
