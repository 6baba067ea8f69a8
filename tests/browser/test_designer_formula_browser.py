"""The designer as a player reads it, and the sample armies in their language, in real
Chromium on a desktop and a 390×844 phone: Quality and Defence are entered and shown as
"3+" (a typo is named by its field), each priced input and each factor of the breakdown
links to the formula page's section that explains it, and a Polish, Czech or Russian reader
sees the bundled army's names in their language in the catalogue, the editor and the roster."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.urls import reverse
from playwright.sync_api import Browser, expect

from armybuilder.lists.examples import EXAMPLES_USERNAME
from armybuilder.models import ArmyList
from tests.browser.artifacts import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENS = {"desktop": {"viewport": {"width": 1366, "height": 900}},
           "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True}}


@pytest.mark.parametrize("screen", list(SCREENS))
def test_quality_is_typed_as_3_plus_and_a_factor_links_to_its_formula(live_server, browser: Browser, screen):
    call_command("load_catalogue", verbosity=0)
    page = browser.new_context(**SCREENS[screen]).new_page()
    page.goto(f"{live_server.url}/catalogue/designer/")
    quality, total = page.locator("#id-m0-quality"), page.locator("#designer-total")
    expect(quality).to_have_value("4+")
    expect(page.locator("#id-m0-defence")).to_have_value(SHOWN_PLUS)
    four_plus = total.get_attribute("data-points")

    quality.fill("3")  # typed without its "+": the same roll
    expect(total).not_to_have_attribute("data-points", four_plus or "")
    three = total.get_attribute("data-points")
    quality.fill("3+")
    expect(total).to_have_attribute("data-points", three or "")

    quality.fill("9+")
    expect(page.locator("#err-m0-quality")).to_have_text("Quality: enter a roll from 2+ to 6+, e.g. 4+.")
    expect(total).to_have_attribute("data-points", "")
    quality.fill("3+")
    expect(total).to_have_attribute("data-points", three or "")
    assert page.evaluate("document.documentElement.scrollWidth") <= SCREENS[screen]["viewport"]["width"]
    page.locator("#designer-breakdown").scroll_into_view_if_needed()
    screenshot(page, f"designer-formula-{screen}", full_page=screen == "desktop")

    link = page.locator("#designer-breakdown a", has_text="Defence factor").first
    expect(link).to_have_attribute("href", f"{reverse('rules:points_formula', args=['opr'])}#defence")
    link.click()
    expect(page.locator("#defence h2")).to_have_text("Defence factor")
    assert page.evaluate("location.hash") == "#defence"
    assert page.evaluate("document.documentElement.scrollWidth") <= SCREENS[screen]["viewport"]["width"]
    screenshot(page, f"points-formula-{screen}", full_page=False)
    page.context.close()


#: A new model's Defence, as the designer shows it (a roll target: "N+").
SHOWN_PLUS = "4+"


@pytest.mark.parametrize(("language", "screen", "army", "unit"), [
    ("pl", "desktop", "Wolne Dziedziny Vellmarku", "Margrabia Vellmarku"),
    ("ru", "phone", "Вольные владения Вельмарка", "Маркграф Вельмарка"),
    ("cs", "phone", "Svobodná panství Vellmarku", "Markrabě Vellmarku"),
])
def test_the_sample_army_reads_in_the_players_language(live_server, browser: Browser, language, screen,
                                                        army, unit):
    call_command("load_catalogue", stdout=io.StringIO())
    call_command("load_example_lists", stdout=io.StringIO())
    army_list = ArmyList.objects.get(owner__username=EXAMPLES_USERNAME, system__key="whfb6")
    page = browser.new_context(locale=f"{language}-{language.upper()}", **SCREENS[screen]).new_page()

    page.goto(f"{live_server.url}/catalogue/whfb6/vellmark-freeholds/")
    expect(page.locator("h1")).to_contain_text(army)
    expect(page.locator("#unit-margrave h3")).to_have_text(unit)
    screenshot(page, f"catalogue-{language}-{screen}", full_page=False)

    page.goto(f"{live_server.url}{reverse('lists:detail', args=[army_list.pk])}")
    expect(page.locator(".unit-row .unit-name").first).to_have_text(unit)
    assert page.evaluate("document.documentElement.scrollWidth") <= SCREENS[screen]["viewport"]["width"]
    screenshot(page, f"editor-{language}-{screen}", full_page=False)

    page.goto(f"{live_server.url}{reverse('lists:roster', args=[army_list.pk])}")
    expect(page.locator(".unit-card h2").first).to_contain_text(unit)
    expect(page.locator(".roster-meta").first).to_contain_text(army)
    screenshot(page, f"roster-{language}-{screen}", full_page=False)
    army_list.refresh_from_db()
    assert army_list.units.order_by("position").first().name == "Margrave of the Vellmark"
    page.context.close()
