"""How a fanned-out job is cut into parts (`fanout.parts_of`): runs of consecutive rows of
about the same predicted cost, so each message carries enough work to pay for itself."""

from __future__ import annotations

import pytest

from armybuilder.estimates import fanout
from armybuilder.estimates.bounds import list_vs_list_costs
from armybuilder.estimates.inputs import army_inputs
from rules.systems.registry import get_system
from tests.factories.estimate_lists import distinct_units


def test_cheap_rows_share_a_part_of_at_least_the_minimum():
    rows = [f"a{i}" for i in range(10)]
    parts = fanout.parts_of(rows, dict.fromkeys(rows, 0.1))
    assert [row for part in parts for row in part] == rows  # every row once, in order
    assert [len(part) for part in parts] == [5, 5]  # 0.5 s each


def test_costly_rows_make_at_most_max_parts_of_even_cost():
    rows = [f"a{i}" for i in range(64)]
    seconds = {row: (4.0 if i % 8 == 0 else 1.0) for i, row in enumerate(rows)}
    parts = fanout.parts_of(rows, seconds)
    assert len(parts) <= fanout.MAX_PARTS + 1
    totals = [sum(seconds[r] for r in part) for part in parts]
    target = sum(seconds.values()) / fanout.MAX_PARTS
    assert all(total <= 2 * target for total in totals)
    assert [row for part in parts for row in part] == rows


def test_row_seconds_add_up_each_rows_pairs():
    a, b = distinct_units("A", 3), distinct_units("B", 2)
    inputs = {"list_a": army_inputs(name="A", units=[(u["name"], u) for u in a]),
              "list_b": army_inputs(name="B", units=[(u["name"], u) for u in b]), "situation": {}}
    costs = list_vs_list_costs(system=get_system("opr"), inputs=inputs)
    seconds = fanout.row_seconds(inputs, costs)
    assert set(seconds) == {"a0", "a1", "a2", "b0", "b1"}
    assert sum(seconds.values()) == pytest.approx(sum(costs.values()), rel=1e-12)  # same terms, another order


def test_the_rows_a_part_holds_are_read_from_its_task_id():
    task_ids = {fanout.part_task_id("job", ["a0", "a1"]), fanout.row_task_id("job", "b3"),
                fanout.part_task_id("other", ["a2"])}
    assert fanout.rows_held("job", task_ids) == {"a0", "a1", "b3"}
