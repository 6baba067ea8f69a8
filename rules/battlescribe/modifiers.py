"""Modifiers, conditions and repeats, evaluated against one unit's selection tree.

A BattleScribe value (a cost, a constraint's limit) is its written value changed by the
modifiers whose conditions hold, in order: `set` replaces it, `increment`/`decrement` add or
subtract the modifier's value once, or once per repeat (`repeat`: every `value` selections of
`childId` in `scope`, `repeats` times, rounded down unless `roundUp`).

An import prices a unit on its own, as BattleScribe shows it when the unit is the first one
added to an empty roster: conditions whose scope is the force or the roster count only this
unit's selections. What cannot be evaluated is reported, never silently treated as true.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from fractions import Fraction

from rules.battlescribe.catalogue import Condition, ConditionGroup, Modifier, Repeat, number
from rules.battlescribe.entries import Index, Node

NUMERIC_MODIFIERS = ("set", "increment", "decrement")
_COMPARE: dict[str, Callable[[Fraction, Fraction], bool]] = {
    "atLeast": lambda a, b: a >= b,
    "atMost": lambda a, b: a <= b,
    "greaterThan": lambda a, b: a > b,
    "lessThan": lambda a, b: a < b,
    "equalTo": lambda a, b: a == b,
    "notEqualTo": lambda a, b: a != b,
}
_LOCAL_SCOPES = ("self", "parent")


class Evaluator:
    """Evaluates modifiers for one import; `warn(path, message)` receives what it cannot do."""

    def __init__(self, index: Index, warn: Callable[[str, str], None]):
        self.index = index
        self.warn = warn

    # ------------------------------------------------------------- counting

    def _base(self, scope: str, owner: Node | None, parent: Node | None, root: Node) -> Node:
        if scope == "self":
            return owner or parent or root
        if scope == "parent":
            return parent or root
        node = owner or parent
        while node is not None:  # an ancestor named by its entry id
            if scope in self.index.ids(node.entry):
                return node
            node = node.parent
        return root  # unit, model, force, roster, primary-catalogue: the unit alone

    def _matches(self, node: Node, child_id: str) -> bool:
        return (
            child_id in ("", "any", "model", "unit", "upgrade")
            and (child_id in ("", "any") or node.entry.type == child_id)
        ) or child_id in self.index.ids(node.entry)

    def _descendants(self, base: Node, deep: bool) -> Iterable[tuple[Node, int]]:
        for child in base.children:
            yield child, child.count
            if deep:
                for node, n in self._descendants(child, deep):
                    yield node, n * child.count

    def count(
        self,
        field: str,
        scope: str,
        child_id: str,
        deep: bool,
        owner: Node | None,
        parent: Node | None,
        root: Node,
    ) -> Fraction | None:
        """Selections of `child_id` (or the total of a cost type) in `scope`; None if unknown."""
        base = self._base(scope, owner, parent, root)
        deep = deep or scope not in _LOCAL_SCOPES
        matches = [(node, n) for node, n in self._descendants(base, deep) if self._matches(node, child_id)]
        if field == "selections":
            return Fraction(sum(n for _node, n in matches))
        if field in self.index.cost_types:
            return sum((node.entry.costs.get(field, Fraction(0)) * n for node, n in matches), Fraction(0))
        return None

    # ----------------------------------------------------------- conditions

    def condition(self, c: Condition, owner: Node | None, parent: Node | None, root: Node, path: str) -> bool:
        if c.type in ("instanceOf", "notInstanceOf"):
            base = self._base(c.scope, owner, parent, root)
            found = c.child_id in self.index.ids(base.entry)
            return found if c.type == "instanceOf" else not found
        compare = _COMPARE.get(c.type)
        value = self.count(c.field, c.scope, c.child_id, c.include_children, owner, parent, root)
        if compare is None or value is None:
            self.warn(path, f"condition {c.type!r} on {c.field!r} cannot be evaluated; treated as not met")
            return False
        return compare(value, c.value)

    def group(
        self, g: ConditionGroup, owner: Node | None, parent: Node | None, root: Node, path: str
    ) -> bool:
        results = [self.condition(c, owner, parent, root, path) for c in g.conditions]
        results += [self.group(sub, owner, parent, root, path) for sub in g.groups]
        return any(results) if g.type == "or" else all(results)

    def holds(self, m: Modifier, owner: Node | None, parent: Node | None, root: Node) -> bool:
        return all(self.condition(c, owner, parent, root, m.path) for c in m.conditions) and all(
            self.group(g, owner, parent, root, m.path) for g in m.groups
        )

    def times(
        self, repeats: list[Repeat], owner: Node | None, parent: Node | None, root: Node, path: str
    ) -> int:
        """How often a modifier applies: 1 without repeats, else the sum of its repeats."""
        if not repeats:
            return 1
        total = 0
        for r in repeats:
            n = self.count(r.field, r.scope, r.child_id, r.include_children, owner, parent, root)
            if n is None or r.value <= 0:
                self.warn(path, f"repeat on {r.field!r} cannot be evaluated; applied once")
                total += 1
                continue
            steps = n / r.value
            total += (math.ceil(steps) if r.round_up else math.floor(steps)) * r.repeats
        return total

    # ----------------------------------------------------------- modifying

    def value(
        self,
        base: Fraction,
        field: str,
        modifiers: list[Modifier],
        owner: Node | None,
        parent: Node | None,
        root: Node,
    ) -> Fraction:
        """`base` changed by the numeric `modifiers` of `field` whose conditions hold."""
        value = base
        for m in modifiers:
            if m.field != field:
                continue
            if m.type not in NUMERIC_MODIFIERS:
                self.warn(m.path, f"a {m.type!r} modifier of a number is not supported; ignored")
                continue
            try:
                amount = number(m.value)
            except ValueError:
                self.warn(m.path, f"modifier value {m.value!r} is not a number; ignored")
                continue
            if not self.holds(m, owner, parent, root):
                continue
            times = self.times(m.repeats, owner, parent, root, m.path)
            for outer in m.outer_repeats:  # an enclosing modifierGroup's repeats multiply
                times *= self.times(outer, owner, parent, root, m.path)
            if m.type == "set":
                value = amount
            elif m.type == "increment":
                value += amount * times
            else:
                value -= amount * times
        return value
