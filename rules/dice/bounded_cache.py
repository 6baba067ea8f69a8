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
from typing import Any

import numpy as np

#: Bytes counted for an entry besides its value (key, dict slot): keeps tiny values honest.
ENTRY_OVERHEAD = 200


class ByteBoundedCache:
    """`get_or_compute(key, compute)`, keeping at most `max_bytes` of numpy values."""

    def __init__(self, max_bytes: int):
        self.max_bytes = max_bytes
        self.bytes = 0
        self._entries: OrderedDict[Hashable, np.ndarray] = OrderedDict()
        self._lock = Lock()

    def __len__(self) -> int:
        return len(self._entries)

    @staticmethod
    def _size(value: np.ndarray) -> int:
        return int(value.nbytes) + ENTRY_OVERHEAD

    def get_or_compute(self, key: Hashable, compute: Callable[[], np.ndarray]) -> np.ndarray:
        with self._lock:
            if key in self._entries:
                self._entries.move_to_end(key)
                return self._entries[key]
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
        return {"entries": len(self._entries), "bytes": self.bytes, "max_bytes": self.max_bytes}
