"""Lists leave the browser, in Chromium (desktop and phone): "Lock and share" makes a locked
version whose page shows its time and fingerprint and survives an edit of the list; the
share link's page carries the card in its preview meta; "Download image" gives the card."""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image
from playwright.sync_api import expect

from tests.browser.artifacts import screenshot
from tests.browser.editor_helpers import PHONE, add_unit, editor_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("viewport", [None, PHONE], ids=["desktop", "phone"])
def test_lock_and_share_then_edit_the_list(live_server, browser, viewport):
    page, army_list = editor_page(live_server, browser, viewport=viewport, units=("concord-wardens",))
    base = live_server.url
    page.get_by_role("button", name="Lock and share").click()
    page.wait_for_load_state("load")
    history = page.locator(".list-locks li")
    expect(history).to_have_count(1)
    fingerprint = history.locator("code").inner_text()
    assert re.fullmatch(r"[0-9A-F]{4}(-[0-9A-F]{4}){3}", fingerprint)
    locked_url = history.locator("a").get_attribute("href")
    # Issue 43, item 11: the link to send comes back at once, ready to copy.
    link = page.locator("#lock-url")
    expect(link).to_be_visible()
    expect(link).to_have_value(base + locked_url)
    expect(page.locator("#lock-link")).to_contain_text("Send this link to your opponent")
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
    page.get_by_role("button", name="Copy the link").click()
    expect(page.locator("#lock-link .copy-status")).to_have_text("Copied.")
    assert page.evaluate("navigator.clipboard.readText()") == base + locked_url
    screenshot(page, "share-lock-history" + ("-phone" if viewport else ""), full_page=False)

    add_unit(page, "warden-captain")  # the list changes; the locked version must not
    page.goto(base + locked_url)
    expect(page.locator(".list-lock")).to_contain_text(fingerprint)
    expect(page.locator("#unit-rows .unit-row")).to_have_count(1)
    image = page.locator('meta[property="og:image"]').get_attribute("content")
    assert image.endswith("/card.png")
    card = page.request.get(image)
    assert card.status == 200 and card.headers["content-type"] == "image/png"
    assert Image.open(io.BytesIO(card.body())).size == (1200, 630)
    screenshot(page, "share-locked-page" + ("-phone" if viewport else ""))
    with page.expect_download() as download:
        page.get_by_role("link", name="Download image").click()
    assert download.value.suggested_filename.endswith(".png")
    assert army_list.pk
