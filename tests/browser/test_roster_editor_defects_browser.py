"""The editor of a list of an imported faction (roster engine), in real Chromium on a desktop
and a phone: the Warlord the engine selects answers the 40k "no Warlord" rule, a points-only
row (a battle size) offers no "Estimate", the text to paste follows each htmx change, and an
option priced by count shows what the next take costs. Screenshots in
`artifacts/screenshots/`."""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from tests.browser.artifacts import screenshot
from tests.browser.editor_helpers import DESKTOP, PHONE, click_received, login, open_unit_options
from tests.factories.army_lists import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

VIEWPORTS = pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])


def court_list(owner):
    """A list of the hand-written court catalogue (`slots_court.cat`) holding a Court Lord."""
    from armybuilder.lists import services
    from rules.battlescribe_import import import_files
    from rules.models import UnitTemplate
    from tests.rules.battlescribe.files import sources

    faction = import_files(system_key="wh40k9", files=sources("slots.gst", "slots_court.cat"), owner=owner)
    faction = faction.factions[0]
    army_list = services.army_list_create(
        owner=owner, system=faction.system, faction=faction, name="Court", points_limit=500
    )
    services.army_list_add_unit(
        army_list=army_list, unit=UnitTemplate.objects.get(faction=faction, slug="bs-se-court-lord"),
        options={}, expected_version=army_list.version,
    )
    return army_list


@VIEWPORTS
def test_warlord_estimate_links_and_text_follow_the_roster(live_server, browser, viewport):
    name = "phone" if viewport == PHONE else "desktop"
    call_command("load_catalogue", verbosity=0)
    owner = make_user("player")
    army_list = court_list(owner)
    page = browser.new_context(viewport=viewport).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    login(page, live_server.url, "player")
    page.goto(f"{live_server.url}/lists/{army_list.pk}/")

    size = page.locator(".unit-row", has_text="Battle Size")
    lord = page.locator(".unit-row", has_text="Court Lord")
    # the battle size is the roster's configuration: no "Estimate", and it says what it is
    expect(size.locator(".unit-estimate a")).to_have_count(0)
    expect(size.locator(".unit-configuration")).to_contain_text("Roster configuration")
    expect(lord.locator(".unit-estimate a", has_text="Estimate")).to_have_count(1)

    text = page.locator("#export-text")
    expect(text).to_have_value(re.compile("Court Lord"))
    expect(text).not_to_have_value(re.compile("Court Guard"))
    warlord = page.locator('#violations li[data-rule="warlord"]')
    expect(warlord).to_have_text(["The army has no Warlord: give the rule “Warlord” to one model."])

    open_unit_options(page, lord)
    lord.get_by_label(re.compile("^Warlord")).check()
    expect(warlord).to_have_count(0)

    fetched: list[str] = []
    page.on("request", lambda request: fetched.append(request.url) if "/roster.txt" in request.url else None)
    click_received(page, page.locator("button.add-unit", has_text="Court Guard"))
    expect(page.locator(".unit-row", has_text="Court Guard")).to_have_count(1)
    # the text follows the list without a reload: fetched again once it is in view
    text.scroll_into_view_if_needed()
    expect(text).to_have_value(re.compile(r"Court Guard[\s\S]*Total: 145/500 pts, 2 units"))
    assert len(fetched) == 1, fetched  # once for the change, not once per settle
    page.locator("#text-format").select_option("compact")
    expect(text).to_have_value(re.compile("Court Guard"))
    assert errors == []
    screenshot(page, f"roster-editor-defects-{name}")
    page.locator("#export-text").scroll_into_view_if_needed()
    screenshot(page, f"roster-editor-text-{name}", full_page=False)
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]


@VIEWPORTS
def test_an_option_priced_by_count_shows_the_next_takes_price(live_server, browser, viewport):
    from armybuilder.lists import services
    from rules.models import GameSystem, UnitTemplate, UpgradeOption
    from rules.systems.registry import get_system, unit_points
    from tests.factories.army_lists import make_faction
    from tests.factories.fantasy_units import unit as fantasy_unit

    name = "phone" if viewport == PHONE else "desktop"
    call_command("load_catalogue", verbosity=0)
    owner = make_user("player")
    faction = make_faction(system=GameSystem.objects.get(key="whfb6"))
    data = fantasy_unit("Trooper", 10, points=5)
    points = unit_points(get_system("whfb6"), data)
    squad = UnitTemplate.objects.create(
        faction=faction, slug="troopers", name="Troopers", data=data, points=points
    )
    UpgradeOption.objects.create(  # invented prices: 5 more 50, 10 more 80, 15 more 140
        unit=squad, key="more", group="Models", label="5 more troopers", kind="add_models",
        applies_to="Trooper", payload={"count": 5, "costs": [50, 80, 140]}, min_count=0, max_count=3,
        cost=50, position=1,
    )
    army_list = services.army_list_create(
        owner=owner, system=faction.system, faction=faction, name="Troop", points_limit=1000
    )
    services.army_list_add_unit(army_list=army_list, unit=squad, options={}, expected_version=None)
    page = browser.new_context(viewport=viewport).new_page()
    login(page, live_server.url, "player")
    page.goto(f"{live_server.url}/lists/{army_list.pk}/")
    row = page.locator(".unit-row", has_text="Troopers")
    open_unit_options(page, row)
    price = row.locator(".option-points")
    expect(price).to_have_text("(+50 pts for the next one)")
    expect(row.locator(".option-steps")).to_have_text("Price by count: ×1 50 · ×2 80 · ×3 140 pts")
    more = row.get_by_label(re.compile("5 more troopers"))
    more.fill("1")
    more.dispatch_event("change")
    row = page.locator(".unit-row", has_text="Troopers")  # the row was re-rendered
    expect(row.locator(".option-points")).to_have_text("(+30 pts for the next one)")
    expect(row.locator(".option-step.is-taken")).to_have_text("×1 50")
    screenshot(page, f"count-price-picker-{name}", full_page=False)
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
