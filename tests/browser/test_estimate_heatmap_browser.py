"""The list-vs-list heat map as a player reads it, in Chromium (issue 30, item 8): a compact
grid with one number per cell and a legend, row and column totals, a headline saying which
list comes out ahead and by how much, fitting a 1366 px screen; the form offers an opponent's
list first. The job is real: computed by the task in-process, as the worker runs it."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.artifacts import screenshot
from tests.browser.editor_helpers import PHONE, editor_page
from tests.browser.test_estimate_views_browser import list_vs_list_job
from tests.factories.army_lists import ASHEN_CONCORD_ELEVEN

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

EIGHT = ASHEN_CONCORD_ELEVEN[:8]
LAPTOP = {"width": 1366, "height": 768}


@pytest.mark.slow
@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop-1366", "phone"])
def test_an_eight_by_eight_heat_map_is_a_compact_grid_with_totals_and_a_verdict(
    live_server, browser, viewport
):
    from armybuilder.estimates.tasks import run_estimate
    from armybuilder.lists import services

    page, army_list = editor_page(live_server, browser, units=EIGHT, viewport=viewport, points_limit=3000)
    other = services.army_list_fork(army_list=army_list, user=army_list.owner)
    other.refresh_from_db()
    services.army_list_unit_remove(
        list_unit=other.units.order_by("position").first(), expected_version=other.version
    )
    # The form asks against an opponent's list by default, not the reference targets.
    page.goto(f"{live_server.url}/estimates/new/?list={army_list.pk}")
    expect(page.get_by_label("Opponent list").locator("option:checked")).to_have_attribute(
        "value", f"list:{other.pk}"
    )
    job = list_vs_list_job(army_list, other)
    assert run_estimate(str(job.pk)) == "done"
    page.goto(f"{live_server.url}/estimates/{job.pk}/")
    verdict = page.locator(".matrix-verdict")
    expect(verdict).to_have_text(re.compile(
        r"^List [AB] \(.+\) comes out ahead by \d+\.\d points destroyed per 100 points: its units "
        r"average \d+\.\d against \d+\.\d for List [AB] \(.+\)\.$"
    ))
    # Removing its first unit (the Wardens) changed list B: the two lists do not come out even.
    assert verdict.get_attribute("data-leader") in {"a", "b"}
    legend = page.locator(".heat-legend")
    expect(legend).to_contain_text("Each cell: expected points destroyed per 100 points")
    for matrix in page.locator(".matrix").all():
        # One number per cell (a ★ on the best), no second or third line.
        cells = matrix.locator("td.heat")
        expect(cells).to_have_count(8 * 7)
        for text in cells.all_inner_texts():
            assert re.fullmatch(r"(\d+\.\d|–)(★\s*\(best\))?", text.strip()), text
        assert matrix.locator("td.heat small, td.heat br").count() == 0
        # Totals: one per row, one per column and the grand total.
        expect(matrix.locator("tbody td.total")).to_have_count(8)
        expect(matrix.locator("tfoot td.total")).to_have_count(8)
    if viewport is LAPTOP:  # the grid fits a 1366 px laptop without scrolling sideways
        for region in page.locator(".matrix .table-scroll").all():
            assert not region.evaluate("e => e.scrollWidth > e.clientWidth")
        height = page.evaluate("document.documentElement.scrollHeight")
        assert height < 3000, height  # it was 7,493 px with three long labels in every cell
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    # A cell's details without a mouse pointer (issue 43, item 6): a tap or click, or the
    # keyboard's focus, writes them under the grid.
    grid = page.locator(".matrix").first
    detail = grid.locator(".heat-detail")
    expect(detail).to_have_text("Tap or focus a cell to read its details here.")
    tapped = grid.locator("td.heat").nth(1)
    tapped.click()
    expect(detail).to_have_text(re.compile(
        r"^.+ → .+: \d+\.\d\d models killed, \d+\.\d points destroyed, [<>]?\d+(\.\d)?% to destroy"))
    assert detail.inner_text() == tapped.get_attribute("data-detail")
    focused = grid.locator("td.heat").nth(2)
    focused.focus()
    expect(detail).to_have_text(focused.get_attribute("data-detail"))
    expect(focused).to_have_class(re.compile(r"\bis-shown\b"))
    screenshot(page, f"estimate-heatmap-8x8-{'phone' if viewport is PHONE else 'laptop'}")
