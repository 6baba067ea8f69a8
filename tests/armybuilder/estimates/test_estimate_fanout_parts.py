"""How a fanned-out job is cut into parts (`fanout.parts_of`): a power of two of parts of
about the same predicted cost, costliest first, so that 1, 2 or 4 processes finish together and
each message carries enough work to pay for itself."""

from __future__ import annotations

from typing import Any

import pytest
import redis
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from armybuilder.estimates import fanout
from armybuilder.estimates.bounds import list_vs_list_costs
from armybuilder.estimates.compute import list_vs_list
from armybuilder.estimates.inputs import army_inputs, list_vs_list_inputs
from armybuilder.estimates.models import Estimate
from rules.systems.registry import get_system
from tests.armybuilder.estimates.test_estimate_worker import as_stored
from tests.factories.estimate_lists import distinct_units


def every_row_once(parts: list[list[str]], rows: list[str]) -> bool:
    return sorted(row for part in parts for row in part) == sorted(rows)


def test_cheap_rows_share_parts_of_at_least_the_minimum_a_power_of_two_of_them():
    rows = [f"a{i}" for i in range(10)]
    # 5 parts of the minimum would fit: 4 are made.
    parts = fanout.parts_of(rows, dict.fromkeys(rows, fanout.PART_MIN_SECONDS / 2))
    assert len(parts) == 4
    assert every_row_once(parts, rows)
    assert sorted(len(part) for part in parts) == [2, 2, 3, 3]
    assert all(part == sorted(part, key=rows.index) for part in parts)  # result order within a part


def test_a_job_too_cheap_to_cut_is_one_part():
    rows = [f"b{i}" for i in range(3)]
    assert fanout.parts_of(rows, dict.fromkeys(rows, fanout.PART_MIN_SECONDS / 4)) == [rows]


@pytest.mark.parametrize("minimums, count", [(0.0, 1), (1.9, 1), (2.0, 2), (8.0, 8), (15.9, 8), (1000.0, 16)])
def test_the_part_count_is_a_power_of_two_of_at_least_the_minimum_each(minimums, count):
    assert fanout.part_count(minimums * fanout.PART_MIN_SECONDS) == count


def test_costly_uneven_rows_make_max_parts_of_even_cost_costliest_first():
    rows = [f"a{i}" for i in range(64)]
    seconds = {row: (4.0 if i % 8 == 0 else 1.0) for i, row in enumerate(rows)}
    parts = fanout.parts_of(rows, seconds)
    assert len(parts) == fanout.MAX_PARTS
    assert every_row_once(parts, rows)
    totals = [sum(seconds[r] for r in part) for part in parts]
    assert totals == sorted(totals, reverse=True)
    # Greedy on the costliest row first: no part is more than one row above another.
    assert max(totals) - min(totals) <= max(seconds.values())
    assert max(totals) <= 1.1 * sum(totals) / len(totals)


def test_two_processes_get_the_same_share_of_parts_taken_in_turn():
    rows = [f"a{i}" for i in range(20)] + [f"b{j}" for j in range(20)]
    seconds = {row: fanout.PART_MIN_SECONDS * (0.5 + 0.1 * (i % 7)) for i, row in enumerate(rows)}
    parts = fanout.parts_of(rows, seconds)
    totals = [sum(seconds[r] for r in part) for part in parts]
    first, second = sum(totals[0::2]), sum(totals[1::2])
    assert len(parts) % 2 == 0
    assert abs(first - second) <= 0.05 * (first + second)


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


def run_part(estimate: Estimate, rows: list[str], monkeypatch: pytest.MonkeyPatch) -> tuple[str, int, int]:
    """What the part task said, and the database queries and Redis round trips it made."""
    sent: list[bytes] = []
    original = redis.connection.Connection.send_packed_command

    def counted(self: redis.connection.Connection, command: Any, *args: Any, **kwargs: Any) -> None:
        sent.append(command)
        original(self, command, *args, **kwargs)

    with monkeypatch.context() as patch, CaptureQueriesContext(connection) as queries:
        patch.setattr(redis.connection.Connection, "send_packed_command", counted)
        outcome = fanout.compute_part.apply((str(estimate.pk), rows)).get()
    return outcome, len(queries), len(sent)


@pytest.mark.django_db
def test_a_part_reads_and_writes_once_whatever_its_rows(monkeypatch):
    """A part's fixed cost is what limits the fan-out's speed-up: one read of the job, one
    progress write and a few Redis round trips, the same for one row as for six."""
    system, inputs = list_vs_list_inputs(
        system_key="opr", situation={"mode": "shooting", "range_inches": 12},
        list_a=army_inputs(name="A", units=[(u["name"], u) for u in distinct_units("A", 6)]),
        list_b=army_inputs(name="B", units=[(u["name"], u) for u in distinct_units("B", 6)]))
    estimate = Estimate.objects.create(kind=Estimate.Kind.LIST_VS_LIST, system=system, inputs=inputs,
                                       inputs_hash="parts", status=Estimate.Status.RUNNING,
                                       started=timezone.now())

    fanout._redis().ping()  # the connection is made before counting
    one = run_part(estimate, ["a0"], monkeypatch)
    five = run_part(estimate, ["a1", "a2", "a3", "a4", "a5"], monkeypatch)
    last = run_part(estimate, [f"b{j}" for j in range(6)], monkeypatch)

    assert one == ("row done", 2, 5)  # the job read, the progress; 5 Redis round trips
    assert five == one
    assert last[0] == "done"
    estimate.refresh_from_db()
    assert estimate.status == Estimate.Status.DONE and estimate.progress == 1.0
    assert estimate.result == as_stored(list_vs_list(system, inputs))
