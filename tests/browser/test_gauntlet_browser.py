"""The gauntlet panel in Chromium, for all five systems: it fills in while the list is
built and follows each edit (desktop and phone, screenshots under artifacts/)."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from tests.browser.artifacts import screenshot
from tests.browser.editor_helpers import PHONE, editor_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SYSTEMS = ["opr", "whfb6", "wh40k9", "aos1", "ru_whfb"]


def faction_with_units(system: str) -> tuple[str, list[str]]:
    """A bundled faction of `system` whose first units cost something (or any, without points)."""
    from rules.models import Faction

    call_command("load_catalogue", verbosity=0)
    factions = Faction.objects.filter(system__key=system, owner__isnull=True).order_by("slug")
    # A playable faction first: reference profiles (0 points) only where nothing else has units.
    for faction in sorted(factions, key=lambda f: not f.units.filter(points__gt=0).exists()):
        units = list(faction.units.order_by("-points", "slug").values_list("slug", flat=True)[:2])
        if len(units) == 2:
            return faction.slug, units
    raise AssertionError(f"no bundled faction of {system} with two units")


@pytest.mark.parametrize("viewport", [None, PHONE], ids=["desktop", "phone"])
@pytest.mark.parametrize("system", SYSTEMS)
def test_the_panel_fills_in_and_follows_an_edit(live_server, browser, system, viewport, inline_pdf_renders):
    faction, (first, second) = faction_with_units(system)
    page, _army_list = editor_page(live_server, browser, viewport=viewport, system=system, faction=faction,
                                   points_limit=5000, units=(first,))
    panel = page.locator("#gauntlet-panel")
    expect(panel).to_have_attribute("data-state", "ready", timeout=30_000)
    expect(panel.locator("table.gauntlet-units tbody tr[data-unit]")).to_have_count(1)
    expect(panel.locator(".gauntlet-trades li")).to_have_count(1)
    page.locator(f'button.add-unit[data-unit="{second}"]').first.click()
    expect(panel.locator("table.gauntlet-units tbody tr[data-unit]")).to_have_count(2, timeout=30_000)
    expect(panel).to_have_attribute("data-state", "ready")
    expect(panel.locator(".gauntlet-sentence").first).to_contain_text("Against the gauntlet")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= (viewport or {"width": 1280})["width"], "the panel must not widen the page"
    panel.scroll_into_view_if_needed()
    screenshot(page, f"gauntlet-{system}" + ("-phone" if viewport else ""), full_page=False)
