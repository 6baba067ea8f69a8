"""Real Chromium for the browser tests: Debian's /usr/bin/chromium driven by Playwright.

Playwright's sync API runs an event loop in the test thread, which Django's async-safety
check would otherwise refuse for ORM calls made by the test itself.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

from playwright.sync_api import Browser, Page, expect, sync_playwright

#: How long an `expect(...)` waits for the state it asks for. Playwright's 5 s default is a
#: wall-clock bound in disguise: on CI's loaded 2-core machine (xdist, a Celery worker and the
#: gauntlet's matchups all busy) an editor click was once answered after more than 5 s and the
#: row count was read as a failure (whfb6 in `test_systems_browser`). A passing expectation
#: returns as soon as its state holds, so the longer bound costs nothing but a failing test's
#: time; it still ends a wait for a state that never comes.
STATE_WAIT_MS = 30_000
expect.set_options(timeout=STATE_WAIT_MS)

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


@pytest.fixture(scope="package")
def shared_chromium() -> Iterator[Browser]:
    """One Chromium for the browser tests: launching it took 2-3 s on the loaded CI machine,
    once per test. Tests get their isolation from contexts (`browser` closes each test's).

    Package scope, not session: while Playwright's sync API is open, its event loop counts as
    running in the main thread, which later non-browser tests (`async_to_sync`, Django's
    async-safety check) must not see; it closes after the last test of `tests/browser/`."""
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture(autouse=True)
def empty_job_cache() -> None:
    """Start each browser test with no gauntlet figures in the Redis job cache: they are cached
    by content, not by database id, so a gauntlet measured by an earlier test of the same
    process (with the same catalogue units) showed its figures, and their `<summary>`, in a
    later test's unit rows. Which tests come earlier depends on how xdist hands out files."""
    from django.core.cache import caches

    caches["jobs"].clear()


@pytest.fixture
def browser(shared_chromium: Browser) -> Iterator[Browser]:
    """The run's Chromium; every context the test opens (its cookies, storage, pages) is
    closed after it, so the next test starts as in a fresh browser."""
    before = set(shared_chromium.contexts)
    yield shared_chromium
    for context in shared_chromium.contexts:
        if context not in before:
            context.close()


@pytest.fixture
def page(browser: Browser) -> Page:
    return browser.new_context(viewport={"width": 1280, "height": 900}).new_page()


#: The other database sessions of the test database that may hold locks: a request the live
#: server is still answering, or a job a worker is still running, when the test ends.
BUSY_SESSIONS = """
    SELECT count(*) FROM pg_stat_activity
    WHERE datname = current_database() AND pid <> pg_backend_pid()
      AND state IN ('active', 'idle in transaction')
"""


@pytest.fixture(autouse=True)
def quiet_database_before_the_flush(request: pytest.FixtureRequest) -> Iterator[None]:
    """After a live-server test, wait until no other session of the test database is busy before
    pytest-django flushes it.

    The test's browser contexts are closed first (`browser` is torn down before this fixture),
    but the live server may still be answering a request they sent, inside a transaction that
    locks a row (the gauntlet's job lock). The flush's TRUNCATE then waited for that row's table
    while the request waited for the TRUNCATE: Postgres broke the deadlock by failing the flush,
    an error at the test's teardown (seen once in the whole suite on the 2-core machine). Set up
    after pytest-django's live-server helper (which sets up the transactional database), this is
    torn down before the flush. It waits for the state, up to the suite's state wait."""
    yield
    if "live_server" not in request.fixturenames:
        return
    import time

    from django.db import connection

    deadline = time.monotonic() + STATE_WAIT_MS / 1000
    while time.monotonic() < deadline:
        with connection.cursor() as cursor:
            cursor.execute(BUSY_SESSIONS)
            if cursor.fetchone()[0] == 0:
                return
        time.sleep(0.05)
