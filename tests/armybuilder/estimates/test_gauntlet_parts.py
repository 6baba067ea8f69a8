"""The order in which a gauntlet job computes its missing matchups (`gauntlet_live`): the unit
just edited first, in the part the job computes itself (issue 42)."""

from __future__ import annotations

from armybuilder.estimates.gauntlet_live import balanced_parts, first_the_edited


def test_a_unit_none_of_whose_matchups_are_cached_comes_first_then_the_nearest_done():
    groups = [["a1", "a2", "a3"], ["b1", "b2"], ["c1", "c2", "c3"], ["d1"]]
    missing = {"a3", "b1", "b2", "c2", "c3", "d1"}  # b and d: new content; a lacks one, c two
    assert first_the_edited(groups, missing) == [["d1"], ["b1", "b2"], ["a1", "a2", "a3"],
                                                 ["c1", "c2", "c3"]]


def test_each_part_computes_in_the_groups_order_and_the_edited_units_part_is_the_first():
    groups = [["e1", "e2"], ["x1", "x2", "x3", "x4"]]  # e: the edited unit
    seconds = {"e1": 0.1, "e2": 0.1, "x1": 0.3, "x2": 0.3, "x3": 0.3, "x4": 0.3}
    parts = balanced_parts(groups, seconds, 2)
    assert sorted(key for part in parts for key in part) == sorted(seconds)
    assert parts[0][:2] == ["e1", "e2"]  # the job computes the first part itself
    for part in parts:
        ranks = [0 if key.startswith("e") else 1 for key in part]
        assert ranks == sorted(ranks)


def test_a_matchup_met_twice_is_dealt_once():
    """Two identical enemy units meet a unit in the same matchup (one key): it is computed once."""
    parts = balanced_parts([["same", "same", "other"], ["other", "third"]],
                           {"same": 0.1, "other": 0.1, "third": 0.1}, 2)
    assert sorted(key for part in parts for key in part) == ["other", "same", "third"]
