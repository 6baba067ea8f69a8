"""The estimate page's progress and list-vs-list heat maps in Chromium (issue 15, defects 4 and 5).

The jobs are real: inputs built from saved lists, the result computed by the task itself
(called in-process, the way the worker calls it), the states the worker writes set on the row.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.browser.artifacts import screenshot
from tests.browser.editor_helpers import DESKTOP, PHONE, editor_page
from tests.factories.estimate_rows import estimate_set, stored_estimate

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIX = (
    "concord-wardens",
    "ashguard-veterans",
    "warden-captain",
    "magma-mortar-team",
    "pyre-walker",
    "ember-hawk",
)


def list_vs_list_job(army_list, other):
    from armybuilder.estimates import sources
    from armybuilder.estimates.inputs import army_inputs, list_vs_list_inputs
    from armybuilder.estimates.models import Estimate
    from armybuilder.estimates.services import estimate_inputs_hash

    a = sources.list_source(user=army_list.owner, list_id=army_list.pk)
    b = sources.list_source(user=other.owner, list_id=other.pk)
    system, inputs = list_vs_list_inputs(
        system_key="opr",
        list_a=army_inputs(name=a.name, units=a.units),
        list_b=army_inputs(name=b.name, units=b.units),
        situation=None,
    )
    kind = Estimate.Kind.LIST_VS_LIST
    return stored_estimate(
        kind=kind,
        system=system,
        inputs=inputs,
        inputs_hash=estimate_inputs_hash(kind=kind, system=system, inputs=inputs),
        owner=army_list.owner,
    )


def test_progress_is_honest_then_counts_matchups(live_server, browser):
    from armybuilder.estimates.models import Estimate
    from armybuilder.lists import services

    page, army_list = editor_page(live_server, browser, units=SIX[:3])
    other = services.army_list_fork(army_list=army_list, user=army_list.owner)
    job = list_vs_list_job(army_list, other)
    page.goto(f"{live_server.url}/estimates/{job.pk}/")
    # Queued: no fake 0 %, an indeterminate bar and how long it has waited.
    bar = page.locator("#estimate-progress-bar")
    expect(bar).not_to_have_attribute("value", re.compile(".*"))
    expect(page.locator(".progress-figure")).to_contain_text(re.compile(r"Waiting for \d+ s"))
    screenshot(page, "estimate-progress-queued", full_page=False)
    # Running, 7 of the 18 matchups done (3 × 3, both ways): the bar and the count say so.
    estimate_set(job.pk, status=Estimate.Status.RUNNING, started=timezone.now() - timedelta(seconds=5),
                 progress=7 / 18)
    expect(page.locator(".progress-figure")).to_contain_text("7 of 18 matchups")
    expect(bar).to_have_attribute("value", "7")
    expect(bar).to_have_attribute("max", "18")
    expect(page.locator(".progress-figure")).to_contain_text(re.compile(r"\d+ s"))
    screenshot(page, "estimate-progress-running", full_page=False)


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_list_heat_maps_fit_and_have_their_own_titles(live_server, browser, viewport):
    from armybuilder.estimates.tasks import run_estimate
    from armybuilder.lists import services

    page, army_list = editor_page(live_server, browser, units=SIX, viewport=viewport, points_limit=2000)
    other = services.army_list_fork(army_list=army_list, user=army_list.owner)
    job = list_vs_list_job(army_list, other)
    assert run_estimate(str(job.pk)) == "done"
    page.goto(f"{live_server.url}/estimates/{job.pk}/")
    titles = page.locator(".matrix h3").all_inner_texts()
    assert len(titles) == 2 and titles[0] != titles[1]
    # Nothing is cut off: every heat map is whole on the page or scrolls in its own box.
    for region in page.locator(".matrix .table-scroll").all():
        box = region.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
        table = region.locator("table").bounding_box()
        scrollable = region.evaluate("e => e.scrollWidth > e.clientWidth")
        assert table["width"] <= box["width"] + 1 or scrollable
        last = region.locator("tbody tr").first.locator("td").last
        last.scroll_into_view_if_needed()
        cell = last.bounding_box()
        assert cell["x"] + cell["width"] <= viewport["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    screenshot(page, f"estimate-matrix-{'phone' if viewport is PHONE else 'desktop'}")
