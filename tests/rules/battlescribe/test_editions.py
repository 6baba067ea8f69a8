"""A BattleScribe game system of another known edition is refused by the import with the
edition named (issue 40): BSData keeps one id across editions in places, so the revision
decides (Age of Sigmar: revision 30 is 1st edition, 31 the 2nd)."""

from __future__ import annotations

import pytest

from rules.battlescribe.editions import edition_of
from rules.battlescribe.xml_reader import BattleScribeError, SourceFile
from rules.battlescribe_import import parse_import


def game_system(system_id: str, revision: int, name: str = "Some Game") -> SourceFile:
    xml = (
        '<?xml version="1.0" encoding="UTF-8"?>'
        f'<gameSystem id="{system_id}" name="{name}" revision="{revision}" battleScribeVersion="2.03" '
        'xmlns="http://www.battlescribe.net/schema/gameSystemSchema">'
        '<costTypes><costType id="pts" name="pts" defaultCostLimit="-1.0"/></costTypes></gameSystem>'
    )
    return SourceFile("System.gst", xml.encode())


def catalogue(system_id: str, revision: int) -> SourceFile:
    xml = (
        '<?xml version="1.0" encoding="UTF-8"?>'
        f'<catalogue id="cat-x" name="Some Army" revision="1" battleScribeVersion="2.03" library="false" '
        f'gameSystemId="{system_id}" gameSystemRevision="{revision}" '
        'xmlns="http://www.battlescribe.net/schema/catalogueSchema"/>'
    )
    return SourceFile("Army.cat", xml.encode())


def refusal(system_key: str, *files: SourceFile) -> list[str]:
    with pytest.raises(BattleScribeError) as refused:
        parse_import(system_key=system_key, files=list(files))
    return refused.value.errors


@pytest.mark.parametrize(
    ("system_id", "revision", "key"),
    [
        ("e51d-b1a3-75fc-dc33", 8, "aos-1"),
        ("e51d-b1a3-75fc-dc33", 30, "aos-1"),
        ("e51d-b1a3-75fc-dc33", 31, "aos-2"),
        ("e51d-b1a3-75fc-dc33", 74, "aos-2"),
        ("e51d-b1a3-75fc-dc33", 75, "aos-3"),
        ("e51d-b1a3-75fc-dc33", 178, "aos-3"),
        ("28ec-711c-d87f-3aeb", 130, "wh40k-8"),
        ("28ec-711c-d87f-3aeb", 250, "wh40k-9"),
        ("sys-352e-adc2-7639-d6a9", 86, "wh40k-10"),
        ("be4eb679-97dc-4876-b582-19ff87fae0fd", 9, "whfb-8"),
    ],
)
def test_editions_by_id_and_revision(system_id, revision, key):
    assert edition_of(system_id, str(revision)).key == key


def test_an_unknown_game_system_has_no_edition():
    assert edition_of("sys-slots", "3") is None


def test_another_edition_is_refused_with_the_edition_named():
    assert refusal("wh40k9", game_system("sys-352e-adc2-7639-d6a9", 86)) == [
        "System.gst: this is Warhammer 40,000 10th edition data (game system revision 86); "
        "Warhammer 40,000, 9th edition takes Warhammer 40,000 9th edition data only. "
        "No system of this site has that edition's rules."
    ]
    assert refusal("aos1", game_system("e51d-b1a3-75fc-dc33", 58)) == [
        "System.gst: this is Age of Sigmar 2nd edition data (game system revision 58); "
        "Warhammer: Age of Sigmar, 1st edition takes Age of Sigmar 1st edition data only. "
        "No system of this site has that edition's rules."
    ]


def test_the_refusal_names_the_system_that_takes_the_edition():
    assert refusal("whfb6", game_system("be4eb679-97dc-4876-b582-19ff87fae0fd", 9)) == [
        "System.gst: this is Warhammer Fantasy Battle 8th edition data (game system revision 9); "
        "Warhammer Fantasy Battle, 6th edition takes Warhammer Fantasy Battle 6th edition data only. "
        "Import it into Warhammer Fantasy house rules (Russian)."
    ]


def test_catalogues_alone_are_judged_by_the_game_system_they_name():
    errors = refusal("aos1", catalogue("e51d-b1a3-75fc-dc33", 144))
    assert errors[0].startswith("Army.cat: this is Age of Sigmar 3rd edition data (game system revision 144)")


def test_the_right_edition_goes_on_to_be_imported():
    # 1st-edition Age of Sigmar passes the edition check (and then has no unit to import)
    assert refusal("aos1", game_system("e51d-b1a3-75fc-dc33", 30))[0] == "no unit could be imported"
