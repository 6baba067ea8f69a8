"""Build before signing up, in Chromium (issue 30, item 10): a visitor builds a list without
an account, kept in the browser for weeks, and keeps it on signing up."""

from __future__ import annotations

import re
import time

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from tests.browser.artifacts import screenshot
from tests.browser.editor_helpers import DESKTOP, PASSWORD, PHONE, add_unit

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_visitor_builds_a_list_then_signs_up_and_keeps_it(live_server, browser, viewport):
    from armybuilder.models import ArmyList

    call_command("load_catalogue", verbosity=0)
    where = "phone" if viewport == PHONE else "desktop"
    page = browser.new_context(viewport=viewport).new_page()
    page.goto(f"{live_server.url}/")
    page.get_by_role("link", name="Build a list").click()
    page.wait_for_url(re.compile(r"/lists/new/"))
    expect(page.locator("#visitor-note")).to_contain_text("No account needed")
    page.get_by_label("Name").fill("Skirmish at the ford")
    page.get_by_role("button", name="Create the list").click()
    page.wait_for_url(re.compile(r"/lists/\d+/$"))
    add_unit(page, "concord-wardens")
    expect(page.locator(".nav-user")).to_have_text("Guest")
    screenshot(page, f"guest-editor-{where}", full_page=False)
    # Reloading keeps it: it lives in the session.
    page.reload()
    expect(page.locator("#unit-rows .unit-row")).to_have_count(1)
    page.get_by_role("link", name="Sign up to keep your lists").click()
    page.locator("#id_username").fill("ford-captain")
    page.locator("#id_email").fill("ford@example.com")
    page.locator("#id_password1").fill(PASSWORD)
    page.locator("#id_password2").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    page.wait_for_url(re.compile(r"/lists/\d+/$"))
    expect(page.locator(".nav-user")).to_have_text("ford-captain")
    expect(page.locator("#unit-rows .unit-row")).to_have_count(1)
    expect(page.get_by_role("heading", name="Skirmish at the ford", level=1)).to_be_visible()
    assert ArmyList.objects.get(name="Skirmish at the ford").owner.username == "ford-captain"
    screenshot(page, f"guest-signed-up-{where}", full_page=False)


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_guests_list_survives_the_browser_session(live_server, browser, viewport):
    """Issue 43, item 3: a guest's list is still there when the browser reopens (a new context
    given only the cookies a browser keeps across a restart: those with an expiry date); the
    editor says until when and offers to sign up; another browser is told why it can't open it."""
    call_command("load_catalogue", verbosity=0)
    where = "phone" if viewport == PHONE else "desktop"
    first = browser.new_context(viewport=viewport)
    page = first.new_page()
    page.goto(f"{live_server.url}/lists/new/")
    expect(page.locator("#visitor-note")).to_contain_text("kept in this browser for 28 days")
    page.get_by_label("Name").fill("Weekend muster")
    page.get_by_role("button", name="Create the list").click()
    page.wait_for_url(re.compile(r"/lists/\d+/$"))
    add_unit(page, "concord-wardens")
    address = page.url
    note = page.locator("#guest-note")
    expect(note).to_contain_text("Built without an account: this list is kept in this browser until")
    expect(note.get_by_role("link", name="Sign up to keep it everywhere")).to_be_visible()
    screenshot(page, f"guest-kept-editor-{where}", full_page=False)

    # What survives closing the browser: cookies with an expiry date; session cookies go.
    state = first.storage_state()
    kept = [cookie for cookie in state["cookies"] if cookie["expires"] > 0]
    assert {cookie["name"] for cookie in kept} >= {"sessionid"}
    session = next(cookie for cookie in kept if cookie["name"] == "sessionid")
    assert session["expires"] - time.time() > 27 * 86400 and session["httpOnly"]
    first.close()
    reopened = browser.new_context(viewport=viewport, storage_state={"cookies": kept, "origins": []})
    page = reopened.new_page()
    page.goto(address)
    expect(page.get_by_role("heading", name="Weekend muster", level=1)).to_be_visible()
    expect(page.locator("#unit-rows .unit-row")).to_have_count(1)
    expect(page.locator(".nav-user")).to_have_text("Guest")

    # Another browser (or this one after four weeks) gets a page that explains, not a bare 404.
    stranger = browser.new_context(viewport=viewport).new_page()
    response = stranger.goto(address)
    assert response is not None and response.status == 404
    expect(stranger.get_by_role("heading", level=1)).to_have_text("This list cannot be opened here")
    expect(stranger.locator("#list-missing")).to_contain_text("kept only in the browser it was built in")
    expect(stranger.locator("#list-missing").get_by_role("link", name="Log in")).to_be_visible()
    screenshot(stranger, f"guest-list-elsewhere-{where}", full_page=False)
