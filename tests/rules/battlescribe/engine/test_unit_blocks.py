"""A force's costs and errors are summed in blocks of units (`roster.UNIT_BLOCK`): after adds,
count changes, duplicates and removals across several blocks, the incremental totals and
errors equal a full re-evaluation's."""

from __future__ import annotations

from rules.battlescribe.engine.constraints import validate
from rules.battlescribe.engine.model import GameData
from rules.battlescribe.engine.roster import UNIT_BLOCK, Roster, unit_blocks


def data() -> GameData:
    return GameData(
        {
            "id": "gs",
            "costTypes": [{"id": "pts", "name": "pts"}],
            "forceEntries": [{"id": "fe", "name": "Horde"}],
        },
        [
            {
                "id": "cat",
                "selectionEntries": [
                    {
                        "id": "se-gob",
                        "name": "Goblins",
                        "type": "unit",
                        "costs": [{"typeId": "pts", "value": 3}],
                        "constraints": [
                            {
                                "id": "c-max",
                                "type": "max",
                                "value": 60,
                                "field": "selections",
                                "scope": "roster",
                            }
                        ],
                    }
                ],
            }
        ],
    )


def snapshot(roster: Roster) -> tuple:
    return roster.costs(), sorted((e.source, e.owner_id, e.actual) for e in validate(roster))


def test_block_sums_follow_every_kind_of_edit():
    roster = Roster(data())
    force = roster.add_force("fe", "cat")
    units = [roster.select_entry(force, "se-gob") for _ in range(3 * UNIT_BLOCK)]
    snapshot(roster)
    roster.set_count(units[5], 4)
    roster.deselect(units[UNIT_BLOCK + 1])
    roster.duplicate(units[2 * UNIT_BLOCK + 3])
    roster.select_entry(force, "se-gob")
    incremental = snapshot(roster)
    assert len(unit_blocks(force)) == 4
    roster.full_reevaluation()
    assert snapshot(roster) == incremental
    assert incremental[0]["pts"] == 3 * (3 * UNIT_BLOCK - 1 + 1 + 1 + 3)
    assert len(incremental[1]) == 1  # 100 goblins against a roster-wide max of 60
