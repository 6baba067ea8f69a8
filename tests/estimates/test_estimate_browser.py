"""An estimate end to end in real Chromium, on a real Celery worker (issue 7, "Pages").

From a unit card of the bundled catalogue: "Estimate damage", a target and a situation,
submit; the job page shows the htmx progress bar, which the worker's result replaces with the
two SVG charts, the numbers and the efficiency, without a reload. The print view keeps the
charts. Screenshots are kept in `artifacts/screenshots/`.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from django.core.management import call_command

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's sync API runs an event loop

from playwright.sync_api import Page, expect, sync_playwright

SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def page():
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        try:
            yield chromium.new_context(viewport={"width": 1280, "height": 900}).new_page()
        finally:
            chromium.close()


def shot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"estimate-{name}.png"), full_page=True)


def test_estimate_a_catalogue_unit_and_watch_the_result_arrive(live_server, celery_worker_process, page):
    call_command("load_catalogue", verbosity=0)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    page.goto(f"{live_server.url}/catalogue/opr/ashen-concord/ashguard-veterans/")
    page.get_by_role("link", name=re.compile("Estimate damage")).click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Estimate damage")
    page.get_by_label("Target unit").select_option("ref:infantry-10")
    page.get_by_label("Range (inches)").fill("18")
    page.get_by_label("The defender is in cover").check()
    shot(page, "01-form")
    page.get_by_role("button", name="Estimate").click()

    expect(page).to_have_url(re.compile(r"/estimates/[0-9a-f-]{36}/$"))
    expect(page.locator("svg.chart")).to_have_count(2, timeout=30_000)  # polled in by htmx
    expect(page.locator(".efficiency .points")).to_have_text(re.compile(r"^\d+\.\d$"))
    expect(page.locator("progress")).to_have_count(0)
    shot(page, "02-result")

    page.emulate_media(media="print")
    expect(page.locator("svg.chart").first).to_be_visible()
    shot(page, "03-print")
    assert not errors
