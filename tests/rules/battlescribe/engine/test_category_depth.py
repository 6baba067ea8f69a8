"""A count of a category in a force evaluates the category modifiers of only the selections that
may hold that category, so the stack an evaluation needs does not grow with the roster.

The shape is BSData wh40k 9th's Space Marines: every unit gains a category while its force holds
some other category ("PC: SW" and the like). Counting that other category used to evaluate the
category modifiers of every such unit of the force, each reading the same count again one level
deeper: a 185-unit Ultramarines list ended in a RecursionError. The fixture's names are ours."""

from __future__ import annotations

import sys
from contextlib import contextmanager

import pytest

from rules.battlescribe.engine.constraints import validate
from rules.battlescribe.engine.model import GameData
from rules.battlescribe.engine.roster import Roster


def _when_force_holds(category_id: str) -> dict:
    return {"type": "greaterThan", "field": "selections", "scope": "force", "value": 0,
            "childId": category_id, "shared": True, "includeChildSelections": True}


def _squad(index: int) -> dict:
    """A squad of its own entry (each with its own modifier, as in the data) that becomes a
    Veteran while its force holds a Banner."""
    return {
        "id": f"se-squad-{index}",
        "name": f"Squad {index}",
        "type": "unit",
        "costs": [{"typeId": "pts", "value": 10}],
        "categoryLinks": [{"id": f"cl-squad-{index}", "targetId": "cat-line", "primary": True}],
        "modifiers": [
            {"type": "add", "field": "category", "value": "cat-veteran",
             "conditions": [_when_force_holds("cat-banner")]},
        ],
    }


SQUADS = 12


def data() -> GameData:
    return GameData(
        {
            "id": "gs",
            "costTypes": [{"id": "pts", "name": "pts"}],
            "categoryEntries": [
                {"id": "cat-line", "name": "Line"},
                {"id": "cat-veteran", "name": "Veterans"},
                {"id": "cat-banner", "name": "Banner"},
            ],
            "forceEntries": [
                {
                    "id": "fe",
                    "name": "Host",
                    "categoryLinks": [
                        {"id": "fl-line", "targetId": "cat-line"},
                        {
                            "id": "fl-veteran",
                            "targetId": "cat-veteran",
                            "constraints": [{"id": "c-vet", "type": "max", "value": 5,
                                             "field": "selections", "scope": "parent",
                                             "includeChildSelections": True, "shared": True}],
                        },
                        {"id": "fl-banner", "targetId": "cat-banner"},
                    ],
                }
            ],
        },
        [
            {
                "id": "cat",
                "selectionEntries": [
                    *(_squad(i) for i in range(SQUADS)),
                    {
                        "id": "se-banner",
                        "name": "Banner Bearer",
                        "type": "unit",
                        "categoryLinks": [{"id": "cl-banner", "targetId": "cat-banner", "primary": True}],
                    },
                ],
            }
        ],
    )


def roster_of(squads: int, banner: bool) -> tuple[Roster, list]:
    roster = Roster(data())
    force = roster.add_force("fe", "cat")
    units = [roster.select_entry(force, f"se-squad-{i % SQUADS}") for i in range(squads)]
    if banner:
        roster.select_entry(force, "se-banner")
    roster.full_reevaluation()
    return roster, units


@contextmanager
def deepest_frame():
    """Record the deepest stack (frames below the caller's) reached inside the block."""
    base = len(_frames())
    seen = {"depth": 0}

    def profile(frame, event, _arg):
        if event == "call":
            depth = 0
            while frame is not None:
                depth += 1
                frame = frame.f_back
            seen["depth"] = max(seen["depth"], depth - base)

    sys.setprofile(profile)
    try:
        yield seen
    finally:
        sys.setprofile(None)


def _frames() -> list:
    frame, out = sys._getframe(1), []
    while frame is not None:
        out.append(frame)
        frame = frame.f_back
    return out


def evaluate(roster: Roster, units: list) -> tuple:
    categories = [u.category_ids() for u in units]
    errors = sorted((e.source, e.actual) for e in validate(roster))
    return categories, errors


@pytest.mark.parametrize("banner", [True, False])
def test_a_category_count_evaluates_only_the_selections_that_may_hold_it(banner):
    roster, units = roster_of(240, banner)
    with deepest_frame() as big:
        categories, errors = evaluate(roster, units)
    expected = ("cat-line", "cat-veteran") if banner else ("cat-line",)
    assert all(c == expected for c in categories)
    # 240 Veterans against a max of 5 in the force; none without a Banner.
    assert [actual for _source, actual in errors] == ([240.0] if banner else [])

    small, small_units = roster_of(20, banner)
    with deepest_frame() as few:
        evaluate(small, small_units)
    # About the same stack for 20 squads as for 240 (it grew by some 20 frames a squad, so
    # thousands at 240); a frame or two either way is which of the walks first fills a cache
    # entry (34 against 33 seen in CI).
    assert abs(big["depth"] - few["depth"]) <= 4
    assert big["depth"] < 200


def test_a_large_roster_evaluates_within_a_small_stack():
    """Under a recursion limit a few hundred frames above the caller's, a 240-unit roster is
    evaluated from scratch and edited: no RecursionError, and what an edit gives equals a full
    re-evaluation's."""
    roster, units = roster_of(240, True)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(len(_frames()) + 300)
    try:
        force = roster.forces[0]
        evaluate(roster, units)
        units.append(roster.select_entry(force, "se-squad-0"))
        edited = evaluate(roster, units)
    finally:
        sys.setrecursionlimit(limit)
    roster.full_reevaluation()
    assert evaluate(roster, units) == edited
    assert edited[1] == [(edited[1][0][0], 241.0)]
