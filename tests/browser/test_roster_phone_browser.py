"""Every system's roster fits a 390×844 phone, and its printed cards hold their tables (issue
30, item 6): on a phone the page is never wider than the screen (it was 686 px: Ld, Sv and
Rules cut off), and printed in two columns no profile table sticks out of its card."""

from __future__ import annotations

import io
import re

import pytest
from django.core.management import call_command
from django.urls import reverse
from playwright.sync_api import Browser

from armybuilder.lists.examples import EXAMPLES_USERNAME
from armybuilder.models import ArmyList
from rules.systems.registry import all_systems
from tests.browser.artifacts import SCREENSHOTS, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Tables of the page's unit cards whose right edge is past their card's (print check).
TABLES_OUTSIDE_CARDS = """() => [...document.querySelectorAll('.unit-card')].flatMap(card => {
    const edge = card.getBoundingClientRect().right + 0.5;
    return [...card.querySelectorAll('table')]
        .filter(t => t.getBoundingClientRect().right > edge)
        .map(t => card.querySelector('h2').textContent.trim());
})"""


@pytest.fixture
def example_lists() -> dict[str, ArmyList]:
    call_command("load_catalogue", stdout=io.StringIO())
    call_command("load_example_lists", stdout=io.StringIO())
    lists = {a.system.key: a for a in ArmyList.objects.filter(owner__username=EXAMPLES_USERNAME)}
    assert set(lists) == {s.key for s in all_systems()}
    return lists


#: Cards whose tables scroll sideways inside their card (a scroller a phone hides).
SCROLLING_TABLES = """() => [...document.querySelectorAll('.unit-card .table-scroll')]
    .filter(box => box.scrollWidth > box.clientWidth + 1)
    .map(box => box.closest('.unit-card').querySelector('h2').textContent.trim())"""

#: Each shown cell of the cards' Rules columns and stacked lines: its text and how wide it is
#: against its card.
RULES_LINES = """() => [...document.querySelectorAll('.unit-card td')]
    .filter(cell => cell.offsetParent !== null && cell.textContent.trim()
            && (cell.closest('tr.rules-row') || cell.classList.contains('rules-col')))
    .map(cell => ({text: cell.textContent.trim(), stacked: !!cell.closest('tr.rules-row'),
                   share: cell.getBoundingClientRect().width
                          / cell.closest('.unit-card').getBoundingClientRect().width}))"""


def screenshot_path(name: str):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS / f"{name}.png"


def test_every_systems_roster_fits_a_phone(live_server: object, browser: Browser, example_lists) -> None:
    """On a phone a profile stacks: each row's rules on a line of their own across the card
    (issue 43, item 4: WHFB's Rules column was one letter wide, in a hidden sideways scroller)."""
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    widths, scrolling, narrow = {}, {}, {}
    for key, army_list in sorted(example_lists.items()):
        page.goto(f"{live_server.url}{reverse('lists:roster', args=[army_list.pk])}")
        assert page.locator(".unit-card").count() == army_list.unit_count, key
        widths[key] = page.evaluate("() => document.documentElement.scrollWidth")
        scrolling[key] = page.evaluate(SCROLLING_TABLES)
        for number, title in enumerate(scrolling[key]):  # what the player would see, to look at
            card = page.locator(".unit-card", has=page.get_by_role("heading", name=title))
            card.screenshot(path=str(screenshot_path(f"roster-phone-{key}-scrolling-{number}")))
        lines = page.evaluate(RULES_LINES)
        assert lines and all(line["stacked"] for line in lines), (key, lines)
        assert any("Rules: " in line["text"] for line in lines), key
        narrow[key] = [line["text"] for line in lines if line["share"] < 0.9]
        page.locator(".unit-card").first.scroll_into_view_if_needed()
        screenshot(page, f"roster-phone-{key}", full_page=False)
    assert widths == {key: 390 for key in example_lists}
    assert scrolling == {key: [] for key in example_lists}
    assert narrow == {key: [] for key in example_lists}


def test_printed_in_two_columns_no_table_sticks_out_of_its_card(
    live_server: object, browser: Browser, example_lists
) -> None:
    # The printable width of A4 with 10 mm margins (190 mm at 96 px per inch), as on paper.
    page = browser.new_context(viewport={"width": 718, "height": 1000}).new_page()
    page.emulate_media(media="print")
    outside = {}
    for key, army_list in sorted(example_lists.items()):
        page.goto(f"{live_server.url}{reverse('lists:roster', args=[army_list.pk])}?columns=2")
        outside[key] = page.evaluate(TABLES_OUTSIDE_CARDS)
        screenshot(page, f"roster-print-2col-{key}")
    assert outside == {key: [] for key in example_lists}


def test_the_roster_on_desktop_screen_keeps_cards_side_by_side(
    live_server: object, browser: Browser, example_lists
) -> None:
    page = browser.new_context(viewport={"width": 1366, "height": 900}).new_page()
    for key, army_list in sorted(example_lists.items()):
        page.goto(f"{live_server.url}{reverse('lists:roster', args=[army_list.pk])}")
        assert page.evaluate("() => document.documentElement.scrollWidth") == 1366, key
        assert page.evaluate(TABLES_OUTSIDE_CARDS) == [], key
        # Where there is room, a row's rules keep their column; no line of their own.
        lines = page.evaluate(RULES_LINES)
        assert lines and not any(line["stacked"] for line in lines), key
        screenshot(page, f"roster-desktop-{key}", full_page=False)


#: The words of the printed page's text (what a PDF of it may show): as rendered, and of each
#: text node (a rule's name and the comma after it may be two nodes or one).
PAGE_WORDS = """() => {
    const words = document.body.innerText.split(/\\s+/);
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) words.push(...walker.currentNode.textContent.split(/\\s+/));
    return words.filter(Boolean);
}"""


def test_printed_in_two_columns_long_names_break_between_words(
    live_server: object, browser: Browser, example_lists, tmp_path
) -> None:
    """Chromium's own print of the roster broke names mid-word in two columns ("Gener" / "al",
    "Barde" / "d"): `overflow-wrap: anywhere` let a table squeeze a column below its longest
    word. Printed to PDF, every word of the cards comes out whole."""
    from tests.armybuilder.test_roster_pdf_layout import (
        give_first_unit_long_names,
        split_words,
        words_by_page,
    )

    page = browser.new_context(viewport={"width": 1000, "height": 1000}).new_page()
    page.emulate_media(media="print")
    problems = {}
    for key, army_list in sorted(example_lists.items()):
        give_first_unit_long_names(army_list)
        page.goto(f"{live_server.url}{reverse('lists:roster', args=[army_list.pk])}?columns=2")
        page.locator(".unit-card").first.wait_for()
        known = set(page.evaluate(PAGE_WORDS))
        known |= {part for word in known if "-" in word for part in re.findall(r"[^-]+-?", word)}
        known |= {f"{word}:" for word in known} | {"•"}
        pdf = tmp_path / f"{key}.pdf"
        page.pdf(path=str(pdf), format="A4")
        pages = words_by_page(pdf)
        if key == "whfb6":
            screenshot(page, "roster-print-2col-long-names-whfb6", full_page=False)
        # The link under the QR code may break anywhere (a URL has no words).
        links = [word for word in known if "://" in word]
        found = [word for word in split_words(pages, known) if not any(word in link for link in links)]
        if found:
            problems[key] = found[:8]
    assert problems == {}


#: Words of the cards' cells printed over two lines (a word's text has boxes on two lines); a
#: word with a hyphen may break at it.
WORDS_BROKEN_ON_SCREEN = """() => {
    const broken = [];
    for (const cell of document.querySelectorAll('.unit-card td, .unit-card th')) {
        if (cell.offsetParent === null) continue;
        const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
        while (walker.nextNode()) {
            const node = walker.currentNode, words = /[^\\s-]+/g;
            let match;
            while ((match = words.exec(node.textContent))) {
                const range = document.createRange();
                range.setStart(node, match.index);
                range.setEnd(node, match.index + match[0].length);
                const tops = new Set([...range.getClientRects()].filter(r => r.width > 0)
                                     .map(r => Math.round(r.top)));
                if (tops.size > 1) broken.push(match[0]);
            }
        }
    }
    return broken;
}"""


@pytest.mark.parametrize("viewport", [{"width": 1366, "height": 900}, {"width": 390, "height": 844}])
def test_on_screen_no_word_of_a_card_breaks_over_two_lines(
    live_server: object, browser: Browser, example_lists, viewport
) -> None:
    """The roster on screen broke labels and rules mid-word ("Assaul" / "t 2", "Grena" /
    "de D6"): `overflow-wrap: anywhere` let a table squeeze a column below its longest word
    beside a 40k weapon's ability. A word breaks only when alone wider than its card."""
    page = browser.new_context(viewport=viewport).new_page()
    broken = {}
    for key, army_list in sorted(example_lists.items()):
        page.goto(f"{live_server.url}{reverse('lists:roster', args=[army_list.pk])}")
        broken[key] = page.evaluate(WORDS_BROKEN_ON_SCREEN)
        if key == "wh40k9":
            page.locator(".unit-card").nth(1).screenshot(
                path=str(screenshot_path(f"roster-words-{viewport['width']}-{key}")))
    assert broken == {key: [] for key in example_lists}
    assert page.evaluate("() => document.documentElement.scrollWidth") == viewport["width"]


#: Cards whose tables scroll sideways, with by how many pixels.
SCROLLED_BY = """() => Object.fromEntries([...document.querySelectorAll('.unit-card .table-scroll')]
    .filter(box => box.scrollWidth > box.clientWidth + 1)
    .map(box => [box.closest('.unit-card').querySelector('h2').textContent.trim(),
                 box.scrollWidth - box.clientWidth]))"""
#: What a profile may still stick out on a phone in a language of long words: less than a
#: column (a Russian WHFB name of ten letters beside thirteen figures, a few pixels of its
#: Ward column; breaking the name would break English names that fit).
LONG_WORDS_SLACK_PX = 16


@pytest.mark.parametrize("language", ["ru", "pl", "cs"])
def test_every_systems_roster_nearly_fits_a_phone_in_a_language_of_long_words(
    live_server: object, browser: Browser, example_lists, language
) -> None:
    """In Russian, Polish and Czech the cards' tables were far wider than a phone, their last
    columns in a sideways scroller (an AoS weapon table by 137 px with "Дистанция",
    "Попадание", "Пробивание" as headings; a 40k one by a weapon ability's engine effect
    printed as a dict): headings a language abbreviates (`rules.unit_cards.column_heading`)
    and cells padded by a pixel a side on a phone."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    page = context.new_page()
    too_wide = {}
    for key, army_list in sorted(example_lists.items()):
        page.goto(f"{live_server.url}{reverse('lists:roster', args=[army_list.pk])}")
        assert page.locator("html").get_attribute("lang") == language
        scrolled = page.evaluate(SCROLLED_BY)
        too_wide[key] = {card: px for card, px in scrolled.items() if px > LONG_WORDS_SLACK_PX}
        if key == "aos1":
            page.locator(".unit-card").first.screenshot(path=str(screenshot_path(f"roster-phone-{key}-{language}")))
    assert too_wide == {key: {} for key in example_lists}
    assert page.evaluate("() => document.documentElement.scrollWidth") == 390


#: Cells of the cards taller than three of their lines, with their text (print check).
TALL_CELLS = """() => [...document.querySelectorAll('.unit-card td, .unit-card tbody th')]
    .filter(cell => cell.offsetParent !== null)
    .filter(cell => cell.getBoundingClientRect().height
                    > 3.5 * parseFloat(getComputedStyle(cell).lineHeight || getComputedStyle(cell).fontSize))
    .map(cell => cell.textContent.trim().slice(0, 40))"""


def test_printed_in_two_columns_text_reads_across_the_card(
    live_server: object, browser: Browser, example_lists
) -> None:
    """Chromium's print in two columns squeezed a 40k weapon's ability into a column a word or
    two wide ("When the / bearer / fights, …", seven lines and more): half a page wide, a card
    prints its columns of text on the line under each row, as on a phone."""
    page = browser.new_context(viewport={"width": 718, "height": 1000}).new_page()
    page.emulate_media(media="print")
    tall = {}
    for key, army_list in sorted(example_lists.items()):
        page.goto(f"{live_server.url}{reverse('lists:roster', args=[army_list.pk])}?columns=2")
        tall[key] = page.evaluate(TALL_CELLS)
        if key == "wh40k9":
            screenshot(page, "roster-print-2col-text-wh40k9")
    assert tall == {key: [] for key in example_lists}
