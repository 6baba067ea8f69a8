"""A list of a faction imported from BattleScribe, built in the editor in real Chromium: the
faction comes in through the upload page, and the editor offers what the roster engine shows
(an option appears once another is taken), with its points, Power and errors. Desktop and
phone; screenshots in `artifacts/screenshots/`."""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from tests.browser.artifacts import screenshot
from tests.browser.editor_helpers import DESKTOP, PASSWORD, PHONE, click_received, login, open_unit_options
from tests.rules.battlescribe.files import FILES

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_an_imported_faction_is_built_by_the_roster_engine(
    live_server, browser, viewport, celery_worker_process
):
    from django.contrib.auth.models import User

    name = "phone" if viewport == PHONE else "desktop"
    call_command("load_catalogue", verbosity=0)
    User.objects.create_user("player", email="player@example.com", password=PASSWORD)
    page = browser.new_context(viewport=viewport).new_page()
    login(page, live_server.url, "player")
    page.goto(f"{live_server.url}/catalogue/battlescribe/")
    page.get_by_label("Game system").select_option("wh40k9")
    page.get_by_label("Files").set_input_files([str(FILES / n) for n in ("slots.gst", "slots_warband.cat")])
    page.get_by_role("button", name="Import").click()
    # The upload is imported by the worker (pdf queue); the job's page polls until it is done.
    expect(page.locator("#battlescribe-result")).to_be_visible(timeout=90_000)

    page.goto(f"{live_server.url}/lists/new/?system=wh40k9")
    faction = page.get_by_label("Faction")
    faction.select_option(faction.locator("option", has_text="Test Warband").get_attribute("value"))
    page.get_by_label("Name").fill("Warband")
    page.get_by_role("button", name="Create the list").click()
    page.wait_for_url(re.compile(r"/lists/\d+/"))

    click_received(page, page.locator("button.add-unit", has_text="Warlord"))
    lord = page.locator(".unit-row", has_text="Warlord")
    expect(lord).to_have_count(1)
    expect(page.locator("#list-total")).to_have_text("60")
    violations = page.locator('#violations li[data-rule="catalogue"]')
    expect(violations).to_have_text(["Patrol Detachment: at least 1 Troops unit needed (now 0)."])
    open_unit_options(page, lord)
    expect(lord.get_by_label(re.compile("Banner of Rage"))).to_have_count(0)  # hidden until the axe
    lord.get_by_label(re.compile("Master-crafted axe")).check()
    banner = page.locator(".unit-row", has_text="Warlord").get_by_label(re.compile("Banner of Rage"))
    expect(banner).to_be_visible()
    expect(page.locator("#list-total")).to_have_text("65")
    banner.check()
    expect(page.locator("#list-total")).to_have_text("80")

    click_received(page, page.locator("button.add-unit", has_text="Warpack"))
    pack = page.locator(".unit-row", has_text="Warpack")
    expect(pack).to_have_count(1)
    expect(page.locator("#list-total")).to_have_text("120")
    expect(violations).to_have_count(0)
    expect(page.locator("#summary-power_level .points")).to_have_text("7")
    open_unit_options(page, pack)
    warriors = pack.get_by_label(re.compile(r"^Warrior"))
    warriors.fill("6")
    warriors.dispatch_event("change")
    expect(page.locator("#list-total")).to_have_text("128")
    expect(page.locator("#summary-power_level .points")).to_have_text("10")  # Power steps past 5 models
    screenshot(page, f"roster-editor-{name}")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= viewport["width"]
