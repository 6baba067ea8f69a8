"""Upgrade options as a player meets them, in Chromium (issue 30, item 9): an option that
would break the list's own rules says so before it is ticked, in words; a pick-one group is
radio buttons. The option that breaks a rule is the test's own: every bundled one keeps it
(`tests/rules/test_catalogue_samples.py`)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.artifacts import screenshot
from tests.browser.editor_helpers import DESKTOP, PHONE, editor_page, open_unit_options
from tests.factories.catalogue_options import add_overweight_heavy_weapon

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_an_option_shows_what_it_breaks_and_pick_one_groups_are_radios(live_server, browser, viewport):
    page, _ = editor_page(
        live_server, browser, viewport=viewport, points_limit=2000,
        units=("ashguard-veterans", "warden-captain"), prepare=add_overweight_heavy_weapon,
    )
    veterans = page.locator("#unit-rows .unit-row").first
    open_unit_options(page, veterans)
    autogun = veterans.get_by_label(re.compile("Overcharged Autogun"))
    expect(autogun).to_have_attribute("type", "radio")
    expect(autogun).to_have_accessible_description(re.compile(
        r"^Taking it breaks a rule: Ashguard Veterans: Ashguard \(Overcharged Autogun\) carries too much "
        r"weaponry for what it is: its weapons are worth 87 pts, and the rules allow at most 5× the model's "
        r"own cost \(85\.8 pts\)$"
    ))
    expect(veterans.get_by_label("None of these")).to_be_checked()
    autogun.scroll_into_view_if_needed()
    where = "phone" if viewport == PHONE else "desktop"
    screenshot(page, f"editor-option-consequence-{where}", full_page=False)
    # Taking it anyway: the list says the same thing, and the radio is the one checked.
    autogun.check()
    expect(page.locator('#violations li[data-rule="unit_balance"]')).to_contain_text(
        "Ashguard (Overcharged Autogun) carries too much weaponry for what it is: "
        "its weapons are worth 87 pts"
    )
    veterans = page.locator("#unit-rows .unit-row").first
    expect(veterans.get_by_label(re.compile("Overcharged Autogun"))).to_be_checked()
    # Switching to the other radio replaces it (one heavy weapon at most).
    veterans.get_by_label("None of these").check()
    expect(page.locator('#violations li[data-rule="unit_balance"]')).to_have_count(0)
    captain = page.locator("#unit-rows .unit-row").nth(1)
    open_unit_options(page, captain)
    expect(captain.locator('input[type="radio"]')).to_have_count(3)  # none, shield, cloak
    captain.get_by_label(re.compile("Smoke cloak")).check()
    upgrades = page.locator("#unit-rows .unit-row").nth(1).locator(".unit-upgrades")
    expect(upgrades).to_contain_text("Smoke cloak")
    captain = page.locator("#unit-rows .unit-row").nth(1)
    captain.get_by_label(re.compile("Refractor shield")).check()
    upgrades = page.locator("#unit-rows .unit-row").nth(1).locator(".unit-upgrades")
    expect(upgrades).to_contain_text("Refractor shield")
    expect(upgrades).not_to_contain_text("Smoke cloak")
    page.locator("#unit-rows .unit-row").nth(1).scroll_into_view_if_needed()
    screenshot(page, f"editor-option-radios-{where}", full_page=False)
