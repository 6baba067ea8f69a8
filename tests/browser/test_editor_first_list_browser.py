"""What a new player meets first, in Chromium on desktop and a 390×844 phone (issue 30):
a new WHFB 6th or 40k list starts on a playable faction (item 3), and the rules a list
breaks are read in the reader's language whoever saved it (item 7)."""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from django.utils import translation
from playwright.sync_api import expect

from tests.browser.artifacts import screenshot
from tests.browser.editor_helpers import DESKTOP, PASSWORD, PHONE, click_received, login

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CYRILLIC = re.compile("[А-Яа-яЁё]")


def _player(username: str = "player"):
    from django.contrib.auth.models import User

    call_command("load_catalogue", verbosity=0)
    return User.objects.create_user(username, email=f"{username}@example.com", password=PASSWORD)


@pytest.mark.parametrize(
    ("system_key", "first", "reference"),
    [
        ("whfb6", "Snagtooth Bog-Clans (original sample army)", "Rulebook examples"),
        ("wh40k9", "Ironbound Covenant (original sample army)", "Core booklet datasheets"),
    ],
)
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_new_list_starts_on_a_playable_faction_and_its_units_cost_points(
    live_server, browser, viewport, system_key, first, reference
):
    _player()
    page = browser.new_context(viewport=viewport).new_page()
    login(page, live_server.url, "player")
    page.goto(f"{live_server.url}/lists/new/?system={system_key}")
    faction = page.get_by_label("Faction")
    expect(faction.locator("option:checked")).to_have_text(first)
    assert reference not in faction.inner_text()  # reference profiles are not offered
    screenshot(page, f"new-list-{system_key}-{'phone' if viewport == PHONE else 'desktop'}", full_page=False)
    page.get_by_label("Name").fill("First game")
    page.get_by_role("button", name="Create the list").click()
    page.wait_for_url(re.compile(r"/lists/\d+/"))
    click_received(page, page.locator("button.add-unit").first)
    expect(page.locator("#unit-rows .unit-row")).to_have_count(1)
    assert int(page.locator("#list-total").inner_text()) > 0
    # The catalogue still shows the reference profiles, last and labelled.
    page.goto(f"{live_server.url}/catalogue/{system_key}/")
    items = page.locator(".faction-list li")
    expect(items.last).to_contain_text(reference)
    expect(items.last).to_contain_text("reference profiles, no points: not offered for lists")
    screenshot(page, f"catalogue-reference-{system_key}-{'phone' if viewport == PHONE else 'desktop'}")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_violations_saved_by_a_russian_player_read_in_english(live_server, browser, viewport):
    from armybuilder.lists import services
    from rules.models import Faction, UnitTemplate

    user = _player()
    faction = Faction.objects.get(system__key="ru_whfb", slug="wardens-of-kholm", owner__isnull=True)
    prince = UnitTemplate.objects.prefetch_related("options").get(faction=faction, slug="boyar-prince")
    with translation.override("ru"):
        army_list = services.army_list_create(
            owner=user, system=faction.system, faction=faction, name="Kholm", points_limit=500
        )
        services.army_list_add_unit(army_list=army_list, unit=prince, options={}, expected_version=None)
    army_list.refresh_from_db()
    stored = [v["message"] for v in army_list.violations if v["rule"] == "percentages"]
    assert stored and all(CYRILLIC.search(message) for message in stored)  # saved in Russian
    page = browser.new_context(viewport=viewport, locale="en-US").new_page()
    login(page, live_server.url, "player")
    page.goto(f"{live_server.url}/lists/{army_list.pk}/")
    shown = page.locator('#violations li[data-rule="percentages"]')
    expect(shown.first).to_be_visible()
    texts = shown.all_inner_texts()
    assert len(texts) == len(stored)
    for text in texts:
        assert not CYRILLIC.search(text), text
    assert any(text.startswith("Core choices cost 0 pts, under") for text in texts), texts
    shown.first.scroll_into_view_if_needed()
    screenshot(page, f"violations-english-{'phone' if viewport == PHONE else 'desktop'}", full_page=False)


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_newcomers_first_whfb_list_needs_no_name_and_takes_a_lord(live_server, browser, viewport):
    """Issue 43, item 11: the name may be left empty (the list is named after its faction and
    size), and WHFB's form starts at 2,000 pts, where the slot chart allows the first Lord."""
    _player()
    where = "phone" if viewport == PHONE else "desktop"
    page = browser.new_context(viewport=viewport).new_page()
    login(page, live_server.url, "player")
    page.goto(f"{live_server.url}/lists/new/?system=whfb6")
    page.get_by_label("Faction").select_option(label="Vellmark Freeholds (original sample army)")
    expect(page.get_by_role("spinbutton", name="Points limit")).to_have_value("2000")
    expect(page.get_by_label("Name")).to_have_value("")
    expect(page.get_by_text("Optional: left empty, the list is named after its faction.")).to_be_visible()
    page.get_by_role("button", name="Create the list").click()
    page.wait_for_url(re.compile(r"/lists/\d+/"))
    expect(page.get_by_role("heading", level=1)).to_have_text(
        "Vellmark Freeholds (original sample army), 2000 pts")
    click_received(page, page.locator('button.add-unit[data-unit="margrave"]'))
    expect(page.locator("#unit-rows .unit-row")).to_have_count(1)
    expect(page.locator("#list-summary")).not_to_contain_text("Lord")
    screenshot(page, f"first-whfb-list-lord-{where}", full_page=False)
