"""The BattleScribe upload page in real Chromium: choose files, watch the upload progress,
see the import queued on a real worker, then (htmx polling the job) the imported units and the
warnings; the page fits a phone. Screenshots are kept in
`artifacts/screenshots/`."""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from playwright.sync_api import Browser, Page, expect

from tests.browser.artifacts import screenshot
from tests.factories.army_lists import PASSWORD
from tests.rules.battlescribe.files import FILES, GRIMDARK

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
def test_upload_shows_progress_and_the_imported_units(live_server, browser, name, viewport,
                                                      celery_worker_process):
    from django.contrib.auth.models import User

    call_command("load_catalogue", verbosity=0)
    User.objects.create_user("importer", email="importer@example.com", password=PASSWORD)
    page = signed_in(browser, live_server.url, viewport)
    page.goto(f"{live_server.url}/catalogue/battlescribe/")
    page.get_by_label("Game system").select_option("wh40k9")
    page.get_by_label("Files").set_input_files([str(FILES / n) for n in GRIMDARK])
    screenshot(page, f"battlescribe-form-{name}")
    page.evaluate("window.samePage = true")  # survives only if the XHR path (with progress) was taken
    page.get_by_role("button", name="Import").click()
    result = page.locator("#battlescribe-result")
    expect(page.locator("#battlescribe-job")).to_be_attached()  # the job's page, swapped in
    expect(page).to_have_url(re.compile(r"/catalogue/battlescribe/jobs/[0-9a-f]{32}/$"))
    expect(result).to_be_visible(timeout=90_000)  # the worker imports; htmx polls the job
    expect(result.get_by_role("row", name="Tactical Squad 77 5 5")).to_be_visible()
    expect(result.get_by_role("link", name="Test Marines")).to_be_visible()
    # the report in plain words (issue 27 §6), the raw warnings folded away below it
    expect(result.get_by_role("heading", name="What was left out, and why")).to_be_visible()
    expect(result.locator(".import-report li").first).to_have_text(
        "1 special rule is not a rule of this system; its text is kept: Steady Aim"
    )
    assert page.evaluate("window.samePage === true")
    screenshot(page, f"battlescribe-result-{name}")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= viewport["width"]
