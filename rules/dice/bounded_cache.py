"""A least-recently-used cache bounded by the bytes of what it holds, not by its entries.

`functools.lru_cache(maxsize=N)` bounds entries; when an entry is a PMF whose length follows
the input (a 300-model unit's wound PMF is ~1,000 floats), N entries can be anything from
kilobytes to gigabytes. Here every value reports its size (`nbytes` of a numpy array) and the
oldest entries leave once the total passes `max_bytes`, so a worker's memory stays bounded
however large the inputs it has seen.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from threading import Lock
from typing import Any, TypeVar

#: Bytes counted for an entry besides its value (key, dict slot): keeps tiny values honest.
ENTRY_OVERHEAD = 200

ValueT = TypeVar("ValueT")


def array_bytes(value: Any) -> int:
    """The bytes of a numpy array, or of the arrays of a tuple of them (other items count 0)."""
    if isinstance(value, tuple):
        return sum(array_bytes(item) for item in value)
    return int(getattr(value, "nbytes", 0))


class ByteBoundedCache:
    """`get_or_compute(key, compute)`, keeping at most `max_bytes` of numpy values (a value may
    also be a tuple of arrays: its size is theirs, `array_bytes`)."""

    def __init__(self, max_bytes: int):
        self.max_bytes = max_bytes
        self.bytes = 0
        self._entries: OrderedDict[Hashable, Any] = OrderedDict()
        self._lock = Lock()
        #: Lookups answered from the cache, and computed (what sharing saved, for benches and tests).
        self.hits = 0
        self.misses = 0

    def __len__(self) -> int:
        return len(self._entries)

    @staticmethod
    def _size(value: Any) -> int:
        return array_bytes(value) + ENTRY_OVERHEAD

    def get_or_compute(self, key: Hashable, compute: Callable[[], ValueT]) -> ValueT:
        with self._lock:
            if key in self._entries:
                self._entries.move_to_end(key)
                self.hits += 1
                return self._entries[key]
            self.misses += 1
        value = compute()
        size = self._size(value)
        with self._lock:
            if size > self.max_bytes or key in self._entries:
                return value
            self._entries[key] = value
            self.bytes += size
            while self.bytes > self.max_bytes:
                _, old = self._entries.popitem(last=False)
                self.bytes -= self._size(old)
        return value

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self.bytes = 0

    def info(self) -> dict[str, Any]:
        return {"entries": len(self._entries), "bytes": self.bytes, "max_bytes": self.max_bytes,
                "hits": self.hits, "misses": self.misses}
