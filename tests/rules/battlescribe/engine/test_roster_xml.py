"""A .ros that names what the data lacks, or is no roster, is refused with the file and the
selection named (`engine.roster_xml`)."""

from __future__ import annotations

import pytest

from rules.battlescribe.engine.errors import EngineError
from rules.battlescribe.engine.model import GameData
from rules.battlescribe.engine.roster_xml import load_roster, write_roster

DATA = {"id": "gs", "forceEntries": [{"id": "fe", "name": "Band"}]}
CATS = [{"id": "cat", "selectionEntries": [{"id": "se-wolf", "name": "Wolf", "type": "unit"}]}]
ROSTER = """<roster name="R" xmlns="http://www.battlescribe.net/schema/rosterSchema"><forces>
<force entryId="fe" catalogueId="cat"><selections>
<selection name="{name}" entryId="{entry}" number="{number}"/></selections></force></forces></roster>"""


def test_a_roster_round_trips_through_the_engine():
    data = GameData(DATA, CATS)
    roster = load_roster(data, ROSTER.format(name="Wolf", entry="se-wolf", number="3"))
    again = load_roster(data, write_roster(roster))
    assert [(s.option.key, s.number) for s in again.all_selections()] == [("se-wolf", 3)]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            ROSTER.format(name="Troll", entry="se-troll", number="1"),
            "selection 'Troll' names an unknown entry",
        ),
        (
            ROSTER.format(name="Wolf", entry="se-wolf", number="many"),
            r"roster/force\[@name=''\]/selection\[@name='Wolf'\]@number: not a whole number",
        ),
        ("<catalogue/>", "catalogue: not a BattleScribe roster"),
    ],
)
def test_bad_rosters_are_refused_naming_the_file_and_selection(text, message):
    with pytest.raises(EngineError, match=f"band.ros: {message}"):
        load_roster(GameData(DATA, CATS), text, "band.ros")
