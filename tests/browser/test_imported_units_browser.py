"""Imported AoS units in real Chromium: a unit without a profile says on its card and on the
estimate form that it cannot be estimated; an estimate of a unit with abilities kept as text
names them as not used. Desktop and phone (390×844) screenshots in `artifacts/screenshots/`."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.artifacts import screenshot
from tests.factories.aos_units import aos_catalogue_unit, aos_faction, imported_warscroll

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

TEXTS = [
    {"name": "Frenzy", "text": "You can re-roll hit rolls of 1 for this unit.", "read": True},
    {"name": "Trampling Charge", "text": "If this unit charged this turn, add 1 to hit rolls for it."},
]


@pytest.fixture
def host():
    faction = aos_faction()
    raiders_data = imported_warscroll("Raiders", abilities=TEXTS)
    raiders_data["models"][0]["abilities"] = [{"type": "reroll", "roll": "hit", "which": "ones",
                                               "name": "Frenzy"}]
    raiders = aos_catalogue_unit(faction, raiders_data)
    guards = aos_catalogue_unit(faction, imported_warscroll("Guards"))
    skulkers = aos_catalogue_unit(faction, imported_warscroll("Skulkers", profile=False))
    return faction, raiders, guards, skulkers


def phone(browser: Browser) -> Page:
    return browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True).new_page()


def test_a_unit_without_a_profile_says_it_cannot_be_estimated(live_server, browser, page, host):
    faction, _raiders, _guards, skulkers = host
    card = f"{live_server.url}/catalogue/aos1/{faction.slug}/{skulkers.slug}/"
    for view, name in ((page, "desktop"), (phone(browser), "phone")):
        view.goto(card)
        expect(view.locator(".profile-missing")).to_contain_text("cannot be estimated")
        view.locator(".unit-abilities summary").click()
        expect(view.locator(".unit-abilities dt")).to_have_text(["Lurking"])
        screenshot(view, f"imported-no-profile-card-{name}")
    page.get_by_role("link", name=re.compile("Estimate damage")).click()
    expect(page.locator("#no-profile")).to_contain_text("“Skulkers” cannot be estimated")
    expect(page.locator("form.estimate-form")).to_have_count(0)
    screenshot(page, "imported-no-profile-form-desktop")


def test_the_result_names_the_abilities_not_used(live_server, celery_worker_process, browser, page, host):
    _faction, raiders, guards, _skulkers = host
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{live_server.url}/estimates/new/?unit={raiders.pk}")
    page.get_by_label("Target unit").select_option(f"unit:{guards.pk}")
    page.get_by_role("button", name="Estimate").click()
    expect(page).to_have_url(re.compile(r"/estimates/[0-9a-f-]{36}/$"))
    block = page.locator("#abilities-not-used")
    expect(block).to_be_visible(timeout=30_000)
    expect(block.locator('li[data-role="attacker"]')).to_contain_text("Trampling Charge")
    expect(block.locator('li[data-role="defender"]')).to_contain_text("Lurking")
    expect(block).not_to_contain_text("Frenzy")
    screenshot(page, "imported-not-used-desktop")
    small = phone(browser)
    small.goto(page.url)
    expect(small.locator("#abilities-not-used")).to_be_visible()
    screenshot(small, "imported-not-used-phone")
    assert not errors
