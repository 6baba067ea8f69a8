"""A unit's selection tree (`entries.Node`) evaluated by the roster engine's own conditions,
repeats and modifiers (`engine.conditions`, `engine.modifiers`): one evaluator for an import
and for a roster.

An import prices a unit on its own, as BattleScribe shows it when the unit is the first one
added to an empty roster: the unit is the one root selection of a force of an otherwise empty
roster, so a condition whose scope is the force or the roster counts this unit's selections
(the unit itself included, as in BattleScribe), and a roster's cost limit reads as none.

`UnitView` presents the tree the way the engine's queries read a roster: a selection's
`number` is its count relative to the selection or force the query looks in (a tree stores
counts per parent), its costs are the entries' written costs (a query never re-enters the
modifiers of what it counts), and nothing is cached (the trees are small and change between
probes, `costs.Pricer.attach`).
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from rules.battlescribe.catalogue import exact as catalogue_exact
from rules.battlescribe.engine.conditions import guards_hold, modifier_times, selection_matches
from rules.battlescribe.engine.evalcache import MISSING
from rules.battlescribe.engine.model import Modifier
from rules.battlescribe.engine.modifiers import Effective, apply_modifier
from rules.battlescribe.entries import Index, Node
from rules.battlescribe.xml_reader import BattleScribeError

#: Modifier types of a number the import applies (the engine's arithmetic).
NUMERIC_MODIFIERS = frozenset(
    {"set", "increment", "decrement", "add", "multiply", "divide", "modulo", "cumulative-add"}
)


class _NoCache:
    """The engine's evaluation cache, answering every value by computing it."""

    def get(self, key, compute, own_buckets=(), lazy: bool = False):
        return compute()

    def read(self, bucket) -> None:
        return None

    def put_partial(self, key, value) -> None:
        return None

    def peek(self, key):
        return MISSING


_NO_CACHE = _NoCache()


class _Link:
    __slots__ = ("id",)

    def __init__(self, link_id: str):
        self.id = link_id


class _Defn:
    __slots__ = ("id",)

    def __init__(self, defn_id: str):
        self.id = defn_id


class _Option:
    """An importer entry as the engine's `model.Option` is read by a query."""

    __slots__ = ("defn", "group", "ids", "key", "link", "modifiers", "type")

    def __init__(self, entry):
        if entry.target_id:  # a resolved link: the link's id and its target's
            self.key = f"{entry.id}::{entry.target_id}"
            self.defn, self.link = _Defn(entry.target_id), _Link(entry.id)
            self.ids = (self.key, entry.target_id, entry.id)
        else:
            self.key, self.defn, self.link = entry.id, _Defn(entry.id), None
            self.ids = (entry.id, entry.id)
        self.type = entry.type
        self.group = None
        self.modifiers = entry.modifiers


class _Selection:
    """One node of the tree, `number` of it relative to the container a query looks in."""

    is_force = False
    is_roster = False
    bucket = node_bucket = ("sel",)

    def __init__(self, view: UnitView, node: Node, number: int, parent):
        self.view = view
        self.node = node
        self.number = number
        self.parent = parent
        self.roster = view.roster
        self.option = view.option(node.entry)

    @property
    def children(self) -> list[_Selection]:
        return [_Selection(self.view, c, c.count, self) for c in self.node.children]

    def descendants(self, factor: int = 1) -> list[_Selection]:
        out = []
        for child in self.node.children:
            n = factor * child.count
            sel = _Selection(self.view, child, n, self)
            out.append(sel)
            out.extend(sel.descendants(n))
        return out

    def has_category(self, category_id: str) -> bool:
        return any(c == category_id for c, _primary in self.node.entry.categories)

    def category_ids(self) -> tuple[str, ...]:
        return tuple(c for c, _primary in self.node.entry.categories)

    def cost(self, cost_type: str, include_children: bool = True) -> float:
        total = float(self.node.entry.costs.get(cost_type, 0)) * self.number
        if include_children:
            total += sum(s.cost(cost_type, False) for s in self.descendants(self.number))
        return total


class _SelectionIndex:
    def __init__(self, selections: list[_Selection]):
        self.all = selections
        self.volatile: dict = {}

    def lookup(self, child_id, shared, is_category) -> list[_Selection]:
        return [s for s in self.all if selection_matches(s, child_id, shared)]


class _ForceIndex:
    def __init__(self, force: _Force):
        self.force = force

    @property
    def roots(self) -> _SelectionIndex:
        return _SelectionIndex(self.force.selections)

    @property
    def deep(self) -> _SelectionIndex:
        return _SelectionIndex(self.force.descendants())


class _Entry:
    id = ""
    hidden = False


class _Force:
    """The force holding the unit as its one root selection."""

    is_force = True
    is_roster = False
    bucket = ("force",)
    parent = None
    parent_force = None
    child_forces: list = []
    entry = _Entry()

    def __init__(self, view: UnitView):
        self.view = view
        self.roster = view.roster
        self.index = _ForceIndex(self)

    @property
    def selections(self) -> list[_Selection]:
        return [_Selection(self.view, self.view.root, 1, self)]

    @property
    def children(self) -> list[_Selection]:
        return self.selections

    def descendants(self) -> list[_Selection]:
        root = self.selections[0]
        return [root, *root.descendants()]

    def force_tree(self) -> list[_Force]:
        return [self]


class _Data:
    def __init__(self, index: Index):
        self.categories = index.categories


class _Roster:
    is_force = False
    is_roster = True
    cache = _NO_CACHE
    cost_limits: dict = {}

    def __init__(self, index: Index):
        self.data = _Data(index)
        self.force: _Force | None = None

    def all_forces(self) -> list[_Force]:
        return [self.force] if self.force is not None else []


class _Context:
    __slots__ = ("force", "parent", "roster", "selection")

    def __init__(self, roster, force, parent, selection):
        self.roster, self.force, self.parent, self.selection = roster, force, parent, selection


class UnitView:
    """One unit's tree (`root`) as a roster the engine evaluates."""

    def __init__(self, index: Index, root: Node):
        self.index = index
        self.root = root
        self.roster = _Roster(index)
        self.force = self.roster.force = _Force(self)
        self._options: dict[int, _Option] = {}

    def option(self, entry) -> _Option:
        found = self._options.get(id(entry))
        if found is None:
            found = self._options[id(entry)] = _Option(entry)
        return found

    def selection(self, node: Node | None) -> _Selection | _Force:
        """`node` as a selection, its number its count times its ancestors' (None: the force)."""
        if node is None:
            return self.force
        parent = self.selection(node.parent)
        return _Selection(self, node, node.multiplicity(), parent)

    def context(self, owner: Node | None, parent: Node | None) -> _Context:
        """Where an entry is evaluated: as the selection `owner` (None: not selected, under
        `parent`; None again: at the force's root)."""
        selection = self.selection(owner) if owner is not None else None
        under = selection.parent if selection is not None else self.selection(parent)
        return _Context(self.roster, self.force, under, selection)


class Evaluator:
    """Modifiers of one import's values, evaluated by the engine against a unit's tree."""

    def __init__(self, index: Index, warn):
        self.index = index
        self.warn = warn
        self._views: dict[int, UnitView] = {}

    def view(self, root: Node) -> UnitView:
        found = self._views.get(id(root))
        if found is None or found.root is not root:
            if len(self._views) > 4096:
                self._views.clear()
            found = self._views[id(root)] = UnitView(self.index, root)
        return found

    def holds(self, m: Modifier, owner: Node | None, parent: Node | None, root: Node) -> bool:
        """Whether every condition guarding `m` holds (its own and its modifier groups')."""
        return guards_hold(self.view(root).context(owner, parent), m.guards)

    def value(
        self,
        base: Fraction,
        field: str,
        modifiers: Iterable[Modifier],
        owner: Node | None,
        parent: Node | None,
        root: Node,
    ) -> Fraction:
        """`base` changed by the numeric `modifiers` of `field` whose conditions hold, applied as
        the roster engine applies them (`engine.modifiers`)."""
        mine = [m for m in modifiers if m.field == field]
        if not mine:
            return base
        ctx = self.view(root).context(owner, parent)
        eff = Effective(name="", hidden=False, costs={field: float(base)}, constraint_values={})
        for m in mine:
            if m.type not in NUMERIC_MODIFIERS:
                self.warn(self.where(m), f"a {m.type!r} modifier of a number is not supported; ignored")
                continue
            try:
                float(m.value)
            except ValueError:
                self.warn(self.where(m), f"modifier value {m.value!r} is not a number; ignored")
                continue
            if not guards_hold(ctx, m.guards):
                continue
            times = modifier_times(ctx, m)
            if times <= 0:
                continue
            apply_modifier(eff, m.type, field, m.value, times)
        return exact(eff.costs[field])

    @staticmethod
    def where(m: Modifier) -> str:
        return f"modifier[@field={m.field!r}]"


def exact(value: float) -> Fraction:
    """A float the engine computed as the exact number the data wrote (7.5, 0.1)."""
    if value != value or value in (float("inf"), float("-inf")):
        raise BattleScribeError([f"a modifier gives {value}, not a number"])
    return catalogue_exact(value)
