"""A valid list built from scratch in each of the five game systems, in real Chromium (issue 13).

A new player signs up, opens "New list", picks the system (htmx swaps in its faction menu,
structure rules and the system's own list settings), creates the list, adds units with the
add buttons, ticks the options a valid army needs (a General, a Warlord) and ends with
"Valid list". Then, as issue 13's "Done when" asks, the player prints it (the roster) and
estimates it: a unit of the list against a typical target, the result computed by a real
Celery worker. Each step is screenshotted on a desktop and a phone viewport in
`artifacts/screenshots/systems-<key>-*.png`.

AoS 1st has no points (`GameSystem.points_sized` is false): its form asks for no points
limit and its pages show models and wounds, never "points left".
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, expect

from tests.browser.artifacts import screenshot
from tests.browser.editor_helpers import click_received, htmx_idle, open_unit_options
from tests.factories.army_lists import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
WORKER_TIMEOUT_MS = 60_000


@dataclass(frozen=True)
class Recipe:
    system: str
    faction: str
    #: None: the system sizes lists without points (no points limit field at all)
    points_limit: int | None
    #: unit slugs, in order; (unit index, option label) pairs to tick afterwards
    units: tuple[str, ...]
    ticks: tuple[tuple[int, str], ...] = ()
    settings: dict[str, str] = field(default_factory=dict)
    summary: str | None = None


RECIPES = [
    Recipe("opr", "Ashen Concord", 1000, ("warden-captain", "concord-wardens", "dune-outriders")),
    Recipe(
        "whfb6",
        "Vellmark Freeholds (original sample army)",
        2000,
        ("margrave", "freeholder-spearmen", "vellmark-bowmen", "river-halberdiers"),
        ticks=((0, "The army's General"),),
    ),
    Recipe(
        "wh40k9",
        "Ironbound Covenant (original sample army)",
        500,
        ("forge-castellan", "covenant-riflemen", "pathrunner-bikes"),
        ticks=((0, "The army's Warlord"),),
        settings={"battle_size": "combat_patrol"},
        summary="power_level",
    ),
    Recipe(
        "aos1",
        "Stormwardens of Halcyr (original sample army)",
        None,
        ("storm-lord", "hammer-wardens", "skybolt-archers"),
        ticks=((0, "Nominated as the general"),),
        summary="models",
    ),
    Recipe(
        "ru_whfb",
        "Wardens of Kholm (original sample army)",
        1000,
        ("boyar-prince", "kholm-militia", "birch-hunters", "kholm-militia"),
        ticks=((0, "The army's General"),),
    ),
]


def sign_up(page: Page, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/signup/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Email").fill(f"{username}@example.com")
    page.locator("#id_password1").fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    expect(page.get_by_role("heading", name="My lists")).to_be_visible()


def add_unit(page: Page, slug: str) -> None:
    rows = page.locator("#unit-rows > li").count()
    click_received(page, page.locator(f'button.add-unit[data-unit="{slug}"]'))
    expect(page.locator("#unit-rows > li")).to_have_count(rows + 1)
    htmx_idle(page)  # the new row swapped in and settled, the totals with it


@pytest.mark.worker
@pytest.mark.parametrize("recipe", RECIPES, ids=[r.system for r in RECIPES])
def test_a_new_player_builds_prints_and_estimates_a_valid_list_in_each_system(
    live_server, celery_worker_process, browser, recipe: Recipe
):
    call_command("load_catalogue", verbosity=0)
    base = live_server.url
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    sign_up(page, base, f"player-{recipe.system.replace('_', '-')}")

    page.get_by_role("link", name="New list").click()
    if recipe.system != page.get_by_label("Game system").input_value():
        with page.expect_response(lambda r: f"/lists/new/?system={recipe.system}" in r.url):
            page.get_by_label("Game system").select_option(recipe.system)
    page.get_by_label("Faction").select_option(label=recipe.faction)
    page.get_by_role("textbox", name="Name").fill(f"My first {recipe.system} list")
    if recipe.points_limit is None:
        expect(page.get_by_role("spinbutton", name="Points limit")).to_have_count(0)
    else:
        page.get_by_role("spinbutton", name="Points limit").fill(str(recipe.points_limit))
    for key, value in recipe.settings.items():
        page.locator(f'[name="setting-{key}"]').select_option(value)
    page.get_by_role("button", name="Create the list").click()
    expect(page.get_by_role("heading", name=f"My first {recipe.system} list", level=1)).to_be_visible()
    page.wait_for_load_state("load")

    for slug in recipe.units:
        add_unit(page, slug)
    for index, label in recipe.ticks:
        # The state each step needs, not time: the options open and htmx idle before the tick
        # (the gauntlet's figures land in the rows meanwhile), the row saved and swapped after.
        row = page.locator("#unit-rows > li").nth(index)
        options = open_unit_options(page, row)
        box = options.get_by_label(re.compile(re.escape(label)))
        if not box.is_checked():
            click_received(page, box)
        expect(options.get_by_label(re.compile(re.escape(label)))).to_be_checked()
        expect(page.locator("#unit-rows > li").nth(index).locator(".unit-upgrades")).to_contain_text(label)
        htmx_idle(page)

    expect(page.locator("#list-valid")).to_be_visible()
    expect(page.locator("#violations")).to_have_count(0)
    if recipe.summary:
        expect(page.locator(f'#list-totals [data-summary="{recipe.summary}"]')).to_be_visible()
    if recipe.points_limit is None:
        expect(page.locator("#points-left")).to_have_count(0)
        expect(page.locator("#list-totals")).not_to_contain_text("pts")
    else:
        expect(page.locator("#points-left")).to_be_visible()
    screenshot(page, f"systems-{recipe.system}-desktop")
    list_url = page.url
    phone = browser.new_context(viewport={"width": 390, "height": 844}, storage_state=context.storage_state())
    phone_page = phone.new_page()
    phone_page.goto(list_url)
    expect(phone_page.locator("#list-valid")).to_be_visible()
    screenshot(phone_page, f"systems-{recipe.system}-phone")

    # Print: the roster, one card per unit, the list's own figures, no points for AoS.
    page.get_by_role("link", name="Printable roster", exact=True).click()
    expect(page.locator(".roster .unit-card")).to_have_count(len(recipe.units))
    if recipe.summary:
        expect(page.locator(f'.roster-head [data-summary="{recipe.summary}"]')).to_be_visible()
    if recipe.points_limit is None:
        expect(page.locator(".roster-head")).not_to_contain_text("pts")
        expect(page.locator(".roster .unit-card .points")).to_have_count(0)
    else:
        expect(page.locator(".roster-head")).to_contain_text(f"/ {recipe.points_limit} pts")
    page.emulate_media(media="print")
    screenshot(page, f"systems-{recipe.system}-print-desktop")
    page.emulate_media(media="screen")
    phone_page.goto(page.url)
    expect(phone_page.locator(".roster .unit-card")).to_have_count(len(recipe.units))
    screenshot(phone_page, f"systems-{recipe.system}-print-phone")

    # Estimate: the list's first unit against the system's first typical target, on the worker.
    page.goto(list_url)
    page.locator("#unit-rows > li").first.locator(".unit-estimate a").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Estimate damage")
    target = page.get_by_label("Target unit")
    expect(target.locator("option")).not_to_have_count(0)
    target.select_option(index=0)
    page.get_by_role("button", name="Estimate").click()
    expect(page).to_have_url(re.compile(r"/estimates/[0-9a-f-]{36}/$"))
    expect(page.locator("svg.chart").first).to_be_visible(timeout=WORKER_TIMEOUT_MS)
    expect(page.locator("progress")).to_have_count(0)
    screenshot(page, f"systems-{recipe.system}-estimate-desktop")
    phone_page.goto(page.url)
    expect(phone_page.locator("svg.chart").first).to_be_visible()
    screenshot(phone_page, f"systems-{recipe.system}-estimate-phone")
    assert errors == []


def test_a_system_without_factions_leads_to_the_designer(live_server, browser):
    from rules.models import Faction

    call_command("load_catalogue", verbosity=0)
    Faction.objects.filter(system__key="aos1").delete()
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    sign_up(page, live_server.url, "no-faction-player")
    page.get_by_role("link", name="New list").click()
    with page.expect_response(lambda r: "/lists/new/?system=aos1" in r.url):
        page.get_by_label("Game system").select_option("aos1")
    expect(page.locator("#no-faction")).to_be_visible()
    button = page.get_by_role("button", name="Create the list")
    expect(button).to_be_disabled()
    expect(button).to_have_accessible_description("A list needs a faction: create a homebrew unit first.")
    # Styled as disabled in both themes: the muted panel colours of the notice, a dashed
    # border, no pointer (an active button has the accent background).
    def looks_disabled() -> None:
        style = button.evaluate("b => [getComputedStyle(b).backgroundColor, getComputedStyle(b).cursor,"
                                " getComputedStyle(b).borderTopStyle]")
        panel = page.locator("#no-faction").evaluate("e => getComputedStyle(e).backgroundColor")
        assert style == [panel, "not-allowed", "dashed"]

    looks_disabled()
    screenshot(page, "systems-no-faction-phone")
    page.get_by_label("Colour theme").select_option("dark")
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    looks_disabled()
    screenshot(page, "systems-no-faction-phone-dark")
    page.set_viewport_size({"width": 1280, "height": 900})
    screenshot(page, "systems-no-faction-desktop-dark")
    page.get_by_role("link", name="Create a homebrew unit").click()
    expect(page).to_have_url(re.compile(r"/catalogue/designer/\?system=aos1$"))
    expect(page.get_by_label("Game system")).to_have_value("aos1")


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 900}, {"width": 390, "height": 844}],
                         ids=["desktop", "phone"])
def test_the_gallery_shows_each_example_and_what_sizes_it(live_server, browser, viewport):
    """A fresh install's gallery: one valid example per system; AoS sized by models, not points."""
    call_command("load_catalogue", verbosity=0)
    call_command("load_example_lists", verbosity=0)
    page = browser.new_context(viewport=viewport).new_page()
    page.goto(f"{live_server.url}/lists/gallery/")
    rows = page.locator(".list-table tbody tr")
    expect(rows).to_have_count(5)
    expect(rows.locator(".valid")).to_have_count(5)
    aos = rows.filter(has_text="AoS 1st")
    expect(aos.locator('[data-summary="models"]')).to_have_text("Models 27 / 50")
    expect(aos).not_to_contain_text("/ 1000")
    expect(rows.filter(has_text="OPR").locator("td.num")).to_contain_text(re.compile(r"^\d+ / \d+$"))
    screenshot(page, f"systems-gallery-{'phone' if viewport['width'] < 500 else 'desktop'}")
