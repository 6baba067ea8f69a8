"""Data errors (`engine.gamedata_checks`) carry a code and the offending value, so the layer
that shows them can say it in the reader's language, besides BattleScribe's English."""

from __future__ import annotations

from rules.battlescribe.engine.gamedata import DataFiles
from rules.battlescribe.engine.gamedata_checks import check


def test_each_broken_reference_has_its_code_and_value():
    data = DataFiles(
        {"id": "gs", "costTypes": [{"id": "pts", "name": "Points"}]},
        [
            {
                "id": "cat",
                "selectionEntries": [
                    {
                        "id": "se-1",
                        "name": "Knight",
                        "constraints": [
                            {"id": "c1", "type": "max", "value": 1, "field": "pts", "scope": "army"}
                        ],
                        "modifiers": [{"type": "set", "field": "armour", "value": "2"}],
                        "infoLinks": [{"id": "il", "targetId": "nowhere", "type": "rule"}],
                    }
                ],
                "catalogueLinks": [{"id": "cl", "targetId": "cat-gone"}],
            }
        ],
    )
    found = [(e.code, e.value) for e in check(data)]
    assert found == [
        ("constraint-bad-scope", "army"),
        ("modifier-bad-field", "armour"),
        ("modifier-bad-type", "set"),
        ("broken-info-link", "nowhere"),
        ("broken-catalogue-link", "cat-gone"),
    ]


def test_clean_data_has_no_errors():
    data = DataFiles(
        {"id": "gs"},
        [{"id": "cat", "selectionEntries": [{"id": "se", "modifiers": [{"type": "set", "field": "se"}]}]}],
    )
    assert check(data) == []


def test_what_real_catalogues_do_is_not_an_error():
    """Copied constraints keep their ids, and a condition on the primary catalogue names a
    catalogue that need not be loaded (both seen in the BSData wh40k-9e game system)."""
    copied = {"id": "c-dup", "type": "max", "value": 0, "field": "selections", "scope": "force"}
    in_catalogue = {"type": "instanceOf", "scope": "primary-catalogue", "childId": "cat-not-loaded"}
    data = DataFiles(
        {"id": "gs"},
        [
            {
                "id": "cat",
                "selectionEntries": [
                    {"id": "se-a", "constraints": [copied]},
                    {
                        "id": "se-b",
                        "constraints": [copied],
                        "modifiers": [{"type": "set", "field": "hidden", "conditions": [in_catalogue]}],
                    },
                ],
            }
        ],
    )
    assert check(data) == []
