"""Results a batch of matchups shares: a cache that lives only while the batch runs.

A gauntlet computes thousands of matchups between the same few dozen units, and a system's
exact attack often computes the same inner distribution for several of them (OPR: the
counter-attack of a defender's surviving models on the charger is the same whichever of the
defender's look-alike units they came from). A process-wide cache would keep those
distributions after the batch, and would change what a single estimate costs (cost models
are measured cold). So a batch opens `sharing()` and the engines call `shared(key, compute)`:
inside the block equal keys are computed once (a byte-bounded LRU, so the block's memory
stays bounded), outside it `compute` simply runs. A key must name every input of `compute`
(the results are then exactly what computing again would give).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

from rules.dice.bounded_cache import ByteBoundedCache

#: What one batch keeps at most: small beside a matchup's own bound (`MAX_MATCHUP_BYTES`).
MAX_SHARED_BYTES = 64 * 1024 * 1024

ValueT = TypeVar("ValueT")

_ACTIVE: ContextVar[ByteBoundedCache | None] = ContextVar("shared_results", default=None)


@contextmanager
def sharing(max_bytes: int = MAX_SHARED_BYTES) -> Iterator[ByteBoundedCache]:
    """Within the block, `shared` computes each key once (a block inside a block shares the
    outer one's cache); the cache is dropped when the outermost block ends."""
    active = _ACTIVE.get()
    if active is not None:
        yield active
        return
    cache = ByteBoundedCache(max_bytes)
    token = _ACTIVE.set(cache)
    try:
        yield cache
    finally:
        _ACTIVE.reset(token)


def shared(key: Hashable, compute: Callable[[], ValueT]) -> ValueT:
    """`compute()`, computed once per `key` inside a `sharing` block (numpy arrays or tuples of
    them, never written to afterwards); simply computed outside one."""
    cache = _ACTIVE.get()
    if cache is None:
        return compute()
    return cache.get_or_compute(key, compute)


class HashOnce:
    """A part of a key hashed once: a frozen dataclass of tuples (a unit) hashes all its fields
    on every lookup, and a key meets several (membership, read, move to the end). Equal when
    the values are equal, so a key holding it is exact."""

    __slots__ = ("_hash", "value")

    def __init__(self, value: Hashable):
        self.value = value
        self._hash = hash(value)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: Any) -> bool:
        return self is other or (isinstance(other, HashOnce) and self._hash == other._hash
                                 and self.value == other.value)
