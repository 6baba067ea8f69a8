"""The production configuration answers every kind of page (issue 38, item 1).

`DEBUG=false`, static files collected with the manifest storage, gunicorn with the project's
`gunicorn.conf.py`: `/sw.js` answered 500 there (the manifest has no entry for `static("")`)
while every other test, run with `STATIC_MANIFEST=false`, saw it answer 200. This test
starts that configuration (`tests/production_server.py`) and asks it for one page of each
kind, the service worker, the web app manifest, the API schema and docs, and every static
file the pages name.
"""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.core.management import call_command

from tests.production_server import collect_static, gunicorn_server

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def production(tmp_path: Path, transactional_db: None) -> Iterator[str]:
    from django.db import connection

    seconds = collect_static(tmp_path / "static")
    assert seconds < 20, f"collectstatic took {seconds:.1f} s"
    assert (tmp_path / "static" / "staticfiles.json").exists()
    with gunicorn_server(tmp_path / "static", connection.settings_dict["NAME"]) as base:
        yield base


def fetch(url: str, session: str | None = None) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers={"Cookie": f"sessionid={session}"} if session else {})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def a_players_list() -> tuple[str, int, int, str]:
    """A player signed in (their session key), their list of two units, a unit id, its share token."""
    from django.contrib.auth.models import User
    from django.test import Client

    from armybuilder.lists import services
    from armybuilder.lists.sharing import army_list_share
    from rules.models import Faction, UnitTemplate

    call_command("load_catalogue", verbosity=0)
    user = User.objects.create_user("veteran", password="a long pass phrase 42")
    faction = Faction.objects.get(system__key="opr", slug="ashen-concord", owner__isnull=True)
    army_list = services.army_list_create(owner=user, system=faction.system, faction=faction, name="Ridge",
                                          points_limit=1000)
    for slug in ("concord-wardens", "warden-captain"):
        army_list.refresh_from_db()
        unit = UnitTemplate.objects.get(faction=faction, slug=slug)
        services.army_list_add_unit(army_list=army_list, unit=unit, options={},
                                    expected_version=army_list.version)
    army_list.refresh_from_db()
    token = army_list_share(army_list=army_list, expected_version=army_list.version)
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value, army_list.pk, army_list.units.first().pk, token


def test_every_kind_of_page_answers_under_the_production_configuration(production):
    session, list_id, unit_id, token = a_players_list()
    pages = [
        "/", "/lists/", "/lists/new/", "/lists/import/", "/lists/import/battlescribe/", "/lists/gallery/",
        "/lists/compare/", f"/lists/{list_id}/", f"/lists/{list_id}/roster/",
        f"/lists/{list_id}/audit/", f"/lists/{list_id}/audit/{unit_id}/", f"/lists/{list_id}/roster.txt",
        f"/lists/{list_id}/list.json", f"/lists/{list_id}/card.png", f"/lists/shared/{token}/",
        f"/lists/shared/{token}/roster/", "/estimates/", "/estimates/new/", "/catalogue/", "/catalogue/opr/",
        "/catalogue/opr/points-formula/", "/catalogue/opr/ashen-concord/",
        "/catalogue/opr/ashen-concord/concord-wardens/", "/catalogue/designer/", "/catalogue/battlescribe/",
        "/accounts/login/", "/accounts/signup/", "/accounts/password_reset/", "/admin/login/",
        "/api/v1/docs/", "/api/v1/docs/redoc/", "/api/v1/systems", "/favicon.ico",
    ]
    answers = {path: fetch(production + path, session)[0] for path in pages}
    assert answers == dict.fromkeys(pages, 200)
    status, headers, body = fetch(production + "/lists/999999/", session)
    assert status == 404

    status, headers, body = fetch(production + "/sw.js")
    assert (status, headers["Content-Type"]) == (200, "application/javascript; charset=utf-8")
    assert 'const STATIC_PREFIX = "/static/";' in body.decode()
    status, headers, body = fetch(production + "/manifest.webmanifest")
    manifest = json.loads(body)
    assert (status, headers["Content-Type"]) == (200, "application/manifest+json")
    assert manifest["start_url"] == "/lists/"
    icons = [icon["src"] for icon in manifest["icons"]]
    assert all(re.fullmatch(r"/static/icons/icon-[a-z0-9-]+\.[0-9a-f]{12}\.png", src) for src in icons), icons
    assert [fetch(production + src)[0] for src in icons] == [200, 200, 200]
    # A long address reaches the app (gunicorn.conf.py's limit_request_line) and gets the API's 414.
    status, headers, body = fetch(production + "/api/v1/systems?q=" + "a" * 6000)
    assert (status, headers["Content-Type"]) == (414, "application/json")
    assert json.loads(body)["code"] == "uri_too_long"
    status, headers, body = fetch(production + "/api/v1/schema/")
    assert status == 200 and b"openapi: 3" in body

    # Every static file a page names is served under its hashed name.
    named: set[str] = set()
    roster = f"/lists/{list_id}/roster/"
    for path in ("/", f"/lists/{list_id}/", roster, roster + "?paper=letter", "/api/v1/docs/",
                 "/api/v1/docs/redoc/", "/admin/login/"):
        html = fetch(production + path, session)[2].decode()
        named |= set(re.findall(r'(?:src|href)="(/static/[^"]+)"', html))
    assert len(named) >= 8, named
    assert all(re.search(r"\.[0-9a-f]{12}\.\w+$", path) for path in named), named
    assert {path: fetch(production + path)[0] for path in named} == dict.fromkeys(named, 200)


def test_the_roster_pdf_finds_its_stylesheet_under_the_manifest(tmp_path: Path):
    """The worker renders the PDF with `DEBUG` off: the page names its stylesheet by the hashed
    name the manifest gives, which only the collected files have. A stylesheet WeasyPrint cannot
    fetch is skipped with a log line, and the PDF comes out unstyled without an error."""
    from django.test import override_settings

    from armybuilder.models import ArmyList
    from armybuilder.roster.pdf import static_file_for
    from armybuilder.roster.pdf_jobs import roster_pdf_html
    from tests.production_server import ManifestStorageWithoutCompression

    _session, list_id, _unit, _token = a_players_list()
    collect_static(tmp_path / "static")
    storages = {"default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
                "staticfiles": {"BACKEND": f"{ManifestStorageWithoutCompression.__module__}."
                                           f"{ManifestStorageWithoutCompression.__name__}"}}
    with override_settings(STORAGES=storages, STATIC_ROOT=str(tmp_path / "static"), DEBUG=False):
        html = roster_pdf_html(army_list=ArmyList.objects.get(pk=list_id), paper="a4")
        sheets = re.findall(r'<link rel="stylesheet" href="([^"]+)"', html)
        assert sheets and all(re.search(r"\.[0-9a-f]{12}\.css$", sheet) for sheet in sheets), sheets
        assert {sheet: static_file_for(sheet) is not None for sheet in sheets} == dict.fromkeys(sheets, True)
