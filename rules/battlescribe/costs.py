"""A unit's smallest legal selection, priced the way BattleScribe prices it.

A unit at its minimum holds every child entry at its `min` constraint (scope `parent`, field
`selections`, after modifiers) and, for a selection-entry group with a minimum, the group's
default entry (or its first entry, with a warning). Its cost in one cost type is the sum over
its selections of (cost after modifiers) × (how many of that selection the unit holds).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping
from fractions import Fraction

from rules.battlescribe.catalogue import Entry, exact, shown
from rules.battlescribe.entries import GROUP, Index, Node
from rules.battlescribe.evaluation import Evaluator

#: Most selections one unit tree may hold (a guard against absurd minimums).
MAX_TREE_NODES = 5000
#: A minimum above this is treated as a data error.
MAX_MIN = 1000


_ZERO = Fraction(0)


class Pricer:
    """Builds selection trees of one import and totals their costs."""

    def __init__(self, index: Index, warn: Callable[[str, str], None]):
        self.index = index
        self.warn = warn
        self.evaluator = Evaluator(index, warn)
        #: {(root, cost type): (tree version, total)}; nodes hash by identity.
        self._totals: dict[tuple[Node, str], tuple[int, Fraction]] = {}
        #: The state of every tree: a new number at each change, never reused, so a probe
        #: that attaches a selection and detaches it again can restore the number it found
        #: (the trees are as they were) and the unit's remembered total stays valid.
        self._states = itertools.count(1)
        self._version = 0

    def limit(self, entry: Entry, kind: str, parent: Node | None, root: Node | None) -> int | None:
        """The entry's `min`/`max` selections per parent after modifiers (None: no such limit)."""
        found = None
        for c in entry.constraints:
            if c.percent_value and c.type == kind:
                self.warn(entry.path, f"a {kind} of {shown(c.value)} % is not supported; ignored")
            if c.type != kind or c.field != "selections" or c.scope != "parent" or c.percent_value:
                continue
            value = exact(c.value)
            if root is not None:
                value = self.evaluator.value(value, c.id, entry.modifiers, None, parent, root)
                if parent is not None and parent.entry is not entry:
                    value = self.evaluator.value(
                        value, c.id, parent.entry.modifiers, parent, parent.parent, root
                    )
            n = max(int(value), 0) if value >= 0 else None  # -1 is "no limit"
            if n is not None:
                found = n if found is None else (max(found, n) if kind == "min" else min(found, n))
        if kind == "min" and found is not None and found > MAX_MIN:
            self.warn(entry.path, f"a minimum of {found} selections is not credible; treated as {MAX_MIN}")
            return MAX_MIN
        return found

    def default_member(self, group: Entry, members: list[Entry]) -> Entry | None:
        for member in members:
            if group.default_id and group.default_id in (member.id, member.target_id):
                return member
        if members:
            self.warn(
                group.path, f"the group needs a selection and names no default; took {members[0].name!r}"
            )
            return members[0]
        return None

    def minimum_children(
        self, entry: Entry, node: Node, context: Node | None, grow: Mapping[str, int]
    ) -> list[tuple[Entry, int]]:
        """(child entry, count per parent) of `entry`'s smallest legal selection."""
        picked: list[tuple[Entry, int]] = []
        for written in entry.children:
            child = self.index.resolve(written)
            if child.kind == GROUP:
                members = [self.index.resolve(m) for m in child.children]
                counts = [self.limit(m, "min", node, context) or 0 for m in members]
                need = (self.limit(child, "min", node, context) or 0) - sum(counts)
                if need > 0:
                    default = self.default_member(child, members)
                    if default is not None:
                        counts[members.index(default)] += need
                for member, n in zip(members, counts, strict=True):
                    n = grow.get(member.id, n)
                    if n > 0 and member.kind == GROUP:
                        picked += self.minimum_children(member, node, context, grow)
                    elif n > 0:
                        picked.append((member, n))
                continue
            n = grow.get(child.id, self.limit(child, "min", node, context) or 0)
            if n > 0:
                picked.append((child, n))
        return picked

    def _build(
        self, entry: Entry, count: int, parent: Node | None, context: Node | None, grow, budget
    ) -> Node:
        node = Node(entry, count, parent)
        budget[0] += 1
        if budget[0] > MAX_TREE_NODES:
            raise OverflowError(entry.path)
        for child, n in self.minimum_children(entry, node, context, grow):
            node.children.append(self._build(child, n, node, context, grow, budget))
        return node

    def tree(self, entry: Entry, grow: Mapping[str, int] | None = None) -> Node:
        """`entry` (taken once) at its smallest legal selection; `grow` overrides counts by entry id.

        Built twice: limits whose modifiers look at the selection are evaluated the second time
        against the first tree.
        """
        grow = grow or {}
        first = self._build(entry, 1, None, None, grow, [0])
        return self._build(entry, 1, None, first, grow, [0])

    def cost(self, node: Node, cost_type: str, root: Node) -> Fraction:
        """One selection's own cost (per selection) in `cost_type`, after modifiers."""
        entry = node.entry
        base = entry.costs.get(cost_type, _ZERO)
        if not any(m.field == cost_type for m in entry.modifiers):  # most entries: the base cost
            return base
        return self.evaluator.value(base, cost_type, entry.modifiers, node, node.parent, root)

    def total(self, root: Node, cost_type: str | None, below: Node | None = None) -> Fraction:
        """The cost of the whole tree (or of `below`'s subtree, per parent selection).

        A whole tree's total is remembered until a selection is attached to or detached from
        any tree (`attach`, `detach`): pricing every option of a unit asks for the unit's total
        without the option once per option."""
        if cost_type is None:
            return Fraction(0)
        if below is None:
            known = self._totals.get((root, cost_type))
            if known is not None and known[0] == self._version:
                return known[1]
        start = below or root
        # Fraction arithmetic is the import's main cost: most selections cost 0 and nearly all
        # others a whole number, summed as ints; only a fractional cost is added as a Fraction.
        whole, part = 0, _ZERO
        stack = [(start, start.count)]
        while stack:
            node, n = stack.pop()
            own = self.cost(node, cost_type, root)
            if own:
                if own.denominator == 1:
                    whole += own.numerator * n
                else:
                    part += own * n
            stack += [(child, n * child.count) for child in node.children]
        total = part + whole
        if below is None:
            if len(self._totals) > 4096:
                self._totals.clear()
            self._totals[(root, cost_type)] = (self._version, total)
        return total

    def attach(self, parent: Node, node: Node) -> int:
        """Add `node` under `parent` (a probe: what would taking it change?). Returns the
        trees' state before, for `detach` to restore."""
        before = self._version
        parent.children.append(node)
        self._version = next(self._states)
        return before

    def detach(self, parent: Node, node: Node, restore: int | None = None) -> None:
        """Remove `node` from `parent`; `restore`: the state `attach` returned, when nothing
        else changed the trees since (a probe), so totals remembered before it are reused."""
        parent.detach(node)
        self._version = next(self._states) if restore is None else restore

    def extra_cost(self, entry: Entry, parent: Node, root: Node, cost_type: str | None) -> Fraction:
        """What taking `entry` once more under one selection of `parent` adds to the whole unit.

        The difference of the unit's totals with and without it, so modifiers elsewhere in
        the unit that look at this selection ("5 pts less without a jump pack") count too.
        """
        if cost_type is None:
            return Fraction(0)
        before = self.total(root, cost_type)
        node = self._build(entry, 1, parent, root, {}, [0])
        state = self.attach(parent, node)
        try:
            return (self.total(root, cost_type) - before) / parent.multiplicity()
        finally:
            self.detach(parent, node, state)
