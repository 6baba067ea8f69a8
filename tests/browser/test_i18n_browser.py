"""The interface in Polish, Czech and Russian, in real Chromium (issue 14).

A browser that asks for Polish, Czech or Russian (`Accept-Language`, Chromium's locale)
opens the list editor, the unit designer, an estimate result and the print view. Each page
is in that language: no English interface word is left (the words of the catalogue's own
names — units, models, weapons, factions, rules read in English outside their source
language — are not interface words), counts take the language's plural form, decimals its
separator, and a Polish player reads the OPR rules under the Polish seed's names. One
estimate job is computed once and its result page opened in every language: the URL is
the same. Screenshots (desktop, and a 390×844 phone for the editor) are kept in
`artifacts/screenshots/i18n-*.png`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import pytest
from django.core.management import call_command
from django.test import Client
from playwright.sync_api import Browser, BrowserContext, Page, expect

from armybuilder.lists.services import army_list_add_unit, army_list_create
from rules.models import Faction, SpecialRule, UnitTemplate
from tests.browser.artifacts import screenshot
from tests.factories.army_lists import PASSWORD, make_user

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

LOCALES = {"pl": "pl-PL", "cs": "cs-CZ", "ru": "ru-RU"}
UNITS = ["concord-wardens", "ashguard-veterans", "warden-captain"]
#: English interface words; none may be visible on a translated page. Words that are also
#: Polish, Czech or Russian words ("model", "limit", "profil") are not listed.
ENGLISH_WORDS = frozenset(
    """
    the and of to with for from your you this that is are not no yet points pts point unit units add
    remove save list lists delete print total weapon weapons rules rule shooting melee target
    expected killed chance estimate estimates share copy log sign gallery designer catalogue left
    over models quality defence toughness attacks attack hit range name edit back upgrades options
    duplicate up down roster summary language skip content main navigation my page valid broken
    shared public fork read only paper each per exact rounded half base interpolated cost costs
    weapons ranged warrior shooter abilities ability situation computed efficiency destroyed
    attacker defender probability distribution table kills least exactly cover moved charged
    """.split()  # noqa: SIM905
)
#: Names of games, which stay as their publishers write them.
GAME_NAMES = re.compile(r"Warhammer: Age of Sigmar|Warhammer Fantasy Battle|Warhammer 40,000|One Page Rules")
#: "3 units" in each language (the list has three units).
THREE_UNITS = {"pl": "3 jednostki", "cs": "3 jednotky", "ru": "3 отряда"}


def catalogue_words(*texts: Iterable[str] | str) -> set[str]:
    """Lower-case Latin words of catalogue names (they may be English by design)."""
    words: set[str] = set()
    for text in texts:
        for item in [text] if isinstance(text, str) else text:
            words.update(w.lower() for w in re.findall(r"[^\W\d_]+", str(item)))
    return words


#: The page's visible text without the elements marked as written in another language
#: (`lang="en"` on a rules text that the source has only in English, for example).
_TEXT_IN_PAGE_LANGUAGE = """() => {
    const page = document.documentElement.lang;
    const other = [...document.body.querySelectorAll("[lang]")].filter(e => e.lang.split("-")[0] !== page);
    const shown = other.map(e => e.style.display);
    other.forEach(e => { e.style.display = "none"; });
    const text = document.body.innerText;
    other.forEach((e, i) => { e.style.display = shown[i]; });
    return text;
}"""


def page_text(page: Page) -> str:
    return page.evaluate(_TEXT_IN_PAGE_LANGUAGE)


def english_words(page: Page, allowed: set[str]) -> list[str]:
    """Interface words in English that the page shows (visible text, tooltips not opened),
    each with the line it is on."""
    found = []
    for line in page_text(page).splitlines():
        line = GAME_NAMES.sub("", line)
        words = {w.lower() for w in re.findall(r"[^\W\d_]+", line)}
        found += [f"{word}: {line.strip()[:120]}" for word in sorted((words & ENGLISH_WORDS) - allowed)]
    return found


def signed_in_context(browser: Browser, base: str, user, language: str, **options) -> BrowserContext:
    """A browser that asks for `language` first, already signed in as `user`."""
    context = browser.new_context(locale=LOCALES[language], **options)
    client = Client()
    client.force_login(user)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": base}])
    return context


def shot(page: Page, language: str, name: str) -> None:
    screenshot(page, f"i18n-{language}-{name}")


def test_editor_designer_estimate_and_print_view_in_polish_czech_and_russian(
    live_server, celery_worker_process, browser,
):
    call_command("load_catalogue", verbosity=0)
    base = live_server.url
    faction = Faction.objects.get(slug="ashen-concord", owner=None)
    player = make_user("gracz", password=PASSWORD)
    army_list = army_list_create(owner=player, system=faction.system, faction=faction, name="Patrol",
                                 points_limit=2000)
    templates = [UnitTemplate.objects.get(faction=faction, slug=slug) for slug in UNITS]
    for template in templates:
        army_list_add_unit(army_list=army_list, unit=template, options={}, expected_version=None)
    army_list.refresh_from_db()
    unit_data = [unit.data for unit in army_list.units.all()]
    allowed = catalogue_words(
        [faction.name, army_list.name, player.username],
        [u["name"] for u in unit_data],
        [m["name"] for u in unit_data for m in u["models"]],
        [w["name"] for u in unit_data for m in u["models"] for w in m.get("weapons", [])],
        [w["name"] for w in faction.weapons.values("name").values_list("name", flat=True)] if False else [],
        SpecialRule.objects.filter(system=faction.system).values_list("name", flat=True),
        ["Ashguard Veterans", "Infantry", "OPR", "PDF", "JSON", "AP", "Letter", "A", "Q", "D", "T"],
    )
    estimate_url = None
    for language in ("pl", "cs", "ru"):
        context = signed_in_context(browser, base, player, language, viewport={"width": 1280, "height": 900})
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc, errors=errors: errors.append(str(exc)))

        # --- the list editor ------------------------------------------------------------
        page.goto(f"{base}/lists/{army_list.pk}/")
        expect(page.locator("html")).to_have_attribute("lang", language)
        expect(page.locator(".summary-units")).to_contain_text(THREE_UNITS[language])
        shot(page, language, "01-editor")
        assert english_words(page, allowed) == []

        # --- the unit designer: a breakdown with the locale's decimal separator ---------
        page.goto(f"{base}/catalogue/designer/?system=opr")
        expect(page.locator("#designer-total")).to_be_visible()
        exact_text = page.locator(".designer-total .exact").first.inner_text()
        assert "," in exact_text and not re.search(r"\d\.\d", exact_text), exact_text
        shot(page, language, "02-designer")
        assert english_words(page, allowed) == []

        # --- an estimate: asked in Polish, its result page opened in every language -----
        if estimate_url is None:
            page.goto(f"{base}/catalogue/opr/ashen-concord/ashguard-veterans/")
            page.locator("a[href*='/estimates/new/']").first.click()
            page.locator("select[name=target]").select_option("ref:infantry-10")
            second_stage = page.locator("input[name=second_stage]")
            if second_stage.count():  # the one attack only: quicker on a busy machine
                second_stage.uncheck()
            page.locator("main form button[type=submit]").last.click()
            expect(page).to_have_url(re.compile(r"/estimates/[0-9a-f-]{36}/$"))
            estimate_url = page.url
        page.goto(estimate_url)
        expect(page.locator("svg.chart")).to_have_count(2, timeout=60_000)
        expect(page.locator(".efficiency .points")).to_have_text(re.compile(r"^\d+,\d$"))
        shot(page, language, "03-estimate")
        assert english_words(page, allowed) == []

        # --- the print view: the rules under the source's names for a Polish player ----
        page.goto(f"{base}/lists/{army_list.pk}/roster/")
        page.emulate_media(media="print")
        rule_names = page.locator(".rules-reference dt").all_inner_texts()
        card_rules = " ".join(page.locator(".card-rule-names").all_inner_texts())
        if language == "pl":
            assert "Nieustraszony" in rule_names and "Fearless" not in rule_names
            assert "Nieustraszony" in card_rules and "Fearless" not in card_rules
            assert page.locator(".rules-reference dd[lang=en]").count() == 0  # Polish texts
        else:
            assert "Fearless" in rule_names and "Fearless" in card_rules  # English elsewhere
            assert page.locator(".rules-reference dd[lang=en]").count() == len(rule_names)
        shot(page, language, "04-print")
        assert english_words(page, allowed - {"fearless"} if language == "pl" else allowed) == []

        # --- the editor on a phone -------------------------------------------------------
        phone = signed_in_context(browser, base, player, language, viewport={"width": 390, "height": 844},
                                  is_mobile=True).new_page()
        phone.goto(f"{base}/lists/{army_list.pk}/")
        expect(phone.locator(".summary-units")).to_contain_text(THREE_UNITS[language])
        shot(phone, language, "05-editor-phone")
        assert errors == []
        context.close()
