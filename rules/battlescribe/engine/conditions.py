"""Queries (counts in a scope) and the conditions, condition groups and repeats built on them."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .evalcache import FORCES, ROSTER

if TYPE_CHECKING:
    from .model import Condition, ConditionGroup, Repeat
    from .roster import Context, Selection

_COMPARE = {
    "atLeast": lambda a, b: a >= b,
    "atMost": lambda a, b: a <= b,
    "greaterThan": lambda a, b: a > b,
    "lessThan": lambda a, b: a < b,
    "equalTo": lambda a, b: a == b,
    "notEqualTo": lambda a, b: a != b,
}
#: The entry types of the format, which a condition may name as its child id ("any model").
ENTRY_TYPES = frozenset({"model", "unit", "upgrade", "unit-group", "mount", "crew"})
#: A query field `limit::<costTypeId>` reads the roster's limit of that cost type, not a sum of
#: costs: the data sets slot limits by the army's size with it (Ergofarg's WHFB 6th game system
#: gives Lords, Heroes, Core, Special and Rare per 1,000 pts this way, BSData/whfb 8th too).
LIMIT_PREFIX = "limit::"
#: The value BattleScribe writes for a cost type without a limit (`defaultCostLimit="-1.0"`).
NO_LIMIT = -1.0


def cost_limit(roster, cost_type_id: str) -> float:
    """The roster's limit of `cost_type_id` (its points limit), `NO_LIMIT` when it has none.
    Scope, childId and the include flags do not apply: the limit is the roster's. Setting a
    limit clears the evaluation cache (`Roster.set_cost_limit`), so the value is not cached."""
    value = roster.cost_limits.get(cost_type_id)
    return NO_LIMIT if value is None else float(value)


def selection_matches(sel: Selection, child_id: str | None, shared: bool) -> bool:
    """Whether `sel` is counted by a query naming `child_id` (docs/battlescribe.md, "Counting
    selections")."""
    if child_id is None:
        return False  # a query without childId counts nothing in BattleScribe
    if child_id == "any":
        return True
    option = sel.option
    if child_id == option.key or (shared and child_id == option.defn.id):
        return True
    if (
        option.link is not None
        and (shared or child_id == option.link.id)
        and child_id in (option.defn.id, option.link.id)
    ):
        return True
    if child_id in ENTRY_TYPES:
        return option.type == child_id
    if sel.has_category(child_id):
        return True
    group = option.group
    while group is not None:
        if child_id == group.key or (shared and child_id == group.defn.id):
            return True
        group = group.group
    return False


def scope_container(ctx: Context, scope: str):
    """The selection, force or roster a query with `scope` looks in, or None."""
    if scope == "self":
        return ctx.selection if ctx.selection is not None else ctx.parent
    if scope == "parent":
        return ctx.parent
    if scope in ("force", "primary-catalogue"):
        return ctx.force
    if scope == "roster":
        return ctx.roster
    if scope == "primary-category":
        return ctx.force
    if scope == "ancestor":
        return ctx.force
    # An entry id: the nearest ancestor selection (or force) that is that entry.
    node = ctx.selection if ctx.selection is not None else ctx.parent
    while node is not None:
        if node.is_force:
            if node.entry.id == scope:
                return node
            node = node.parent_force
        else:
            if scope in node.option.ids:
                return node
            node = node.parent
    return None


def read_bucket(container) -> None:
    """Tell the evaluation cache which part of the roster the value being computed reads."""
    if container is None:
        return
    if container.is_roster:
        container.cache.read(ROSTER)
    elif container.is_force:
        for force in container.force_tree():
            container.roster.cache.read(force.bucket)
    else:
        container.roster.cache.read(container.node_bucket)


def candidates(container, include_children: bool, include_forces: bool, with_self: bool = False):
    """Selections a query counts in `container` (direct children unless `include_children`)."""
    if container is None:
        return []
    read_bucket(container)
    if container.is_roster:
        out = []
        for force in container.all_forces():
            out.extend(force.descendants() if include_children else force.selections)
        return out
    if container.is_force:
        forces = container.force_tree() if include_forces else [container]
        out = []
        for force in forces:
            out.extend(force.descendants() if include_children else force.selections)
        return out
    out = [container] if with_self else []
    out.extend(container.descendants() if include_children else container.children)
    return out


def matching(container, deep: bool, include_forces: bool, child_id: str | None, shared: bool):
    """(selections in `container` a query for `child_id` counts, a function giving all the
    selections it looks at). One unit is scanned; a force or the roster uses the forces'
    indexes (`index.ForceIndex`), so a force- or roster-wide count is a lookup."""
    if not container.is_roster and not container.is_force:
        sels = candidates(container, deep, include_forces)
        return [s for s in sels if selection_matches(s, child_id, shared)], lambda: sels
    if container.is_roster:
        container.cache.read(FORCES)
        forces = container.all_forces()
        roster = container
    else:
        forces = container.force_tree() if include_forces else [container]
        roster = container.roster
    matched = []
    categories = roster.data.categories
    cache = roster.cache
    for force in forces:
        cache.read(("fid", id(force), "any" if child_id is None else child_id))
        if child_id is not None and child_id != "any" and child_id not in categories:
            pass
        elif force.index.deep.volatile:
            # Selections whose categories a modifier may change are scanned: the scan reads their
            # category values (tracked) and the set of such selections (this bucket).
            cache.read(("fid", id(force), "volatile"))
        index = force.index.deep if deep else force.index.roots
        matched.extend(index.lookup(child_id, shared, categories.__contains__))

    def everything():
        out = []
        for force in forces:
            out.extend((force.index.deep if deep else force.index.roots).all)
        return out

    return matched, everything


def query(
    ctx: Context,
    field: str,
    scope: str,
    child_id: str | None,
    shared: bool,
    include_children: bool,
    include_forces: bool,
    percent: bool = False,
) -> float:
    """The number (of selections, forces or points) a condition, repeat or constraint tests."""
    if field.startswith(LIMIT_PREFIX):
        return cost_limit(ctx.roster, field[len(LIMIT_PREFIX) :])
    container = scope_container(ctx, scope)
    if container is None:
        return 0.0
    key = ("q", id(container), field, child_id, shared, include_children, include_forces, percent)
    return ctx.roster.cache.get(
        key, lambda: _query(container, field, child_id, shared, include_children, include_forces, percent)
    )


def _query(
    container,
    field: str,
    child_id: str | None,
    shared: bool,
    include_children: bool,
    include_forces: bool,
    percent: bool,
) -> float:
    if field == "forces":
        read_bucket(container)
        if container.is_roster:
            forces = container.all_forces()
        elif container.is_force:
            forces = container.force_tree()[1:]
            if not include_forces:
                forces = container.child_forces
        else:
            forces = []
        return float(sum(1 for f in forces if child_id in (None, "any", f.entry.id)))
    matched, everything = matching(container, include_children, include_forces, child_id, shared)
    if field != "selections" or percent:
        read_bucket(container)  # costs and totals read every selection of the container
    if field == "selections":
        value = float(sum(s.number for s in matched))
        total = float(sum(s.number for s in everything())) if percent else 0.0
    else:
        value = sum(s.cost(field, include_children=not include_children) for s in matched)
        total = (
            sum(s.cost(field, include_children=not include_children) for s in everything())
            if percent
            else 0.0
        )
    if percent:
        return (value / total * 100.0) if total else 0.0
    return value


def _instance_of(ctx: Context, cond: Condition) -> bool:
    """Whether the node in scope (any ancestor for `ancestor`) is the entry or category `childId`."""
    if cond.scope == "self":
        nodes = [ctx.selection]
    elif cond.scope == "ancestor":
        nodes = []
        node = ctx.parent
        while node is not None:
            nodes.append(node)
            node = node.parent
    else:
        nodes = [scope_container(ctx, cond.scope)]
    for node in nodes:
        if node is None or getattr(node, "is_roster", True):
            continue
        if node.is_force:
            if cond.child_id == node.entry.id:
                return True
        elif selection_matches(node, cond.child_id, True):
            return True
    return False


def check_condition(ctx: Context, cond: Condition) -> bool:
    if cond.type == "always":
        return True
    if cond.type == "never":
        return False
    if cond.type in ("instanceOf", "notInstanceOf"):
        result = _instance_of(ctx, cond)
        return result if cond.type == "instanceOf" else not result
    compare = _COMPARE.get(cond.type)
    if compare is None:
        return False
    container = scope_container(ctx, cond.scope)
    if container is None:
        return compare(0.0, cond.value)
    # The condition's truth is its own cached value: when a count moves but the condition
    # still holds (or still fails), nothing that reads it is evaluated again.
    key = ("c", id(cond), id(container))
    return ctx.roster.cache.get(
        key,
        lambda: compare(
            query(
                ctx,
                cond.field,
                cond.scope,
                cond.child_id,
                cond.shared,
                cond.include_child_selections,
                cond.include_child_forces,
                cond.percent_value,
            ),
            cond.value,
        ),
    )


def check_group(ctx: Context, group: ConditionGroup) -> bool:
    results = [check_condition(ctx, c) for c in group.conditions]
    results.extend(check_group(ctx, g) for g in group.groups)
    if group.type == "or":
        return any(results)
    if group.type == "not":
        return not any(results)
    return all(results)


def guards_hold(ctx: Context, guards) -> bool:
    for conditions, groups in guards:
        if not all(check_condition(ctx, c) for c in conditions):
            return False
        if not all(check_group(ctx, g) for g in groups):
            return False
    return True


def repeat_times(ctx: Context, repeat: Repeat) -> int:
    """How many times a repeating modifier applies (`docs/battlescribe.md`, "Repeating modifiers")."""
    if repeat.value <= 0:
        return 0
    count = query(
        ctx,
        repeat.field,
        repeat.scope,
        repeat.child_id,
        repeat.shared,
        repeat.include_child_selections,
        repeat.include_child_forces,
        repeat.percent_value,
    )
    steps = count / repeat.value
    steps = math.ceil(steps) if repeat.round_up else math.floor(steps + 1e-9)
    return int(steps) * max(repeat.repeats, 0)


def modifier_times(ctx: Context, mod) -> int:
    """How many times a modifier applies: once without repeats; else, at each level (the
    modifier's own repeats, each enclosing modifier group's) the sum of its repeats' steps, and
    the levels multiplied: a group repeating its contents 2 times, around a modifier repeating
    3 times, applies it 6 times (`docs/battlescribe.md`, "Repeating modifiers")."""
    if not mod.repeats:
        return 1
    times = 1
    for level in mod.repeat_levels or [mod.repeats]:
        times *= sum(repeat_times(ctx, r) for r in level)
    return times
