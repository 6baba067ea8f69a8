"""The printed roster's optional glossary page (issue 44, item 3: "printable too (the roster gains
an optional glossary page)"): every special rule, ability and item the list uses, with its text,
by the phase it matters in — the play mode's rules reference of the one list — on a page of its
own in the print view and in the PDF, when the print option asks for it."""

from __future__ import annotations

import io
import re
import subprocess
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse

from armybuilder.games.rules_reference import rules_reference
from armybuilder.lists.examples import EXAMPLES_USERNAME
from armybuilder.lists.selectors import army_list_units
from armybuilder.models import ArmyList
from armybuilder.roster.cards import build_roster
from armybuilder.roster.pdf import html_to_pdf
from armybuilder.roster.pdf_jobs import roster_pdf_html
from tests.browser.artifacts import SCREENSHOTS

pytestmark = pytest.mark.django_db


@pytest.fixture
def example_lists() -> dict[str, ArmyList]:
    call_command("load_catalogue", stdout=io.StringIO())
    call_command("load_example_lists", stdout=io.StringIO())
    return {a.system.key: a for a in ArmyList.objects.filter(owner__username=EXAMPLES_USERNAME)}


def entries(sections: list[dict]) -> list[str]:
    return [e["name"] for s in sections for g in s["kinds"] for e in g["entries"]]


def test_the_glossary_is_the_play_modes_rules_reference_of_the_list(example_lists):
    army_list = example_lists["wh40k9"]
    roster = build_roster(army_list=army_list, units=army_list_units(army_list=army_list))
    glossary = roster.glossary()
    assert glossary == rules_reference(system_key="wh40k9", units=list(roster.units))
    assert [s["phase"] for s in glossary][-1] == ""  # by phase, then any phase
    assert len([s for s in glossary if s["phase"]]) >= 2
    written = {rule.name for card in roster.cards for rule in card.rules}
    assert written <= set(entries(glossary))


def test_the_print_page_has_the_glossary_only_when_asked(client, example_lists):
    army_list = example_lists["wh40k9"]
    client.force_login(army_list.owner)
    url = reverse("lists:roster", args=[army_list.pk])
    plain = client.get(url).content.decode()
    assert 'class="roster-glossary"' not in plain
    assert '<option value="page">With a glossary page</option>' in plain
    page = client.get(url, {"glossary": "page"}).content.decode()
    glossary = page[page.index('class="roster-glossary"'):]
    roster = build_roster(army_list=army_list, units=army_list_units(army_list=army_list))
    sections = roster.glossary()
    assert glossary.count("<dt") == len(entries(sections)) > 0
    for section in sections:
        assert f"<h3>{section['title']}</h3>" in glossary
    assert "<h3>Any phase</h3>" in glossary
    assert "glossary=page" in page  # the PDF link keeps the option


def pdf_pages(pdf: Path) -> list[str]:
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True)
    return text.stdout.split("\f")[:-1]


@pytest.mark.parametrize("system", ["wh40k9", "opr"])
def test_the_pdf_prints_the_glossary_on_a_page_of_its_own(example_lists, tmp_path, system):
    army_list = example_lists[system]
    plain = tmp_path / "plain.pdf"
    plain.write_bytes(html_to_pdf(html=roster_pdf_html(army_list=army_list, paper="a4"), base_url="http://localhost/"))
    source = roster_pdf_html(army_list=army_list, paper="a4", options={"glossary": "page"})
    pdf = tmp_path / "glossary.pdf"
    pdf.write_bytes(html_to_pdf(html=source, base_url="http://localhost/"))
    without, with_glossary = pdf_pages(plain), pdf_pages(pdf)
    assert len(with_glossary) > len(without)
    assert with_glossary[: len(without)] == without  # the roster as before, then the glossary
    start = len(without)
    assert with_glossary[start].lstrip().startswith("Glossary")
    glossary_text = re.sub(r"\s+", " ", " ".join(with_glossary[start:]))
    roster = build_roster(army_list=army_list, units=army_list_units(army_list=army_list))
    for name in entries(roster.glossary()):
        assert re.sub(r"\s+", " ", name) in glossary_text, name
    # The pages as images, to look at (artifacts/screenshots, not in git).
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    subprocess.run(["pdftoppm", "-png", "-r", "60", "-f", str(start + 1), "-l", str(start + 1), str(pdf),
                    str(SCREENSHOTS / f"roster-glossary-{system}")], check=True)
