"""The gauntlet's matchups run under an estimate job's bounds (`gauntlet_live.bounded_matchup`):
past the cost limit or past the per-job memory bound a matchup is left out, never a crash
of the worker's task."""

from __future__ import annotations

from pathlib import Path

from armybuilder.estimates.gauntlet_live import LEFT_OUT, bounded_matchup
from rules.systems.opr.unit_format.writer import unit_to_dict
from rules.systems.registry import get_system
from tests.rules.systems.opr.test_compute_cost import attacker as grid_attacker
from tests.rules.systems.opr.test_compute_cost import defender as grid_defender
from tests.rules.systems.opr.test_compute_cost import shooters, two_profile_horde

SHOOTING = {"mode": "shooting", "range_inches": 12.0}


def in_a_fresh_process(test: str) -> None:
    """Run `test` (a function of this module) in a new Python process, as a worker's pool child
    starts. The memory bound is RLIMIT_DATA over the process's data in use: in a process whose
    earlier work left a large free heap (another test file run first in the same pytest
    process), tens of MB fit in that heap and no allocation reaches the limit, so what these
    tests show depends on the order of the files unless the process is new."""
    import subprocess
    import sys

    code = ("import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'armybuilder.settings'); "
            "django.setup(); "
            f"from tests.armybuilder.estimates import test_gauntlet_bounds as module; module.{test}()")
    root = Path(__file__).resolve().parents[3]
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                          check=False, cwd=root)
    assert done.returncode == 0, done.stderr[-3000:]


def test_a_matchup_inside_the_bounds_is_computed(settings):
    settings.ESTIMATE_JOB_MEMORY_MB = 400
    figures = bounded_matchup(get_system("opr"), shooters(), two_profile_horde(20), SHOOTING)
    assert not figures.get("left_out")
    assert figures["expected_kills"] > 0


def test_a_matchup_past_the_memory_bound_is_left_out_not_crashed():
    in_a_fresh_process("memory_bound_leaves_out")


def memory_bound_leaves_out() -> None:
    """Its cost model accepts it, but the bound is set below what it allocates (as when a
    model under-predicts): MemoryError inside the bound, the matchup left out, the limit put back."""
    import resource

    from django.conf import settings

    before = resource.getrlimit(resource.RLIMIT_DATA)
    settings.ESTIMATE_JOB_MEMORY_MB = 1
    attacker, defender = unit_to_dict(grid_attacker(10, 4)), unit_to_dict(grid_defender(50, 10, 1))
    assert get_system("opr").estimate_cost(attacker, defender, SHOOTING)[1] > 20 * 2**20  # tens of MB
    figures = bounded_matchup(get_system("opr"), attacker, defender, SHOOTING)
    assert figures == LEFT_OUT
    assert resource.getrlimit(resource.RLIMIT_DATA) == before


def test_a_matchup_past_the_cost_limit_is_left_out_without_computing():
    # 32 different weapons on 20 models against 150 + 150 mixed models: minutes and gigabytes
    # (the same weapon copied 16 times merges into one group, which the cost model sees as cheap)
    huge, horde = unit_to_dict(grid_attacker(20, 32)), unit_to_dict(grid_defender(2, 150, 3))
    assert bounded_matchup(get_system("opr"), huge, horde, SHOOTING) == LEFT_OUT


def test_a_batch_sets_the_bound_once_and_still_leaves_out_each_matchup_past_it():
    in_a_fresh_process("batch_bound_leaves_out")


def batch_bound_leaves_out() -> None:
    """`bounded_batch`: one memory bound for the batch (the process's memory read once, and once
    more for the retry of the matchup past it), yet that matchup is left out, the one past the
    cost limit is left out without computing, the others are exactly the unbounded figures, and
    the limit is put back."""
    import resource

    from django.conf import settings

    import armybuilder.celery
    from armybuilder.estimates.gauntlet import matchup_figures
    from armybuilder.estimates.gauntlet_live import bounded_batch

    reads: list[int | None] = []
    real_read = armybuilder.celery.data_in_use
    armybuilder.celery.data_in_use = lambda: reads.append(real_read()) or reads[-1]
    system = get_system("opr")
    before = resource.getrlimit(resource.RLIMIT_DATA)
    settings.ESTIMATE_JOB_MEMORY_MB = 8
    small = (shooters(), two_profile_horde(5), SHOOTING)
    past_memory = (unit_to_dict(grid_attacker(10, 4)), unit_to_dict(grid_defender(50, 10, 1)), SHOOTING)
    past_cost = (unit_to_dict(grid_attacker(20, 32)), unit_to_dict(grid_defender(2, 150, 3)), SHOOTING)
    assert system.estimate_cost(*past_memory)[1] > 20 * 2**20  # tens of MB: past an 8 MB bound
    items = [(f"batch-bound:small:{i}", *small) for i in range(8)]
    items[3:3] = [("batch-bound:memory", *past_memory), ("batch-bound:cost", *past_cost)]
    into: dict = {}
    bounded_batch(system, items, into)
    assert len(reads) == 2 and reads[0] is not None
    assert into["batch-bound:memory"] == LEFT_OUT and into["batch-bound:cost"] == LEFT_OUT
    figures = matchup_figures(system, *small)
    assert not figures.get("left_out")
    assert all(into[f"batch-bound:small:{i}"] == figures for i in range(8))
    assert resource.getrlimit(resource.RLIMIT_DATA) == before
