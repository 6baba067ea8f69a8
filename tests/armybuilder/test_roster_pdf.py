"""The roster PDF's renderer (`armybuilder/roster/pdf.py`): what it changes of WeasyPrint's
defaults to render a 200-unit roster within issue 17's 5 s, and that nothing printed is lost."""

from __future__ import annotations

import gc
import subprocess

import tinycss2
from weasyprint.html import UA

from armybuilder.roster.cards import Card, Column, Row
from armybuilder.roster.pdf import collector_paused, html_to_pdf, roster_user_agent_css


def selectors_of(css: str) -> list[str]:
    return [tinycss2.serialize(rule.prelude).strip()
            for rule in tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True)
            if rule.type == "qualified-rule"]


def test_the_pdf_user_agent_sheet_styles_no_pseudo_element_of_every_element() -> None:
    """WeasyPrint's own sheet has six rules like `::marker { ... }`, each a computed style for
    every element of the document; the PDF keeps markers for list items only."""
    ours = selectors_of(roster_user_agent_css())

    assert [s for s in ours if s.startswith("::")] == []
    assert "li::marker" in ours
    assert len([s for s in selectors_of(UA) if s.startswith("::")]) == 6


def test_the_pdf_user_agent_sheet_keeps_every_other_rule() -> None:
    theirs = [s for s in selectors_of(UA) if not s.startswith("::")]
    ours = [s for s in selectors_of(roster_user_agent_css()) if s != "li::marker"]

    assert ours == theirs
    assert roster_user_agent_css().count("@counter-style") == UA.count("@counter-style")


def test_list_items_keep_their_bullets_in_the_pdf(tmp_path) -> None:
    pdf = tmp_path / "list.pdf"
    pdf.write_bytes(html_to_pdf(html="<ul><li>Alpha</li><li>Beta</li></ul>", base_url="http://localhost/"))

    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout

    assert "• Alpha" in text and "• Beta" in text


def test_the_collector_is_off_during_nested_pauses_and_back_on_after_the_last() -> None:
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_pause_leaves_a_collector_that_was_off_off() -> None:
    gc.disable()
    try:
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_card_counts_the_number_columns_of_the_wider_table() -> None:
    """`#` and the profile or weapon columns, whichever are more: the PDF's stylesheet sizes
    those columns by their count (`numbers-N`)."""
    def card(profile: int, weapon: int, weapons: bool = True) -> Card:
        return Card(number=1, name="Unit", points=10, models=1,
                    profile_columns=[Column(f"P{i}", "") for i in range(profile)], profiles=[],
                    weapon_columns=[Column(f"W{i}", "") for i in range(weapon)],
                    weapons=[Row(name="Gun", count=1, cells=[], rules=[])] if weapons else [], rules=[])

    assert card(3, 3).number_columns == 4
    assert card(4, 6).number_columns == 7
    assert card(6, 4).number_columns == 7
    assert card(3, 6, weapons=False).number_columns == 4
