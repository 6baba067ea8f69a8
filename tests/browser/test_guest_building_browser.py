"""Build before signing up, in Chromium (issue 30, item 10): a visitor builds a list without
an account, kept in the browser session, and keeps it on signing up."""

from __future__ import annotations

import re

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
