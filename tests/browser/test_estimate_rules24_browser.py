"""Issue 24 in real Chromium: the 40k modifiers players set on every query (re-rolls, ±1 to
wound, Feel No Pain, cover) on the estimate form and in the result's situation sentence; a
WHFB melee estimate that shows who fought, which Ld the break tests used, and the points it
destroys per 100 of the attacker's (the reference targets carry our points, issue 43). Desktop
and phone screenshots in `artifacts/screenshots/`."""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, expect

from armybuilder.estimates.tasks import run_estimate
from tests.browser.artifacts import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _run_and_reload(page: Page) -> None:
    expect(page).to_have_url(re.compile(r"/estimates/[0-9a-f-]{36}/$"))
    assert run_estimate(re.search(r"([0-9a-f-]{36})/$", page.url)[1]) == "done"
    page.reload()


def test_the_40k_modifiers_are_set_on_the_form_and_said_in_the_result(live_server, page: Page, browser):
    call_command("load_catalogue", verbosity=0)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{live_server.url}/catalogue/wh40k9/core-booklet-datasheets/assault-intercessor-squad/")
    page.get_by_role("link", name=re.compile("Estimate damage")).click()
    page.get_by_label("Target unit").select_option("ref:geq-10")
    page.locator('input[name="reroll_hits"][value="failed"]').check()
    page.locator('input[name="reroll_wounds"][value="ones"]').check()
    page.get_by_label("Other wound roll modifiers").fill("1")
    page.get_by_label("Defender's Feel No Pain (X+)").fill("6")
    page.get_by_label("The target is in cover").check()
    screenshot(page, "estimate-rules24-40k-form-desktop")
    page.get_by_role("button", name="Estimate").click()
    _run_and_reload(page)
    expect(page.get_by_text(re.compile("re-roll hits: all failed rolls"))).to_be_visible()
    expect(page.get_by_text(re.compile("Feel No Pain 6\\+"))).to_be_visible()
    screenshot(page, "estimate-rules24-40k-result-desktop")
    phone = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    phone.goto(page.url)
    screenshot(phone, "estimate-rules24-40k-result-phone")
    assert not errors


def test_a_whfb_melee_shows_who_fought_and_the_break_tests(live_server, page: Page, browser):
    call_command("load_catalogue", verbosity=0)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{live_server.url}/catalogue/whfb6/vellmark-freeholds/freeholder-spearmen/")
    page.get_by_role("link", name=re.compile("Estimate damage")).click()
    page.get_by_label("Target unit").select_option("ref:spearmen-20")
    page.get_by_label("Close combat").check()
    page.get_by_label("Attacker carries the army battle standard").check()
    screenshot(page, "estimate-rules24-whfb-form-desktop")
    page.get_by_role("button", name="Estimate").click()
    _run_and_reload(page)
    expect(page.get_by_text("Attacker's models in base contact")).to_be_visible()
    expect(page.get_by_text("Defender's break test: its own Ld, minus the combat result")).to_be_visible()
    expect(page.get_by_text("Expected points destroyed per 100 points of the attacker.")).to_be_visible()
    expect(page.get_by_text("The target costs no points", exact=False)).to_have_count(0)
    screenshot(page, "estimate-rules24-whfb-result-desktop")
    phone = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    phone.goto(page.url)
    screenshot(phone, "estimate-rules24-whfb-result-phone")
    assert not errors
