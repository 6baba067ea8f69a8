"""What a player waits for after an edit: click → gauntlet panel current, in Chromium (issue 42).

    ./.venv/bin/python -m armybuilder.launcher exec python bench/bench_gauntlet_click.py \
        [--clicks 12] [--units 20]

The page's own way, end to end: gunicorn and the Celery workers as docker-compose starts them
(`bench_load.stack`: 3 gthread web workers, an estimates worker with 2 processes, the PDF and
control workers), a 20-unit OPR list whose gauntlet is three other 20-unit lists (4,800
matchups both ways in both modes), opened in Chromium (Debian's, driven by Playwright) as its
owner. Once the panel is ready, each click takes an upgrade of another unit (a checkbox in its
options, never taken before, so its matchups are new to the cache): the editor POSTs the
change, swaps the totals in, asks the panel again after its debounce and the panel polls while
the worker computes. The time is from the click until the panel in the page is one rendered
after the click and says "ready" (every figure current); the clicks wait for each other.

Prints each click's seconds, p50 / p95 against the target (p95 ≤ 1 s) and the load average
before and after; exit status 0 when the target is met. Creates its own database (dropped at
the end) and stops every process it started.
"""

from __future__ import annotations

import argparse
import os
import secrets
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
# The page's scripts (htmx, the editor's and the panel's) from the static folders, as
# `bench_builder` serves them: without collectstatic, gunicorn finds them there.
os.environ["WHITENOISE_USE_FINDERS"] = "true"
# Playwright's sync API runs an event loop in this thread; the bench reads the job rows between
# clicks (plain synchronous queries, no loop of Django's own), which Django would refuse there.
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

import _django
import bench_load  # sets the environment up, and Django with it
from django.utils import timezone

TARGET_P95_S = 1.0
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
#: The panel's first full computation (4,800 matchups on the workers) may take a while here.
FIRST_READY_MS = 900_000
CLICK_READY_MS = 120_000


def build(units: int) -> tuple[object, object]:
    """The owner, the list and its three opponent lists (OPR, the catalogue's units in turn)."""
    from django.contrib.auth.models import User

    from armybuilder.lists import services
    from armybuilder.models import ArmyList
    from rules.models import Faction

    faction = (Faction.objects.filter(system__key="opr", owner__isnull=True)
               .prefetch_related("units__options").order_by("pk").first())
    templates = list(faction.units.all())
    # Units with an upgrade taken by a checkbox (an option of at most one) first: the clicks take those.
    templates.sort(key=lambda t: not any(o.max_count == 1 for o in t.options.all()))
    owner = User.objects.create_user("gauntlet", password=secrets.token_urlsafe(12))

    def make(name: str, offset: int) -> ArmyList:
        army_list = services.army_list_create(owner=owner, system=faction.system, faction=faction, name=name,
                                              points_limit=100000)
        for number in range(units):
            template = templates[(offset + number) % len(templates)]
            services.army_list_add_unit(army_list=army_list, unit=template,
                                        expected_version=army_list.version)
        return army_list

    opponents = [make(f"Opponent {i}", 3 + 5 * i) for i in range(3)]
    own = make("Mine", 0)
    gauntlet = {"reference": False, "lists": [opponent.pk for opponent in opponents]}
    ArmyList.objects.filter(pk=own.pk).update(gauntlet=gauntlet)
    return owner, own


def session_cookie(owner: object) -> tuple[str, str]:
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(owner)
    return settings.SESSION_COOKIE_NAME, client.cookies[settings.SESSION_COOKIE_NAME].value


PANEL_CURRENT = """() => {
  const panel = document.getElementById("gauntlet-panel");
  return panel && !panel.hasAttribute("data-bench-before") && panel.getAttribute("data-state") === "ready";
}"""


def click_next(page: object, taken: set[str]) -> bool:
    """Take an upgrade not taken yet (a checkbox of a unit's options); False when none is left."""
    boxes = page.locator('#unit-rows form[hx-post] input[type="checkbox"]:not([disabled])')
    for index in range(boxes.count()):
        box = boxes.nth(index)
        ident = box.get_attribute("id") or ""
        if ident in taken or box.is_checked():
            continue
        taken.add(ident)
        details = box.locator("xpath=ancestor::details[1]")
        if details.get_attribute("open") is None:
            details.locator("summary").first.click()
        page.evaluate('document.getElementById("gauntlet-panel").setAttribute("data-bench-before", "")')
        started = time.monotonic()
        clicked = timezone.now()
        RESPONSES.clear()
        box.check()
        page.wait_for_function(PANEL_CURRENT, timeout=CLICK_READY_MS, polling="raf")
        page.evaluate("0")  # the wait's own round trip is in the figure either way
        CLICKS.append(time.monotonic() - started)
        STEPS.append(steps(started) + "; " + jobs_since(clicked))
        return True
    return False


CLICKS: list[float] = []
#: Each response the page received during the current click: (time, method, path).
RESPONSES: list[tuple[float, str, str]] = []
#: Per click, where its time went (`steps`).
STEPS: list[str] = []


def jobs_since(clicked: object) -> str:
    """The gauntlet jobs (and parts) the click queued: when each was queued (its row written by
    the panel's request), started and finished on the worker, in seconds after the click."""
    from django.db import connection

    from armybuilder.models import BackgroundJob

    rows = list(BackgroundJob.objects.filter(kind__startswith="gauntlet", created__gte=clicked)
                .order_by("created"))
    # Closed at once: it was opened in Playwright's context, where the end of the run does not
    # see it, and an open connection keeps the database from being dropped.
    connection.close()
    def after(moment: object) -> str:
        return f"{(moment - clicked).total_seconds():.2f}"

    return "jobs: " + ", ".join(
        f"{row.kind} queued {after(row.created)}, ran {after(row.started)}–{after(row.finished)} s "
        f"{row.result or ''}"
        if row.started and row.finished
        else f"{row.kind} {row.state}" for row in rows)


def steps(started: float) -> str:
    """Where a click's time went: when the editor's POST was answered, when the panel was
    first asked, and how many polls it took until the last answer (seconds after the click)."""
    posts = [at - started for at, method, path in RESPONSES if method == "POST"]
    panel = [at - started for at, method, path in RESPONSES if method == "GET" and "/gauntlet/" in path]
    if not posts or not panel:
        return "no POST or panel request seen"
    return (f"POST answered {posts[0]:.2f} s, panel asked {len(panel)} times, first answered "
            f"{panel[0]:.2f} s, last {panel[-1]:.2f} s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clicks", type=int, default=12)
    parser.add_argument("--units", type=int, default=20)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with _django.database(instrumented=True):
        owner, own = build(args.units)
        cookie_name, cookie_value = session_cookie(owner)
        with bench_load.running_redis() as redis_server, bench_load.stack(redis_server.url(0)) as url, \
                sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                context = browser.new_context(viewport={"width": 1280, "height": 900})
                context.add_cookies([{"name": cookie_name, "value": cookie_value, "url": url}])
                page = context.new_page()
                page.on("response", lambda response: RESPONSES.append(
                    (time.monotonic(), response.request.method, response.url.split("?")[0])))
                started = time.monotonic()
                page.goto(f"{url}/lists/{own.pk}/")
                ready = '() => document.querySelector("#gauntlet-panel[data-state=ready]")'
                page.wait_for_function(ready, timeout=FIRST_READY_MS)
                print(f"first full gauntlet ready after {time.monotonic() - started:.1f} s "
                      f"({args.units} units × 3 lists of {args.units}, both ways, both modes)")
                load_before = os.getloadavg()
                taken: set[str] = set()
                while len(CLICKS) < args.clicks and click_next(page, taken):
                    print(f"  click {len(CLICKS):2}: {CLICKS[-1]:.2f} s ({STEPS[-1]})")
                load_after = os.getloadavg()
            finally:
                browser.close()
    if len(CLICKS) < 2:
        raise SystemExit("fewer than two clicks measured: no upgrades to take")
    ordered = sorted(CLICKS)
    p50 = statistics.median(ordered)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    met = p95 <= TARGET_P95_S
    print(f"click → panel current, {len(CLICKS)} clicks: p50 {p50:.2f} s, p95 {p95:.2f} s, "
          f"target p95 ≤ {TARGET_P95_S:.1f} s {'met' if met else 'MISSED'}; "
          f"{os.cpu_count()} CPUs, load average {load_before[0]:.2f} -> {load_after[0]:.2f}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
