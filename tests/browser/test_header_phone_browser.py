"""The site header fits a 390×844 phone in both themes: every link (Gallery too) stays on the
screen, wrapped onto a second row instead of running off to the right."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse
from playwright.sync_api import Browser, Page

from armybuilder.lists.services import army_list_create
from rules.models import Faction
from tests.browser.artifacts import screenshot
from tests.browser.test_builder_browser import sign_up

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def overflowing(page: Page) -> list[str]:
    """The header's elements whose right edge is past the viewport's width."""
    return page.evaluate(
        """() => [...document.querySelectorAll('.site-header, .site-header *')]
            .filter(e => e.getClientRects().length
                && e.getBoundingClientRect().right > window.innerWidth + 0.5)
            .map(e => e.tagName + ' ' + (e.textContent || '').trim().slice(0, 30))"""
    )


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_header_fits_a_phone_on_home_editor_and_gallery(
    live_server: object, browser: Browser, theme: str
) -> None:
    call_command("load_catalogue", verbosity=0)
    base = live_server.url
    page = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme=theme).new_page()
    sign_up(page, base, f"phone{theme}")
    faction = Faction.objects.filter(system__key="opr", owner=None).first() or Faction.objects.first()
    user = get_user_model().objects.get(username=f"phone{theme}")
    army_list = army_list_create(
        owner=user, system=faction.system, faction=faction, name="Phone", points_limit=1000
    )
    pages = (("home", reverse("home")), ("editor", reverse("lists:detail", args=[army_list.pk])),
             ("gallery", reverse("lists:gallery")))
    for name, path in pages:
        page.goto(f"{base}{path}")
        nav = page.get_by_role("navigation", name="Main navigation")
        assert nav.get_by_role("link", name="Gallery").is_visible()
        assert overflowing(page) == [], name
        screenshot(page, f"header-phone-{name}-{theme}", full_page=False)
