"""The BattleScribe roster import page in real Chromium: choose a .rosz, import it; the page waits
for the worker on the Import page's waiting page (htmx polls), then opens the new list's editor
with its message; a file that is not a roster comes back on the roster form, naming the file.
The pages fit a phone. Screenshots are kept in `artifacts/screenshots/`.

The worker is started only once the waiting page is shown, so that page is always seen."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse
from playwright.sync_api import Browser, Page, expect

from tests.armybuilder.lists.test_roster_import_jobs import roster_list
from tests.browser.artifacts import screenshot
from tests.conftest import start_worker, stop_worker, wait_for_worker
from tests.factories.army_lists import PASSWORD, make_user

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def signed_in(browser: Browser, base: str, viewport: dict) -> Page:
    page = browser.new_context(viewport=viewport).new_page()
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Username").fill("roster-importer")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    return page


@pytest.mark.parametrize(
    "name, viewport", [("desktop", {"width": 1280, "height": 900}), ("phone", {"width": 390, "height": 844})]
)
def test_a_roster_waits_for_the_worker_then_opens_as_a_list(live_server, browser, tmp_path: Path, name,
                                                             viewport) -> None:
    from armybuilder.models import ArmyList

    owner = make_user("roster-importer")
    army_list = roster_list(owner)
    exporter = Client()
    exporter.force_login(owner)
    rosz = tmp_path / "round-trip.rosz"
    rosz.write_bytes(exporter.get(reverse("lists:export_rosz", args=[army_list.pk])).content)
    not_a_roster = tmp_path / "notes.rosz"
    not_a_roster.write_bytes(b"PKnot a zip")

    page = signed_in(browser, live_server.url, viewport)
    page.goto(f"{live_server.url}/lists/import/battlescribe/")
    page.get_by_label("Game system").select_option("wh40k9")
    page.get_by_label("Roster file").set_input_files(str(rosz))
    page.get_by_role("button", name="Import", exact=True).click()
    expect(page).to_have_url(re.compile(r"/lists/import/jobs/[0-9a-f]{32}/$"))
    expect(page.locator("#list-import-pending")).to_be_visible()
    expect(page.get_by_role("heading", name="Import a BattleScribe roster")).to_be_visible()
    expect(page.get_by_role("heading", name="Waiting for a worker")).to_be_visible()
    expect(page.locator("#list-import-pending")).to_contain_text("The roster is uploaded")
    screenshot(page, f"roster-import-waiting-{name}")
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    assert ArmyList.objects.filter(owner=owner).count() == 1  # nothing imported in the request

    worker = start_worker(connection.settings_dict["NAME"])
    try:
        wait_for_worker()
        expect(page).to_have_url(re.compile(r"/lists/\d+/$"), timeout=90_000)
        expect(page.get_by_text("Roster imported as a list.")).to_be_visible()
        new_list = ArmyList.objects.filter(owner=owner).exclude(pk=army_list.pk).get()
        assert page.url.endswith(reverse("lists:detail", args=[new_list.pk]))
        assert new_list.total_points == 237
        screenshot(page, f"roster-import-done-{name}")

        page.goto(f"{live_server.url}/lists/import/battlescribe/")
        page.get_by_label("Game system").select_option("wh40k9")
        page.get_by_label("Roster file").set_input_files(str(not_a_roster))
        page.get_by_role("button", name="Import", exact=True).click()
        alert = page.get_by_role("alert").filter(has_text="The roster was not imported.")
        expect(alert).to_be_visible(timeout=90_000)
        expect(alert).to_contain_text("notes.rosz: not a readable zip archive")
        expect(page.get_by_label("Game system")).to_have_value("wh40k9")
        screenshot(page, f"roster-import-failed-{name}")
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    finally:
        stop_worker(worker)
