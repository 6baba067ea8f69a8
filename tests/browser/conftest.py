"""Real Chromium for the browser tests: Debian's /usr/bin/chromium driven by Playwright.

Playwright's sync API runs an event loop in the test thread, which Django's async-safety
check would otherwise refuse for ORM calls made by the test itself.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

from playwright.sync_api import Browser, Page, sync_playwright

CHROMIUM = "/usr/bin/chromium"
#: Headless, no sandbox (root in CI), and none of Chromium's calls home, which this
#: machine's closed network would refuse many times a second.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def page(browser: Browser) -> Page:
    return browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
