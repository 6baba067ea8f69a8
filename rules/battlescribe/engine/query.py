"""Questions about an entry that is not selected, answered by the roster's own evaluator.

The catalogue importer asks, for an option it offers on a unit, what BattleScribe would show
in the unit's "add" menu: how many of it may be taken under a parent selection (its `min` and
`max` selections per parent after modifiers) and whether a modifier's conditions hold there.
Each answer is the entry evaluated as not selected, under `parent` (`Context.selection` None),
by `modifiers.effective` and `conditions.guards_hold`: nothing is added to the roster, so
nothing the roster has cached is invalidated by asking.
"""

from __future__ import annotations

from collections.abc import Callable

from .conditions import guards_hold
from .model import Modifier, Option
from .modifiers import effective
from .roster import Context, Selection


def option_under(parent: Selection, match: Callable[[Option], bool]) -> Option | None:
    """The option under `parent` (through its groups, groups included) that `match` accepts."""
    stack = list(reversed(parent.option.children()))
    while stack:
        option = stack.pop()
        if match(option):
            return option
        if option.is_group:
            stack.extend(reversed(option.children()))
    return None


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
