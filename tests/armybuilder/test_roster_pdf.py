"""The roster PDF's renderer (`armybuilder/roster/pdf.py`): what it changes of WeasyPrint's
defaults to render a 200-unit roster within issue 17's 5 s, and that nothing printed is lost."""

from __future__ import annotations

import gc
import subprocess

import tinycss2
from weasyprint.html import UA

from armybuilder.roster.cards import NARROW_CARD_EM, WIDE_CARD_EM, Column, Row, pdf_table, text_em
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


def test_a_pdf_table_gives_each_number_column_its_widest_word_and_the_rules_the_rest() -> None:
    """The PDF's tables have a fixed layout (`pdf_table`): a column is as wide as its widest
    word in the bold font plus padding (a number cell's is smaller); the name column the
    longest name when there is room."""
    columns = [Column("ws", "WS", "Weapon Skill"), Column("ward", "Ward", "Ward save")]
    rows = [Row(name="Spearman", count=20, cells=["3", "6+"], rules=["Fight in Ranks"])]
    table = pdf_table("Model", columns, rows, width_em=60.0)

    expected = [text_em("Spearman") + 0.9, *(text_em(word) + 0.6 for word in ("20", "WS", "Ward"))]
    assert table.widths == [f"{em:.1f}em" for em in expected]
    assert table.rules_column and table.span == 4
    assert 1.7 < text_em("WS") < 1.9  # W 1.10 + S 0.72 em in DejaVu Sans Bold


def test_a_name_column_is_never_narrower_than_the_longest_word_of_a_name() -> None:
    """Two-column print cut long names mid-word: a name column shrinks to eight em when the
    rules need room, but never below its longest word (the name wraps between words)."""
    keys = ("m", "ws", "bs", "s", "t", "w", "i", "a", "ld", "sv")
    columns = [Column(key, key.upper(), key) for key in keys]
    rows = [Row(name="Grand Margrave of the Riverlands Confederation", count=1, cells=["4"] * 10, rules=[])]
    narrow = pdf_table("Model", columns, rows, width_em=NARROW_CARD_EM)

    assert float(narrow.widths[0].removesuffix("em")) >= text_em("Confederation") + 0.9 - 0.05
    assert sum(float(w.removesuffix("em")) for w in narrow.widths) <= NARROW_CARD_EM


def test_a_narrow_card_prints_the_rules_under_the_row_when_they_have_no_room() -> None:
    keys = ("m", "ws", "bs", "s", "t", "w", "i", "a", "ld", "sv")
    columns = [Column(key, key.upper(), key) for key in keys]
    rows = [Row(name="Margrave of the Vellmark", count=1, cells=["4"] * 10, rules=["General"])]
    narrow = pdf_table("Model", columns, rows, width_em=NARROW_CARD_EM)
    wide = pdf_table("Model", columns, rows, width_em=WIDE_CARD_EM)

    assert not narrow.rules_column and wide.rules_column
    assert sum(float(w.removesuffix("em")) for w in narrow.widths) <= NARROW_CARD_EM
