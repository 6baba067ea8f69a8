"""The byte-bounded LRU cache (`rules.dice.bounded_cache`): bounded by memory, not entries."""

from __future__ import annotations

import numpy as np

from rules.dice.bounded_cache import ENTRY_OVERHEAD, ByteBoundedCache


def test_the_oldest_entries_leave_once_the_bytes_pass_the_bound():
    cache = ByteBoundedCache(max_bytes=3 * (800 + ENTRY_OVERHEAD))
    for key in range(5):
        cache.get_or_compute(key, lambda: np.zeros(100))
    assert len(cache) == 3
    assert cache.bytes == 3 * (800 + ENTRY_OVERHEAD)
    calls = []
    cache.get_or_compute(0, lambda: calls.append(0) or np.zeros(100))
    assert calls == [0]  # 0 had been evicted: computed again


def test_a_hit_is_not_computed_again_and_becomes_the_newest():
    cache = ByteBoundedCache(max_bytes=2 * (8 + ENTRY_OVERHEAD))
    cache.get_or_compute("a", lambda: np.zeros(1))
    cache.get_or_compute("b", lambda: np.zeros(1))
    cache.get_or_compute("a", lambda: np.ones(1))  # a hit: the stored zeros come back
    cache.get_or_compute("c", lambda: np.zeros(1))  # evicts b, the least recently used
    assert cache.get_or_compute("a", lambda: np.ones(1)).tolist() == [0.0]
    assert cache.get_or_compute("b", lambda: np.ones(1)).tolist() == [1.0]


def test_a_value_larger_than_the_bound_is_returned_but_not_kept():
    cache = ByteBoundedCache(max_bytes=100)
    value = cache.get_or_compute("big", lambda: np.zeros(1000))
    assert len(value) == 1000 and len(cache) == 0 and cache.bytes == 0
