"""A count inside a unit (a constraint of scope parent) and a selection's cost read only the
selection's own subtree (`Selection.node_bucket`): a model added to a unit recounts and re-sums
the unit, not each of its other models, and the incremental errors and costs still equal a full
re-evaluation's."""

from __future__ import annotations

from rules.battlescribe.engine.constraints import validate
from rules.battlescribe.engine.model import GameData
from rules.battlescribe.engine.roster import Roster, Selection


def limit(cid: str, value: int) -> dict:
    return {"id": cid, "type": "max", "value": value, "field": "selections", "scope": "parent"}


def data() -> GameData:
    gun = {
        "id": "se-gun",
        "name": "Gun",
        "type": "upgrade",
        "constraints": [limit("c-gun", 1)],
        "costs": [{"typeId": "pts", "value": 5}],
    }
    model = {
        "id": "se-model",
        "name": "Warrior",
        "type": "model",
        "constraints": [limit("c-models", 3)],
        "selectionEntries": [gun],
        "costs": [{"typeId": "pts", "value": 10}],
    }
    return GameData(
        {
            "id": "gs",
            "costTypes": [{"id": "pts", "name": "pts"}],
            "forceEntries": [{"id": "fe", "name": "Army"}],
        },
        [
            {
                "id": "cat",
                "selectionEntries": [
                    {"id": "se-squad", "name": "Squad", "type": "unit", "selectionEntries": [model]}
                ],
            }
        ],
    )


def snapshot(roster: Roster) -> tuple:
    return roster.costs(), sorted((e.source, e.owner_id, e.actual) for e in validate(roster))


def count_keys(roster: Roster, container: Selection) -> list:
    """The cached constraint counts taken in `container`."""
    return [k for k in roster.cache.nodes if k[0] == "cc" and k[1] == id(container)]


def test_a_model_added_to_a_unit_leaves_the_counts_inside_its_other_models_up_to_date():
    roster = Roster(data())
    force = roster.add_force("fe", "cat")
    squad = roster.select_entry(force, "se-squad")
    first = roster.select_child(squad, "se-model")
    roster.select_child(first, "se-gun")
    snapshot(roster)
    inside_first, in_squad = count_keys(roster, first), count_keys(roster, squad)
    assert inside_first and in_squad
    second = roster.select_child(squad, "se-model")
    # The squad's count of models moved; the count of guns in the first model did not.
    assert all(roster.cache.nodes[k].dirty for k in in_squad)
    assert not any(roster.cache.nodes[k].dirty for k in inside_first)
    assert not roster.cache.nodes[("cost", id(first), "pts")].dirty  # nor the first model's cost
    assert roster.cache.nodes[("cost", id(squad), "pts")].dirty
    roster.select_child(second, "se-gun")
    roster.select_child(second, "se-gun")  # two guns: over the limit of one per model
    for _ in range(2):
        roster.select_child(squad, "se-model")  # four models: over the limit of three
    incremental = snapshot(roster)
    assert incremental[1] == [("se-gun/c-gun", "se-model", 2.0), ("se-model/c-models", "se-squad", 4.0)]
    roster.full_reevaluation()
    assert snapshot(roster) == incremental
    roster.deselect(second.children[0])  # back to one gun
    roster.deselect_all(squad.children[-1])  # and three models
    incremental = snapshot(roster)
    assert incremental[1] == []
    roster.full_reevaluation()
    assert snapshot(roster) == incremental
