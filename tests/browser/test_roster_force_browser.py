"""The force (detachment) picker of a list of a faction imported from BattleScribe, in real
Chromium: choosing another force rebuilds the list in it without a page load, and its rules
decide the errors shown (a Vanguard needs no Troops, a Patrol does). Desktop and phone;
screenshots in `artifacts/screenshots/`."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from tests.browser.artifacts import screenshot
from tests.browser.editor_helpers import DESKTOP, PASSWORD, PHONE, login
from tests.rules.battlescribe.files import sources

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TROOPS = "Patrol Detachment: at least 1 Troops unit needed (now 0)."


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_force_picker_rebuilds_the_list_in_the_chosen_force(live_server, browser, viewport):
    from django.contrib.auth.models import User

    from armybuilder.lists import services
    from rules.battlescribe_import import import_files
    from rules.models import UnitTemplate

    name = "phone" if viewport == PHONE else "desktop"
    call_command("load_catalogue", verbosity=0)
    owner = User.objects.create_user("player", email="player@example.com", password=PASSWORD)
    faction = import_files(system_key="wh40k9", files=sources("slots.gst", "slots_warband.cat"),
                           owner=owner).factions[0]
    army_list = services.army_list_create(owner=owner, system=faction.system, faction=faction,
                                          name="Warband", points_limit=500)
    lord = UnitTemplate.objects.get(faction=faction, slug="bs-se-lord")
    services.army_list_add_unit(
        army_list=army_list, unit=lord, options={}, expected_version=army_list.version
    )

    page = browser.new_context(viewport=viewport).new_page()
    login(page, live_server.url, "player")
    page.goto(f"{live_server.url}/lists/{army_list.pk}/")
    violations = page.locator('#violations li[data-rule="catalogue"]')
    expect(violations).to_have_text([TROOPS])
    picker = page.locator("#list-force").get_by_label("Force")
    expect(picker).to_have_value("force-patrol")

    picker.select_option("force-vanguard")
    expect(page.locator("#list-force .saved")).to_be_visible()
    expect(violations).to_have_count(0)
    expect(page.locator(".unit-row", has_text="Warlord")).to_have_count(1)
    expect(page.locator("#list-total")).to_have_text("60")
    page.locator("#list-force").scroll_into_view_if_needed()
    screenshot(page, f"roster-force-{name}")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= viewport["width"]

    page.reload()  # the choice is saved with the list
    expect(page.locator("#list-force").get_by_label("Force")).to_have_value("force-vanguard")
    expect(violations).to_have_count(0)
