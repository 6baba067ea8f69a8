"""The Import page in real Chromium: paste an Army Forge list, check it, import it (each a job
on a real worker: the page waits, htmx polls, then the report shows), read the report of source
prices beside ours, open the list's points audit; our own JSON file goes straight to the editor;
the pages fit a phone. Screenshots are kept in `artifacts/screenshots/`."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.core.management import call_command
from playwright.sync_api import Browser, Page, expect

from tests.browser.artifacts import screenshot
from tests.factories.army_lists import PASSWORD

LIST = (Path(__file__).parents[1] / "armybuilder" / "lists" / "imports" / "army_forge_list.json").read_text()

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def signed_in(browser: Browser, base: str, viewport: dict) -> Page:
    page = browser.new_context(viewport=viewport).new_page()
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Username").fill("importer")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    return page


@pytest.mark.parametrize(
    "name, viewport", [("desktop", {"width": 1280, "height": 900}), ("phone", {"width": 390, "height": 844})]
)
def test_paste_check_import_and_audit(live_server, browser, name, viewport, celery_worker_process):
    from django.contrib.auth.models import User

    from armybuilder.models import ArmyList

    call_command("load_catalogue", verbosity=0)
    User.objects.create_user("importer", email="importer@example.com", password=PASSWORD)
    page = signed_in(browser, live_server.url, viewport)
    page.goto(f"{live_server.url}/lists/import/")
    page.get_by_label("List, text or Army Forge share link").fill(LIST)
    screenshot(page, f"list-import-form-{name}")
    page.get_by_role("button", name="Check without saving").click()
    expect(page).to_have_url(re.compile(r"/lists/import/jobs/[0-9a-f]{32}/$"))
    # The job's page waits for the worker (the first poll is 2 s away) unless the worker was
    # quicker than the redirect; either way the report follows.
    expect(page.locator("#list-import-pending, table.import-report").first).to_be_visible()
    if page.locator("#list-import-pending").count():
        screenshot(page, f"list-import-waiting-{name}")
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    expect(page.get_by_role("heading", name="Import report")).to_be_visible(timeout=90_000)
    expect(page.get_by_text("Checked only: nothing was saved.")).to_be_visible()
    assert not ArmyList.objects.exists()
    page.goto(f"{live_server.url}/lists/import/")
    page.get_by_label("List, text or Army Forge share link").fill(LIST)
    page.get_by_role("button", name="Import", exact=True).click()
    table = page.locator("table.import-report")
    expect(table).to_be_visible(timeout=90_000)
    expect(table.get_by_role("row").filter(has_text="Captain Vell")).to_contain_text("90")
    # a rule the formula does not price is named beside the unit's formula price, and counted
    expect(table.get_by_role("row").filter(has_text="Captain Vell")).to_contain_text(
        "formula price without: Banner of Cinders")
    counted = "2 rules not priced by the formula: Ember Oath, Banner of Cinders"
    expect(page.get_by_role("heading", name=counted)).to_be_visible()
    screenshot(page, f"list-import-report-{name}")
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    page.get_by_role("link", name="Open the list").click()
    page.get_by_role("link", name="Points audit: book against formula").click()
    audit = page.locator("table.points-audit")
    expect(audit.get_by_role("row").filter(has_text="Cinder Walker")).to_contain_text("215")
    screenshot(page, f"list-points-audit-{name}")
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    audit.get_by_role("link", name="Cinder Walker").click()
    expect(page.locator("#designer-total")).to_be_visible()
    screenshot(page, f"list-points-breakdown-{name}")


def test_our_json_file_goes_to_the_editor(live_server, browser, celery_worker_process):
    from django.contrib.auth.models import User

    from armybuilder.models import ArmyList
    from tests.factories.army_lists import INFANTRY, opr_system

    opr_system()
    User.objects.create_user("importer", email="importer@example.com", password=PASSWORD)
    page = signed_in(browser, live_server.url, {"width": 390, "height": 844})
    page.goto(f"{live_server.url}/lists/import/")
    text = json.dumps({"format": 1, "system": "opr", "name": "Straight in", "points_limit": 1000,
                       "units": [{"unit": INFANTRY, "count": 1}]})
    page.get_by_label("List, text or Army Forge share link").fill(text)
    page.get_by_role("button", name="Import", exact=True).click()
    expect(page).to_have_url(re.compile(r"/lists/\d+/$"), timeout=90_000)
    expect(page.get_by_text("List imported.")).to_be_visible()
    assert ArmyList.objects.get(name="Straight in").units.count() == 1


@pytest.mark.parametrize(
    "name, viewport", [("desktop", {"width": 1366, "height": 900}), ("phone", {"width": 390, "height": 844})]
)
def test_a_hand_typed_list_is_reported_line_by_line(
    live_server, browser, name, viewport, celery_worker_process
):
    """Issue 43, item 8: names typed by hand are read line by line, each as a catalogue unit or
    said not to be one (it was a single "not a list in any format we read")."""
    from django.contrib.auth.models import User

    call_command("load_catalogue", verbosity=0)
    User.objects.create_user("importer", email="importer@example.com", password=PASSWORD)
    page = signed_in(browser, live_server.url, viewport)
    page.goto(f"{live_server.url}/lists/import/")
    page.get_by_label("List, text or Army Forge share link").fill(
        "Warden-Captain\n10 Concord Wardens\nDragon of Doom")
    page.get_by_role("button", name="Check without saving").click()
    table = page.locator("table.import-report")
    expect(table).to_be_visible(timeout=90_000)
    expect(table.locator(".import-read-as")).to_have_text(
        ["line 1: read as Warden-Captain", "line 2: read as Concord Wardens"])
    expect(page.locator(".import-left-out li")).to_have_text(
        ["line 3: no unit “Dragon of Doom” in the faction; left out"])
    screenshot(page, f"list-import-hand-typed-{name}")
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
