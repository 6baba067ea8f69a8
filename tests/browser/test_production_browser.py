"""The service worker installs under the production configuration (issue 38, item 1).

`DEBUG=false`, the manifest storage, gunicorn (`tests/production_server.py`): before the fix
`/sw.js` answered 500 there, `offline.js` swallowed the refusal, and the installable,
offline app never installed in any deployment.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from tests.production_server import collect_static, gunicorn_server

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def production(tmp_path: Path, transactional_db: None) -> Iterator[str]:
    from django.db import connection

    collect_static(tmp_path / "static")
    with gunicorn_server(tmp_path / "static", connection.settings_dict["NAME"]) as base:
        yield base


def test_the_service_worker_installs_and_controls_the_page(production: str, browser: Browser):
    page = browser.new_context().new_page()
    page.goto(production + "/")
    # `ready` never resolves when the registration fails: wait for it with a bound, not forever.
    page.evaluate("() => { navigator.serviceWorker.ready.then(r => { window.readyScope = r.scope; }); }")
    page.wait_for_function("() => window.readyScope !== undefined", timeout=30_000)
    assert page.evaluate("window.readyScope") == production + "/"
    page.reload()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=30_000)
    assert page.evaluate("navigator.serviceWorker.controller.scriptURL") == production + "/sw.js"
    release = page.request.get(production + "/sw.js").text().split("Release ", 1)[1].split(".", 1)[0]
    # The controlled reload kept the page's static files in the release's cache.
    page.wait_for_function("async () => (await caches.keys()).length === 1", timeout=30_000)
    assert page.evaluate("caches.keys()") == [f"armybuilder-offline-{release}"]


def test_the_print_page_switches_language_and_reads_offline_in_production(production: str, browser: Browser):
    """The print page under the production configuration: its hashed static files and the
    worker's requests all answer (no 4xx or 5xx, no console error), the header's language
    switch gives the sheet in Russian, and the page the worker kept opens offline."""
    from tests.armybuilder.test_production_config import a_players_list

    session, list_id, _unit, _token = a_players_list()
    context = browser.new_context()
    context.add_cookies([{"name": "sessionid", "value": session, "url": production}])
    problems: list[str] = []
    context.on("response", lambda r: problems.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    page = context.new_page()
    page.on("console", lambda m: problems.append(f"console: {m.text}") if m.type == "error" else None)
    roster = f"{production}/lists/{list_id}/roster/"
    page.goto(roster)
    page.evaluate("() => { navigator.serviceWorker.ready.then(r => { window.readyScope = r.scope; }); }")
    page.wait_for_function("() => window.readyScope !== undefined", timeout=30_000)
    page.reload()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=30_000)

    page.select_option("#language-select", "ru")
    page.wait_for_function("() => document.documentElement.lang === 'ru'", timeout=30_000)
    assert page.get_by_role("heading", name="Сводка").count() == 1
    assert page.locator("link[rel=stylesheet][href*='roster.']").count() == 1

    page.wait_for_load_state("networkidle")
    context.set_offline(True)
    page.reload()
    assert page.evaluate("document.body.dataset.offlineCopy || ''") != ""
    assert page.get_by_role("heading", name="Сводка").count() == 1
    context.set_offline(False)
    assert problems == []
