"""Evaluated values with their dependencies, so an operation re-evaluates only what it can change.

Every cached value (an entry's modified name/costs/limits, a selection's cost, the errors of
one selection's options) records the *buckets* of the roster it read: the subtree of one root
selection (`("sel", id)`), the selections of one force (`("force", id)`), or the whole roster.
Reads nest — computing one value may read others — so a value inherits the buckets of what it
read. An operation on a node dirties only its root selection's subtree, its force (and the
forces above it) and the roster, and drops only the values that read one of those buckets; a
value that looked only inside another unit survives.
"""

from __future__ import annotations

from collections import defaultdict

ROSTER = ("roster",)


class EvalCache:
    def __init__(self) -> None:
        self.values: dict = {}
        self.deps: dict = {}
        self.by_bucket: dict = defaultdict(set)
        self._stack: list[set] = []
        #: Values computed since creation (the bench reads it to show how much was re-done).
        self.computed = 0

    def clear(self) -> None:
        self.values.clear()
        self.deps.clear()
        self.by_bucket.clear()

    def read(self, bucket) -> None:
        """Record that the value being computed reads `bucket`."""
        if self._stack:
            self._stack[-1].add(bucket)

    def get(self, key, compute, own_buckets=()):
        """The cached value of `key`, else `compute()` stored with the buckets it read."""
        if key in self.values:
            if self._stack:
                self._stack[-1].update(self.deps[key])
            return self.values[key]
        self._stack.append(set(own_buckets))
        try:
            value = compute()
        finally:
            deps = self._stack.pop()
        self.computed += 1
        self.values[key] = value
        self.deps[key] = frozenset(deps)
        for bucket in deps:
            self.by_bucket[bucket].add(key)
        if self._stack:
            self._stack[-1].update(deps)
        return value

    def put_partial(self, key, value, own_buckets=()) -> None:
        """Store a value before it is finished (breaks self-reference cycles while computing)."""
        self.values[key] = value
        self.deps[key] = frozenset(own_buckets)

    def invalidate(self, buckets) -> None:
        for bucket in buckets:
            for key in self.by_bucket.pop(bucket, ()):
                self.values.pop(key, None)
                self.deps.pop(key, None)
