"""The army builder end to end in real Chromium (issue 5).

A new player signs up, creates a 1000-point OPR list, adds four units and an upgrade and
watches the total change in place; a sixth unit breaks "at most 1 unit per full 200
points" (docs/rules/opr-points.md §7, rule 1) and removing one clears it. The list is shared; the link is
read-only when logged out; a second player forks it; the print roster renders.
Screenshots of each step are kept in `artifacts/screenshots/`.
"""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, expect

from tests.browser.artifacts import screenshot
from tests.browser.editor_helpers import click_received, open_unit_options
from tests.factories.army_lists import PASSWORD

FOUR_UNITS = ["concord-wardens", "ashguard-veterans", "warden-captain", "magma-mortar-team"]

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def shot(page: Page, name: str) -> None:
    screenshot(page, f"builder-{name}")


def sign_up(page: Page, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/signup/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Email").fill(f"{username}@example.com")
    page.locator("#id_password1").fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    expect(page.get_by_role("heading", name="My lists")).to_be_visible()


def total(page: Page) -> int:
    return int(page.locator("#list-total").inner_text())


def unit_points(page: Page) -> list[int]:
    return [
        int(re.match(r"\d+", text).group())
        for text in page.locator("#unit-rows .unit-points").all_inner_texts()
    ]


def add_unit(page: Page, slug: str) -> None:
    rows = page.locator("#unit-rows > li").count()
    click_received(page, page.locator(f'button.add-unit[data-unit="{slug}"]'))
    expect(page.locator("#unit-rows > li")).to_have_count(rows + 1)
    expect(page.locator("#list-total")).to_have_text(str(sum(unit_points(page))))


def test_build_share_fork_and_print_a_list(live_server, browser):
    call_command("load_catalogue", verbosity=0)
    base = live_server.url

    # --- a new player builds a 1000-point list --------------------------------------------
    owner = browser.new_context(viewport={"width": 1280, "height": 900})
    page = owner.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    sign_up(page, base, "builder")
    page.get_by_role("link", name="New list").click()
    with page.expect_response(lambda response: "/lists/new/?system=opr" in response.url):
        page.get_by_label("Game system").select_option("opr")  # htmx swaps in the system's form
    page.get_by_label("Faction").select_option(label="Ashen Concord")
    page.get_by_role("textbox", name="Name").fill("Ridge Patrol")
    page.get_by_role("spinbutton", name="Points limit").fill("1000")
    page.get_by_label(re.compile("weapons cost 1× to 5× its base cost")).uncheck()  # §7.4 off for this list
    shot(page, "01-new-list")
    page.get_by_role("button", name="Create the list").click()
    expect(page.get_by_role("heading", name="Ridge Patrol", level=1)).to_be_visible()
    page.wait_for_load_state("load")  # htmx has wired the forms; a click before that posts and redirects
    expect(page.locator("#list-total")).to_have_text("0")
    editor_url = page.url

    for slug in FOUR_UNITS:
        add_unit(page, slug)
    expect(page.locator("#list-valid")).to_be_visible()
    four_total = total(page)
    assert page.url == editor_url  # no full reload: htmx swapped the rows and the summary
    shot(page, "02-four-units")

    # --- an upgrade changes the unit's points and the total in place ----------------------
    wardens = page.locator("#unit-rows > li").first
    before = unit_points(page)[0]
    open_unit_options(page, wardens)
    wardens.get_by_label(re.compile("Sergeant replaces the Cinder Pistol")).check()
    expect(page.locator("#unit-rows > li").first.locator(".unit-upgrades")).to_contain_text("Arc Carbine")
    after = unit_points(page)[0]
    assert after > before
    expect(page.locator("#list-total")).to_have_text(str(four_total - before + after))
    shot(page, "03-upgrade")

    # --- a violation appears with the sixth unit and disappears when it goes ---------------
    add_unit(page, "concord-wardens")
    expect(page.locator("#list-valid")).to_be_visible()
    add_unit(page, "concord-wardens")
    expect(page.locator("#violations")).to_contain_text("6 units, over 1 per full 200 pts of 1000 (5)")
    expect(page.locator("#points-left")).to_contain_text("points left")
    shot(page, "04-violation")
    page.locator("#unit-rows > li").last.get_by_role("button", name=re.compile("Remove")).click()
    expect(page.locator("#unit-rows > li")).to_have_count(5)
    expect(page.locator("#violations")).to_have_count(0)
    expect(page.locator("#list-valid")).to_be_visible()
    expect(page.locator("#list-total")).to_have_text(str(sum(unit_points(page))))

    # --- share: a read-only link ---------------------------------------------------------
    page.get_by_role("button", name="Share with a link").click()
    share_url = page.locator("#share-url").input_value()
    assert re.search(r"/lists/shared/[A-Za-z0-9_-]{43}/$", share_url)
    shot(page, "05-shared")
    names = page.locator("#unit-rows .unit-name").all_inner_texts()

    anonymous = browser.new_context().new_page()
    anonymous.goto(share_url)
    expect(anonymous.get_by_role("heading", name="Ridge Patrol", level=1)).to_be_visible()
    expect(anonymous.locator(".list-meta")).to_contain_text("read-only")
    assert anonymous.locator("#unit-rows .unit-name").all_inner_texts() == names
    expect(anonymous.get_by_role("button", name=re.compile("Remove"))).to_have_count(0)
    expect(anonymous.locator("#unit-choices")).to_have_count(0)
    shot(anonymous, "06-share-link-logged-out")

    # --- a second player forks it ----------------------------------------------------------
    second = browser.new_context().new_page()
    sign_up(second, base, "forker")
    second.goto(share_url)
    second.get_by_role("button", name="Fork: copy to my lists").click()
    expect(second.get_by_role("heading", name="Ridge Patrol", level=1)).to_be_visible()
    second.wait_for_load_state("load")
    assert second.url != editor_url and "/shared/" not in second.url
    assert second.locator("#unit-rows .unit-name").all_inner_texts() == names
    expect(second.locator("#unit-choices")).to_be_visible()  # the copy is theirs to edit
    shot(second, "07-forked")

    # --- the print roster renders --------------------------------------------------------
    second.get_by_role("link", name="Printable roster").click()
    expect(second.locator(".unit-card")).to_have_count(len(names))
    expect(second.locator(".roster-summary")).to_contain_text(str(sum(unit_points(page))))
    shot(second, "08-roster")
    second.emulate_media(media="print")
    expect(second.locator(".site-header")).to_be_hidden()
    shot(second, "09-roster-print")

    assert errors == []


def test_a_stale_tab_is_refused_with_a_reload_link(live_server, browser):
    """Two tabs on one list: the tab that missed a change is told so, and can reload."""
    from django.contrib.auth.models import User

    from armybuilder.lists import services
    from rules.models import Faction

    call_command("load_catalogue", verbosity=0)
    user = User.objects.create_user("two-tabs", email="tabs@example.com", password=PASSWORD)
    faction = Faction.objects.get(system__key="opr", slug="ashen-concord", owner__isnull=True)
    army_list = services.army_list_create(
        owner=user, system=faction.system, faction=faction, name="Two tabs", points_limit=1000
    )
    context = browser.new_context()
    first = context.new_page()
    first.goto(f"{live_server.url}/accounts/login/")
    first.get_by_label("Username").fill("two-tabs")
    first.get_by_label("Password").fill(PASSWORD)
    first.get_by_role("button", name="Log in").click()
    editor = f"{live_server.url}/lists/{army_list.pk}/"
    first.goto(editor)
    second = context.new_page()
    second.goto(editor)

    add_unit(first, "concord-wardens")
    second.locator('button.add-unit[data-unit="warden-captain"]').click()
    expect(second.locator("#editor-alert")).to_contain_text("changed in another tab or window")
    expect(second.locator("#editor-alert")).to_be_focused()
    expect(second.locator("#unit-rows > li")).to_have_count(0)
    shot(second, "10-stale-tab")
    second.get_by_role("link", name="Reload the list").click()
    second.wait_for_load_state("load")
    expect(second.locator("#unit-rows > li")).to_have_count(1)
    add_unit(second, "warden-captain")
    expect(second.locator("#editor-alert")).to_be_empty()
