"""Questions about an entry that is not selected, answered by the roster's own evaluator.

The catalogue importer asks, for an option it offers on a unit, what BattleScribe would show
in the unit's "add" menu: how many of it may be taken under a parent selection (its `min` and
`max` selections per parent after modifiers) and whether a modifier's conditions hold there.
Each answer is the entry evaluated as not selected, under `parent` (`Context.selection` None),
by `modifiers.effective` and `conditions.guards_hold`: nothing is added to the roster, so
nothing the roster has cached is invalidated by asking.

What taking an entry would add to a unit's cost (`taken_cost`) needs the entry in the unit, as
modifiers elsewhere in the unit may count it ("5 pts less without a jump pack"). The entry is
selected (with what the engine auto-selects under it) while the roster evaluates into a scratch
cache (`scratch`): its own cache, valid for the roster as it was, is set aside and put back
untouched once the selection is removed again, so pricing every option of a unit does not
re-evaluate the unit after each one. The unit's cost with the entry is summed by `cost_only`,
which applies each selection's modifiers of that cost type only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from .conditions import guards_hold
from .evalcache import ScratchCache
from .model import Modifier, Option
from .modifiers import Effective, _apply_modifiers, effective
from .roster import Context, Roster, Selection


def options_by_id(parent: Option) -> dict[tuple[str, str], Option]:
    """Every option under `parent` (through its groups, groups included, the first of each),
    by (link id, target id) for a link and (id, "") for an entry of its own."""
    found: dict[tuple[str, str], Option] = {}
    stack = list(reversed(parent.children()))
    while stack:
        option = stack.pop()
        key = (option.link.id, option.defn.id) if option.link is not None else (option.defn.id, "")
        found.setdefault(key, option)
        if option.is_group:
            stack.extend(reversed(option.children()))
    return found


def unselected(parent: Selection) -> Context:
    """Where an entry that is not selected is evaluated: under `parent`, in its force."""
    return Context(parent.roster, parent.force, parent, None)


def selection_limits(option: Option, parent: Selection, kind: str) -> list[tuple[object, float]]:
    """(constraint, value after modifiers) of each of `option`'s `kind` ("min"/"max") limits on
    its selections per parent, read under `parent`; percentage limits come with their written
    value (the caller decides what to do with them)."""
    found = []
    eff = None
    for c in option.constraints:
        if c.type != kind or c.field != "selections" or c.scope != "parent":
            continue
        if c.percent_value:
            found.append((c, c.value))
            continue
        if eff is None:
            eff = effective(option, unselected(parent))
        found.append((c, eff.constraint_values.get(c.id, c.value)))
    return found


def holds_under(modifier: Modifier, parent: Selection) -> bool:
    """Whether every condition guarding `modifier` holds for an entry not selected under `parent`."""
    return guards_hold(unselected(parent), modifier.guards)


@contextmanager
def scratch(roster: Roster) -> Iterator[None]:
    """Evaluate into a cache of its own for the block, then restore the roster's cache as it
    was: the block must leave the roster's selections as it found them."""
    kept = roster.cache
    roster.cache = ScratchCache()
    try:
        yield
    finally:
        roster.cache = kept


def own_cost(sel: Selection, cost_type: str) -> float:
    """`sel`'s own cost in `cost_type` after that cost's modifiers (`Selection.own_cost`
    without evaluating the selection's other fields)."""
    option = sel.option
    base = option.costs.get(cost_type, 0.0)
    if not any(m.field == cost_type for m in option.modifiers):
        return base * sel.number
    eff = Effective(name="", hidden=False, costs={cost_type: base}, constraint_values={})
    _apply_modifiers(eff, option.modifiers, sel.context(), fields={cost_type})
    return eff.costs[cost_type] * sel.number


def cost_only(sel: Selection, cost_type: str) -> float:
    """`sel`'s cost in `cost_type` with its descendants' (`Selection.cost`, see `own_cost`)."""
    total, stack = 0.0, [sel]
    while stack:
        here = stack.pop()
        total += own_cost(here, cost_type)
        stack.extend(here.children)
    return total


def shapes() -> Callable[[Selection], int]:
    """A function giving the shape of a selection: two selections have the same shape when they
    are of the same option, in the same number, with children of the same shapes in the same
    order. Siblings of one shape are evaluated alike (what a condition of theirs counts is their
    own subtree, their parent's or an ancestor's, the same for both), so a question asked of one
    answers for the others (`costs_only`, a unit of ten identical models). Each selection's
    shape is remembered: the function is valid while the selections do not change."""
    interned: dict[tuple, int] = {}
    known: dict[int, int] = {}

    def shape(sel: Selection) -> int:
        found = known.get(id(sel))
        if found is not None:
            return found
        children = sel.children
        if children:
            key = (id(sel.option), sel.number, tuple([shape(c) for c in children]))
        else:
            key = (id(sel.option), sel.number)
        found = interned.get(key)
        if found is None:
            found = interned[key] = len(interned)
        known[id(sel)] = found
        return found

    return shape


def costs_only(sel: Selection, cost_types: list[str]) -> dict[str, float]:
    """`cost_only` of several cost types in one walk of `sel`'s subtree: a selection whose
    costs have modifiers applies those of all `cost_types` at once (their conditions read once),
    a sibling of the same shape as one walked before (`shapes`: only siblings of one option are
    compared) repeats that one's costs, and each total is summed in `cost_only`'s order (the
    same floats)."""
    wanted = set(cost_types)
    shape = shapes()
    walked: dict[tuple[int, int], list[tuple[float, ...]]] = {}
    order: list[tuple[float, ...]] = []

    def visit(here: Selection) -> None:
        option = here.option
        costs = option.costs
        if any(m.field in wanted for m in option.modifiers):
            eff = Effective(
                name="", hidden=False, costs={t: costs.get(t, 0.0) for t in cost_types}, constraint_values={}
            )
            _apply_modifiers(eff, option.modifiers, here.context(), fields=wanted)
            costs = eff.costs
        order.append(tuple(costs.get(t, 0.0) * here.number for t in cost_types))
        children = here.children
        if len(children) < 2:
            for child in children:
                visit(child)
            return
        seen: set[int] = set()
        repeated = {id(c.option) for c in children if id(c.option) in seen or seen.add(id(c.option))}
        for child in reversed(children):
            if id(child.option) not in repeated:
                visit(child)
                continue
            key = (id(here), shape(child))
            known = walked.get(key)
            if known is not None:
                order.extend(known)
                continue
            start = len(order)
            visit(child)
            walked[key] = order[start:]

    visit(sel)
    totals = [0.0] * len(cost_types)
    for values in order:
        for i, value in enumerate(values):
            totals[i] += value
    return dict(zip(cost_types, totals, strict=True))


def _priced_by_modifiers(unit: Selection, option: Option, cost_type: str) -> bool:
    """Whether `option` or any selection of `unit` has a modifier of `cost_type`."""
    if any(m.field == cost_type for m in option.modifiers):
        return True
    stack = [unit]
    while stack:
        sel = stack.pop()
        for m in sel.option.modifiers:
            if m.field == cost_type:
                return True
        stack.extend(sel.children)
    return False


@contextmanager
def trial(roster: Roster, unit: Selection) -> Iterator[None]:
    """Change `unit`'s selections freely for the block, evaluated in a scratch cache (`scratch`);
    then every number and child list of the unit is put back as it was, with the force's index."""
    saved = [(sel, sel.number, list(sel.children)) for sel in [unit, *unit.descendants()]]
    with scratch(roster):
        try:
            yield
        finally:
            removed = []
            for sel, _number, children in saved:
                kept = {id(c) for c in children}
                now = {id(c) for c in sel.children}
                for child in sel.children:
                    if id(child) not in kept:
                        child.force.index.remove_subtree(child)
                removed += [c for c in children if id(c) not in now]
            for sel, number, children in saved:
                sel.children[:] = children
                sel.number = number
            for child in removed:
                child.force.index.add_subtree(child)


def taken_cost(
    roster: Roster,
    unit: Selection,
    option: Option,
    parent: Selection,
    cost_type: str,
    complete: Callable[[Selection], None] = lambda _sel: None,
) -> float:
    """What selecting `option` once under `parent` (its auto-selection `complete`d) adds to
    `unit`'s cost in `cost_type`, per instance taken (a collective entry is taken once per
    model of `parent`). The roster is left as it was, its cache untouched (`scratch`)."""
    if not option.children() and not _priced_by_modifiers(unit, option, cost_type):
        # Nothing is selected with it and no cost in the unit has a modifier that could count
        # it: what it adds is its own written cost, as the probe below would find.
        return option.costs.get(cost_type, 0.0)
    before = unit.cost(cost_type)
    kept = list(parent.children)
    with scratch(roster):
        made = roster._create(option, parent, parent.force)
        try:
            complete(made)
            return (cost_only(unit, cost_type) - before) / max(made.number, 1)
        finally:
            # Only `parent` gained children (the new selection, and what completing it added
            # under it): removing them leaves the roster as it was.
            for sel in [s for s in parent.children if all(s is not k for k in kept)]:
                sel.force.index.remove_subtree(sel)
            parent.children[:] = kept
