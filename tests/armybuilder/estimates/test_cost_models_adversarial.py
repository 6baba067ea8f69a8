"""An adversarial search for accepted inputs that cost more than their system's cost model
predicts: from random catalogue matchups, a hill climb keeps every change (a group resized, a
weapon swapped or copied, a rule added) that brings the measured cost closer past the
prediction. Measured without a clock (the CI machine is shared): the `tracemalloc` peak
against the predicted bytes, and the interpreter's calls against the predicted seconds
(`tests.factories.cost_inputs.overshoot`). The full search, with CPU time too, is
`bench/bench_adversarial_costs.py`."""

from __future__ import annotations

import random

import pytest

from armybuilder.estimates.bounds import MAX_MATCHUP_BYTES
from tests.factories.cost_inputs import SYSTEM_KEYS, hill_climb, measure_memory, overshoot

#: Evaluations per system: a few seconds in all.
BUDGET = 24


@pytest.mark.parametrize("key", SYSTEM_KEYS)
def test_no_accepted_input_found_past_its_predicted_cost(key):
    found = hill_climb(key, random.Random(2026), evaluations=BUDGET, score=overshoot, restarts=3)
    assert len(found) >= BUDGET // 2  # the search really ran on accepted inputs
    worst, sample = found[0]
    assert worst <= 1.0, (f"{key}: measured {worst:.2f}× past {3}× its prediction "
                          f"({sample.predicted_seconds:.4f} s, {sample.predicted_bytes} B): {sample.inputs}")


def test_the_overshoot_measure_sees_a_cost_model_that_under_predicts():
    """The measure can fail: the same AoS matchup with its prediction cut a hundredfold."""
    from dataclasses import replace

    sample = next(s for _, s in hill_climb("aos1", random.Random(5), evaluations=4, score=lambda s: 0.0)
                  if s.predicted_bytes > 0)
    assert overshoot(sample) <= 1.0
    cut = replace(sample, predicted_seconds=sample.predicted_seconds / 100,
                  predicted_bytes=sample.predicted_bytes // 100)
    assert overshoot(cut) > 1.0
    assert measure_memory(sample) < MAX_MATCHUP_BYTES
