"""An estimate's per-weapon table in Polish, Czech and Russian, in real Chromium (issue 43, item 10).

The bundled Ashen Concord's Ashguard Veterans attack the infantry reference target; the job keeps
the engine's English names, and the result page shows each weapon and model in the reader's
language, whole on a 1366×900 desktop and on a 390×844 phone. Screenshots:
`artifacts/screenshots/estimate-weapons-<language>-<desktop|phone>.png`.
"""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from django.utils import translation
from playwright.sync_api import Browser, expect

from armybuilder.estimates.models import Estimate
from rules.models import Faction, UnitTemplate
from tests.browser.artifacts import screenshot
from tests.browser.test_estimate_reference_set_phone_browser import asked_and_done
from tests.factories.army_lists import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LOCALES = {"pl": "pl-PL", "cs": "cs-CZ", "ru": "ru-RU"}
VIEWPORTS = {"desktop": {"width": 1366, "height": 900}, "phone": {"width": 390, "height": 844}}


def test_the_per_weapon_table_reads_in_polish_czech_and_russian_on_desktop_and_phone(live_server,
                                                                                   browser: Browser):
    call_command("load_catalogue", verbosity=0)
    faction = Faction.objects.get(slug="ashen-concord", owner=None)
    veterans = UnitTemplate.objects.get(faction=faction, slug="ashguard-veterans")
    client, location = asked_and_done(make_user("czytelnik"), f"unit={veterans.pk}", "ref:infantry-10")
    weapons = Estimate.objects.get(pk=re.search(r"([0-9a-f-]{36})/$", location)[1]).result["weapons"]
    assert weapons

    for language, locale in LOCALES.items():
        with translation.override(language):
            wanted = [f"{faction.in_reader_language(w['name'])} ({faction.in_reader_language(w['model'])})"
                      if w.get("model") else faction.in_reader_language(w["name"]) for w in weapons]
        as_written = {f"{w['name']} ({w['model']})" if w.get("model") else w["name"] for w in weapons}
        assert not set(wanted) & as_written
        for shape, viewport in VIEWPORTS.items():
            context = browser.new_context(locale=locale, viewport=viewport, is_mobile=shape == "phone")
            context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                                  "url": live_server.url}])
            page = context.new_page()
            page.goto(f"{live_server.url}{location}")
            expect(page.locator("html")).to_have_attribute("lang", language)
            table = page.locator(".per-weapon .table-scroll")
            names = table.locator("tbody tr td:first-child")
            expect(names).to_have_count(len(wanted))
            assert [re.sub(r"\s+", " ", text).strip() for text in names.all_inner_texts()] == wanted
            # the whole table in view on a desktop; on a phone it scrolls sideways inside its card
            if shape == "desktop":
                assert table.evaluate("e => e.scrollWidth <= e.clientWidth")
            assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
            table.scroll_into_view_if_needed()
            screenshot(page, f"estimate-weapons-{language}-{shape}", full_page=False)
            context.close()
