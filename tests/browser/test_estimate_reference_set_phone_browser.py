"""A list of the bundled Ashen Concord against the reference set, read in Russian on a 390×844
phone and a 1366×900 desktop, in Chromium: the matrices name the reference targets and the
list's units in the reader's language, the page does not scroll sideways (the matrices scroll
inside their cards), and no name in a row or column heading is cut in the middle of a word
(a column of "Бронированная элита" was narrower than its first word on a phone). Screenshots:
`artifacts/screenshots/estimate-reference-set-ru-<desktop|phone>.png`."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import translation
from playwright.sync_api import Browser, expect

from armybuilder.estimates.models import Estimate
from armybuilder.estimates.tasks import run_estimate
from rules.models import Faction, UnitTemplate
from rules.systems.registry import get_system
from tests.browser.artifacts import screenshot
from tests.factories.army_lists import make_user
from tests.factories.estimate_lists import army_list_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

VIEWPORTS = {"desktop": {"width": 1366, "height": 900}, "phone": {"width": 390, "height": 844}}

#: The words of each heading the text of which is cut between two lines inside a word (a break
#: at a space or after a hyphen is a line break, not a cut).
CUT_WORDS = """sel => {
  const cut = [];
  for (const cell of document.querySelectorAll(sel)) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const m of node.data.matchAll(/[^\\s-]+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
        if (lines.size > 1) cut.push(m[0]);
      }
    }
  }
  return cut;
}"""


def asked_and_done(player: Any, query: str, target: str) -> tuple[Client, str]:
    """A turn of shooting at 18" against `target` asked by `player` signed in (their client) and
    computed in-process, as the worker would: the page is what is tested; and its page's path."""
    client = Client()
    client.force_login(player)
    response = client.post(f"{reverse('estimates:new')}?{query}",
                           {"mode": "shooting", "range_inches": "18", "target": target})
    assert response.status_code == 302, response.content.decode()[:1000]
    estimate = Estimate.objects.get(pk=re.search(r"([0-9a-f-]{36})/$", response["Location"])[1])
    assert run_estimate(str(estimate.pk)) == "done"
    return client, response["Location"]


def test_a_list_against_the_reference_set_reads_whole_in_russian_on_a_phone(live_server, browser: Browser):
    call_command("load_catalogue", verbosity=0)
    faction = Faction.objects.get(slug="ashen-concord", owner=None)
    units = list(UnitTemplate.objects.filter(faction=faction).order_by("pk")[:6])
    player = make_user("chitatel")
    mine = army_list_of(player, [unit.data for unit in units], name="Пепельный отряд")
    client, location = asked_and_done(player, f"list={mine.pk}", "ref:*")
    with translation.override("ru"):
        targets = [translation.gettext(unit["name"]) for unit in get_system("opr").reference_targets.values()]
        rows = [faction.in_reader_language(unit.data["name"]) for unit in units]
    assert not set(targets) & {unit["name"] for unit in get_system("opr").reference_targets.values()}
    assert not set(rows) & {unit.data["name"] for unit in units}

    for shape, viewport in VIEWPORTS.items():
        context = browser.new_context(locale="ru-RU", viewport=viewport, is_mobile=shape == "phone")
        context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                              "url": live_server.url}])
        page = context.new_page()
        page.goto(f"{live_server.url}{location}")
        expect(page.locator("html")).to_have_attribute("lang", "ru")
        first = page.locator(".matrix").first
        columns = first.locator("thead th[scope=col]:not(.corner):not(.total)")
        expect(columns).to_have_count(len(targets))
        assert [" ".join(text.split()) for text in columns.all_inner_texts()] == targets
        row_names = first.locator("tbody th[scope=row]").all_inner_texts()
        assert [" ".join(text.split()) for text in row_names] == rows
        assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
        assert page.evaluate(CUT_WORDS, ".heatmap th") == [], shape
        screenshot(page, f"estimate-reference-set-ru-{shape}")
        context.close()
