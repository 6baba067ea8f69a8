"""A 40k estimate in real Chromium (issue 10): from the bundled Assault Intercessor Squad's
card, the 40k situation form (Fight phase after a charge) against the MEQ reference
target; the job is run in-process as a worker would; the result shows the kills charts and
the Morale outcomes (models fled, models lost) as charts and figures. Desktop and phone
screenshots in `artifacts/screenshots/`."""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, expect

from armybuilder.estimates.tasks import run_estimate
from tests.browser.artifacts import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_40k_unit_card_is_estimated_with_the_fight_phase_and_morale(live_server, page: Page, browser):
    call_command("load_catalogue", verbosity=0)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{live_server.url}/catalogue/wh40k9/core-booklet-datasheets/assault-intercessor-squad/")
    page.get_by_role("link", name=re.compile("Estimate damage")).click()
    page.get_by_label("Target unit").select_option("ref:meq-5")
    page.get_by_label("Fight phase").check()
    page.get_by_label("The attacker charged this turn").check()
    screenshot(page, "estimate-40k-01-form")
    page.get_by_role("button", name="Estimate").click()
    expect(page).to_have_url(re.compile(r"/estimates/[0-9a-f-]{36}/$"))
    estimate_id = re.search(r"([0-9a-f-]{36})/$", page.url)[1]
    assert run_estimate(estimate_id) == "done"
    page.reload()
    expect(page.locator("svg.chart")).to_have_count(4)  # kills ×2, models fled, models lost
    expect(page.get_by_text("Defender fails its Morale test")).to_be_visible()
    expect(page.get_by_text("Fight phase, after a charge")).to_be_visible()
    screenshot(page, "estimate-40k-02-result")
    phone = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    phone.goto(page.url)
    expect(phone.locator("svg.chart")).to_have_count(4)
    screenshot(phone, "estimate-40k-03-result-phone")
    assert not errors
