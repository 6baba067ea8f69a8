"""How a fanned-out job is cut into parts (`fanout.parts_of`): a power of two of parts of
about the same predicted cost, costliest first, so that 1, 2 or 4 processes finish together and
each message carries enough work to pay for itself."""

from __future__ import annotations

import json
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
from tests.armybuilder.estimates.test_estimate_bounds import heavy_attacker, mixed_horde
from tests.armybuilder.estimates.test_estimate_worker import as_stored
from tests.factories.estimate_lists import distinct_units
from tests.factories.estimate_rows import estimate_set, stored_estimate
from tests.factories.opr_documents import opr_unit


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
    estimate = stored_estimate(kind=Estimate.Kind.LIST_VS_LIST, system=system, inputs=inputs,
                               inputs_hash="parts", status=Estimate.Status.RUNNING,
                               started=timezone.now())

    fanout._redis().set(fanout._key(str(estimate.pk), "priced"), "1")  # priced before it fanned out
    one = run_part(estimate, ["a0"], monkeypatch)
    five = run_part(estimate, ["a1", "a2", "a3", "a4", "a5"], monkeypatch)
    last = run_part(estimate, [f"b{j}" for j in range(6)], monkeypatch)

    assert one == ("row done", 2, 5)  # the job read, the progress; 5 Redis round trips
    assert five == one
    assert last[0] == "done"
    estimate.refresh_from_db()
    assert estimate.status == Estimate.Status.DONE and estimate.progress == 1.0
    assert estimate.result == as_stored(list_vs_list(system, inputs))


def fanned_out_unpriced(size: int) -> Estimate:
    """A running job of `size` × `size` distinct units, fanned out on its screen alone (no
    `priced` marker): each part prices its own rows."""
    system, inputs = list_vs_list_inputs(
        system_key="opr", situation={"mode": "shooting", "range_inches": 12},
        list_a=army_inputs(name="A", units=[(u["name"], u) for u in distinct_units("A", size)]),
        list_b=army_inputs(name="B", units=[(u["name"], u) for u in distinct_units("B", size)]))
    return stored_estimate(kind=Estimate.Kind.LIST_VS_LIST, system=system, inputs=inputs,
                           inputs_hash=f"unpriced-{size}", status=Estimate.Status.RUNNING,
                           started=timezone.now())


@pytest.mark.django_db
def test_a_part_of_a_job_fanned_out_on_its_screen_prices_its_rows_once(monkeypatch):
    """One more round trip (the rows' prices kept, the job's sum read), and a part delivered
    again does not count its rows twice."""
    estimate = fanned_out_unpriced(3)
    job = str(estimate.pk)

    first = run_part(estimate, ["a0", "a1"], monkeypatch)
    assert first == ("row done", 2, 6)
    priced = fanout._redis().hgetall(fanout._key(job, "priced_rows"))
    costs = list_vs_list_costs(system=get_system("opr"), inputs=estimate.inputs)
    def own(i: int) -> float:
        """Row a<i>'s predicted seconds: its unit against every unit of list B."""
        unit = json.dumps(estimate.inputs["list_a"]["units"][i]["unit"], sort_keys=True,
                          separators=(",", ":"))
        return sum(seconds for (attacker, _), seconds in costs.items() if attacker == unit)

    assert set(priced) == {b"a0", b"a1"}
    assert float(priced[b"a0"]) == pytest.approx(own(0), rel=1e-9)  # each row its own price
    assert float(priced[b"a1"]) == pytest.approx(own(1), rel=1e-9)

    fanout._redis().srem(fanout._key(job, "rows_done"), "a0", "a1")  # as if its worker was lost
    run_part(estimate, ["a0", "a1"], monkeypatch)
    again = fanout._redis().hgetall(fanout._key(job, "priced_rows"))
    assert again == priced


@pytest.mark.django_db
def test_a_part_whose_rows_pass_the_jobs_limit_fails_the_job_naming_the_limit(monkeypatch, settings):
    """The screen let the job through; the rows the parts priced add up past the limit."""
    estimate = fanned_out_unpriced(3)
    costs = list_vs_list_costs(system=get_system("opr"), inputs=estimate.inputs)
    # The limit: less than the whole job, more than any one row.
    settings.CELERY_TASK_SOFT_TIME_LIMIT = 2 * 0.6 * sum(costs.values())  # max_job_seconds: half of it
    assert run_part(estimate, ["a0", "a1", "a2"], monkeypatch)[0] == "row done"
    assert run_part(estimate, ["b0", "b1", "b2"], monkeypatch)[0] == "failed"
    estimate.refresh_from_db()
    assert estimate.status == Estimate.Status.FAILED
    assert "the limit is" in estimate.error and "per job" in estimate.error


@pytest.mark.django_db
def test_a_part_with_a_matchup_past_the_limit_fails_the_job_naming_the_unit(monkeypatch):
    estimate = fanned_out_unpriced(2)
    inputs = dict(estimate.inputs,
                  list_a=army_inputs(name="A", units=[("Horde", mixed_horde()),
                                                      ("Scouts", opr_unit("Scouts"))]),
                  list_b=army_inputs(name="B", units=[("Scouts", opr_unit("Scouts")),
                                                      ("Arsenal", heavy_attacker())]))
    estimate_set(estimate.pk, inputs=inputs)
    assert run_part(estimate, ["b0"], monkeypatch)[0] == "row done"
    assert run_part(estimate, ["b1"], monkeypatch)[0] == "failed"
    estimate.refresh_from_db()
    assert estimate.status == Estimate.Status.FAILED
    assert estimate.error.startswith("Arsenal: ") and "300 MB" in estimate.error
