"""Shared steps of the editor's browser tests: a player with a list, logged in, on the editor."""

from __future__ import annotations

import re
from collections.abc import Callable

from django.core.management import call_command
from playwright.sync_api import Browser, Locator, Page, expect

from tests.factories.army_lists import PASSWORD

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


def editor_page(
    live_server,
    browser: Browser,
    *,
    username: str = "player",
    viewport: dict | None = None,
    system: str = "opr",
    faction: str = "ashen-concord",
    name: str = "Ridge Patrol",
    points_limit: int = 1000,
    units: tuple[str, ...] = (),
    prepare: Callable[[], object] | None = None,
    before_load: Callable[[Page], object] | None = None,
    service_workers: str = "allow",
):
    """Log a new player in and open the editor of a new list; returns (page, army_list).
    `prepare` runs once the catalogue is loaded, before the units are added (a test's own
    option on a bundled unit); `before_load` gets the page before it opens the editor (a test's
    routes, which see only what the offline service worker does not answer: `service_workers`
    "block" keeps it out)."""
    from django.contrib.auth.models import User

    from armybuilder.lists import services
    from rules.models import Faction, UnitTemplate

    call_command("load_catalogue", verbosity=0)
    if prepare is not None:
        prepare()
    user = User.objects.filter(username=username).first() or User.objects.create_user(
        username, email=f"{username}@example.com", password=PASSWORD
    )
    faction_row = Faction.objects.get(system__key=system, slug=faction, owner__isnull=True)
    army_list = services.army_list_create(
        owner=user, system=faction_row.system, faction=faction_row, name=name, points_limit=points_limit
    )
    for slug in units:
        template = UnitTemplate.objects.prefetch_related("options").get(faction=faction_row, slug=slug)
        army_list.refresh_from_db()
        services.army_list_add_unit(
            army_list=army_list, unit=template, options={}, expected_version=army_list.version
        )
    context = browser.new_context(viewport=viewport or DESKTOP, service_workers=service_workers)
    page = context.new_page()
    login(page, live_server.url, username)
    if before_load is not None:  # a test's own routes, in place before the editor asks anything
        before_load(page)
    page.goto(f"{live_server.url}/lists/{army_list.pk}/")
    page.wait_for_load_state("load")
    return page, army_list


def login(page: Page, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_load_state("load")


def total(page: Page) -> int:
    return int(page.locator("#list-total").inner_text())


def unit_points(page: Page) -> list[int]:
    return [
        int(re.match(r"\d+", text).group())
        for text in page.locator("#unit-rows .unit-points").all_inner_texts()
    ]


def add_unit(page: Page, slug: str) -> None:
    rows = page.locator("#unit-rows .unit-row").count()
    click_received(page, page.locator(f'button.add-unit[data-unit="{slug}"]').first)
    expect(page.locator("#unit-rows .unit-row")).to_have_count(rows + 1)
    expect(page.locator("#list-total")).to_have_text(str(sum(unit_points(page))))


def htmx_idle(page: Page) -> None:
    """Wait until htmx has no request in flight and has swapped and settled what came back.

    A response event fires before htmx swaps its HTML in: a field filled in that gap is the
    old one, replaced a moment later, and its change is never sent."""
    page.wait_for_function(
        "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling, .htmx-added')"
    )


_CLICK_PROBE = """token => {
    window.__clickProbes = window.__clickProbes || {};
    window.__clickProbes[token] = false;
    document.addEventListener("click", function probe(event) {
        if (event.target.closest && event.target.closest('[data-click-probe="' + token + '"]')) {
            window.__clickProbes[token] = true;
            document.removeEventListener("click", probe, true);
        }
    }, true);
}"""


def click_received(page: Page, locator: Locator, *, attempts: int = 3) -> None:
    """Click `locator` and make sure the click reached it; click again only if it did not.

    Playwright checks what is under the pointer when it presses the button, not when it
    releases it. If an answer swapped in meanwhile moves the element (under load the press and
    the release are far apart), the browser sends the click to what the two have in common
    (caught once: the first Add of a list landed on the side column as the gauntlet's first
    answer grew above the buttons), and nothing happens, as for a player who would click again.
    Whether the click arrived is read from the page (a capturing listener), never from time:
    a click that arrived is never repeated, whatever it did."""
    for attempt in range(attempts):
        token = f"probe-{id(locator)}-{attempt}"
        locator.evaluate("(element, token) => element.setAttribute('data-click-probe', token)", token)
        page.evaluate(_CLICK_PROBE, token)
        locator.click()
        if page.evaluate("token => window.__clickProbes[token]", token):
            return
    raise AssertionError(f"{attempts} clicks on {locator} never reached it")


def open_unit_options(page: Page, row: Locator) -> Locator:
    """Open a unit row's "Upgrades, name and notes" and return its `<details>`, once it is open
    with nothing of htmx in flight.

    Issue 43, item 12: under load the gauntlet's figures arrive while a test opens the row.
    They bring a `<summary>` of their own ("What these figures mean") ahead of the options' in
    the row, and they move the rows as they land; a click on the row's first `<summary>` then
    opened the figures' explanation, or landed beside the options, which stayed closed. So:
    the options' own `<summary>`, clicked only while they are closed and htmx is idle, and the
    open state checked after anything that was in flight has settled."""
    details = row.locator("details.unit-options")
    for _attempt in range(3):
        htmx_idle(page)
        if details.get_attribute("open") is None:
            details.locator(":scope > summary").click()
        htmx_idle(page)
        if details.get_attribute("open") is not None:
            break
    expect(details).to_have_attribute("open", "")
    return details
