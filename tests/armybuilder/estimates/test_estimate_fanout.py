"""A list-vs-list job shared by several real workers through the broker (issue 16, `fanout`)."""

from __future__ import annotations

import pytest
from django.db import connection

from armybuilder.estimates import fanout
from armybuilder.estimates.bounds import list_vs_list_costs, screen_costs
from armybuilder.estimates.compute import list_vs_list
from armybuilder.estimates.fanout import rows_of, workers_of
from armybuilder.estimates.inputs import army_inputs, list_vs_list_inputs
from armybuilder.estimates.models import Estimate
from armybuilder.estimates.services import estimate_request
from rules.systems.registry import get_system
from tests.armybuilder.estimates.test_estimate_worker import as_stored, wait_for
from tests.conftest import start_worker, stop_worker, wait_for_worker
from tests.factories.opr_documents import BLADE, LAUNCHER, RIFLE, opr_unit

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def squads(prefix: str, how_many: int) -> list[dict]:
    """Units that take a few tens of milliseconds per row, all different."""
    return [opr_unit(f"{prefix} {i}", count=20 + 7 * i, quality=3 + i % 3, defence=3 + i % 4,
                     toughness=1 + i % 3, weapons=[RIFLE, BLADE, LAUNCHER]) for i in range(how_many)]


def job_inputs(units_a: list[dict], units_b: list[dict]) -> tuple[str, dict]:
    return list_vs_list_inputs(
        system_key="opr", situation={"mode": "shooting", "range_inches": 12},
        list_a=army_inputs(name="Mine", units=[(u["name"], u) for u in units_a]),
        list_b=army_inputs(name="Theirs", units=[(u["name"], u) for u in units_b]))


def run_job(system: str, inputs: dict, *worker_names: str) -> Estimate:
    workers = [start_worker(connection.settings_dict["NAME"], "-n", f"{name}@%h") for name in worker_names]
    try:
        wait_for_worker()
        estimate = estimate_request(kind=Estimate.Kind.LIST_VS_LIST, system=system, inputs=inputs)
        return wait_for(estimate, lambda e: e.is_finished, timeout=180, what="finished")
    finally:
        for worker in workers:
            stop_worker(worker)


def test_two_workers_share_the_rows_and_give_what_one_worker_gives(monkeypatch):
    # Sharing is what is tested, not where fan-out starts to pay: this job is predicted (and
    # measured) at under a second, below the threshold, so the workers are told to fan out anyway,
    # into a part per row.
    monkeypatch.setenv("ESTIMATE_FAN_OUT_MIN_SECONDS", "0")
    monkeypatch.setenv("ESTIMATE_FAN_OUT_PART_SECONDS", "0")
    system, inputs = job_inputs(squads("Mine", 8), squads("Theirs", 8))
    assert len(rows_of(inputs)) == 16

    shared = run_job(system, inputs, "first", "second")

    assert shared.status == Estimate.Status.DONE, shared.error
    assert shared.progress == 1.0 and shared.attempts == 1
    hosts = workers_of(str(shared.pk))
    assert {h.split("@")[0] for h in hosts} == {"first", "second"}
    # The same answer as one process computing the whole job (the stored JSON of it).
    assert shared.result == as_stored(list_vs_list(system, inputs))
    # Fanned out on its screen: every part priced its own rows, once each.
    store = fanout._redis()
    assert not store.exists(fanout._key(str(shared.pk), "priced"))
    assert store.hlen(fanout._key(str(shared.pk), "priced_rows")) == 16

    Estimate.objects.all().delete()  # the same question again must be computed, not reused
    alone = run_job(system, inputs, "alone")
    assert alone.status == Estimate.Status.DONE, alone.error
    assert {h.split("@")[0] for h in workers_of(str(alone.pk))} == {"alone"}
    assert alone.result == shared.result


def threshold_between_the_predictions(monkeypatch, inputs: dict) -> tuple[float, float]:
    """(the screened prediction, the exact one) of this OPR job; the workers' fan-out threshold
    is set halfway between them, and every row may be its own part."""
    opr = get_system("opr")
    screened = sum(fanout.row_seconds(inputs, screen_costs(system=opr, inputs=inputs)).values())
    exact = sum(list_vs_list_costs(system=opr, inputs=inputs).values())
    monkeypatch.setenv("ESTIMATE_FAN_OUT_MIN_SECONDS", repr((screened + exact) / 2))
    monkeypatch.setenv("ESTIMATE_FAN_OUT_PART_SECONDS", "0")
    return screened, exact


def test_a_job_the_screen_calls_small_is_priced_whole_and_fans_out_on_its_exact_price(monkeypatch):
    """The screen (each row at its mean against the largest opponents) under-predicts here: the
    two hordes are the largest, and the tough units, cheaper to pick but costlier to compute,
    are not screened. Between the two predictions, the threshold: every matchup is priced in
    the parent first, the job fans out on that exact price, and the parts price nothing."""
    hordes = [opr_unit(f"Horde {i}", count=40, quality=5, defence=6, toughness=1, weapons=[RIFLE, BLADE])
              for i in range(2)]
    tough = [opr_unit(f"Tough {i}", count=20, quality=3, defence=3, toughness=9) for i in range(3)]
    shooters = [opr_unit(f"Shooter {i}", count=10, quality=3, defence=4, weapons=[RIFLE, LAUNCHER])
                for i in range(3)]
    system, inputs = job_inputs(shooters, hordes + tough)
    screened, exact = threshold_between_the_predictions(monkeypatch, inputs)
    assert screened < exact

    done = run_job(system, inputs, "near")

    assert done.status == Estimate.Status.DONE, done.error
    assert done.result == as_stored(list_vs_list(system, inputs))
    store = fanout._redis()
    assert fanout.is_fanned_out(str(done.pk)) and store.exists(fanout._key(str(done.pk), "priced"))
    assert not store.exists(fanout._key(str(done.pk), "priced_rows"))


def test_a_job_the_screen_calls_large_fans_out_without_being_priced_first(monkeypatch):
    """The screen over-predicts this job a little; with the threshold between the two, the job
    fans out on the screen alone (no pricing of every matchup in the parent, a serial cost)
    and each part prices its own rows."""
    system, inputs = job_inputs(squads("Mine", 3), squads("Theirs", 3))
    screened, exact = threshold_between_the_predictions(monkeypatch, inputs)
    assert exact < screened

    done = run_job(system, inputs, "screened")

    assert done.status == Estimate.Status.DONE, done.error
    assert done.result == as_stored(list_vs_list(system, inputs))
    store = fanout._redis()
    assert fanout.is_fanned_out(str(done.pk)) and not store.exists(fanout._key(str(done.pk), "priced"))
    assert store.hlen(fanout._key(str(done.pk), "priced_rows")) == len(rows_of(inputs))
