"""The questions the importer asks of a roster while it grows a unit (`engine.query`): the unit's
costs summed in one walk with same-shaped siblings evaluated once (`costs_only`, `shapes`) equal
the engine's own totals, and a scratch cache (`ScratchCache`) answers within one state of the
roster only and leaves the roster's own cache as it was."""

from __future__ import annotations

from rules.battlescribe.engine.evalcache import ScratchCache
from rules.battlescribe.engine.model import GameData
from rules.battlescribe.engine.query import cost_only, costs_only, scratch, shapes
from rules.battlescribe.engine.roster import Roster, Selection


def _counted(kind: str, value: int) -> dict:
    """A condition or repeat counting the squad's Warriors (scope: the squad)."""
    out = {"field": "selections", "scope": "se-squad", "value": value, "childId": "se-model", "shared": True}
    out.update({"type": "atLeast"} if kind == "condition" else {"repeats": 1, "includeChildSelections": True})
    return out


def data() -> GameData:
    gun = {
        "id": "se-gun",
        "name": "Gun",
        "type": "upgrade",
        # Free from the third Warrior on: a gun's price reads the whole squad.
        "modifiers": [{"type": "set", "field": "pts", "value": 0, "conditions": [_counted("condition", 3)]}],
        "costs": [{"typeId": "pts", "value": 5}],
    }
    model = {
        "id": "se-model",
        "name": "Warrior",
        "type": "model",
        "selectionEntries": [gun],
        # +1 pt per Warrior in the squad, and a quarter of a Power each.
        "modifiers": [
            {"type": "increment", "field": "pts", "value": 1, "repeats": [_counted("repeat", 1)]},
            {"type": "increment", "field": "pl", "value": 0.25, "repeats": [_counted("repeat", 1)]},
        ],
        "costs": [{"typeId": "pts", "value": 10}],
    }
    return GameData(
        {
            "id": "gs",
            "costTypes": [{"id": "pts", "name": "pts"}, {"id": "pl", "name": "PL"}],
            "forceEntries": [{"id": "fe", "name": "Army"}],
        },
        [
            {
                "id": "cat",
                "selectionEntries": [
                    {
                        "id": "se-squad",
                        "name": "Squad",
                        "type": "unit",
                        "selectionEntries": [model],
                        "costs": [{"typeId": "pl", "value": 3}],
                    }
                ],
            }
        ],
    )


def squad(models: int) -> tuple[Roster, Selection]:
    """A squad of `models` Warriors with a gun each, the last with a second gun."""
    roster = Roster(data())
    force = roster.add_force("fe", "cat")
    unit = roster.select_entry(force, "se-squad")
    for _ in range(models):
        warrior = roster.select_child(unit, "se-model")
        roster.select_child(warrior, "se-gun")
    roster.select_child(unit.children[-1], "se-gun")
    return roster, unit


def test_costs_summed_once_for_same_shaped_models_equal_the_engines_totals():
    for models in (1, 2, 3, 5):
        _roster, unit = squad(models)
        expected = {t: unit.cost(t) for t in ("pts", "pl")}
        assert costs_only(unit, ["pts", "pl"]) == expected == {t: cost_only(unit, t) for t in expected}
    # 5 Warriors at 10 + 5 each, their guns free: 75 pts; 3 + 5 x 1.25 Power
    assert expected == {"pts": 75.0, "pl": 9.25}


def test_siblings_of_one_option_number_and_children_have_one_shape():
    _roster, unit = squad(3)
    shape = shapes()
    first, second, last = unit.children
    assert shape(first) == shape(second) != shape(last)  # the last Warrior has two guns
    assert shape(first.children[0]) == shape(second.children[0])


def test_a_scratch_cache_answers_for_one_state_of_the_roster_and_is_put_away():
    roster, unit = squad(2)
    assert unit.cost("pts") == 2 * 12 + 3 * 5
    kept = roster.cache
    with scratch(roster):
        assert isinstance(roster.cache, ScratchCache)
        assert unit.cost("pts", include_children=False) == 0
        assert roster.cache.values
        third = roster.select_child(unit, "se-model")  # a change empties it
        assert cost_only(unit, "pts") == 3 * 13 + 0
        roster.deselect_all(third)
    assert roster.cache is kept
    assert unit.cost("pts") == 2 * 12 + 3 * 5
