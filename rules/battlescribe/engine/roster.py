"""A roster: forces (and child forces) holding nested selections, and the operations on it.

Evaluated values (modified names, costs, hidden flags, constraint limits, errors) live in
`Roster.cache` (an `EvalCache`) with the parts of the roster they read; every mutation
invalidates only the values that read the unit, force or roster it changed.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from .errors import EngineError
from .evalcache import MISSING, ROSTER, EvalCache
from .index import ForceIndex, change_buckets
from .model import Definition, GameData, Option


@dataclass(frozen=True)
class Context:
    """Where an entry is evaluated: its selection (if any), the parent node and the force."""

    roster: Roster
    force: Force
    parent: object
    selection: Selection | None = None


class Selection:
    is_force = False
    is_roster = False

    def __init__(self, roster: Roster, option: Option, parent, force: Force, number: int = 1):
        self.roster = roster
        self.id = roster.new_id("selection")
        self.option = option
        self.parent = parent  # Selection or Force
        self.force = force
        self.number = number
        self.children: list[Selection] = []
        self.custom_name = ""
        self.custom_notes = ""
        #: A selection never moves, so its root selection (and the root's bucket) is fixed.
        self._root = self if parent.is_force else parent.root
        self.bucket = ("sel", id(self._root))
        #: What a query counting in this selection reads (`conditions.read_bucket`): it changes
        #: with the selection's own subtree only, so a model added to a unit does not recount
        #: what the unit's other models hold.
        self.node_bucket = ("node", id(self))
        #: Units are summed in blocks of `UNIT_BLOCK` (by creation order): adding, changing or
        #: removing a unit re-sums its block and the blocks' totals, not every unit.
        self.block = next(roster._units) // UNIT_BLOCK if parent.is_force else parent.block

    @property
    def entry_id(self) -> str:
        return self.option.key

    @property
    def entry_group_id(self) -> str:
        return self.option.group.key if self.option.group is not None else ""

    def context(self) -> Context:
        return Context(self.roster, self.force, self.parent, self)

    @property
    def root(self) -> Selection:
        return self._root

    def effective(self):
        eff = self.roster.cache.peek(("eff", id(self.option), id(self)))
        if eff is not MISSING:
            return eff
        # Imported here, on a miss only (modifiers imports this module): an import statement
        # on the hot cached path costs more than the cache lookup.
        from .modifiers import effective

        return effective(self.option, self.context())

    @property
    def name(self) -> str:
        return self.effective().name

    def category_ids(self) -> tuple[str, ...]:
        return tuple(c[0] for c in self._categories())

    def has_category(self, category_id: str) -> bool:
        # A plain loop, not any(<generator>): called thousands of times per edit by queries.
        for cid, _primary in self._categories():  # noqa: SIM110
            if cid == category_id:
                return True
        return False

    def _categories(self) -> tuple[tuple[str, bool], ...]:
        static = self.option.static_categories
        if static is not None:
            return static
        cats = self.roster.cache.peek(("cat", id(self.option), id(self)))
        if cats is MISSING:
            from .modifiers import categories

            cats = categories(self.option, self.context())
        return cats

    def own_cost(self, cost_type: str) -> float:
        return self.effective().costs.get(cost_type, 0.0) * self.number

    def cost(self, cost_type: str, include_children: bool = True) -> float:
        if not include_children:
            return self.own_cost(cost_type)
        value = self.roster.cache.peek(("cost", id(self), cost_type))
        if value is not MISSING:
            return value
        # The total reads this selection's number and children (its subtree's bucket) and the
        # children's costs (values): a model added to the unit does not re-sum its other models.
        return self.roster.cache.get(
            ("cost", id(self), cost_type), lambda: self._total(cost_type), (self.node_bucket,)
        )

    def _total(self, cost_type: str) -> float:
        total = self.own_cost(cost_type)
        for child in self.children:
            total += child.cost(cost_type, True)
        return total

    def descendants(self) -> list[Selection]:
        out = []
        for child in self.children:
            out.append(child)
            out.extend(child.descendants())
        return out

    def __repr__(self) -> str:
        return f"Selection({self.option.key} x{self.number})"


class Force:
    is_force = True
    is_roster = False

    def __init__(self, roster: Roster, entry: Definition, catalogue_id: str, parent_force: Force | None):
        self.roster = roster
        self.id = roster.new_id("force")
        self.entry = entry
        self.catalogue_id = catalogue_id
        self.parent_force = parent_force
        self.selections: list[Selection] = []
        self.child_forces: list[Force] = []
        self.index = ForceIndex()
        #: (roster version, units by block) — see `units_by_block`.
        self._blocks: tuple | None = None
        #: `category_entries`, worked out once: a force's entry and the data never change.
        self._category_entries: tuple[tuple[str, str], ...] | None = None
        self._category_ids: frozenset[str] | None = None
        self.custom_name = ""
        self.custom_notes = ""

    @property
    def children(self) -> list[Selection]:
        return self.selections

    @property
    def force(self) -> Force:
        return self

    @property
    def parent(self):
        return self.parent_force

    @property
    def bucket(self) -> tuple:
        return ("force", id(self))

    def force_tree(self) -> list[Force]:
        out = [self]
        for child in self.child_forces:
            out.extend(child.force_tree())
        return out

    def descendants(self) -> list[Selection]:
        out = []
        for sel in self.selections:
            out.append(sel)
            out.extend(sel.descendants())
        return out

    def context(self) -> Context:
        return Context(self.roster, self, self, None)

    def root_options(self) -> list[Option]:
        return self.roster.data.root_options(self.catalogue_id)

    def category_entries(self) -> list[tuple[str, str]]:
        """(category id, name) of the force's categories, in force-entry order."""
        if self._category_entries is None:
            self._category_entries = tuple(
                (link.target_id, self.roster.data.category_name(link.target_id) or link.name)
                for link in self.entry.category_links
            )
        return list(self._category_entries)

    def category_ids(self) -> frozenset[str]:
        """The ids of `category_entries`: the validation of each root entry asks whether the
        force has one of its categories, so the set is made once per force, not once per
        entry and click."""
        if self._category_ids is None:
            self._category_ids = frozenset(cid for cid, _name in self.category_entries())
        return self._category_ids

    def __repr__(self) -> str:
        return f"Force({self.entry.id})"


class Roster:
    #: What a query's scope resolves to is a selection, a force or the roster: the flags tell
    #: them apart without an isinstance test (whose import the hot query path would pay).
    is_force = False
    is_roster = True

    def __init__(self, data: GameData, name: str = ""):
        self.data = data
        self.name = name
        self.forces: list[Force] = []
        self.cost_limits: dict[str, float] = {
            c.id: c.default_cost_limit for c in data.cost_types if c.default_cost_limit is not None
        }
        self._ids = itertools.count(1)
        self._units = itertools.count()
        self.version = 0
        self.cache = EvalCache()

    # -- bookkeeping -------------------------------------------------------------------
    def new_id(self, kind: str) -> str:
        return f"{kind}-{next(self._ids)}"

    def touch(self, node=None) -> None:
        """Record a change at `node` (a selection or force; None: the roster's forces)."""
        self.version += 1
        if node is None or self.cache.scratch:
            # A scratch cache (`query.scratch`) holds the few values of one question: emptied
            # at once instead of working out which of them the change reaches.
            self.cache.clear()
            return
        buckets = [ROSTER]
        force = node if node.is_force else node.force
        if not node.is_force:
            buckets.append(node.bucket)
            buckets.append(("ublock", id(force), node.block))
            buckets.extend(change_buckets(id(force), node))
            buckets.extend(node_buckets(node))
        while force is not None:
            buckets.append(force.bucket)
            force = force.parent_force
        self.cache.invalidate(buckets)

    def all_forces(self) -> list[Force]:
        out = []
        for force in self.forces:
            out.extend(force.force_tree())
        return out

    def all_selections(self) -> list[Selection]:
        out = []
        for force in self.all_forces():
            out.extend(force.descendants())
        return out

    def find_force(self, force_id: str) -> Force:
        for force in self.all_forces():
            if force.id == force_id:
                return force
        raise EngineError(f"No force {force_id!r} in the roster.")

    def find_selection(self, selection_id: str) -> Selection:
        for sel in self.all_selections():
            if sel.id == selection_id:
                return sel
        raise EngineError(f"No selection {selection_id!r} in the roster.")

    def costs(self) -> dict[str, float]:
        totals = {c.id: 0.0 for c in self.data.cost_types}
        for force in self.all_forces():
            for type_id, value in self.cache.get(
                ("force-costs", id(force)), lambda f=force: self._force_costs(f), lazy=True
            ):
                totals[type_id] += value
        return totals

    def _force_costs(self, force: Force) -> tuple:
        """(cost type, total) of a force's units: reads its list of units and each block's sum."""
        self.cache.read(("fid", id(force), "any"))
        totals = dict.fromkeys((c.id for c in self.data.cost_types), 0.0)
        for block in unit_blocks(force):
            for type_id, value in self.cache.get(
                ("block-costs", id(force), block), lambda b=block: self._block_costs(force, b), lazy=True
            ):
                totals[type_id] += value
        return tuple(totals.items())

    def _block_costs(self, force: Force, block: int) -> tuple:
        """(cost type, total) of the force's units in one block."""
        self.cache.read(("ublock", id(force), block))
        units = units_by_block(force).get(block, [])
        return tuple((c.id, sum(sel.cost(c.id) for sel in units)) for c in self.data.cost_types)

    def full_reevaluation(self) -> None:
        """Forget every evaluated value (the baseline the engine bench compares against)."""
        self.cache.clear()

    # -- forces --------------------------------------------------------------------------
    def _catalogue_for(self, entry: Definition, catalogue_id: str | None) -> str:
        if catalogue_id:
            return catalogue_id
        if entry.catalogue_id in self.data.catalogues:
            return entry.catalogue_id
        for cat in self.data.catalogues.values():
            if not cat.library:
                return cat.id
        return next(iter(self.data.catalogues), "")

    def add_force(
        self, force_entry_id: str, catalogue_id: str | None = None, parent: Force | None = None
    ) -> Force:
        entry = self.data.force_entries.get(force_entry_id)
        if entry is None:
            raise EngineError(f"No force entry {force_entry_id!r}.")
        if catalogue_id is None and parent is not None:
            catalogue_id = parent.catalogue_id
        force = Force(self, entry, self._catalogue_for(entry, catalogue_id), parent)
        (parent.child_forces if parent is not None else self.forces).append(force)
        self.touch()
        self._auto_select(force, force.root_options(), force.context())
        return force

    def remove_force(self, force: Force) -> None:
        holder = force.parent_force.child_forces if force.parent_force else self.forces
        holder.remove(force)
        self.touch()

    def duplicate_force(self, force: Force) -> Force:
        copy = Force(self, force.entry, force.catalogue_id, force.parent_force)
        copy.custom_name = force.custom_name
        holder = force.parent_force.child_forces if force.parent_force else self.forces
        holder.insert(holder.index(force) + 1, copy)
        for sel in force.selections:
            clone = self._clone(sel, copy, copy)
            copy.selections.append(clone)
            copy.index.add_subtree(clone)
        self.touch()
        return copy

    # -- selections ----------------------------------------------------------------------
    def find_option(self, options: list[Option], entry_id: str) -> Option:
        for matcher in (
            lambda o: o.key == entry_id,
            lambda o: o.link is not None and o.link.id == entry_id,
            lambda o: o.defn.id == entry_id,
            lambda o: o.key.endswith("::" + entry_id),
        ):
            for option in options:
                if matcher(option):
                    return option
        raise EngineError(f"No entry {entry_id!r} can be selected here.")

    def select_entry(self, force: Force, entry_id: str) -> Selection:
        options = _flatten(force.root_options())
        option = self.find_option(options, entry_id)
        return self._create(option, force, force)

    def select_child(self, parent: Selection, entry_id: str) -> Selection:
        option = self.find_option(parent.option.selectable(), entry_id)
        if option.collective and not parent.parent.is_force and not is_duplicate(option):
            # BattleScribe replicates a collective child onto every sibling instance of the
            # parent (`docs/battlescribe.md`, "Collective entries").
            made = None
            for sibling in [s for s in parent.parent.children if s.option is parent.option]:
                sel = self._add_or_increment(option, sibling, sibling.number)
                if sibling is parent:
                    made = sel
            return made
        return self._add_or_increment(option, parent, 1)

    def _add_or_increment(self, option: Option, parent: Selection, amount: int) -> Selection:
        """A non-root selection of an entry that is not "duplicate"-style grows one node."""
        if not is_duplicate(option):
            for existing in parent.children:
                if existing.option is option:
                    existing.number += amount
                    self.touch(existing)
                    return existing
        return self._create(option, parent, parent.force)

    def _create(self, option: Option, parent, force: Force, number: int | None = None) -> Selection:
        if number is None:
            number = 1
            if option.collective and not parent.is_force and not is_duplicate(option):
                number = max(parent.number, 1)
        sel = Selection(self, option, parent, force, number)
        parent.children.append(sel)
        force.index.add_subtree(sel)
        # Each selection the build creates changes the force, and the next one's auto-select
        # reads modified limits: those reads bring up to date only what they depend on.
        with self.cache.pulling():
            self.touch(sel)
            self._auto_select(sel, option.children(), Context(self, force, sel, None))
        return sel

    def _auto_select(self, parent, options: list[Option], ctx: Context) -> None:
        """Select what a min constraint on `field: selections` requires (BattleScribe's auto-select)."""
        from .modifiers import effective

        if parent.is_force and parent.entry.hidden:
            return  # BattleScribe selects nothing for a force whose entry is hidden
        for option in options:
            eff = effective(option, ctx)
            minimum = 0
            # A child is auto-selected for a minimum per parent only: a force- or roster-wide
            # one (Chaos Knights' hidden "Character (Traitoris Lance)", 1 per force) is not
            # taken under every unit. A root entry's minimum of any scope is (40k's Game Type,
            # 1 per roster): BattleScribe selects the default root entries with a new force.
            for c in option.constraints:
                if (
                    c.type == "min"
                    and c.field == "selections"
                    and not c.percent_value
                    and (c.scope == "parent" or parent.is_force)
                ):
                    minimum = max(minimum, int(eff.constraint_values.get(c.id, c.value)))
            if minimum <= 0:
                if option.is_group:
                    self._auto_select(parent, option.children(), ctx)
                continue
            if option.is_group:
                # Entries of the group that are required on their own (a squad's one sergeant)
                # come first and count towards the group's minimum; the default fills the rest.
                self._auto_select(parent, option.children(), ctx)
                choices = option.selectable()
                chosen = None
                if option.defn.default_selection_entry_id:
                    for o in choices:
                        if option.defn.default_selection_entry_id in (
                            o.defn.id,
                            o.key,
                            o.link.id if o.link else None,
                        ):
                            chosen = o
                            break
                if chosen is None and len(choices) == 1:
                    chosen = choices[0]
                if chosen is not None:
                    members = {id(o) for o in choices}
                    in_group = sum(s.number for s in parent.children if id(s.option) in members)
                    have = sum(s.number for s in parent.children if s.option is chosen)
                    self._auto_create(chosen, parent, ctx.force, have + minimum - in_group)
                continue
            self._auto_create(option, parent, ctx.force, minimum)

    def _auto_create(self, option: Option, parent, force: Force, minimum: int) -> None:
        """Bring `option` up to `minimum`: new nodes at the root or for "duplicate" entries,
        else one node whose number is the minimum (per model when collective)."""
        have = sum(s.number for s in parent.children if s.option is option)
        missing = minimum - have
        if missing <= 0:
            return
        if parent.is_force or is_duplicate(option):
            for _ in range(missing):
                self._create(option, parent, force, 1)
            return
        number = missing * max(parent.number, 1) if option.collective else missing
        existing = next((s for s in parent.children if s.option is option), None)
        if existing is not None:
            # Already taken (its own minimum came first): one node grows, as a count change does.
            self._change_number(existing, existing.number + number)
            self.touch(existing)
            return
        self._create(option, parent, force, number)

    def deselect(self, sel: Selection) -> None:
        parent = sel.parent
        if not parent.is_force and sel.number > 1:
            step = parent.number if (sel.option.collective and not is_duplicate(sel.option)) else 1
            if sel.number > step:
                self._change_number(sel, sel.number - step)
                self.touch(sel)
                return
        self.touch(sel)
        sel.force.index.remove_subtree(sel)
        parent.children.remove(sel)

    def deselect_all(self, sel: Selection) -> None:
        self.touch(sel)
        sel.force.index.remove_subtree(sel)
        sel.parent.children.remove(sel)

    def set_count(self, sel: Selection, count: int) -> None:
        """Set how many of a selection there are (per parent model for collective children)."""
        if count <= 0:
            self.deselect_all(sel)
            return
        parent = sel.parent
        if not parent.is_force and sel.option.collective and not is_duplicate(sel.option):
            count = count * max(parent.number, 1)
        elif not parent.is_force and is_duplicate(sel.option):
            return  # BattleScribe leaves "duplicate"-style entries at their number
        self._change_number(sel, count)
        self.touch(sel)

    def _change_number(self, sel: Selection, count: int) -> None:
        """Change `sel.number` one step at a time, scaling collective children as BattleScribe does."""
        while sel.number != count:
            previous = sel.number
            up = count > previous
            for child in list(sel.children):
                if not child.option.collective or is_duplicate(child.option):
                    continue
                if up:
                    child_new = child.number + -(-child.number // previous)
                else:
                    child_new = child.number - -(-child.number // previous)
                if child_new <= 0:
                    child.force.index.remove_subtree(child)
                    sel.children.remove(child)
                else:
                    self._change_number(child, child_new)
            sel.number = previous + 1 if up else previous - 1

    def duplicate(self, sel: Selection) -> Selection:
        copy = self._clone(sel, sel.parent, sel.force)
        holder = sel.parent.children
        holder.insert(holder.index(sel) + 1, copy)
        sel.force.index.add_subtree(copy)
        self.touch(copy)
        return copy

    def _clone(self, sel: Selection, parent, force: Force) -> Selection:
        copy = Selection(self, sel.option, parent, force, sel.number)
        copy.custom_name = sel.custom_name
        copy.custom_notes = sel.custom_notes
        copy.children = [self._clone(child, copy, force) for child in sel.children]
        return copy

    def set_cost_limit(self, cost_type: str, value: float) -> None:
        self.cost_limits[cost_type] = value
        self.touch()


#: Units per block of a force's sums (costs, errors).
UNIT_BLOCK = 32


def units_by_block(force: Force) -> dict[int, list[Selection]]:
    """A force's units by block, blocks in the order of the units (computed once per roster
    version: every operation that adds or removes a unit changes the version)."""
    cached = force._blocks
    if cached is not None and cached[0] == force.roster.version:
        return cached[1]
    blocks: dict[int, list[Selection]] = {}
    for sel in force.selections:
        blocks.setdefault(sel.block, []).append(sel)
    force._blocks = (force.roster.version, blocks)
    return blocks


def unit_blocks(force: Force) -> list[int]:
    """The blocks of a force's units, in the order of the units."""
    return list(units_by_block(force))


def node_buckets(sel: Selection) -> list[tuple]:
    """The `node_bucket`s a change at `sel` changes: its own subtree's (numbers, children) and its
    ancestors' (a query of theirs may count anything below them)."""
    out = []
    stack = [sel]
    while stack:
        node = stack.pop()
        out.append(node.node_bucket)
        stack.extend(node.children)
    parent = sel.parent
    while not parent.is_force:
        out.append(parent.node_bucket)
        parent = parent.parent
    return out


def is_duplicate(option: Option) -> bool:
    """BattleScribe's "duplicate" test: an entry with a non-collective child is instanced."""
    for child in option.selectable():
        if child.hidden:
            continue
        if not child.collective or is_duplicate(child):
            return True
    return False


def _flatten(options: list[Option]) -> list[Option]:
    out = []
    for option in options:
        if option.is_group:
            out.extend(_flatten(option.children()))
        else:
            out.append(option)
    return out
