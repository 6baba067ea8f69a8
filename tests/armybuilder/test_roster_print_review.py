"""What a look at every system's printed roster found (HTML and PDF, English, Polish, Russian).

- an imported unit's abilities (a BattleScribe datasheet's Living Metal, Reanimation Protocols)
  were printed nowhere: neither on the card nor in the rules reference;
- a 40k weapon's ability, a sentence, was squeezed into a column one word wide (fourteen lines
  for the Doomsday Ark's cannon), and "Assault 2" broke over two lines on cards with room;
- a rule name of several words broke between its words in the rules reference ("Fight in" /
  "Ranks The rank behind…");
- the summary shared its width out evenly, so a Russian unit name wrapped beside wide Models
  and Points columns; in the table layout its heading stood alone above the QR code's band;
- a character's magic item figure named its model in English on a Russian roster.
"""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from armybuilder.lists import selectors
from armybuilder.lists.evaluation import unit_summary
from armybuilder.models import ArmyList
from armybuilder.roster.cards import NARROW_CARD_EM, Column, Row, build_roster, pdf_table, text_em
from armybuilder.roster.pdf import html_to_pdf
from armybuilder.roster.pdf_jobs import roster_pdf_html
from tests.armybuilder.test_roster_pdf_layout import example_lists, words_by_page  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db

LIVING_METAL = "At the start of your Command phase, each model in this unit regains 1 lost wound."
PROTOCOLS = "Each time this unit is destroyed, roll one D6 for each model: on a 5+ it is set up again."


def loaded(army_list: ArmyList) -> ArmyList:
    """The list as the print page and the PDF job read it (its faction loaded: names in the
    reader's language)."""
    return ArmyList.objects.select_related("system", "faction", "owner").get(pk=army_list.pk)


def pdf_words(tmp_path, army_list: ArmyList, name: str, **options: str):
    source = roster_pdf_html(army_list=army_list, paper="a4", options=options)
    pdf = tmp_path / f"{name}.pdf"
    pdf.write_bytes(html_to_pdf(html=source, base_url="http://localhost/"))
    return source, words_by_page(pdf)


def lines_of(pages, phrase: str) -> list[set[float]]:
    """For each place `phrase` is printed (its words one after another), the tops of its words:
    one top where it is on one line."""
    wanted = phrase.split()
    found = []
    for page in pages:
        words = [w[4] for w in page]
        for i in range(len(words) - len(wanted) + 1):
            if [w.rstrip(",:") for w in words[i:i + len(wanted)]] == wanted:
                found.append({round(page[j][1], 1) for j in range(i, i + len(wanted))})
    return found


def after_reference(pages):
    """The pages from the "Rules reference" heading on (a card's rules line may wrap anywhere)."""
    for number, page in enumerate(pages):
        words = [w[4] for w in page]
        for i in range(len(words) - 1):
            if words[i:i + 2] == ["Rules", "reference"]:
                return [page[i + 2:], *pages[number + 1:]]
    raise AssertionError("no rules reference")


def test_an_imported_units_abilities_print_on_its_card_and_in_the_rules_reference(example_lists, tmp_path):  # noqa: F811
    army_list = example_lists["wh40k9"]
    unit = army_list.units.order_by("position").first()
    unit.data["abilities"] = [{"name": "Living Metal", "text": LIVING_METAL}]
    unit.data["models"][0]["abilities"] = [{"name": "Reanimation Protocols", "text": PROTOCOLS}]
    unit.save(update_fields=["data"])

    roster = build_roster(army_list=army_list, units=selectors.army_list_units(army_list=army_list))
    assert {"Living Metal", "Reanimation Protocols"} <= {rule.name for rule in roster.cards[0].rules}
    texts = {rule.name: rule.text for rule in roster.rules_reference}
    assert texts["Living Metal"] == LIVING_METAL and texts["Reanimation Protocols"] == PROTOCOLS

    _source, pages = pdf_words(tmp_path, army_list, "abilities")
    printed = " ".join(w[4] for page in pages for w in page)
    assert "regains 1 lost wound." in printed and "Reanimation Protocols" in printed


def test_a_weapons_ability_prints_under_its_row_across_the_card():
    """A prose cell leaves the table for a line under its row, named by its column; the figures
    keep their columns."""
    columns = [Column("range", "Range", "Range"), Column("type", "Type", "Type"),
               Column("s", "S", "Strength"), Column("abilities", "Abilities", "Abilities")]
    sentence = "When the bearer fights, it makes 1 additional attack with this weapon."
    rows = [Row("Chainblade", 6, ["Melee", "Melee", "User", sentence], []),
            Row("Arc carbine", 6, ["18", "Assault 2", "5", "-"], ["Assault"])]
    table = pdf_table("Weapon", columns, rows, width_em=NARROW_CARD_EM)

    [section] = table.sections
    assert [c.key for c in section.columns] == ["range", "type", "s"]
    chainblade, carbine = section.rows
    assert chainblade.cells == ["Melee", "Melee", "User"] and chainblade.below == f"Abilities: {sentence}"
    assert carbine.cells == ["18", "Assault 2", "5"]
    assert len(table.widths) == 5  # name, #, three figures
    assert sum(float(w.removesuffix("em")) for w in table.widths) <= NARROW_CARD_EM


def test_a_label_is_not_broken_over_two_lines_where_the_card_has_room():
    columns = [Column("range", "Range", "Range"), Column("type", "Type", "Type")]
    rows = [Row("Arc carbine", 5, ["18", "Assault 2"], ["Assault"])]
    table = pdf_table("Weapon", columns, rows, width_em=NARROW_CARD_EM)

    assert float(table.widths[3].removesuffix("em")) >= text_em("Assault 2")


def test_every_rule_name_of_the_rules_reference_prints_on_one_line(example_lists, tmp_path):  # noqa: F811
    problems = {}
    for key, army_list in sorted(example_lists.items()):
        roster = build_roster(army_list=army_list, units=selectors.army_list_units(army_list=army_list))
        names = [rule.name for rule in roster.rules_reference if " " in rule.name]
        _source, pages = pdf_words(tmp_path, army_list, key)
        reference = after_reference(pages)
        broken = [name for name in names if any(len(tops) > 1 for tops in lines_of(reference, name))]
        if broken:
            problems[key] = broken
    assert problems == {}


def test_a_russian_summary_gives_unit_names_the_width_the_numbers_do_not_need(example_lists, tmp_path):  # noqa: F811
    army_list = loaded(example_lists["ru_whfb"])
    with translation.override("ru"):
        roster = build_roster(army_list=army_list, units=selectors.army_list_units(army_list=army_list))
        names = {card.name for card in roster.cards}
        _source, pages = pdf_words(tmp_path, army_list, "ru-summary")
    assert any(re.search("[а-я]", name) for name in names)
    # the summary is the first place each name is printed
    wrapped = [name for name in names if len(lines_of(pages, name)[0]) > 1]
    assert wrapped == []


def test_the_table_layouts_summary_heading_stays_with_its_table(example_lists, tmp_path):  # noqa: F811
    with translation.override("ru"):  # the header's lines wrap: the QR code's band reaches the summary
        _source, pages = pdf_words(tmp_path, loaded(example_lists["opr"]), "table", layout="table",
                                   site="http://testserver")
    words = pages[0]
    heading = next(w for w in words if w[4] == "Сводка")
    first_row = next(w for w in words if w[4] == "#")
    assert first_row[1] - heading[3] < 10  # points: the next line, not below the QR code


def test_a_characters_magic_item_figure_names_the_model_in_the_readers_language(example_lists):  # noqa: F811
    army_list = loaded(example_lists["whfb6"])
    units = selectors.army_list_units(army_list=army_list)
    with translation.override("ru"):
        rows = [row for unit in units for row in unit_summary(army_list=army_list, unit=unit)]
        translated = army_list.faction.in_reader_language("Margrave")
    assert translated != "Margrave"
    assert translated in {row["model"] for row in rows}


def test_a_rule_broken_quotes_the_unit_in_the_readers_language(example_lists):  # noqa: F811
    """A Russian roster said "Генерал (Snag Boss, Ld 6) …" under a card headed "Босс Кривозубов"."""
    from armybuilder.templatetags.army_lists import violation_message
    from points.catalogue.i18n import _ as message
    from points.catalogue.i18n import message_record

    army_list = loaded(example_lists["whfb6"])
    text = message("The General (%(name)s, Ld %(ld)d) must be the character with the highest Leadership "
                   "(%(best)d).") % {"name": "Margrave", "ld": 8, "best": 9}
    stored = {"rule": "general", "message": str(text), **message_record(text)}
    with translation.override("ru"):
        translated = army_list.faction.in_reader_language("Margrave")
        shown = violation_message(stored, army_list)
        assert translated != "Margrave" and translated in shown and "Margrave" not in shown
        assert "Margrave" in violation_message(stored)  # without the list: as stored
