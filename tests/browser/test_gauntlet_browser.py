"""The gauntlet panel in Chromium, for all five systems: it fills in while the list is
built and follows each edit, and so do the figures in each unit row (offence and durability
with their bars, best and worst target, the system's chance), from the panel's own requests
(desktop and phone, screenshots under artifacts/)."""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from tests.browser.artifacts import screenshot
from tests.browser.editor_helpers import PHONE, click_received, editor_page, open_unit_options

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
    page, army_list = editor_page(live_server, browser, viewport=viewport, system=system, faction=faction,
                                   points_limit=5000, units=(first,))
    from rules.systems.registry import get_system

    declared = [chance.key for chance in get_system(system).combat_chances]
    per_wound = get_system(system).counts_wounds
    fetched: list[str] = []  # what htmx asks for with GET (the add itself is a POST)
    page.on("request", lambda request: fetched.append(request.url)
            if request.resource_type in ("xhr", "fetch") and request.method == "GET" else None)
    panel = page.locator("#gauntlet-panel")
    expect(panel).to_have_attribute("data-state", "ready", timeout=30_000)
    expect(panel.locator("table.gauntlet-units tbody tr[data-unit]")).to_have_count(1)
    expect(panel.locator(".gauntlet-trades li")).to_have_count(1)
    row_figures = page.locator("#unit-rows .unit-row .unit-gauntlet")
    expect(row_figures).to_have_count(1)
    expect(row_figures.first).to_have_attribute("data-state", "ready")
    check_row_figures(row_figures.first, declared, per_wound=per_wound)
    row_figures.first.locator("details summary").click()  # read what they mean, then edit
    click_received(page, page.locator(f'button.add-unit[data-unit="{second}"]').first)
    expect(panel.locator("table.gauntlet-units tbody tr[data-unit]")).to_have_count(2, timeout=30_000)
    expect(panel).to_have_attribute("data-state", "ready")
    expect(panel.locator(".gauntlet-sentence").first).to_contain_text("Against the gauntlet")
    expect(row_figures).to_have_count(2)
    for index in range(2):  # the new unit's row filled by the panel's answers too
        expect(row_figures.nth(index)).to_have_attribute("data-state", "ready", timeout=30_000)
        check_row_figures(row_figures.nth(index), declared, per_wound=per_wound)
    # Every row is filled by the panel's requests (its polls name their number, `?poll=n`),
    # never by one of its own (the text to paste follows the list with requests of its own,
    # `list_export.js`).
    panel_url = f"{live_server.url}/lists/{army_list.pk}/gauntlet/"
    fetched = [url for url in fetched if "/roster.txt" not in url]
    assert fetched and {url.split("?poll=")[0] for url in fetched} == {panel_url}, fetched
    assert all(re.fullmatch(r"(\?poll=\d{1,2})?", url[len(panel_url):]) for url in fetched), fetched
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= (viewport or {"width": 1280})["width"], "the panel must not widen the page"
    suffix = "-phone" if viewport else ""
    # Fresh figures replaced the first row's, and what the player had open stays open.
    expect(row_figures.first.locator("details.gauntlet-explained")).to_have_attribute("open", "")
    expect(row_figures.first.locator(".gauntlet-explained li").first).to_be_visible()
    expect(row_figures.first.locator(".gauntlet-explained li").first).to_contain_text("Against the gauntlet")
    # Only the rows whose figures changed are swapped (`gauntlet.js`, each row's digest): the
    # panel answering again with the same figures leaves every row's element as it was.
    page.evaluate("""() => {
      document.querySelectorAll("#unit-rows .unit-gauntlet, #gauntlet-panel table.gauntlet-units tbody")
        .forEach((row) => { row.dataset.kept = "yes"; });
      document.getElementById("gauntlet-panel").dataset.asked = "yes";
      const url = document.getElementById("gauntlet").getAttribute("data-url");
      return window.htmx.ajax("GET", url, {target: "#gauntlet-panel", swap: "outerHTML"});
    }""")
    expect(page.locator("#gauntlet-panel[data-asked]")).to_have_count(0)  # the answer is in
    expect(panel).to_have_attribute("data-state", "ready")
    table_rows = panel.locator("table.gauntlet-units tbody")
    expect(table_rows).to_have_count(2)
    for index in range(2):
        expect(row_figures.nth(index)).to_have_attribute("data-kept", "yes")
        expect(table_rows.nth(index)).to_have_attribute("data-kept", "yes")
    page.locator("#unit-rows .unit-row").first.scroll_into_view_if_needed()
    screenshot(page, f"gauntlet-row-{system}{suffix}", full_page=False)
    panel.scroll_into_view_if_needed()
    screenshot(page, f"gauntlet-{system}{suffix}", full_page=False)


def test_an_upgrade_brings_the_panel_current_in_one_answer(live_server, browser, inline_pdf_renders):
    """Issue 42: after an option change the panel is asked at once, and that one request waits
    on the server for the worker's results (here Celery runs inline, inside it), so the panel
    is current with its first answer: no poll, no second request for the rows."""
    page, army_list = editor_page(live_server, browser, units=("concord-wardens",))
    panel = page.locator("#gauntlet-panel")
    expect(panel).to_have_attribute("data-state", "ready", timeout=30_000)
    panel_url = f"{live_server.url}/lists/{army_list.pk}/gauntlet/"
    wardens = page.locator("#unit-rows > li").first
    open_unit_options(page, wardens)
    before = wardens.locator(".unit-gauntlet").get_attribute("data-digest")
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url)
            if request.url.split("?")[0] == panel_url else None)
    page.evaluate('document.getElementById("gauntlet-panel").setAttribute("data-before", "")')
    wardens.get_by_label(re.compile("Sergeant replaces the Cinder Pistol")).check()
    current = page.locator("#gauntlet-panel:not([data-before])")
    expect(current).to_have_attribute("data-state", "ready", timeout=30_000)
    row = page.locator("#unit-rows > li").first.locator(".unit-gauntlet")
    expect(row).to_have_attribute("data-state", "ready")
    expect(row).not_to_have_attribute("data-digest", before or "")  # the upgraded unit's own figures
    assert asked == [panel_url], asked


def check_row_figures(figures, declared: list[str], *, per_wound: bool) -> None:
    """A unit row's gauntlet figures: offence and durability, each a number and a bar, best and
    worst target, the chances the system declares as percentages, and one sentence each."""
    number = re.compile(r"^\d+\.\d\d$")
    expect(figures.locator('[data-figure="offence"] .gauntlet-value')).to_have_text(number)
    expect(figures.locator('[data-figure="offence"] meter.gauntlet-bar')).to_have_count(1)
    expect(figures.locator('[data-figure="durability"] meter.gauntlet-bar')).to_have_count(1)
    expect(figures.locator('[data-figure="best"] dd')).not_to_be_empty()
    expect(figures.locator('[data-figure="worst"] dd')).not_to_be_empty()
    expect(figures.locator('[data-figure="offence-per-wound"]')).to_have_count(1 if per_wound else 0)
    chances = figures.locator('[data-figure="chance"]')
    expect(chances).to_have_count(len(declared))
    for index, key in enumerate(declared):
        expect(chances.nth(index)).to_have_attribute("data-chance", key)
        expect(chances.nth(index).locator(".gauntlet-value")).to_have_text(re.compile(r"^(<1|>99|\d{1,3})%$"))
    # A durability past 999 reads ">999", and one more sentence says what that means (issue 43).
    durabilities = figures.locator('[data-figure^="durability"] .gauntlet-value')
    expect(durabilities).to_have_count(1 + int(per_wound))
    for index in range(1 + int(per_wound)):
        expect(durabilities.nth(index)).to_have_text(re.compile(r"^(\d+\.\d|>999|—)$"))
    beyond = int(any(text == ">999" for text in durabilities.all_text_contents()))
    explained = figures.locator(".gauntlet-explained li")
    expect(explained).to_have_count(2 + int(per_wound) + len(declared) + beyond)
    expect(explained.filter(has_text="“>999” means more than 999")).to_have_count(beyond)
