"""Refused edits in Chromium, as a player hits them with `bin/run` (DEBUG on) and in
production (DEBUG off): the message lands inside the unit, never over the page; a count
typed out of range is said at once beside its field and refused by the server too
(issue 30, items 4 and 5)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.artifacts import screenshot
from tests.browser.editor_helpers import DESKTOP, PHONE, editor_page, htmx_idle, open_unit_options

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("debug", [True, False], ids=["debug-on", "debug-off"])
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_refused_option_change_shows_its_message_inside_the_unit(
    live_server, browser, settings, debug, viewport
):
    settings.DEBUG = debug
    page, _ = editor_page(live_server, browser, viewport=viewport, units=("concord-wardens",))
    if debug:  # django-htmx's debug error handler is on the page, as with bin/run
        expect(page.locator('script[src*="django-htmx.js"]')).to_have_count(1)
    row = page.locator("#unit-rows .unit-row").first
    open_unit_options(page, row)
    row.get_by_label(re.compile("Add five Wardens")).check()
    expect(page.locator("#unit-rows .unit-row").first.locator(".unit-upgrades")).to_contain_text("Add five")
    row = page.locator("#unit-rows .unit-row").first
    with page.expect_response(lambda r: "/options/" in r.url) as first:
        row.get_by_label(re.compile("Pyre Thrower")).fill("2")
        row.get_by_label(re.compile("Pyre Thrower")).press("Tab")
    assert first.value.status == 200
    htmx_idle(page)
    row = page.locator("#unit-rows .unit-row").first
    with page.expect_response(lambda r: "/options/" in r.url) as answer:
        row.get_by_label(re.compile("Slag Lance")).fill("1")
        row.get_by_label(re.compile("Slag Lance")).press("Tab")
    assert answer.value.status == 400
    # The page is still the styled editor, and the message is in the unit's group.
    expect(page.get_by_role("heading", name="Ridge Patrol", level=1)).to_be_visible()
    expect(page.locator("#list-summary")).to_be_visible()
    group = page.locator("#unit-rows .unit-row").first.locator(".option-group").first
    expect(group.locator(".field-error").first).to_contain_text("At most 2 of “Special weapons” can be taken")
    assert page.evaluate("getComputedStyle(document.body).fontFamily") != "Times New Roman"
    assert page.locator("link[href*='site.css']").count() == 1
    name = f"editor-refused-{'debug' if debug else 'nodebug'}-{'phone' if viewport == PHONE else 'desktop'}"
    group.scroll_into_view_if_needed()
    screenshot(page, name, full_page=False)


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_count_typed_out_of_range_is_said_at_once_and_refused_by_the_server(
    live_server, browser, settings, viewport
):
    settings.DEBUG = True
    page, army_list = editor_page(live_server, browser, viewport=viewport, units=("concord-wardens",))
    army_list.refresh_from_db()
    saved_version = army_list.version
    row = page.locator("#unit-rows .unit-row").first
    open_unit_options(page, row)
    field = row.get_by_label(re.compile("Pyre Thrower"))
    field.fill("7")
    # Said while typing, before anything is sent, beside the field.
    message = row.locator(".live-range-error")
    expect(message).to_have_text("Enter a number from 0 to 2: this count is not saved.")
    expect(field).to_have_attribute("aria-invalid", "true")
    # On change the form posts anyway, and the server refuses it with a message by the field.
    with page.expect_response(lambda r: "/options/" in r.url) as answer:
        field.press("Tab")
    assert answer.value.status == 400
    option = page.locator("#unit-rows .unit-row").first.locator(".option.has-error")
    expect(option).to_have_count(1)
    expect(option.locator(".field-error")).to_have_count(1)
    expect(option.get_by_label(re.compile("Pyre Thrower"))).to_have_value("7")
    shot = f"editor-count-out-of-range-{'phone' if viewport == PHONE else 'desktop'}"
    screenshot(page, shot, full_page=False)
    army_list.refresh_from_db()
    assert army_list.version == saved_version  # nothing was saved
    # Back in range: the message goes and the count is saved.
    htmx_idle(page)
    field = page.locator("#unit-rows .unit-row").first.get_by_label(re.compile("Pyre Thrower"))
    field.fill("1")
    expect(page.locator("#unit-rows .unit-row").first.locator(".live-range-error")).to_have_count(0)
    with page.expect_response(lambda r: "/options/" in r.url) as answer:
        field.press("Tab")
    assert answer.value.status == 200
    upgrades = page.locator("#unit-rows .unit-row").first.locator(".unit-upgrades")
    expect(upgrades).to_contain_text("Pyre Thrower")
