"""A feature asked of a list it does not apply to, in real Chromium (issue 43): the points audit
and the Army Forge export of a Warhammer Fantasy list answer with a page that says why in the
reader's language, and its link leads back to the list, on a 1366×900 desktop and a 390×844
phone. Screenshots: `artifacts/screenshots/not-applicable-<language>-<desktop|phone>.png`.
"""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from playwright.sync_api import Browser, expect

from armybuilder.lists.services import army_list_create
from rules.models import GameSystem
from tests.browser.artifacts import screenshot
from tests.factories.army_lists import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

VIEWPORTS = {"desktop": {"width": 1366, "height": 900}, "phone": {"width": 390, "height": 844}}
#: (locale, the page's heading, the audit's reason) in each language.
LANGUAGES = {
    "en": ("en-GB", "Not available for this list", "there is no formula to audit them against"),
    "pl": ("pl-PL", "Niedostępne dla tej rozpiski", "nie ma wzoru"),
    "ru": ("ru-RU", "Недоступно для этого ростера", None),
}


def test_a_feature_that_does_not_apply_says_why_and_leads_back(live_server, browser: Browser):
    call_command("load_catalogue", verbosity=0)
    player = make_user("stary-swiat")
    army_list = army_list_create(owner=player, system=GameSystem.objects.get(key="whfb6"), faction=None,
                                 name="Old world", points_limit=2000)
    client = Client()
    client.force_login(player)
    detail = reverse("lists:detail", args=[army_list.pk])

    for language, (locale, heading, reason) in LANGUAGES.items():
        for shape, viewport in VIEWPORTS.items():
            context = browser.new_context(locale=locale, viewport=viewport, is_mobile=shape == "phone")
            context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                                  "url": live_server.url}])
            page = context.new_page()
            for url in (reverse("lists:audit", args=[army_list.pk]),
                        reverse("lists:export_army_forge", args=[army_list.pk])):
                response = page.goto(f"{live_server.url}{url}")
                assert response is not None and response.status == 404
                expect(page.locator("html")).to_have_attribute("lang", language)
                expect(page.get_by_role("heading", level=1)).to_have_text(heading)
                expect(page.locator("#not-applicable .reason")).not_to_be_empty()
            page.goto(f"{live_server.url}{reverse('lists:audit', args=[army_list.pk])}")
            if reason:
                expect(page.locator("#not-applicable .reason")).to_contain_text(reason)
            # nothing wider than the screen, the way back in view without scrolling
            assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
            back = page.locator("#not-applicable a.button")
            expect(back).to_be_in_viewport()
            screenshot(page, f"not-applicable-{language}-{shape}", full_page=False)
            back.click()
            expect(page).to_have_url(f"{live_server.url}{detail}")
            context.close()
