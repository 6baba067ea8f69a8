"""A list job is priced by what it computes: its cells (`GameSystem.cell_cost`, issue 42).

A list-vs-list job calls `cell_attack` per matchup, which for WHFB, RU and AoS does much
less than `attack`; pricing its matchups at `attack`'s cost refused big jobs that compute well
inside the limit. Here: the job's pricing is the cell price, a system without one falls back
to `estimate_cost`, and the cell price stays within the cost-model tests' 3× of what a cell
really costs (the traced peak both ways; interpreter calls past it, as
`test_cost_models_adversarial` counts them)."""

from __future__ import annotations

import itertools
import random

import pytest

from armybuilder.estimates import bounds
from armybuilder.estimates.inputs import army_inputs
from rules.systems.registry import get_system
from tests.factories.cost_inputs import WITHIN, hill_climb, measure_memory, overshoot, random_samples

#: The systems whose list jobs' cells have a price of their own: WHFB, RU and AoS compute
#: cells of their own (`matrix_attack`); OPR's cell is `attack` on units the job prepared once,
#: priced as its engine does the work (`rules.systems.opr.compute_cost.estimate_cell_cost`).
CELL_PRICED = ("whfb6", "ru_whfb", "aos1", "opr")


def _samples(key: str, seed: int, how_many: int) -> list:
    return list(itertools.islice(random_samples(key, random.Random(seed), cell=True), how_many))


def _job(samples: list) -> dict:
    """A list job of the samples' attackers against their defenders (one situation: the first's)."""
    mine = [(f"A{i}", s.attacker) for i, s in enumerate(samples)]
    theirs = [(f"D{i}", s.defender) for i, s in enumerate(samples)]
    return {"list_a": army_inputs(name="Mine", units=mine),
            "list_b": army_inputs(name="Theirs", units=theirs), "situation": samples[0].situation}


@pytest.mark.parametrize("key", CELL_PRICED)
def test_a_list_job_is_predicted_by_the_cell_price(key):
    system = get_system(key)
    assert system.estimate_cell_cost is not None and system.cell_cost is system.estimate_cell_cost
    inputs = _job(_samples(key, 7, 4))
    costs = bounds.list_vs_list_costs(system=system, inputs=inputs)
    situation = inputs["situation"]
    units = {bounds._canonical(row["unit"]): row["unit"]
             for side in ("list_a", "list_b") for row in inputs[side]["units"]}
    cells = {pair: bounds.cell_cost(system, units[pair[0]], units[pair[1]], situation)[0] for pair in costs}
    full = {pair: bounds.matchup_cost(system, units[pair[0]], units[pair[1]], situation)[0] for pair in costs}
    assert costs == cells
    # Every cell is priced at most as `attack`, and the job as a whole below it: a cell does less.
    assert all(cells[pair] <= full[pair] * 1.0001 for pair in costs)
    assert sum(cells.values()) < sum(full.values())
    refusal, job_costs = bounds.job_refusal(system=system, inputs=inputs)
    assert refusal is None and job_costs == costs


def test_a_job_refused_at_attack_s_price_is_accepted_at_its_cells(settings):
    """AoS cells cost a fraction of `attack` (no battleshock distributions): with the job limit
    between the two totals, the job computes instead of being refused."""
    system = get_system("aos1")
    inputs = _job(_samples("aos1", 3, 5))
    cells = sum(bounds.list_vs_list_costs(system=system, inputs=inputs).values())
    pairs = bounds._sides(inputs)
    full = sum(bounds.matchup_cost(system, a, d, inputs["situation"])[0]
               for _, rows, columns in pairs for _, a in rows.values() for _, d in columns.values())
    assert cells < full
    settings.CELERY_TASK_SOFT_TIME_LIMIT = (cells + full) / 2 / bounds.JOB_SHARE_OF_SOFT_LIMIT
    assert bounds.job_refusal(system=system, inputs=inputs)[0] is None
    settings.CELERY_TASK_SOFT_TIME_LIMIT = full / 2 / bounds.JOB_SHARE_OF_SOFT_LIMIT
    refusal, _ = bounds.job_refusal(system=system, inputs=inputs)
    assert refusal is not None and "per job" in refusal


def test_a_system_without_a_cell_price_prices_its_cells_as_attack():
    system = get_system("wh40k9")
    assert system.estimate_cell_cost is None and system.cell_cost is system.estimate_cost
    [sample] = _samples("wh40k9", 5, 1)
    assert (bounds.cell_cost(system, sample.attacker, sample.defender, sample.situation)
            == bounds.matchup_cost(system, sample.attacker, sample.defender, sample.situation))


@pytest.mark.parametrize("key", CELL_PRICED)
def test_a_cell_s_predicted_memory_is_within_the_cost_models_band(key):
    """The traced peak of `cell_attack` on prepared units (deterministic, unlike a clock)
    against the cell's predicted bytes, both ways."""
    for sample in _samples(key, 11, 8):
        assert sample.cell
        ratio = sample.predicted_bytes / measure_memory(sample)
        assert 1 / WITHIN <= ratio <= WITHIN, (key, ratio, sample.inputs)


@pytest.mark.parametrize("key", CELL_PRICED)
def test_no_accepted_cell_found_past_its_predicted_cost(key):
    """`test_cost_models_adversarial`'s search on list jobs' cells and their price."""
    found = hill_climb(key, random.Random(2026), evaluations=16, score=overshoot, restarts=2, cell=True)
    assert len(found) >= 8 and all(sample.cell for _, sample in found)
    worst, sample = found[0]
    assert worst <= 1.0, (key, worst, sample.inputs)
