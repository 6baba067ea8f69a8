"""A roster selection the catalogue no longer has is reported by its name and its unit, never by
its entry id (issue 43): through the list import (`imports.import_source`) and the roster upload
(`battlescribe_rosters.roster_import`), for a faction imported with its BattleScribe source,
which the roster engine rebuilds selection for selection."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.utils import translation

from armybuilder.lists.battlescribe_rosters import roster_import
from armybuilder.lists.importers import Source
from armybuilder.lists.importers.dropped_entries import dropped_lines
from armybuilder.lists.imports import import_source
from rules.battlescribe.xml_reader import SourceFile
from rules.models import GameSystem
from tests.rules.battlescribe.files import FILES, GRIMDARK

#: A Captain carrying a storm shield and a selection without a name, neither of them in the
#: catalogue any more, and a Dreadnought whose own entry is gone.
ROSTER = (
    b'<roster id="r" name="Old" battleScribeVersion="2.03" gameSystemId="g" gameSystemName="G" '
    b'gameSystemRevision="1" xmlns="http://www.battlescribe.net/schema/rosterSchema"><forces>'
    b'<force id="f" name="F" entryId="x" catalogueId="c" catalogueRevision="1" catalogueName="Test Marines">'
    b'<selections><selection id="s1" name="Captain" entryId="se-captain" number="1" type="model">'
    b'<costs><cost name="pts" typeId="p" value="80.0"/></costs><selections>'
    b'<selection id="s1a" name="Storm Shield" entryId="0f3a-77c1::9d2e-41b8" number="1" type="upgrade"/>'
    b'<selection id="s1b" name="" entryId="5e5e-0000" number="1" type="upgrade"/>'
    b'</selections></selection>'
    b'<selection id="s2" name="Dreadnought" entryId="nope" number="1" type="model">'
    b'<costs><cost name="pts" typeId="p" value="150.0"/></costs></selection>'
    b"</selections></force></forces></roster>"
)
EXPECTED = [
    "Dreadnought: no such unit in your catalogue of this system; left out",
    "Captain: Storm Shield is no longer in the catalogue; left out",
    "Captain: a selection the catalogue no longer has; left out",
]


@pytest.fixture
def player(db, django_user_model):
    call_command("load_catalogue", verbosity=0)
    call_command("import_battlescribe", *[str(FILES / n) for n in GRIMDARK], system="wh40k9", verbosity=0)
    return django_user_model.objects.create_user("player", password="a-long-test-password")


def test_the_list_import_names_a_dropped_selection_and_its_unit(player):
    outcome = import_source(user=player, source=Source(name="old.ros", data=ROSTER), system_key="wh40k9",
                            dry_run=True)

    left_out = outcome.imported.report()["left_out"]
    assert sorted(left_out) == sorted(EXPECTED)
    assert not any("9d2e" in line or "5e5e" in line for line in left_out)


def test_the_roster_upload_names_a_dropped_selection_and_its_unit(player):
    result = roster_import(owner=player, system=GameSystem.objects.get(key="wh40k9"),
                           source=SourceFile("old.ros", ROSTER))

    assert [line for line in result.differences if "left out" in line] == EXPECTED


def test_each_dropped_selection_is_named_under_the_unit_it_belonged_to():
    """The engine drops depth first and never looks under a dropped selection (`ListRoster._restore`)."""
    trees = [
        {"entry": "squad", "children": [{"entry": "kept", "children": [{"entry": "gone"}]}]},
        {"entry": "hero",
         "children": [{"entry": "gone", "children": [{"entry": "inner"}]}, {"entry": "gone2"}]},
        {"entry": "lost", "children": [{"entry": "gone2"}]},
    ]

    lines = dropped_lines(trees=trees, dropped=["gone", "gone", "gone2", "lost"],
                          unit_names=["Squad", "Hero", "Lost"], names={"gone": "Plasma Gun"})

    assert lines == [
        "Squad: Plasma Gun is no longer in the catalogue; left out",
        "Hero: Plasma Gun is no longer in the catalogue; left out",
        "Hero: a selection the catalogue no longer has; left out",
    ]  # the lost unit itself is its caller's line, as a unit


def test_the_lines_read_in_the_players_language():
    trees = [{"entry": "hero", "children": [{"entry": "gone"}, {"entry": "gone2"}]}]

    with translation.override("pl"):
        lines = dropped_lines(trees=trees, dropped=["gone", "gone2"], unit_names=["Kapitan"],
                              names={"gone": "Tarcza"})

    assert lines == ["Kapitan: Tarcza nie ma już w katalogu; pominięto",
                     "Kapitan: wybór, którego nie ma już w katalogu; pominięto"]
