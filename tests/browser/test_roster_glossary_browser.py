"""The roster's glossary page in real Chromium on a 1366×900 desktop and a 390×844 phone (issue
44): chosen among the print options, it follows the roster by the phase each rule matters in,
and in print it starts on a page of its own."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.artifacts import screenshot
from tests.browser.test_play_browser import example_links  # noqa: F401 (a fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

VIEWPORTS = {"desktop": {"width": 1366, "height": 900}, "phone": {"width": 390, "height": 844}}


@pytest.mark.parametrize("screen", list(VIEWPORTS))
def test_the_glossary_page_is_a_print_option(live_server, browser: Browser, example_links, screen):  # noqa: F811
    page = browser.new_context(viewport=VIEWPORTS[screen]).new_page()
    page.goto(f"{live_server.url}{example_links['wh40k9']}roster/")
    expect(page.locator(".roster-glossary")).to_have_count(0)
    page.get_by_label("Glossary").select_option("page")
    page.get_by_role("button", name="Apply").click()
    expect(page).to_have_url(re.compile(r"glossary=page"))
    glossary = page.locator(".roster-glossary")
    expect(glossary).to_be_visible()
    expect(glossary.locator("h3").first).to_have_text("Movement")
    expect(glossary.locator("h3").last).to_have_text("Any phase")
    expect(page.get_by_role("link", name="PDF")).to_have_attribute("href", re.compile(r"glossary=page"))
    assert page.evaluate("document.documentElement.scrollWidth") <= VIEWPORTS[screen]["width"]
    glossary.scroll_into_view_if_needed()
    screenshot(page, f"roster-glossary-{screen}", full_page=False)
    page.emulate_media(media="print")
    assert glossary.evaluate("e => getComputedStyle(e).breakBefore") == "page"
