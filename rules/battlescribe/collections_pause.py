"""Fewer garbage collections while one import builds its large, short-lived structures.

An import of a 40k catalogue with its links creates hundreds of thousands of objects that
live until the import ends (parsed entries, selection trees, unit dicts). Python's cyclic
collector runs a pass every 700 new objects and, every so often, a full pass over all of
them: about a quarter of the import's CPU time went to passes that found little to free.
Raising the first threshold for the length of the import makes the passes rarer; cyclic
garbage (selection trees point back at their parents) is still collected, later.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

#: New objects between two passes over the youngest generation during an import (Python's
#: default is 700). Full passes become rarer by the same factor.
IMPORT_GC_THRESHOLD = 50_000


@contextmanager
def fewer_collections(threshold: int = IMPORT_GC_THRESHOLD) -> Iterator[None]:
    """Run the block with the collector's first threshold raised to `threshold`, then restore
    the thresholds it had (nested blocks restore their outer block's)."""
    old = gc.get_threshold()
    gc.set_threshold(max(threshold, old[0]), *old[1:])
    try:
        yield
    finally:
        gc.set_threshold(*old)
