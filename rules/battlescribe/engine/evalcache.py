"""Evaluated values with their dependencies, so an operation re-evaluates only what it changes.

Every cached value (a query's count, an entry's modified name/costs/limits, a selection's
cost, the errors of one unit) records what it read: other cached values and *buckets* of the
roster — the subtree of one root selection (`("sel", id)`), the subtree of any one selection
(`("node", id)`: what a count or a cost in that selection reads), the selections of one force
(`("force", id)`), or the whole roster. An operation marks the buckets it changed; the values
that read them directly become dirty, and before the next read they are recomputed. A value
whose result did not change stops there (early cut-off); one that did change makes the values
that read it dirty in turn. So adding a unit recounts the force-wide queries, and only the
entries whose conditions read a count that actually moved are evaluated again.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager

ROSTER = ("roster",)
#: The roster's list of forces (changed only by adding or removing a force).
FORCES = ("forces",)
MAX_ROUNDS = 8
MISSING = _MISSING = object()


def _call(compute):
    """Run a value's computation: a callable, or a tuple `(function, *arguments)`.

    The hottest values (an entry's modified values, a constraint's count, an option's check)
    pass a tuple: a kept roster holds one computation per value, and a closure is a function
    and a cell per captured name, each an object every full collection of the server process
    walks (a 60-row Necrons roster held about 150,000 objects, and a full collection paused a
    click for that long)."""
    if type(compute) is tuple:
        return compute[0](*compute[1:])
    return compute()


class _Node:
    __slots__ = ("compute", "deps", "dirty", "lazy", "own", "value")

    def __init__(self, value, deps, compute, own, lazy=False):
        self.value = value
        self.deps = deps
        self.compute = compute
        self.own = own
        self.dirty = False
        self.lazy = lazy


class EvalCache:
    def __init__(self, scratch: bool = False) -> None:
        #: A cache of one question about a roster (`query.scratch`), emptied by any change.
        self.scratch = scratch
        self.nodes: dict = {}
        #: What read each key or bucket: {key: {reader: None}}, a dict used as a set (the
        #: collector stops tracking a dict that holds only ids and names, never a set).
        self.rdeps: dict = defaultdict(dict)
        self.pending: set = set()
        self._stack: list[set] = []
        #: Values computed since creation (the bench reads it to show how much was re-done).
        self.computed = 0
        #: Depth of `pulling` scopes, and the keys found up to date in the current one since
        #: the last change of the roster (`invalidate`).
        self._pulling = 0
        self._verified: set = set()

    def clear(self) -> None:
        self.nodes.clear()
        self.rdeps.clear()
        self.pending.clear()
        self._verified.clear()

    def read(self, bucket) -> None:
        """Record that the value being computed reads `bucket`."""
        if self._stack:
            self._stack[-1].add(bucket)

    def get(self, key, compute, own_buckets=(), lazy: bool = False):
        """The value of `key`, recomputed with `compute` (a callable, or `(function, *arguments)`,
        `_call`) if missing or dirty.

        A `lazy` value (an aggregate read once per edit, such as a force's errors or costs)
        is not recomputed when something it read changes: it only becomes dirty, and so do
        the values that read it, and it is recomputed when next read. An operation that
        settles the cache many times (each auto-selected option reads modified values) then
        does not redo the aggregates each time."""
        if self.pending:
            if self._pulling:
                self._verify(key)
            elif not self._stack:
                self.settle()
        node = self.nodes.get(key)
        if node is None or node.dirty:
            value = self._recompute(key, compute, own_buckets, node, lazy)
        else:
            value = node.value
        if self._stack:
            self._stack[-1].add(key)
        return value

    def peek(self, key):
        """The value of `key` when it is cached and up to date (recorded as read), else MISSING.
        Lets hot paths skip building the compute closure that `get` needs."""
        if self.pending and (key not in self._verified if self._pulling else not self._stack):
            return MISSING
        node = self.nodes.get(key)
        if node is None or node.dirty:
            return MISSING
        if self._stack:
            self._stack[-1].add(key)
        return node.value

    @contextmanager
    def pulling(self) -> Iterator[None]:
        """Within this scope a read brings up to date only what the value read depends on,
        instead of settling every pending value first.

        Building a unit touches its force once per selection it creates, and each selection
        reads its options' modified limits (auto-select): settling the whole force's pending
        values before each such read recomputed every force-wide count, cost and error check
        once per created selection (a 3-model unit with auto-selected weapons: ~1,200 values
        for one click). A read in this scope walks the value's recorded dependencies instead
        and recomputes the dirty ones among them (`_verify`), so it sees what a full settle
        would give it; the rest stay pending and are settled by the first read after it."""
        self._pulling += 1
        try:
            yield
        finally:
            self._pulling -= 1
            if not self._pulling:
                self._verified.clear()

    def _verify(self, key) -> None:
        """Bring `key`'s dependencies up to date: recompute each dirty value it read (directly
        or through other values); one whose result changed marks `key` dirty, and `get` then
        recomputes it. A key once verified stays so until the roster changes again: whatever
        it depends on was brought up to date, and only a change of the roster (or a value
        below it, itself up to date) could make it dirty again."""
        verified = self._verified
        if key in verified:
            return
        verified.add(key)
        node = self.nodes.get(key)
        if node is None or node.dirty:
            return  # computed by the caller; its own reads verify what they read
        nodes = self.nodes
        for dep in node.deps:
            dep_node = nodes.get(dep)
            if dep_node is None:
                continue  # a bucket of the roster, not a value
            self._verify(dep)
            if dep_node.dirty and not dep_node.lazy and dep_node.compute is not None:
                self._recompute(dep, dep_node.compute, dep_node.own, dep_node)
            if node.dirty:
                return

    def put_partial(self, key, value, own_buckets=()) -> None:
        """Give re-entrant reads of `key` a provisional value while it is being computed."""
        node = self.nodes.get(key)
        if node is None:
            self.nodes[key] = _Node(value, (), None, own_buckets)
        else:
            node.value, node.dirty = value, False

    def _recompute(self, key, compute, own_buckets, node, lazy=False):
        old = node.value if node is not None and node.compute is not None else _MISSING
        old_deps = set(node.deps) if node is not None else set()
        self._stack.append(set(own_buckets))
        try:
            value = _call(compute)
        finally:
            read = self._stack.pop()
        self.computed += 1
        for dep in old_deps - read:
            self.rdeps[dep].pop(key, None)
        for dep in read - old_deps:
            self.rdeps[dep][key] = None
        # A tuple of keys, not a set: once the keys in it are found to hold no objects (they are
        # ids and names), the collector stops tracking the tuple; a frozenset it tracks for ever.
        deps = tuple(read)
        node = self.nodes.get(key)
        if node is None:
            node = self.nodes[key] = _Node(value, deps, compute, own_buckets, lazy)
        else:
            node.value, node.deps, node.compute, node.own, node.dirty = (
                value,
                deps,
                compute,
                own_buckets,
                False,
            )
        if old is not _MISSING and old != value:
            self._mark(self.rdeps.get(key, ()))
        return value

    def _mark(self, keys) -> None:
        stack = list(keys)
        while stack:
            key = stack.pop()
            node = self.nodes.get(key)
            if node is not None and not node.dirty:
                node.dirty = True
                if node.lazy:
                    stack.extend(self.rdeps.get(key, ()))
                else:
                    self.pending.add(key)

    def invalidate(self, buckets) -> None:
        """The roster changed in `buckets`: what read them is recomputed before the next read."""
        self._verified.clear()
        for bucket in buckets:
            self._mark(self.rdeps.get(bucket, ()))

    def drop(self, buckets) -> None:
        """Forget the values that read `buckets` directly (their nodes left the roster)."""
        for bucket in buckets:
            for key in self.rdeps.pop(bucket, ()):
                self.nodes.pop(key, None)
                self.pending.discard(key)

    def settle(self) -> None:
        """Recompute every dirty value (and, through changed results, what read them).

        Values that read each other (a cost stepping with a count that reads the cost) could
        keep changing each other: past `MAX_ROUNDS` recomputations of one value in a settle,
        the whole cache is dropped and values are computed afresh on demand, as a full
        re-evaluation would."""
        rounds: dict = {}
        while self.pending:
            key = self.pending.pop()
            node = self.nodes.get(key)
            if node is None or not node.dirty or node.compute is None:
                continue
            rounds[key] = rounds.get(key, 0) + 1
            if rounds[key] > MAX_ROUNDS:
                self.clear()
                return
            self._recompute(key, node.compute, node.own, node, node.lazy)


class ScratchCache:
    """The cache of one question about a roster (`query.scratch`): values without their
    dependencies, all forgotten at the roster's next change (`Roster.touch` empties it).

    A question (what an option would add, what the unit costs one size larger) changes the
    roster and reads it again many times; `EvalCache` would record what every value read, only
    for the next change to drop it all. Here a value is computed once per state of the roster
    and nothing else is kept (a value that reads itself while being computed gets the partial
    value `put_partial` gave it, as in `EvalCache`)."""

    scratch = True

    def __init__(self) -> None:
        self.values: dict = {}
        self.computed = 0

    def clear(self) -> None:
        self.values.clear()

    def read(self, bucket) -> None:
        return None

    def get(self, key, compute, own_buckets=(), lazy: bool = False):
        values = self.values
        if key in values:
            return values[key]
        value = _call(compute)
        self.computed += 1
        values[key] = value
        return value

    def peek(self, key):
        return self.values.get(key, _MISSING)

    def put_partial(self, key, value, own_buckets=()) -> None:
        self.values[key] = value

    @contextmanager
    def pulling(self) -> Iterator[None]:
        yield

    def invalidate(self, buckets) -> None:
        self.values.clear()
