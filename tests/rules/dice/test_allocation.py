"""The allocation state machine (`rules.dice.allocation`): wounds on one model at a time."""

from __future__ import annotations

import numpy as np
import pytest

from rules.dice.allocation import AllocationSpace, Placement, StateDistribution
from rules.dice.pmf import point_mass


def walk(space: AllocationSpace, placement: Placement, events: int) -> int:
    """The state reached from the untouched unit after `events` events."""
    return int(space.paths(placement)[0, min(events, space.max_events(placement.damage))])


def test_one_order_gives_a_chain_of_total_wounds_plus_one_states():
    """ "Models left × wounds on the current model" is one chain when the order is fixed."""
    space = AllocationSpace([2, 3], [3, 1], [Placement((0, 1))])
    assert len(space) == 3 * 2 + 3 + 1
    assert space.total_wounds == 9 and space.total_models == 4
    assert sorted(space.wounds.tolist()) == list(range(10))


def test_wounds_go_to_one_model_until_it_dies():
    space = AllocationSpace([2], [3], [Placement((0,))])
    one = Placement((0,))
    kills = [int(space.models_killed[walk(space, one, k)]) for k in range(8)]
    assert kills == [0, 0, 1, 1, 2, 2, 3, 3]


def test_excess_damage_of_an_event_is_lost_not_carried_over():
    """Deadly(3) on toughness-2 models: each event kills one model, the third wound is lost."""
    space = AllocationSpace([2], [3], [Placement((0,), damage=3)])
    deadly = Placement((0,), damage=3)
    assert space.max_events(3) == 3
    assert [int(space.models_killed[walk(space, deadly, k)]) for k in range(4)] == [0, 1, 2, 3]
    assert [int(space.wounds[walk(space, deadly, k)]) for k in range(4)] == [0, 2, 4, 6]


def test_partial_damage_events_need_ceil_toughness_over_damage():
    """Deadly(2) on toughness 3: two events per model (2 + 1, the second wound of the 2nd lost)."""
    space = AllocationSpace([3], [2], [Placement((0,), damage=2)])
    assert space.max_events(2) == 4
    placement = Placement((0,), damage=2)
    assert [int(space.models_killed[walk(space, placement, k)]) for k in range(5)] == [0, 0, 1, 1, 2]


def test_the_order_decides_which_group_dies_first():
    space = AllocationSpace([1, 3], [2, 1], [Placement((1, 0)), Placement((0, 1))])
    big_first = walk(space, Placement((1, 0)), 3)
    small_first = walk(space, Placement((0, 1)), 2)
    assert space.alive[big_first].tolist() == [2, 0]
    assert space.alive[small_first].tolist() == [0, 1]


def test_a_damaged_model_takes_the_next_event_whoever_picks():
    space = AllocationSpace([1, 3], [2, 1], [Placement((1, 0)), Placement((0, 1))])
    damaged = walk(space, Placement((1, 0)), 1)  # one wound on the toughness-3 model
    after = space.paths(Placement((0, 1)))[damaged, 1]
    assert space.states[after] == ((2, 1), 1, 2)


def test_resolve_moves_probability_along_the_paths():
    placement = Placement((0,))
    space = AllocationSpace([1], [3], [placement])
    events = np.tile([0.5, 0.25, 0.125, 0.125], (len(space), 1))
    after = space.resolve(space.start(), events, placement)
    kills = space.distribution(after, space.models_killed, 4)
    assert kills.tolist() == [0.5, 0.25, 0.125, 0.125]
    twice = space.resolve(after, events, placement)
    assert abs(twice.sum() - 1) < 1e-15
    # A destroyed unit stays destroyed.
    assert twice[space.destroyed].sum() >= after[space.destroyed].sum()


def test_resolve_rejects_a_wrong_shape():
    placement = Placement((0,))
    space = AllocationSpace([1], [3], [placement])
    with pytest.raises(ValueError):
        space.resolve(space.start(), np.ones((len(space), 2)), placement)


@pytest.mark.parametrize(
    ("toughness", "counts", "placements"),
    [
        ([], [], []),
        ([0], [1], [Placement((0,))]),
        ([1], [-1], [Placement((0,))]),
        ([1, 1], [1, 1], [Placement((0,))]),
        ([1], [1], [Placement((0,), damage=0)]),
    ],
)
def test_invalid_units_and_placements_are_rejected(toughness, counts, placements):
    with pytest.raises(ValueError):
        AllocationSpace(toughness, counts, placements)


def test_start_is_the_untouched_unit():
    space = AllocationSpace([1], [2], [Placement((0,))])
    assert space.start().tolist() == [*point_mass(0).tolist(), 0.0, 0.0]
    assert space.models_alive[0] == 2 and not space.destroyed[0]


# The sparse distribution (`StateDistribution`) against the dense machine --------------------



Batches = list[tuple[Placement, list[np.ndarray]]]


def random_case(rng: np.random.Generator) -> tuple[list[int], list[int], Batches]:
    """A unit of 1–3 groups and 1–4 batches, each with its own placement and, per target group
    (plus −1: destroyed), a random PMF of event counts."""
    groups = int(rng.integers(1, 4))
    toughness = [int(t) for t in rng.integers(1, 5, groups)]
    counts = [int(c) for c in rng.integers(0, 6, groups)]
    if sum(counts) == 0:
        counts[0] = 1
    batches = []
    for _ in range(int(rng.integers(1, 5))):
        placement = Placement(tuple(int(g) for g in rng.permutation(groups)), int(rng.integers(1, 4)))
        width = int(rng.integers(1, 12))
        pmfs = []
        for _ in range(groups + 1):
            p = rng.random(width) * (rng.random(width) < 0.7)
            p[0] += 1e-3
            pmfs.append(p / p.sum())
        batches.append((placement, pmfs))
    return toughness, counts, batches


def fold_to(pmf: np.ndarray, length: int) -> np.ndarray:
    out = np.zeros(length)
    out[: min(len(pmf), length)] = pmf[:length]
    out[-1] += pmf[length:].sum()
    return out


@pytest.mark.parametrize("seed", range(300))
def test_sparse_distribution_equals_the_dense_machine(seed):
    """Same states, same probabilities (to 1e-12) as `AllocationSpace.resolve` on random units,
    orders, Deadly damages and event PMFs that depend on the model hit."""
    rng = np.random.default_rng(seed)
    toughness, counts, batches = random_case(rng)
    space = AllocationSpace(toughness, counts, [p for p, _ in batches])
    dense = space.start()
    sparse = StateDistribution.untouched(toughness, counts)
    for placement, pmfs in batches:
        limit = space.max_events(placement.damage)
        target = space.target(placement)
        dense = space.resolve(dense, np.array([fold_to(pmfs[t], limit + 1) for t in target]), placement)
        rows = [fold_to(pmfs[t], limit + 1) for t in sparse.target(placement)]
        sparse = sparse.resolve(np.array(rows), placement)
    as_dense = np.zeros(len(space))
    for i in range(len(sparse)):
        state = (tuple(int(a) for a in sparse.alive[i]), int(sparse.current[i]), int(sparse.damage[i]))
        as_dense[space.index[state]] += sparse.probs[i]
    assert np.abs(as_dense - dense).max() < 1e-12
    assert np.abs(sparse.distribution(sparse.models_killed, space.total_models + 1)
                  - space.distribution(dense, space.models_killed, space.total_models + 1)).max() < 1e-12


def test_sparse_distribution_holds_only_reached_states():
    """Two orders on 150 + 150 models (the dense machine would hold ~90,000 states): exactly 5
    events in each order reach one state, and the damaged model takes the first of the second
    batch whoever picks."""
    dist = StateDistribution.untouched([3, 4], [150, 150])
    for order in ((0, 1), (1, 0)):
        events = np.tile([0, 0, 0, 0, 0, 1.0], (len(dist), 1))
        dist = dist.resolve(events, Placement(order))
    assert len(dist) == 1
    assert dist.alive.tolist() == [[148, 149]]
    assert dist.current.tolist() == [-1] and dist.damage.tolist() == [0]
    assert dist.wounds.tolist() == [3 + 3 + 4]


def test_sparse_resolve_rejects_a_wrong_shape():
    dist = StateDistribution.untouched([1], [3])
    with pytest.raises(ValueError):
        dist.resolve(np.ones((2, 2)), Placement((0,)))


@pytest.mark.parametrize("toughness", [1, 2, 3, 5])
@pytest.mark.parametrize("count", [0, 1, 3, 7])
@pytest.mark.parametrize("damage", [1, 2, 3])
def test_a_chain_reads_the_same_facts_and_codes_as_the_general_machine(toughness, count, damage):
    """One group and one placement is built as a chain with its facts and target codes read off
    the chain (issue 42); they are the general machine's (a second, equal placement makes
    `AllocationSpace` walk every state instead)."""
    placement = Placement((0,), damage)
    chain = AllocationSpace((toughness,), (count,), [placement])
    general = AllocationSpace((toughness,), (count,), [placement])
    general._chain = None
    general._build_reachable()
    general.alive = np.array([s[0] for s in general.states], dtype=np.int64)
    general.current = np.array([s[1] for s in general.states], dtype=np.int64)
    general.damage = np.array([s[2] for s in general.states], dtype=np.int64)
    general.killed = np.array(general.counts, dtype=np.int64) - general.alive
    general.models_alive = general.alive.sum(axis=1)
    general.models_killed = general.killed.sum(axis=1)
    general.wounds = general.killed @ np.array(general.toughness, dtype=np.int64) + general.damage
    general.destroyed = general.models_alive == 0
    assert chain._chain is not None
    for fact in ("alive", "current", "damage", "killed", "models_alive", "models_killed", "wounds",
                 "destroyed"):
        assert np.array_equal(getattr(chain, fact), getattr(general, fact)), fact
        assert getattr(chain, fact).dtype == getattr(general, fact).dtype, fact
    assert np.array_equal(chain.target(placement), general.target(placement))
    for cap in (0, 1, 2, 3, 9):
        found, expected = chain.target_codes(placement, cap), general.target_codes(placement, cap)
        assert np.array_equal(found[0], expected[0]) and np.array_equal(found[1], expected[1]), cap


@pytest.mark.parametrize(("toughness", "counts", "order"), [
    ((1,), (10,), (0,)), ((1,), (0,), (0,)), ((2, 3), (3, 2), (1, 0)), ((2, 3), (0, 2), (0, 1)),
    ((2, 3, 1), (0, 0, 4), (1, 0, 2)), ((2, 3), (0, 0), (0, 1)),
])
def test_the_untouched_target_is_the_first_state_s_target(toughness, counts, order):
    """`untouched_target` (the first weapon's model, issue 42) is what `target` says of the
    untouched state: the first group of the order with a model, −1 for a unit of none."""
    space = AllocationSpace(toughness, counts, [Placement(order), Placement(tuple(reversed(order)))])
    assert space.untouched_target(Placement(order)) == int(space.target(Placement(order))[0])


@pytest.mark.parametrize(("toughness", "counts", "placements"), [
    ((1,), (10,), [Placement((0,))]),
    ((3,), (4,), [Placement((0,), 2)]),
    ((2, 3), (3, 2), [Placement((0, 1))]),
    ((2, 3), (3, 2), [Placement((0, 1)), Placement((1, 0), 2)]),
])
def test_resolving_the_untouched_unit_from_its_row_equals_resolving_every_state(
        toughness, counts, placements):
    """`DenseDistribution.resolve_untouched` (the first weapon, issue 42) gives exactly what
    `resolve` gives with the untouched state's row and every other state's row arbitrary."""
    from rules.dice.allocation import DenseDistribution

    rng = np.random.default_rng(len(placements) + sum(counts))
    space = AllocationSpace(toughness, counts, placements)
    for placement in placements:
        width = space.max_events(placement.damage) + 1
        row = rng.random(width - 1)
        row /= row.sum()
        table = rng.random((len(space), width))
        table[0] = 0.0
        table[0, : len(row)] = row
        start = DenseDistribution.start(space)
        fast, full = start.resolve_untouched(row, placement), start.resolve(table, placement)
        assert np.array_equal(fast.probs, full.probs)
        assert fast.work == full.work and not fast.untouched and start.untouched
    with pytest.raises(ValueError):
        fast.resolve_untouched(row, placements[0])
