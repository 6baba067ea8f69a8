""""My lists" fits a phone (issue 43): on a 390×844 screen its table scrolled sideways, the
faction, points, validity and date off the right edge. On a phone each list is now a card
(the name its heading, every other cell a line led by its column's name); on a desktop it
stays a table. Neither page is wider than its screen. Screenshots in `artifacts/screenshots/`."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from playwright.sync_api import Browser, expect

from armybuilder.lists import services
from rules.models import Faction, UnitTemplate
from tests.browser.artifacts import screenshot
from tests.browser.editor_helpers import login
from tests.factories.army_lists import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Shown elements reaching past the screen's right edge, and boxes scrolled sideways.
SIDEWAYS = """() => {
  const width = document.documentElement.clientWidth;
  // What a player sees: not the column headings a phone hides, nor text for screen readers.
  const wide = [...document.querySelectorAll('main *')]
    .filter(el => !el.closest('.list-table thead, .visually-hidden'))
    .filter(el => el.getBoundingClientRect().right > width + 1)
    .map(el => el.tagName + '.' + el.className);
  const scrolled = [...document.querySelectorAll('.table-scroll')]
    .filter(box => box.scrollWidth > box.clientWidth + 1).map(box => 'scroller');
  return {page: document.documentElement.scrollWidth, width, wide, scrolled};
}"""


@pytest.fixture
def player_with_lists() -> str:
    """A player with a list in every system, one with a long name, one public and shared."""
    call_command("load_catalogue", verbosity=0)
    user = User.objects.create_user("lister", email="lister@example.com", password=PASSWORD)
    for number, faction in enumerate(
        Faction.objects.filter(owner__isnull=True, is_reference=False).select_related("system")
        .order_by("system__position", "slug")
    ):
        name = ("Ridge Patrol of the Upper Caldera and the Basalt Ridges" if number == 0
                else f"{faction.name} muster")
        army_list = services.army_list_create(owner=user, system=faction.system, faction=faction, name=name,
                                              points_limit=1000, is_public=number == 1)
        template = UnitTemplate.objects.prefetch_related("options").filter(faction=faction).first()
        services.army_list_add_unit(army_list=army_list, unit=template, expected_version=army_list.version)
    return user.username


@pytest.mark.parametrize(("viewport", "where"), [
    ({"width": 1366, "height": 900}, "desktop"), ({"width": 390, "height": 844}, "phone"),
])
def test_my_lists_fit_the_screen_as_a_table_or_as_cards(live_server, browser: Browser, player_with_lists,
                                                        viewport, where):
    page = browser.new_context(viewport=viewport).new_page()
    login(page, live_server.url, player_with_lists)
    page.goto(f"{live_server.url}/lists/")
    rows = page.locator(".list-table tbody tr")
    expect(rows.first).to_be_visible()
    assert rows.count() >= 8
    found = page.evaluate(SIDEWAYS)
    assert found["page"] == viewport["width"] and found["wide"] == [] and found["scrolled"] == [], found
    header = page.locator(".list-table thead")
    first = rows.first
    if where == "phone":
        # A card: the cells stack under the name, each led by its column's name.
        assert first.evaluate("row => getComputedStyle(row).display") == "block"
        assert header.evaluate("head => head.getBoundingClientRect().height") <= 1
        faction = first.locator("td[data-label='Faction']")
        assert faction.evaluate("cell => getComputedStyle(cell, '::before').content") == '"Faction"'
        name_box = first.locator("td.list-name").bounding_box()
        assert faction.bounding_box()["y"] > name_box["y"]
    else:
        assert first.evaluate("row => getComputedStyle(row).display") == "table-row"
        expect(header).to_be_visible()
    screenshot(page, f"my-lists-{where}")
