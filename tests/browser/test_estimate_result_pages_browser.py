"""A large list-vs-list result in Chromium: the heat maps draw a page of rows with a way to the
next page; totals count every row; the page fits a phone. Screenshots in
`artifacts/screenshots/`."""

from __future__ import annotations

import pytest
from django.test import Client
from playwright.sync_api import expect

from tests.armybuilder.estimates.test_estimate_result_pages import result
from tests.browser.artifacts import screenshot
from tests.browser.editor_helpers import PHONE
from tests.factories.estimate_rows import stored_estimate

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1280, "height": 900}


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_30_by_30_result_is_read_a_page_of_rows_at_a_time(live_server, browser, viewport):
    from armybuilder.estimates.models import Estimate
    from armybuilder.estimates.result_pages import PAGE_CELLS
    from tests.factories.army_lists import make_user

    owner = make_user("reader")
    estimate = stored_estimate(kind=Estimate.Kind.LIST_VS_LIST, system="opr", owner=owner, inputs={},
                               inputs_hash="thirty", status=Estimate.Status.DONE, progress=1.0,
                               result=result(30, 30))
    client = Client()
    client.force_login(owner)
    context = browser.new_context(viewport=viewport)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                          "url": live_server.url}])
    page = context.new_page()
    page.goto(f"{live_server.url}/estimates/{estimate.pk}/")
    per_page = PAGE_CELLS // 30
    nav = page.locator("nav.matrix-pages")
    expect(nav).to_contain_text(f"Rows 1–{per_page} of 30")
    first_matrix = page.locator(".matrix").first
    expect(first_matrix.locator("tbody tr")).to_have_count(per_page)
    expect(first_matrix.locator("tbody tr").first.locator("th")).to_have_text("A0")
    screenshot(page, f"estimate-result-pages-{'phone' if viewport == PHONE else 'desktop'}")
    nav.get_by_role("link", name="Next rows").click()
    expect(page.locator("nav.matrix-pages")).to_contain_text(f"Rows {per_page + 1}–30 of 30")
    expect(page.locator(".matrix").first.locator("tbody tr").first.locator("th")).to_have_text(f"A{per_page}")
    # the totals row counts all 30 rows on every page: column B0 of list A attacking is 0+1+…+29
    expect(page.locator(".matrix").first.locator("tfoot td").first).to_have_text("435.0")
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    context.close()
