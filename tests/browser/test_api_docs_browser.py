"""The API's documentation and the heat map under the strict policy: Swagger UI and
Redoc come from our own pinned static files, the Swagger page runs under the site's CSP, and
no page needs 'unsafe-inline' for styles."""

from __future__ import annotations

from urllib.parse import urlparse

import pytest
from playwright.sync_api import expect

from armybuilder.estimates.inputs import army_inputs, list_vs_list_inputs
from armybuilder.estimates.models import Estimate
from armybuilder.estimates.services import estimate_request
from armybuilder.estimates.tasks import run_estimate
from tests.browser.artifacts import screenshot
from tests.browser.test_csp_browser import watch
from tests.factories.estimate_lists import distinct_units

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg"
VIEWPORTS = (("desktop", {"width": 1280, "height": 900}), ("phone", {"width": 390, "height": 844}))


def test_swagger_ui_is_served_from_our_static_files_under_the_policy(live_server, browser) -> None:
    base = live_server.url
    for name, viewport in VIEWPORTS:
        page = browser.new_context(viewport=viewport).new_page()
        problems = watch(page)
        requested: list[str] = []
        page.on("request", lambda request, seen=requested: seen.append(request.url))

        response = page.goto(f"{base}/api/v1/docs/")
        policy = response.headers["content-security-policy"]
        expect(page.locator(".swagger-ui .info .title")).to_contain_text("Army Builder API", timeout=60_000)
        expect(page.locator(".opblock-tag-section").first).to_be_visible()
        screenshot(page, f"api-docs-swagger-{name}", full_page=False)

        assert "style-src 'self'" in policy and "unsafe-inline" not in policy
        assert "script-src 'self'" in policy
        assert {urlparse(url).netloc for url in requested} == {urlparse(base).netloc}
        assert any("/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in url
                   for url in requested)
        assert not problems, problems


def test_redoc_is_served_from_our_static_files(live_server, browser) -> None:
    base = live_server.url
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    problems = watch(page)
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))

    page.goto(f"{base}/api/v1/docs/redoc/")
    expect(page.locator("h1").first).to_contain_text("Army Builder API", timeout=60_000)
    screenshot(page, "api-docs-redoc-desktop", full_page=False)

    # Everything from our origin, except Redoc's footer logo, which it links from its CDN: the
    # policy blocks that one image (reported as a violation), and nothing else is refused.
    ours = urlparse(base).netloc
    elsewhere = [url for url in requested if url.startswith("http") and urlparse(url).netloc != ours]
    assert set(elsewhere) <= {LOGO}
    assert all(LOGO in problem for problem in problems), problems


def test_the_heat_map_is_coloured_by_classes_under_a_policy_without_inline_styles(live_server,
                                                                                 browser) -> None:
    units_a, units_b = distinct_units("Mine", 3), distinct_units("Theirs", 2)
    system, inputs = list_vs_list_inputs(
        system_key="opr", situation={"mode": "melee", "charging": True},
        list_a=army_inputs(name="Mine", units=[(u["name"], u) for u in units_a]),
        list_b=army_inputs(name="Theirs", units=[(u["name"], u) for u in units_b]))
    estimate = estimate_request(kind=Estimate.Kind.LIST_VS_LIST, system=system, inputs=inputs)
    assert run_estimate(str(estimate.pk)) == "done"
    for name, viewport in VIEWPORTS:
        page = browser.new_context(viewport=viewport).new_page()
        problems = watch(page)
        response = page.goto(f"{live_server.url}/estimates/{estimate.pk}/")

        top = page.locator("td.heat.top").first
        expect(top).to_be_visible()
        screenshot(page, f"estimate-heatmap-classes-{name}")

        assert "unsafe-inline" not in response.headers["content-security-policy"]
        assert top.evaluate("cell => getComputedStyle(cell).backgroundColor") == "rgb(74, 222, 128)"
        assert page.locator("td.heat[style]").count() == 0
        assert not problems, problems
