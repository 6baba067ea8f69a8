"""The unit designer in real Chromium: the total follows every change without a page reload.

Issue 4: open the designer, change Quality from 4 to 3, add a weapon rule, and see the
total become the points engine's value each time (docs/rules/opr-points.md), in place. The designer
and a catalogue card are also captured on a phone-sized screen.
"""

from __future__ import annotations

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, expect

from rules.systems.registry import get_system
from tests.browser.artifacts import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def value(page: Page, selector: str) -> int:
    """An input's number; a roll target shows its "+" ("4+" is 4)."""
    return int(page.locator(selector).input_value().removesuffix("+"))


def unit_on_screen(page: Page, weapon_rules: list[str]) -> dict:
    """The unit the designer's inputs describe, read back from the page, for the engine."""
    return {
        "format": 1,
        "system": "opr",
        "name": page.locator("#id-name").input_value(),
        "models": [
            {
                "name": page.locator("#id-m0-name").input_value(),
                "count": value(page, "#id-m0-count"),
                "quality": value(page, "#id-m0-quality"),
                "defence": value(page, "#id-m0-defence"),
                "toughness": value(page, "#id-m0-toughness"),
                "weapons": [
                    {
                        "name": page.locator("#id-m0-w0-name").input_value(),
                        "range": value(page, "#id-m0-w0-range"),
                        "attacks": value(page, "#id-m0-w0-attacks"),
                        "ap": value(page, "#id-m0-w0-ap"),
                        "rules": weapon_rules,
                    }
                ],
            }
        ],
    }


def engine_points(unit: dict) -> str:
    return str(get_system("opr").price(unit)["points"])


def test_quality_and_a_weapon_rule_update_the_total_in_place(live_server, browser):
    call_command("load_catalogue", verbosity=0)
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{live_server.url}/catalogue/designer/")
    total = page.locator("#designer-total")

    expect(page.locator("#id-m0-quality")).to_have_value("4+")
    expect(total).to_have_attribute("data-points", engine_points(unit_on_screen(page, [])))
    page.evaluate("window.__sameDocument = true")  # gone if the page reloads

    page.locator("#id-m0-quality").fill("3+")
    at_quality_3 = engine_points(unit_on_screen(page, []))
    expect(total).to_have_attribute("data-points", at_quality_3)

    weapon = page.locator("#weapon-0-0")
    weapon.locator("summary", has_text="Weapon rules").click()
    weapon.get_by_label("Rending", exact=True).check()
    with_rending = engine_points(unit_on_screen(page, ["Rending"]))
    assert with_rending != at_quality_3
    expect(total).to_have_attribute("data-points", with_rending)
    expect(total).to_contain_text(f"{with_rending} pts")

    assert page.evaluate("window.__sameDocument") is True, "the total changed without a page reload"
    assert errors == []
    screenshot(page, "designer")

    # An invalid value is marked beside its field, still without a reload.
    page.locator("#id-m0-quality").fill("9")
    expect(page.locator("#err-m0-quality")).not_to_be_empty()
    expect(total).to_have_attribute("data-points", "")
    assert page.evaluate("window.__sameDocument") is True
    context.close()


def test_cards_and_designer_fit_a_phone_screen(live_server, browser):
    call_command("load_catalogue", verbosity=0)
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    page.goto(f"{live_server.url}/catalogue/opr/ashen-concord/")
    card = page.locator("#unit-concord-wardens")
    expect(card).to_be_visible()
    box = card.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, "no sideways scrolling of the page"
    rule = page.locator("#unit-ashguard-veterans .rule").first
    rule.focus()
    expect(rule.locator(".rule-text")).to_be_visible()
    screenshot(page, "catalogue-phone", full_page=False)
    page.goto(f"{live_server.url}/catalogue/designer/")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, "designer-phone")
    context.close()
