"""The smaller things a player hits (issue 30, item 12), in Chromium: a skip link to the units
to add (it was 60 Tab presses with 8 units), and the Russian header on one line at 1366 px."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.artifacts import screenshot
from tests.browser.editor_helpers import DESKTOP, PHONE, editor_page
from tests.factories.army_lists import ASHEN_CONCORD_ELEVEN

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_second_tab_stop_skips_to_the_units_to_add(live_server, browser, viewport):
    page, _ = editor_page(live_server, browser, viewport=viewport, units=ASHEN_CONCORD_ELEVEN[:8])
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    skip = page.get_by_role("link", name="Skip to adding units")
    expect(skip).to_be_focused()
    screenshot(page, f"editor-skip-link-{'phone' if viewport == PHONE else 'desktop'}", full_page=False)
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.closest('#unit-choices') !== null "
                            "&& document.activeElement.matches('button.add-unit')")
    assert focused
    rows = page.locator("#unit-rows .unit-row").count()
    page.keyboard.press("Enter")
    expect(page.locator("#unit-rows .unit-row")).to_have_count(rows + 1)


def test_the_russian_header_stays_on_one_line_at_1366_px(live_server, browser):
    laptop = {"width": 1366, "height": 768}
    heights = {}
    for language in ("en", "ru"):
        page, _ = editor_page(live_server, browser, viewport=laptop, username=f"player-{language}")
        page.context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
        page.reload()
        expect(page.locator("html")).to_have_attribute("lang", language)
        heights[language] = page.locator(".site-header").bounding_box()["height"]
        screenshot(page, f"header-{language}-1366", full_page=False)
    assert heights["ru"] == heights["en"], heights


@pytest.mark.parametrize("language", ["ru", "pl", "cs"])
def test_a_guests_header_stays_on_one_line_at_1366_px(live_server, browser, language):
    """A visitor building without an account has the longest header (Guest, sign up, log in)."""
    from django.core.management import call_command

    call_command("load_catalogue", verbosity=0)
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    page = context.new_page()
    page.goto(f"{live_server.url}/")
    english_height = page.locator(".site-header").bounding_box()["height"]
    page.goto(f"{live_server.url}/lists/new/")
    page.locator("#id_name").fill("Ford")
    page.locator("#create-form button[type=submit]").click()
    page.wait_for_url(lambda url: "/lists/new/" not in url)
    expect(page.locator(".nav-keep")).to_be_visible()
    screenshot(page, f"header-guest-{language}-1366", full_page=False)
    assert page.locator(".site-header").bounding_box()["height"] == english_height
