"""Installable and readable offline (`armybuilder.offline`), in Chromium on a phone.

A player opens their own list, its roster and its PDF while online; offline, the same
addresses open from the service worker's copy with a banner saying how old it is. Nothing
else is kept, a new release replaces the old copies, and the kill switch removes them.
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from tests.browser.artifacts import screenshot
from tests.browser.editor_helpers import DESKTOP, PHONE, editor_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def controlled(page: Page) -> None:
    """Wait until the service worker is active, then reload so that it controls the page."""
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    page.wait_for_function("navigator.serviceWorker.controller !== null")


def kept_paths(page: Page) -> list[str]:
    return page.evaluate("""async () => {
        const paths = [];
        for (const key of await caches.keys()) {
            for (const request of await (await caches.open(key)).keys()) {
                paths.push(new URL(request.url).pathname);
            }
        }
        return paths.sort();
    }""")


def test_a_saved_list_its_roster_and_pdf_open_offline_with_a_banner(live_server, browser, inline_pdf_renders):
    units = ("concord-wardens", "warden-captain")
    page, army_list = editor_page(live_server, browser, viewport=PHONE, units=units)
    base = live_server.url
    manifest = page.request.get(f"{base}/manifest.webmanifest").json()
    assert manifest["display"] == "standalone" and {icon["sizes"] for icon in manifest["icons"]} == {
        "192x192", "512x512"}
    controlled(page)
    page.goto(f"{base}/lists/{army_list.pk}/roster/")
    pdf_path = reverse("lists:roster_pdf", args=[army_list.pk])
    assert page.evaluate(f"fetch('{pdf_path}').then(r => r.headers.get('Content-Type'))") == "application/pdf"
    page.goto(f"{base}/lists/gallery/")  # not the player's own list: never kept
    paths = kept_paths(page)
    assert {f"/lists/{army_list.pk}/", f"/lists/{army_list.pk}/roster/", pdf_path} <= set(paths)
    assert "/lists/gallery/" not in paths and not any(path.startswith("/accounts/") for path in paths)

    page.context.set_offline(True)
    page.goto(f"{base}/lists/{army_list.pk}/")
    expect(page.locator("#offline-banner")).to_be_visible()
    expect(page.locator("#offline-banner")).to_contain_text("Offline copy from")
    expect(page.locator("#unit-rows .unit-row")).to_have_count(2)
    screenshot(page, "offline-list-phone")
    page.goto(f"{base}/lists/{army_list.pk}/roster/")
    expect(page.locator(".unit-card")).to_have_count(2)
    expect(page.locator("#offline-banner")).to_be_visible()
    screenshot(page, "offline-roster-phone")
    status = page.evaluate(f"fetch('{pdf_path}').then(r => r.status + ' ' + r.headers.get('Content-Type'))")
    assert status == "200 application/pdf"
    with pytest.raises(Exception):  # noqa: B017 - a page never kept fails offline, as without the worker
        page.goto(f"{base}/lists/gallery/")
    page.context.set_offline(False)
    page.goto(f"{base}/lists/{army_list.pk}/")
    expect(page.locator("#offline-banner")).to_be_hidden()


def test_a_new_release_replaces_the_old_copies(live_server, browser, settings):
    settings.RELEASE = "release-one"
    page, army_list = editor_page(live_server, browser, viewport=PHONE, units=("concord-wardens",))
    controlled(page)
    assert page.evaluate("caches.keys()") == ["armybuilder-offline-release-one"]
    settings.RELEASE = "release-two"
    page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.update())")
    page.wait_for_function("caches.keys().then(keys => keys.length === 1 && keys[0].endsWith('release-two'))")
    page.reload()
    assert f"/lists/{army_list.pk}/" in kept_paths(page)


def test_the_kill_switch_unregisters_the_worker_and_deletes_its_copies(live_server, browser, settings):
    page, _army_list = editor_page(live_server, browser, viewport=PHONE, units=("concord-wardens",))
    controlled(page)
    assert kept_paths(page)
    settings.SERVICE_WORKER_ENABLED = False
    page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.update())")
    page.wait_for_function("navigator.serviceWorker.getRegistrations().then(all => all.length === 0)")
    page.wait_for_function("caches.keys().then(keys => keys.length === 0)")
    page.reload()
    expect(page.locator('meta[name="service-worker"]')).to_have_count(0)
    # The page before the reload may have asked to register again while the kill switch ran; a
    # worker so registered is the kill switch itself and unregisters once it activates: wait
    # for that state, do not read the count once (seen at 1 on a loaded machine).
    page.wait_for_function("navigator.serviceWorker.getRegistrations().then(all => all.length === 0)")
    page.wait_for_function("caches.keys().then(keys => keys.length === 0)")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_installed_app_opens_offline_on_its_start_page(live_server, browser, viewport):
    """Issue 43, item 2: the app's start page (the manifest's `start_url`, "My lists") is kept
    like the lists, so launching the installed app without a connection opens it, with the
    offline banner, and from it the kept list."""
    page, army_list = editor_page(live_server, browser, viewport=viewport, units=("concord-wardens",))
    base = live_server.url
    start = page.request.get(f"{base}/manifest.webmanifest").json()["start_url"]
    assert start == reverse("lists:mine")
    controlled(page)
    page.goto(f"{base}{start}")
    page.goto(f"{base}{start}?q=Ridge")  # a search is not the start page: never kept
    assert {start, f"/lists/{army_list.pk}/"} <= set(kept_paths(page))
    assert all(not path.startswith(f"{start}?") for path in kept_paths(page))

    page.goto(f"{base}{start}")
    page.context.set_offline(True)
    page.reload()
    expect(page.locator("h1")).to_have_text("My lists")
    expect(page.locator("#offline-banner")).to_contain_text("Offline copy from")
    screenshot(page, f"offline-start-page-{'phone' if viewport == PHONE else 'desktop'}")
    page.get_by_role("link", name=army_list.name, exact=True).click()
    expect(page.locator("#unit-rows .unit-row")).to_have_count(1)
    expect(page.locator("#offline-banner")).to_be_visible()
