"""Results a batch shares (`rules.dice.shared_results`): computed once per key inside a
`sharing` block, every time outside one, and dropped when the block ends."""

from __future__ import annotations

import numpy as np

from rules.dice.shared_results import HashOnce, shared, sharing


def counted(calls: list[int], value: float):
    def compute() -> np.ndarray:
        calls.append(1)
        return np.full(3, value)
    return compute


def test_outside_a_block_every_call_computes():
    calls: list[int] = []
    shared("k", counted(calls, 1.0))
    shared("k", counted(calls, 1.0))
    assert len(calls) == 2


def test_inside_a_block_a_key_is_computed_once_and_the_block_drops_it():
    calls: list[int] = []
    with sharing() as cache:
        first = shared(("k", 1), counted(calls, 1.0))
        again = shared(("k", 1), counted(calls, 2.0))  # same key: the first value, not computed
        other = shared(("k", 2), counted(calls, 3.0))
        with sharing() as inner:  # a block inside a block shares the outer cache
            assert inner is cache
            assert shared(("k", 2), counted(calls, 4.0)) is other
    assert again is first and first.tolist() == [1.0] * 3 and other.tolist() == [3.0] * 3
    assert len(calls) == 2 and (cache.hits, cache.misses) == (2, 2)
    with sharing():
        assert shared(("k", 1), counted(calls, 5.0)).tolist() == [5.0] * 3  # a new block starts empty
    assert len(calls) == 3


def test_a_block_keeps_at_most_its_bytes():
    calls: list[int] = []
    with sharing(max_bytes=1000) as cache:
        for key in range(10):
            shared(key, counted(calls, float(key)))
        assert cache.bytes <= 1000 and len(cache) < 10


def test_a_key_part_hashed_once_is_equal_by_value():
    a, b = HashOnce((1, ("x", 2))), HashOnce((1, ("x", 2)))
    assert a == b and hash(a) == hash(b) and a != HashOnce((1, ("x", 3))) and a != (1, ("x", 2))
