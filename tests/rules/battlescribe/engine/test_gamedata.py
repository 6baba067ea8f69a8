"""Editable game data (`engine.gamedata`): where new entries go, what they start with, how
fields, costs and characteristics are set and how a link takes its type from its target."""

from __future__ import annotations

import pytest

from rules.battlescribe.engine.gamedata import DataEditError, DataFiles


@pytest.fixture
def data() -> DataFiles:
    return DataFiles(
        {
            "id": "gs",
            "name": "Skirmish",
            "costTypes": [{"id": "pts", "name": "Points"}],
            "profileTypes": [
                {"id": "pt-m", "name": "Model", "characteristicTypes": [{"id": "ch-m", "name": "M"}]}
            ],
        },
        [
            {
                "id": "cat",
                "name": "Skaven",
                "gameSystemId": "gs",
                "sharedSelectionEntryGroups": [{"id": "seg-w", "name": "Weapons"}],
                "sharedRules": [{"id": "r-swarm", "name": "Swarm"}],
            }
        ],
    )


def test_a_group_at_a_file_root_is_shared_and_a_new_entry_has_editor_defaults(data):
    group = data.add_entry("cat", "selectionEntryGroup", "Mutations")
    entry = data.add_entry("cat", "selectionEntry", "Rat Ogre", "se-ogre")
    assert group.container == "sharedSelectionEntryGroups"
    assert entry.container == "selectionEntries"
    assert entry.attrs == {
        "id": "se-ogre",
        "name": "Rat Ogre",
        "hidden": "false",
        "collective": "false",
        "import": "true",
        "type": "upgrade",
    }


def test_links_take_their_type_and_name_from_the_target(data):
    unit = data.add_entry("cat", "selectionEntry", "Clanrats")
    group_link = data.add_link(unit.handle, "entryLink", "seg-w")
    rule_link = data.add_link(unit.handle, "infoLink", "r-swarm")
    assert (group_link.attrs["type"], group_link.attrs["name"]) == ("selectionEntryGroup", "Weapons")
    assert (rule_link.attrs["type"], rule_link.attrs["name"]) == ("rule", "Swarm")


def test_costs_and_characteristics_resolve_their_types_by_id_or_name(data):
    unit = data.add_entry("cat", "selectionEntry", "Clanrats")
    data.set_fields(unit.handle, {"imported": False}, costs={"Points": "5.5"})
    profile = data.add_entry(unit.handle, "profile", "Clanrat")
    data.set_fields(profile.handle, {"typeId": "pt-m"}, characteristics={"M": "5"})
    assert unit.attrs["import"] == "false"
    assert [(c.name, c.type_id, c.value) for c in unit.costs] == [("Points", "pts", "5.5")]
    assert profile.attrs["typeName"] == "Model"
    assert [(c.name, c.type_id, c.value) for c in profile.characteristics] == [("M", "ch-m", "5")]


def test_edits_naming_nothing_or_a_whole_file_are_refused(data):
    with pytest.raises(DataEditError, match="'se-missing'"):
        data.set_fields("se-missing", {"name": "x"})
    with pytest.raises(DataEditError, match="whole file"):
        data.remove_entry("cat")
