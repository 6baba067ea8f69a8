"""Play mode on a 390×844 phone in real Chromium (issue 44, "Done when"): for each game system
a game of two lists is started from share links and a turn tapped through — a casualty, a state
marked, the phase where units fight, the odds of the fight with the survivors, a victory point,
an undo — and a reload shows the game as it was left."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from playwright.sync_api import Browser, Page, expect

from armybuilder.games.models import Game
from armybuilder.games.services import game_state
from armybuilder.lists.examples import EXAMPLES_USERNAME
from armybuilder.lists.sharing import army_list_share
from armybuilder.models import ArmyList
from rules.systems.registry import get_system
from tests.browser.artifacts import screenshot
from tests.browser.editor_helpers import htmx_idle, login
from tests.factories.army_lists import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SYSTEMS = ["opr", "whfb6", "wh40k9", "aos1", "ru_whfb"]
PHONE = {"width": 390, "height": 844}
#: Elements whose right edge is past the phone's screen (the row of phases scrolls on its own).
WIDER_THAN_THE_PHONE = """() => [...document.querySelectorAll('body *')]
    .filter(e => e.getBoundingClientRect().right > 391 && !e.closest('.game-phases'))
    .map(e => e.tagName + '.' + e.className).slice(0, 8)"""


@pytest.fixture
def example_links() -> dict[str, str]:
    call_command("load_catalogue", stdout=io.StringIO())
    call_command("load_example_lists", stdout=io.StringIO())
    return {
        a.system.key: f"/lists/shared/{army_list_share(army_list=a, expected_version=None)}/"
        for a in ArmyList.objects.filter(owner__username=EXAMPLES_USERNAME).select_related("system")
    }


def tap(page: Page, locator) -> None:
    locator.click()
    htmx_idle(page)


def start_game(page: Page, base: str, link: str) -> Game:
    page.goto(f"{base}/games/")
    page.get_by_label("or its share link").fill(base + link)
    page.get_by_label("Share link of the opponent's list").fill(base + link)
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#board")).to_be_visible()
    return Game.objects.get()


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_turn_is_tapped_through_on_a_phone_and_survives_a_reload(
    live_server, browser: Browser, example_links, system
):
    make_user("player")
    page = browser.new_context(viewport=PHONE).new_page()
    login(page, live_server.url, "player")
    game = start_game(page, live_server.url, example_links[system])
    play = get_system(system).play
    wide = page.evaluate(WIDER_THAN_THE_PHONE)
    assert wide == []

    units = game.armies[1]["units"]
    target = max(range(len(units)), key=lambda i: (sum(m["count"] for m in units[i]["unit"]["models"]), -i))
    enemy = page.locator(f'.game-unit[data-side="1"][data-unit="{target}"]')
    count = enemy.locator("[data-model='0'] .model-count")
    before = int(count.get_attribute("data-count"))
    tap(page, enemy.locator("[data-model='0'] [data-tap='lose']"))
    expect(count).to_have_attribute("data-count", str(before - 1))

    state = play.states[0]
    mine = page.locator('.game-unit[data-side="0"]').first
    tap(page, mine.locator(f"[data-tap='state-{state.key}']"))
    expect(mine.locator(f"[data-tap='state-{state.key}']")).to_have_attribute("aria-pressed", "true")
    if state.out_of_play or not state.can_attack:  # a mark that keeps it from fighting: take it off again
        tap(page, mine.locator(f"[data-tap='state-{state.key}']"))
        expect(mine.locator(f"[data-tap='state-{state.key}']")).to_have_attribute("aria-pressed", "false")

    melee = next(p for p in play.phases if "melee" in p.modes)
    tap(page, page.locator(f"[data-tap='phase-{melee.key}']"))
    expect(page.locator(f"[data-tap='phase-{melee.key}']")).to_have_attribute("aria-pressed", "true")

    vp = page.locator('.vp-side[data-side="0"]')
    tap(page, vp.locator("[data-tap='vp-up']"))
    tap(page, vp.locator("[data-tap='vp-up']"))
    expect(vp.locator(".vp")).to_have_text("2")
    tap(page, page.locator("[data-tap='undo']"))
    expect(vp.locator(".vp")).to_have_text("1")

    page.get_by_label("Enemy unit").select_option(str(target))
    if page.locator("input[type='radio'][name='mode'][value='melee']").count():
        page.locator("input[type='radio'][name='mode'][value='melee']").check()
    page.get_by_role("button", name="Show the odds").click()
    htmx_idle(page)
    directions = page.locator("#odds-result .odds-direction")
    expect(directions).to_have_count(2)
    expect(directions.first).to_have_attribute("data-status", "done")
    game.refresh_from_db()
    odds = game.actions[-1]
    assert odds["op"] == "odds" and odds["mode"] == "melee" and odds["defender"] == [1, target]
    survivors = game_state(game=game).units[1][target]
    assert survivors.lost[0] == 1
    page.locator("#odds-result").scroll_into_view_if_needed()
    screenshot(page, f"play-phone-{system}-odds", full_page=False)

    page.reload()
    expect(
        page.locator(f'.game-unit[data-side="1"][data-unit="{target}"] [data-model="0"] .model-count')
    ).to_have_attribute("data-count", str(before - 1))
    expect(page.locator('.vp-side[data-side="0"] .vp')).to_have_text("1")
    expect(page.locator(f"[data-tap='phase-{melee.key}']")).to_have_attribute("aria-pressed", "true")
    page.evaluate("() => window.scrollTo(0, 0)")
    screenshot(page, f"play-phone-{system}", full_page=False)


def test_the_board_on_a_desktop(live_server, browser: Browser, example_links):
    make_user("player")
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    login(page, live_server.url, "player")
    start_game(page, live_server.url, example_links["wh40k9"])
    armies = page.locator(".game-army")
    expect(armies).to_have_count(2)  # the board laid out (a box is None until it is)
    expect(armies.nth(0)).to_be_visible()
    expect(armies.nth(1)).to_be_visible()
    first, second = armies.nth(0).bounding_box(), armies.nth(1).bounding_box()
    assert first is not None and second is not None
    assert first["y"] == second["y"] and second["x"] > first["x"] + first["width"]  # side by side
    screenshot(page, "play-desktop-wh40k9")


@pytest.mark.parametrize("answer_lost", [False, True], ids=["answered", "answer-lost"])
def test_a_game_goes_on_offline_survives_a_reload_and_syncs_when_back_online(
    live_server, browser, example_links, answer_lost
):
    """Issue 44, item 4: taps made with no connection are kept in the browser, drawn on the
    board, still there after a reload (the service worker keeps the page), and sent to the
    account once the phone is online again. Once only: when the sync reached the server but
    its answer was lost (here the first sync is made on the server and failed in the browser,
    and the player reloads), the taps are found among the game's actions and not sent again
    (they were, and the game counted two victory points and two more models lost)."""
    make_user("player")
    page = browser.new_context(viewport=PHONE).new_page()
    login(page, live_server.url, "player")
    game = start_game(page, live_server.url, example_links["whfb6"])
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    units = game.armies[1]["units"]
    target = max(range(len(units)), key=lambda i: (sum(m["count"] for m in units[i]["unit"]["models"]), -i))
    enemy = f'.game-unit[data-side="1"][data-unit="{target}"]'
    count = page.locator(f'{enemy} [data-model="0"] .model-count')
    before = int(count.get_attribute("data-count"))
    tap(page, page.locator(f'{enemy} [data-model="0"] [data-tap="lose"]'))  # online
    expect(count).to_have_attribute("data-count", str(before - 1))
    tap(page, page.locator('[data-tap="phase-close_combat"]'))

    page.context.set_offline(True)
    page.locator(f'{enemy} [data-model="0"] [data-tap="lose"]').click()
    expect(count).to_have_attribute("data-count", str(before - 2))
    page.locator(f'{enemy} [data-tap="state-fleeing"]').click()
    expect(page.locator(f'{enemy} [data-tap="state-fleeing"]')).to_have_attribute("aria-pressed", "true")
    page.locator('.vp-side[data-side="1"] [data-tap="vp-up"]').click()
    page.locator('.vp-side[data-side="1"] [data-tap="vp-up"]').click()
    page.locator('[data-tap="undo"]').click()
    expect(page.locator('.vp-side[data-side="1"] .vp')).to_have_text("1")
    expect(page.locator(".game-offline")).to_contain_text("Taps waiting to be sent: 3.")
    game.refresh_from_db()
    assert game.version == 2  # nothing more reached the server
    expect(page.locator(".odds-offline")).to_be_visible()  # the odds section says it needs a connection

    page.reload()
    expect(page.locator(f'{enemy} [data-model="0"] .model-count')).to_have_attribute(
        "data-count", str(before - 2)
    )
    expect(page.locator(f'{enemy} [data-tap="state-fleeing"]')).to_have_attribute("aria-pressed", "true")
    expect(page.locator('.vp-side[data-side="1"] .vp')).to_have_text("1")
    screenshot(page, "play-phone-offline", full_page=False)

    page.get_by_label("Result").select_option("second")
    page.get_by_role("button", name="Finish the game").click()
    expect(page.locator("[data-finished-offline='second']")).to_contain_text(
        "The result is sent when you are back online."
    )

    if answer_lost:
        lost: list[str] = []

        def made_then_lost(route) -> None:
            if lost:
                route.continue_()
                return
            lost.append(route.request.url)
            route.fetch()  # the server takes the taps...
            route.abort()  # ...and the browser never hears of it

        page.route("**/sync", made_then_lost)
        with page.expect_event("requestfailed"):
            page.context.set_offline(False)
            page.evaluate("window.dispatchEvent(new Event('online'))")
        game.refresh_from_db()
        assert game.version == 5  # the taps are in; the page still holds them as waiting
        page.reload()
    else:
        page.context.set_offline(False)
        page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(page.locator(".game-offline")).to_be_hidden()
    expect(page.locator('#board[data-version="5"]')).to_be_attached()
    game.refresh_from_db()
    state = game_state(game=game)
    assert state.units[1][target].lost[0] == 2 and state.units[1][target].states == ["fleeing"]
    assert state.vp == [0, 1] and state.phase == "close_combat"
    assert game.result == "second" and game.finished is not None
    expect(page.locator(".game-result")).to_contain_text("Finished:")
    expect(page.locator(f'{enemy} [data-model="0"] .model-count')).to_have_attribute(
        "data-count", str(before - 2)
    )


@pytest.mark.parametrize("language", ["pl", "cs", "ru"])
def test_the_board_fits_a_phone_in_every_language(live_server, browser: Browser, example_links, language):
    """The longest words (Russian states, Czech phases) still fit 390 px; the page is in the
    reader's language."""
    from tests.browser.test_i18n_browser import signed_in_context

    page = signed_in_context(
        browser, live_server.url, make_user("player"), language, viewport=PHONE
    ).new_page()
    page.goto(f"{live_server.url}/games/")
    page.locator("#first-link").fill(live_server.url + example_links["wh40k9"])
    page.locator("#second-link").fill(live_server.url + example_links["wh40k9"])
    page.locator(".game-start button[type=submit]").click()
    expect(page.locator("#board")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(page.locator('[data-tap="phase-fight"]')).not_to_have_text("Fight")
    assert page.evaluate(WIDER_THAN_THE_PHONE) == []
    tap(page, page.locator('[data-tap="phase-fight"]'))
    page.locator(".odds-form button[type=submit]").click()
    htmx_idle(page)
    expect(page.locator("#odds-result .odds-direction")).to_have_count(2)
    assert page.evaluate(WIDER_THAN_THE_PHONE) == []
    screenshot(page, f"play-phone-{language}", full_page=False)
    page.locator("#odds-result").scroll_into_view_if_needed()
    screenshot(page, f"play-phone-{language}-odds", full_page=False)
