"""A unit's smallest legal selection, made by the roster engine (issue 39: one BattleScribe model).

A unit card shows the price of the smallest legal selection of the unit: what BattleScribe
selects by itself when the unit is added (the engine's auto-selection: its defaults and
minimums), completed where BattleScribe leaves a required choice open (`complete_minimums`).
The unit is added alone to a force of an otherwise empty roster (a force entry of no
categories, no cost limit), as the importer has always priced it: a condition on the force or
the roster counts this unit only.

`SmallestSelection.tree` makes that selection in the engine's roster and gives it to the rest of
the importer as its `data.Node` tree (one node per entry taken, counted per parent), each node
over the engine option it selects: the importer asks its questions of the very options and
selections the engine's roster holds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from fractions import Fraction

from rules.battlescribe.catalogue import exact, shown
from rules.battlescribe.engine.constraints import validate
from rules.battlescribe.engine.errors import EngineError
from rules.battlescribe.engine.model import Definition, Modifier, Option
from rules.battlescribe.engine.modifiers import Effective, _apply_modifiers, effective
from rules.battlescribe.engine.query import (
    cost_only,
    costs_only,
    holds_under,
    scratch,
    selection_limits,
    shapes,
    taken_cost,
    trial,
)
from rules.battlescribe.engine.roster import Context, Force, Roster, Selection, is_duplicate
from rules.battlescribe.units.data import ImportData, Node
from rules.battlescribe.xml_reader import BattleScribeError

#: Rounds of `complete_minimums` (each completes what the last one's choices made required).
MAX_COMPLETION_ROUNDS = 8
#: Most selections one unit's smallest selection may hold (a guard against absurd minimums).
MAX_SELECTIONS = 5000
#: A minimum above this is treated as a data error.
MAX_MIN = 1000


def _parent_minimums(option: Option) -> list:
    """`option`'s own limits on its number of selections per parent from below (a percentage
    is none: `UnitSelection.limit` warns about those)."""
    return [
        c
        for c in option.constraints
        if c.type == "min" and c.field == "selections" and c.scope == "parent" and not c.percent_value
    ]


def _minimum(option: Option, ctx: Context, raised_only: bool = False) -> int:
    """The option's `min` selections per parent after modifiers (0: none). `raised_only`: with
    only the modifiers of those minimums applied (a unit grown by a model reads the minimums a
    modifier sets many times, and nothing else of those entries), which gives the same number
    for less work."""
    mins = _parent_minimums(option)
    if not mins:
        return 0
    if raised_only:
        eff = Effective(name="", hidden=False, costs={}, constraint_values={c.id: c.value for c in mins})
        _apply_modifiers(eff, option.modifiers, ctx, fields={c.id for c in mins})
    else:
        eff = effective(option, ctx)
    return max(0, *(int(eff.constraint_values.get(c.id, c.value)) for c in mins))


def modified_minimum(option: Option) -> bool:
    """Whether one of `option`'s own modifiers changes its minimum selections per parent (the
    only minimums a change elsewhere in the unit, such as its size, can move)."""
    mins = {c.id for c in _parent_minimums(option)}
    return bool(mins) and any(m.field in mins for m in option.modifiers)


def _taken(parent, options: list[Option]) -> int:
    ids = {id(o) for o in options}
    return sum(s.number for s in parent.children if id(s.option) in ids)


def complete_minimums(
    roster: Roster,
    unit: Selection,
    warn: Callable[[Option, Option], None] = lambda _group, _member: None,
    rounds: int = MAX_COMPLETION_ROUNDS,
    cost_type: str | None = None,
    choose_by: str | None = None,
) -> None:
    """Complete the engine's auto-selection of `unit` into its smallest legal selection.

    BattleScribe (and the engine) leave a group that requires a choice and names no default
    empty, with an error for the player to resolve (Ergofarg's Dwarfs "Slayers": at least 10 of
    Troll or Giant Slayers). A unit card has no player to ask, and its price must be one of a
    legal unit: so while a group or an entry is below its minimum, this takes the group's
    cheapest member (`required_choice`, in `choose_by` or `cost_type`, `warn`ed about: a
    Keeper of Secrets must be a wizard of some level, and Level 1 costs nothing where Level 3
    costs 70) or the entry up to its minimum (which a modifier may have raised after the
    entry's parent was auto-selected), and lets the engine auto-select under it; until nothing
    is missing or nothing changes.

    A model taken so is then tried in place of as many models of another entry beside it
    (`_swap_cheaper`, with `cost_type` only): BSData 40k's Burna Boyz need a Spanner per 4
    Burna Boys in a mob of 5 to 15, and the 5 Burna Boys the engine selects want a Spanner,
    which the unit may take instead of a Burna Boy (4 and a Spanner, 55 pts) rather than on top
    (65 pts)."""
    for _ in range(rounds):
        changed = False
        for sel in [unit, *unit.descendants()]:
            ctx = Context(roster, sel.force, sel, None)
            changed |= _complete(roster, unit, sel, sel.option.children(), ctx, warn, cost_type,
                                 choose_by or cost_type)
        if not changed:
            return
        if sum(1 for _s in unit.descendants()) > MAX_SELECTIONS:
            raise OverflowError(unit.option.key)


def required_choice(members: list[Option], cost_type: str | None) -> Option | None:
    """The member of a group that must be chosen and names no default that a unit card takes
    (None when it is empty or its first member is a group, which `_complete` completes on its
    own, as the importer always has). Where every entry of the group is a leaf whose
    written cost no modifier of its own changes, that cost is all it costs, and the card takes
    the first of the cheapest in `cost_type`: it shows the smallest legal unit, and the player
    picks another as an option (BSData/whfb's
    Keeper of Secrets must be a wizard and names no level: Level 1, 0 pts, not Level 3, 70).
    Otherwise the first entry, as BattleScribe's data lists it: an entry with contents costs
    what they cost once chosen, and a modified cost may be another than the written one, which
    the written cost does not say."""
    if not members or members[0].is_group:  # a group of groups: its groups complete themselves
        return None
    entries = [m for m in members if not m.is_group]
    if cost_type is None or any(m.children() or _cost_modified(m, cost_type) for m in entries):
        return entries[0]
    return min(entries, key=lambda m: m.costs.get(cost_type, 0.0))


def _cost_modified(option: Option, cost_type: str) -> bool:
    """Whether one of `option`'s own modifiers changes its cost in `cost_type`."""
    return any(m.field == cost_type for m in option.modifiers)


def _complete(
    roster: Roster,
    unit: Selection,
    parent: Selection,
    options: list[Option],
    ctx: Context,
    warn,
    cost_type: str | None,
    choose_by: str | None = None,
) -> bool:
    changed = False
    for option in options:
        minimum = _minimum(option, ctx)
        if option.is_group:
            changed |= _complete(roster, unit, parent, option.children(), ctx, warn, cost_type, choose_by)
            missing = minimum - _taken(parent, option.selectable())
            first = required_choice(option.children(), choose_by)
            if missing <= 0 or first is None:
                continue
            warn(option, first)
            have = sum(s.number for s in parent.children if s.option is first)
            roster._auto_create(first, parent, ctx.force, have + missing)
            changed = True
            if cost_type is not None:
                _swap_cheaper(roster, unit, parent, first, missing, ctx, cost_type)
        elif minimum > (have := _taken(parent, [option])):
            roster._auto_create(option, parent, ctx.force, minimum)
            changed = True
            if cost_type is not None:
                _swap_cheaper(roster, unit, parent, option, minimum - have, ctx, cost_type)
    return changed


#: Most entries `_swap_cheaper` tries giving up models of, per minimum it completes.
MAX_SWAP_TRIALS = 3


def _swap_cheaper(
    roster: Roster,
    unit: Selection,
    parent: Selection,
    taken: Option,
    number: int,
    ctx: Context,
    cost_type: str,
) -> None:
    """Give up `number` models of another entry under `parent` for the `number` models of
    `taken` just added there to meet a minimum, if the unit stays as legal and costs less.

    Adding only what is missing never swaps: a minimum a modifier raises as models are counted
    ("a Spanner per 4 Burna Boys") is met on top of the models already chosen, while the
    cheapest legal unit may hold the required model instead of one of them (the mob's size,
    its group's minimum, counts both). For each other model entry taken under `parent` whose
    own minimum leaves room for `number` fewer (at most `MAX_SWAP_TRIALS`, the dearest per
    model first), the engine's roster is asked with those models removed: its cost in
    `cost_type` and its errors (`engine.constraints.validate`), evaluated in a scratch cache
    and undone. The cheapest trial that costs less than the unit as completed and has no error
    it does not have is kept. Only models are traded for models: a unit's size is counted in
    models, and giving up gear for a model (or a model for gear) is a choice for the player."""
    if taken.defn.type != "model":
        return
    candidates = []
    for option in {id(s.option): s.option for s in parent.children}.values():
        if option is taken or option.defn.type != "model":
            continue
        have = _taken(parent, [option])
        if have - number < _minimum(option, ctx):
            continue
        nodes = [s for s in parent.children if s.option is option]
        each = sum(s.cost(cost_type) for s in nodes) / have
        candidates.append((-each, len(candidates), option))
    if not candidates:
        return
    with scratch(roster):
        before = unit.cost(cost_type)
        errors = _error_keys(roster)
    best: tuple[float, Option] | None = None
    for _each, _order, option in sorted(candidates)[:MAX_SWAP_TRIALS]:
        with _undone(roster, parent):
            _give_up(roster, parent, option, number)
            cost = unit.cost(cost_type)
            legal = _error_keys(roster) <= errors
        if legal and cost < before and (best is None or cost < best[0]):
            best = (cost, option)
    if best is not None:
        _give_up(roster, parent, best[1], number)


def _error_keys(roster: Roster) -> set[tuple[str, str, str]]:
    """The roster's errors, each by what it is about (not by the counts in its message)."""
    return {(e.owner_type, e.owner_id, e.source) for e in validate(roster)}


def _give_up(roster: Roster, parent: Selection, option: Option, number: int) -> None:
    """Remove `number` of `option`'s models under `parent`, the last taken first."""
    for sel in reversed([s for s in parent.children if s.option is option]):
        if number <= 0:
            return
        if sel.number > number:
            roster._change_number(sel, sel.number - number)
            roster.touch(sel)
            return
        number -= sel.number
        roster.deselect_all(sel)


@contextmanager
def _undone(roster: Roster, parent: Selection) -> Iterator[None]:
    """Run the block in a scratch cache (`engine.query.scratch`) and put `parent`'s subtree back
    as it was: every selection's number and children, and the force's index of them."""
    kept = [(s, s.number, list(s.children)) for s in [parent, *parent.descendants()]]
    with scratch(roster):
        try:
            yield
        finally:
            # The block only removes selections (`_give_up`): each is indexed again.
            index = parent.force.index.deep
            for sel, number, children in kept:
                sel.number = number
                sel.children[:] = children
                if sel is not parent and sel not in index.all:
                    index.add(sel)


@dataclass
class UnitSelection:
    """One unit selected in its own engine roster, and that selection as the importer's tree.

    `nodes` maps each node of `root` (by id) to the engine selections it stands for (one node
    for the instances of one entry under one parent selection) and the engine number of that
    parent selection: a collective child's number counts it for every one of them. The
    importer's questions about an option of the unit (its limits, whether a modifier's
    conditions hold) are asked of the engine at the node's selection (`engine.query`)."""

    roster: Roster
    unit: Selection
    root: Node
    nodes: dict[int, tuple[list[Selection], int]] = field(default_factory=dict)
    maker: SmallestSelection | None = None

    def total(self, cost_type: str | None, below: Node | None = None) -> Fraction:
        """The engine's cost of the unit (or of `below`'s selections, per parent selection)."""
        if cost_type is None:
            return Fraction(0)
        if below is None:
            return exact(self.unit.cost(cost_type))
        sels, per = self.nodes[id(below)]
        return exact(sum(s.cost(cost_type) for s in sels)) / per

    def selection(self, node: Node) -> Selection:
        """The engine selection `node` stands for (the first, for several of one entry)."""
        return self.nodes[id(node)][0][0]

    def limit(self, entry: Option, kind: str, node: Node) -> int | None:
        """`entry`'s `kind` ("min"/"max") selections per parent under `node` (an option under
        `node`'s, through groups), after modifiers (None: no such limit; the tightest of several).
        A percentage is warned about and ignored; -1 is "no limit"; a minimum above `MAX_MIN` is
        a data error, warned about and capped."""
        assert self.maker is not None
        warn, where = self.maker.warn, self.maker.data.path(entry)
        found = None
        for c, value in selection_limits(entry, self.selection(node), kind):
            if c.percent_value:
                warn(where, f"a {kind} of {shown(value)} % is not supported; ignored")
                continue
            n = max(int(value), 0) if value >= 0 else None
            if n is not None:
                found = n if found is None else (max(found, n) if kind == "min" else min(found, n))
        if kind == "min" and found is not None and found > MAX_MIN:
            warn(where, f"a minimum of {found} selections is not credible; treated as {MAX_MIN}")
            return MAX_MIN
        return found

    def room(self, node: Node, parent: Node) -> int | None:
        """The most selections of `node`'s entry per parent selection the unit can hold, the
        rest of it as it stands: the entry's own maximum (`limit`, asked under `parent`) and,
        for each group the entry is chosen from, the group's maximum (after modifiers) less
        the selections of the group's other members already taken. BSData Orks Burna Boyz: a
        Burna Boy has no maximum of its own, but the mob holds at most 15 models, one of them
        the Spanner, so 14 Burna Boys, not 100 more. None: no limit at all."""
        high = self.limit(node.entry, "max", parent)
        sels, per = self.nodes[id(node)]
        option, where = sels[0].option, sels[0].parent
        if where is None:
            return high
        group = option.group
        while group is not None:
            limits = selection_limits(group, where, "max")
            caps = [int(v) for c, v in limits if not c.percent_value and v >= 0]
            if caps:
                others = sum(
                    s.number for s in where.children if s.option is not option and _within(s.option, group)
                )
                left = max(min(caps) - others // max(per, 1), 0)
                high = left if high is None else min(high, left)
            group = group.group
        return high

    def cost(self, cost_type: str | None) -> Fraction:
        """The unit's cost as it stands (in a `sizes` block: at that size)."""
        if cost_type is None:
            return Fraction(0)
        return exact(cost_only(self.unit, cost_type))

    def costs(self, cost_types: list[str | None]) -> dict[str | None, Fraction]:
        """The unit's costs in `cost_types` as it stands (`cost` of each, in one walk; 0 in
        None, no cost type)."""
        named = [t for t in dict.fromkeys(cost_types) if t is not None]
        out: dict[str | None, Fraction] = {t: exact(v) for t, v in costs_only(self.unit, named).items()}
        if None in cost_types:
            out[None] = Fraction(0)
        return out

    def sizes(self, node: Node, counts: Iterable[int]) -> Iterator[int]:
        """Each of `counts` (rising) in turn, the unit grown meanwhile to that many of `node`'s
        entry per parent selection, with what the larger size requires completed as the
        smallest selection is (`SmallestSelection.recomplete`); the unit is put back after the last one
        (`engine.query.trial`). Larger sizes are made from the smaller ones, one trial for all."""
        assert self.maker is not None
        sels, per = self.nodes[id(node)]
        option, parent = sels[0].option, sels[0].parent
        moved = any(self.maker.raised(s.option) for s in [self.unit, *self.unit.descendants()])
        with trial(self.roster, self.unit):
            for n in counts:
                want = n * per if per > 1 else n
                have = sum(s.number for s in parent.children if s.option is option)
                if want > have:
                    mine = [s for s in parent.children if s.option is option]
                    if len(mine) == 1 and not is_duplicate(option):
                        self.roster._change_number(mine[0], mine[0].number + want - have)
                        self.roster.touch(mine[0])
                    else:
                        # Each instance taken on its own ("duplicate" entries): one more is a
                        # copy of the first, as the importer's tree counts the first's content
                        # for each of them.
                        for _ in range(want - have):
                            self.roster.duplicate(sels[0])
                    # The rest of the unit was complete: only a minimum a modifier moves (one
                    # per 4 models) can be missing now.
                    if moved:
                        self.maker.recomplete(self.roster, self.unit, self.root.entry)
                yield n

    def price(self, entry: Option, node: Node, cost_type: str | None) -> Fraction:
        """What taking `entry` once more under one selection of `node` adds to the unit's cost
        (the engine's, with what it selects with the entry, completed as the unit is)."""
        if cost_type is None:
            return Fraction(0)
        assert self.maker is not None
        maker = self.maker
        added = taken_cost(
            self.roster,
            self.unit,
            entry,
            self.selection(node),
            cost_type,
            lambda sel: maker.complete(self.roster, sel, entry),
        )
        return exact(added)

    def ceiling(self, entry: Option, kind: str, node: Node) -> int | None:
        """The highest value `entry`'s `kind` limit (selections per parent) can take under its
        own modifiers, each applied once whatever its conditions: `set` to its value,
        `increment` added (a repeated increment counted once). None: no such limit."""
        option = entry
        best = None
        for c in option.constraints:
            if c.type != kind or c.field != "selections" or c.scope != "parent" or c.percent_value:
                continue
            value = raised = c.value
            for m in option.modifiers:
                if m.field != c.id:
                    continue
                try:
                    amount = float(m.value)
                except ValueError:
                    continue
                if m.type == "set":
                    raised = max(raised, amount)
                elif m.type == "increment" and amount > 0:
                    value += amount
            raised = max(raised, value)
            if raised >= 0:
                best = int(raised) if best is None else min(best, int(raised))
        return best

    def default_member(self, group: Option, members: list[Option], node: Node) -> Option | None:
        """The member of `group` under `node` the engine takes for the group's minimum: the one
        the group names as its default, else (with a warning) its cheapest (`required_choice`)."""
        default_id = group.defn.default_selection_entry_id
        for member in members:
            if default_id and default_id in (ImportData.entry_id(member), ImportData.target_id(member)):
                return member
        chosen = required_choice(members, self.maker.cost_type if self.maker is not None else None)
        if chosen is None:
            return members[0] if members else None
        if self.maker is not None:
            self.maker.warn(
                self.maker.data.path(group),
                f"the group needs a selection and names no default; took {ImportData.name(chosen)!r}",
            )
        return chosen

    def holds(self, modifier: Modifier, node: Node) -> bool:
        """Whether `modifier`'s conditions hold for an entry not selected under `node`."""
        return holds_under(modifier, self.selection(node))

    @contextmanager
    def holding(self, entry: Option, node: Node) -> Iterator[Node]:
        """`entry` taken once under `node` (with what the engine selects with it, completed as
        the unit is), for as long as the block runs: its own options are read under it."""
        assert self.maker is not None
        parent = self.selection(node)
        option = entry
        before = list(parent.children)
        made = self.roster._create(option, parent, parent.force)
        self.maker.complete(self.roster, made, entry)
        known = set(self.nodes)
        holder = self.maker._node(entry, [made], node, parent.number, self.nodes)
        try:
            yield holder
        finally:
            for sel in [s for s in parent.children if all(s is not b for b in before)]:
                self.roster.deselect_all(sel)
            for key in set(self.nodes) - known:
                del self.nodes[key]


class SmallestSelection:
    """Each unit of one import at its smallest legal selection, by the engine (see the module)."""

    def __init__(
        self,
        data: ImportData,
        warn: Callable[[str, str], None],
        cost_type: str | None = None,
    ):
        self.data = data
        self.warn = warn
        #: The cost type a unit's price is read in: a cheaper legal selection is chosen by it
        #: (`complete_minimums`); None: none is.
        self.cost_type = cost_type
        #: The force's entry: no categories, no constraints (an otherwise empty roster).
        self._force_entry = Definition(kind="forceEntry", id="", name="")
        #: {id(option): (that option, the options under it whose minimum a modifier sets)}.
        self._raised: dict[int, tuple[Option, list[Option]]] = {}

    def select(self, entry: Option, catalogue_id: str) -> UnitSelection:
        """The engine's roster holding `entry` (a root option of the force of `catalogue_id`,
        `ImportData.root_entries`) alone, completed to its smallest legal selection."""
        roster = Roster(self.data.data)
        roster.cost_limits = {}
        force = Force(roster, self._force_entry, catalogue_id, None)
        roster.forces.append(force)
        roster.touch()
        try:
            unit = roster._create(entry, force, force)
        except EngineError as exc:
            raise BattleScribeError([f"{self.data.path(entry)}: {exc}"]) from None
        self.complete(roster, unit, entry)
        out = UnitSelection(roster, unit, Node(entry, 1), maker=self)
        out.root = self._node(entry, [unit], None, 1, out.nodes)
        return out

    def complete(self, roster: Roster, sel: Selection, entry: Option) -> None:
        """`complete_minimums` of `sel` (of `entry`), each group it had to choose in warned
        about."""
        groups: dict[str, tuple[str, Option]] = {}

        def warn(group: Option, member: Option) -> None:
            groups.setdefault(group.key, (member.name, group))

        complete_minimums(roster, sel, warn, cost_type=self.cost_type)
        self._warn_groups(groups)
        if sum(1 for _s in sel.descendants()) > MAX_SELECTIONS:
            raise OverflowError(self.data.path(entry))

    def recomplete(self, roster: Roster, unit: Selection, entry: Option) -> None:
        """Complete `unit` again after a change that can only have moved the minimums a modifier
        sets (the unit grown by a model: "one weapon per model", "a Spanner per 4 Boyz"). The
        rest of the unit was complete and its other minimums are fixed numbers: so only those
        options are looked at (`raised`, `_complete` on them alone), and what they take is
        completed under itself (`complete_minimums`); again, as what was taken may move a
        raised minimum, until nothing changes. Nothing is swapped here (`_swap_cheaper` is the
        smallest selection's): a size of the sweep is a number of models, which a swap would
        change."""
        groups: dict[str, tuple[str, Option]] = {}

        def warn(group: Option, member: Option) -> None:
            groups.setdefault(group.key, (member.name, group))

        for _ in range(MAX_COMPLETION_ROUNDS):
            selections = [unit, *unit.descendants()]
            known = {id(s) for s in selections}
            changed = False
            # A selection of the same shape as a sibling looked at before, while nothing was
            # taken, misses what that one missed: nothing (`query.shapes`).
            shape, complete = shapes(), set()
            for sel in selections:
                raised = self.raised(sel.option)
                if not raised:
                    continue
                if not changed:
                    key = (id(sel.parent), shape(sel))
                    if key in complete:
                        continue
                    complete.add(key)
                ctx = Context(roster, sel.force, sel, None)
                for option in raised:
                    taken = _taken(sel, option.selectable() if option.is_group else [option])
                    if _minimum(option, ctx, raised_only=True) > taken:
                        changed |= _complete(roster, unit, sel, [option], ctx, warn, None, self.cost_type)
            if not changed:
                break
            for sel in unit.descendants():
                if id(sel) not in known and id(sel.parent) in known:
                    complete_minimums(roster, sel, warn, choose_by=self.cost_type)
            if sum(1 for _s in unit.descendants()) > MAX_SELECTIONS:
                raise OverflowError(self.data.path(entry))
        self._warn_groups(groups)

    def raised(self, parent: Option) -> list[Option]:
        """The options under `parent` (through its groups, in the data's order) whose own
        modifiers change their minimum selections per parent (`modified_minimum`), made once."""
        known = self._raised.get(id(parent))
        if known is None or known[0] is not parent:
            found: list[Option] = []
            stack = list(reversed(parent.children()))
            while stack:
                option = stack.pop()
                if modified_minimum(option):
                    found.append(option)
                if option.is_group:
                    stack.extend(reversed(option.children()))
            known = self._raised[id(parent)] = (parent, found)
        return known[1]

    def _warn_groups(self, groups: dict[str, tuple[str, Option]]) -> None:
        for name, group in groups.values():
            self.warn(
                self.data.path(group), f"the group needs a selection and names no default; took {name!r}"
            )

    def tree(self, entry: Option, catalogue_id: str) -> Node:
        """`entry`'s smallest legal selection as the importer's tree of nodes."""
        return self.select(entry, catalogue_id).root

    def _node(
        self,
        entry: Option,
        sels: list[Selection],
        parent: Node | None,
        per: int,
        nodes: dict[int, tuple[list[Selection], int]],
    ) -> Node:
        """One node for the selections `sels` of `entry` under one selection of `parent` (whose
        engine number is `per`: a collective child's number counts every one of them)."""
        total = sum(s.number for s in sels)
        node = Node(entry, max(total // per, 1) if per > 1 else total, parent)
        nodes[id(node)] = (sels, per)
        rep = sels[0]
        members = self.data.members(entry)
        at_member = {id(m): i for i, m in enumerate(members)}
        found: dict[int, list[Selection]] = {}
        for child in rep.children:
            at = at_member.get(id(child.option))
            if at is None:
                raise BattleScribeError([f"{self.data.path(entry)}: no entry for {child.option.key!r}"])
            found.setdefault(at, []).append(child)
        for at in sorted(found):
            node.children.append(self._node(members[at], found[at], node, rep.number, nodes))
        return node


def _within(option: Option, group: Option) -> bool:
    """Whether `option` is chosen from `group` (directly or through groups inside it)."""
    inside = option.group
    while inside is not None:
        if inside is group:
            return True
        inside = inside.group
    return False
