"""The odds of the play page in real Chromium, on a 1366×900 desktop and a 390×844 phone
(issue 44): odds asked with no connection are said to wait, kept over a reload and asked once
the browser is online again; odds worked out on the worker show a pending state that turns
into the figures by itself (no link to follow)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from armybuilder.games.models import Game
from tests.browser.artifacts import screenshot
from tests.browser.editor_helpers import htmx_idle, login
from tests.browser.test_play_browser import example_links, start_game  # noqa: F401 (a fixture)
from tests.factories.army_lists import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

VIEWPORTS = {"desktop": {"width": 1366, "height": 900}, "phone": {"width": 390, "height": 844}}


@pytest.mark.parametrize("screen", list(VIEWPORTS))
def test_odds_asked_offline_wait_over_a_reload_and_are_asked_back_online(
    live_server, browser: Browser, example_links, screen  # noqa: F811
):
    make_user("player")
    page = browser.new_context(viewport=VIEWPORTS[screen]).new_page()
    login(page, live_server.url, "player")
    game = start_game(page, live_server.url, example_links["opr"])
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    offline_line = page.locator(".odds-offline")
    expect(offline_line).to_be_hidden()

    page.context.set_offline(True)
    page.evaluate("window.dispatchEvent(new Event('offline'))")
    expect(offline_line).to_be_visible()
    expect(offline_line).to_have_text(
        "Offline: the odds need a connection. Ask now and they are worked out when you are back online."
    )
    page.get_by_role("button", name="Show the odds").click()
    queued = page.locator("#odds-result .odds-queued")
    expect(queued).to_have_text(
        "Waiting for a connection: these odds are asked as soon as you are back online."
    )
    page.reload()  # the kept page, still offline: the odds still wait
    expect(page.locator("#odds-result .odds-queued")).to_be_visible()
    expect(page.locator(".odds-offline")).to_be_visible()
    page.locator(".game-odds").scroll_into_view_if_needed()
    screenshot(page, f"play-odds-offline-{screen}", full_page=False)
    game.refresh_from_db()
    assert [a for a in game.actions if a["op"] == "odds"] == []

    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    directions = page.locator("#odds-result .odds-direction")
    expect(directions).to_have_count(2)
    expect(directions.first).to_have_attribute("data-status", "done")
    expect(page.locator(".odds-offline")).to_be_hidden()
    expect(page.locator("#odds-result .odds-queued")).to_have_count(0)
    assert page.evaluate(f"() => localStorage.getItem('game:{game.pk}:odds')") is None
    game.refresh_from_db()
    assert [a["op"] for a in game.actions] == ["odds"]
    page.locator("#odds-result").scroll_into_view_if_needed()
    screenshot(page, f"play-odds-back-online-{screen}", full_page=False)


@pytest.mark.worker
@pytest.mark.parametrize("screen", list(VIEWPORTS))
def test_odds_worked_out_on_the_worker_show_a_pending_state_that_updates_itself(
    live_server, browser: Browser, example_links, celery_worker_process, settings, screen  # noqa: F811
):
    settings.GAME_ODDS_INLINE_SECONDS = 0.0  # every fight goes to the worker
    make_user("player")
    page = browser.new_context(viewport=VIEWPORTS[screen]).new_page()
    login(page, live_server.url, "player")
    start_game(page, live_server.url, example_links["opr"])
    page.get_by_role("button", name="Show the odds").click()
    htmx_idle(page)
    directions = page.locator("#odds-result .odds-direction")
    expect(directions).to_have_count(2)
    pending = page.locator("#odds-result .odds-pending")
    if pending.count():  # the worker may already be done by the first poll
        expect(pending.first).to_contain_text("worker")  # waiting for one, or being worked out
        page.locator("#odds-result").scroll_into_view_if_needed()
        screenshot(page, f"play-odds-pending-{screen}", full_page=False)
    assert page.locator("#odds-result a").count() == 0  # a pending state, not a link to follow
    for i in range(2):
        expect(directions.nth(i)).to_have_attribute("data-status", "done", timeout=60_000)
        expect(directions.nth(i).locator("[data-figure='expected_kills']")).to_be_visible()
    expect(pending).to_have_count(0)
    game = Game.objects.get()
    assert all(f["estimate"] for f in game.actions[-1]["figures"])
    page.locator("#odds-result").scroll_into_view_if_needed()
    screenshot(page, f"play-odds-from-the-worker-{screen}", full_page=False)
