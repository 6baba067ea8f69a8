"""Every system's roster PDF is readable (issue 30, item 1): no two printed words overlap.

Each system's example list (`armybuilder/example_lists/`) is rendered as the worker renders it
(`pdf_jobs.roster_pdf_bytes`), in one and two columns, and `pdftotext -bbox` (poppler) gives
every word's box on the page. Two words of one page whose boxes intersect were printed on top
of each other; and a word that is not a word of the HTML is two words printed so close that
poppler reads them as one ("WSBS": headings squeezed into columns narrower than their text).
"""

from __future__ import annotations

import html
import io
import re
import subprocess
from pathlib import Path

import pytest
from django.core.management import call_command

from armybuilder.lists.examples import EXAMPLES_USERNAME
from armybuilder.models import ArmyList
from armybuilder.roster.pdf import html_to_pdf
from armybuilder.roster.pdf_jobs import roster_pdf_html
from rules.systems.registry import all_systems

pytestmark = pytest.mark.django_db

_WORD = re.compile(
    r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>'
)
#: Words touching by less than this (points) are neighbours, not printed on top of each other.
TOLERANCE = 0.6


def words_by_page(pdf: Path) -> list[list[tuple[float, float, float, float, str]]]:
    out = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True)
    pages = []
    for page in out.stdout.split("<page ")[1:]:
        pages.append([(float(a), float(b), float(c), float(d), html.unescape(w))
                      for a, b, c, d, w in _WORD.findall(page)])
    return pages


def overlaps(words: list[tuple[float, float, float, float, str]]) -> list[tuple[str, str]]:
    """Pairs of words whose boxes intersect by more than `TOLERANCE` both ways (a sweep by top)."""
    found = []
    ordered = sorted(words, key=lambda w: w[1])
    for i, (x0, y0, x1, y1, text) in enumerate(ordered):
        for u0, v0, u1, v1, other in ordered[i + 1:]:
            if v0 >= y1 - TOLERANCE:
                break
            if min(x1, u1) - max(x0, u0) > TOLERANCE and min(y1, v1) - max(y0, v0) > TOLERANCE:
                found.append((text, other))
    return found


def test_the_overlap_finder_sees_words_on_top_of_each_other():
    assert overlaps([(0, 0, 10, 8, "Pts"), (6, 0, 14, 8, "M"), (20, 0, 30, 8, "WS")]) == [("Pts", "M")]
    assert overlaps([(0, 0, 10, 8, "a"), (10, 0, 20, 8, "b"), (0, 8, 10, 16, "c")]) == []


def html_words(source: str) -> set[str]:
    """The words of an HTML document's text (tags and the head left out), and the parts of a
    hyphenated word a line may break into ("Warden-", "Captain")."""
    body = re.sub(r"(?s)<head>.*?</head>|<!--.*?-->", " ", source)
    words = set(html.unescape(re.sub(r"<[^>]+>", " ", body)).split())
    parts = {part for word in words if "-" in word for part in re.findall(r"[^-]+-?", word)}
    return words | parts


def test_html_words_are_split_at_tags():
    assert html_words("<head><title>Roster X</title></head><tr><th>WS</th><th>BS</th></tr>") == {"WS", "BS"}
    assert html_words("<p>Warden-Captain</p>") == {"Warden-Captain", "Warden-", "Captain"}


@pytest.fixture
def example_lists() -> dict[str, ArmyList]:
    call_command("load_catalogue", stdout=io.StringIO())
    call_command("load_example_lists", stdout=io.StringIO())
    return {a.system.key: a for a in ArmyList.objects.filter(owner__username=EXAMPLES_USERNAME)}


@pytest.mark.parametrize("columns", ["1", "2"])
def test_no_words_overlap_in_any_systems_example_roster_pdf(example_lists, tmp_path, columns):
    assert set(example_lists) == {s.key for s in all_systems()}
    problems = {}
    for key, army_list in sorted(example_lists.items()):
        source = roster_pdf_html(army_list=army_list, paper="a4", options={"columns": columns})
        pdf = tmp_path / f"{key}-{columns}.pdf"
        pdf.write_bytes(html_to_pdf(html=source, base_url="http://localhost/"))
        pages = words_by_page(pdf)
        assert sum(len(p) for p in pages) > 100, key  # the cards were printed at all
        found = [pair for page in pages for pair in overlaps(page)]
        known = html_words(source) | {"•"}  # list markers
        found += [(word, "(run together)") for page in pages for *_box, word in page if word not in known]
        if found:
            problems[key] = found[:8]
    assert problems == {}


def test_roll_targets_keep_their_plus_and_a_list_without_points_prints_none(example_lists, tmp_path):
    """Issue 30, item 2: the roster, the print page and the PDF print a unit as its catalogue
    card does (one renderer, `rules.unit_cards`): 40k `WS 2+ BS 2+ Sv 3+ Inv 5+`, WHFB `Sv 5+`;
    Age of Sigmar lists have no points (`points_sized`), so no card says "0 pts"."""
    from armybuilder.lists import selectors
    from armybuilder.roster.cards import build_roster

    def first_card(key: str):
        army_list = example_lists[key]
        units = selectors.army_list_units(army_list=army_list)
        return build_roster(army_list=army_list, units=units).cards[0]

    castellan = first_card("wh40k9")
    headings = [c.short for c in castellan.profile_columns]
    assert headings == ["M", "WS", "BS", "S", "T", "W", "A", "Ld", "Sv", "Inv"]
    assert castellan.profiles[0].cells == ["6", "2+", "2+", "4", "4", "5", "4", "9", "3+", "5+"]
    margrave = first_card("whfb6")
    shorts = [c.short for c in margrave.profile_columns]
    assert dict(zip(shorts, margrave.profiles[0].cells, strict=True))["Sv"] == "5+"

    texts = {}
    for key in ("wh40k9", "aos1"):
        pdf = tmp_path / f"{key}.pdf"
        pdf.write_bytes(html_to_pdf(html=roster_pdf_html(army_list=example_lists[key], paper="a4"),
                                    base_url="http://localhost/"))
        texts[key] = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True,
                                    check=True).stdout
    assert re.search(r"Forge-Castellan\s+1\s+6\s+2\+\s+2\+\s+4\s+4\s+5\s+4\s+9\s+3\+\s+5\+", texts["wh40k9"])
    points = re.compile(r"\b\d+ pts\b")
    assert not points.search(texts["aos1"]) and points.search(texts["wh40k9"])


#: A unit a player named at length, and a model whose name is longer than a narrow name column
#: (its longest word wider than the eight em the column may shrink to).
LONG_UNIT_NAME = "Margrave Ulrich of the Upper Ash Valleys, Warden of the Riverlands Confederation"
LONG_MODEL_NAME = "Grand Margrave of the Riverlands Confederation"


def give_first_unit_long_names(army_list: ArmyList) -> None:
    """Rename the list's first unit and its first model at length (as a player may)."""
    unit = army_list.units.order_by("position").first()
    unit.custom_name = LONG_UNIT_NAME
    unit.data["models"][0]["name"] = LONG_MODEL_NAME
    unit.save(update_fields=["custom_name", "data"])


def split_words(pages: list[list[tuple[float, float, float, float, str]]], known: set[str]) -> list[str]:
    """Printed words that are no word of the page's text: pieces of a word broken across lines
    ("Gener" / "al"), or words run together. A word hyphenated at a line's end ("Confede-" then
    "ration", a proper hyphen) or broken at its own hyphen ("Horn-" / "blower") is whole."""
    found = []
    for page in pages:
        words = [w[4] for w in page]
        for i, word in enumerate(words):
            if word in known:
                continue
            after = words[i + 1] if i + 1 < len(words) else ""
            before = words[i - 1] if i > 0 else ""
            joined_after = word.endswith("-") and bool({word[:-1] + after, word + after} & known)
            joined_before = before.endswith("-") and bool({before[:-1] + word, before + word} & known)
            if not (joined_after or joined_before):
                found.append(word)
    return found


def test_split_words_finds_pieces_of_words_and_accepts_proper_hyphens():
    page = [(0, 0, 1, 1, w) for w in ["Gener", "al", "Confede-", "ration", "Horn-", "blower", "Warden"]]
    assert split_words([page], {"General", "Confederation", "Horn-blower", "Warden"}) == ["Gener", "al"]


def test_long_names_in_two_columns_wrap_between_words(example_lists, tmp_path):
    """Two-column print broke long names mid-word: a name wraps at its spaces (or its own
    hyphens), never inside a word, in every system's card, heading and profile table."""
    problems = {}
    for key, army_list in sorted(example_lists.items()):
        give_first_unit_long_names(army_list)
        source = roster_pdf_html(army_list=army_list, paper="a4", options={"columns": "2"})
        assert LONG_MODEL_NAME in source, key
        pdf = tmp_path / f"{key}-long.pdf"
        pdf.write_bytes(html_to_pdf(html=source, base_url="http://localhost/"))
        pages = words_by_page(pdf)
        printed = {word for page in pages for *_box, word in page}
        assert {"Margrave", "Riverlands"} <= printed, key
        found = split_words(pages, html_words(source) | {"•"})
        found += [f"{a} / {b}" for page in pages for a, b in overlaps(page)]
        if found:
            problems[key] = found[:8]
    assert problems == {}
