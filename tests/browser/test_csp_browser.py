"""The pages work in real Chromium under the Content-Security-Policy: htmx edits, the language
switch, the roster's print button and the estimate charts, with no violation reported."""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from playwright.sync_api import ConsoleMessage, Page, expect

from armybuilder.estimates.inputs import unit_vs_unit_inputs
from armybuilder.estimates.models import Estimate
from armybuilder.estimates.services import estimate_request
from armybuilder.estimates.tasks import run_estimate
from tests.browser.artifacts import screenshot
from tests.browser.test_builder_browser import add_unit, sign_up
from tests.factories.opr_documents import RIFLE, opr_unit

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def watch(page: Page) -> list[str]:
    """Collects CSP violations and script errors of `page`."""
    problems: list[str] = []

    def on_console(message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text or "Content-Security-Policy" in message.text:
            where = message.location
            problems.append(f"{page.url} ({where.get('url')}:{where.get('lineNumber')}): {message.text}")

    page.on("console", on_console)
    page.on("response", lambda r: r.status >= 400 and problems.append(
        f"{r.status} {r.request.method} {r.url}"))
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    return problems


def test_pages_htmx_and_charts_work_under_the_policy(live_server, browser) -> None:
    call_command("load_catalogue", verbosity=0)
    base = live_server.url
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    problems = watch(page)

    response = page.goto(f"{base}/catalogue/")
    policy = response.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy

    sign_up(page, base, "csp")
    page.get_by_role("link", name="New list").click()
    with page.expect_response(lambda r: "/lists/new/?system=opr" in r.url):
        page.get_by_label("Game system").select_option("opr")  # htmx swap
    page.get_by_label("Faction").select_option(label="Ashen Concord")
    page.get_by_role("textbox", name="Name").fill("Policy Patrol")
    with page.expect_navigation():  # the form posts, then redirects to the new list's editor
        page.get_by_role("button", name="Create the list").click()
    expect(page).to_have_url(re.compile(r"/lists/\d+/$"))
    add_unit(page, "concord-wardens")  # an htmx POST that swaps the rows and the total
    screenshot(page, "csp-01-editor")

    roster = page.url.rstrip("/") + "/roster/"
    page.goto(roster)
    page.evaluate("window.print = () => { window.__printed = true; }")
    page.get_by_role("button", name="Print").click()
    assert page.evaluate("window.__printed") is True

    with page.expect_navigation():
        page.locator("#language-select").select_option("pl")  # submits its form on change
    expect(page.locator("html")).to_have_attribute("lang", "pl")
    # Switching back navigates too: wait for it, or the next `goto` races the form's submission
    # (on a loaded machine the submission could land after it and replace the estimate page).
    with page.expect_navigation():
        page.locator("#language-select").select_option("en")
    expect(page.locator("html")).to_have_attribute("lang", "en")

    _, inputs = unit_vs_unit_inputs(attacker=opr_unit("Shooters", weapons=[RIFLE]),
                                    defender=opr_unit("Targets"), situation={})
    estimate = estimate_request(kind=Estimate.Kind.UNIT_VS_UNIT, system="opr", inputs=inputs)
    run_estimate(str(estimate.pk))
    page.goto(f"{base}/estimates/{estimate.pk}/")
    expect(page.locator("svg.chart")).to_have_count(3)
    screenshot(page, "csp-02-estimate")

    assert not problems, problems
    assert re.search(r"/lists/\d+/roster/$", roster)
