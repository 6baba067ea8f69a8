"""Modifiers: an entry's name, hidden flag, costs, constraint limits and categories after the
catalogue's `set`/`increment`/`decrement`/`append`/… modifiers whose conditions hold."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .conditions import guards_hold, modifier_times
from .model import CategoryLink, Option

if TYPE_CHECKING:  # the roster calls this module; a context is only an annotation here
    from .roster import Context


@dataclass
class Effective:
    name: str
    hidden: bool
    costs: dict[str, float]
    constraint_values: dict[str, float]
    #: (category id, primary) in link order.
    categories: list[tuple[str, bool]] = field(default_factory=list)
    #: The page a `page` modifier set (None: the entry's own).
    page: str | None = None


def _number(text: str) -> float | None:
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def _fmt(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


#: Modifier types raising a value to a power (the format's own words).
POWER_MODIFIERS = ("power", "exponent", "cumulative-power")


def _arith(kind: str, current: float, operand: float) -> float:
    if kind in ("increment", "add", "cumulative-add"):
        return current + operand
    if kind == "decrement":
        return current - operand
    if kind in ("multiply", "cumulative-multiply"):
        return current * operand
    if kind == "divide":
        return current / operand if operand else current
    if kind == "modulo":
        return current % operand if operand else current
    if kind in POWER_MODIFIERS:
        return current**operand
    return operand


def effective(option: Option, ctx: Context) -> Effective:
    node = ctx.selection if ctx.selection is not None else ctx.parent
    key = ("eff", id(option), id(node))
    # At the root of a force the entry reads the force only through its queries (which record
    # what they count), so it does not depend on every change in the force. An entry without
    # modifiers reads nothing: its values are its own, and a change in its unit (a model added
    # by a count) does not recompute them.
    own = () if node.is_force or not option.modifiers else (node.bucket,)
    return ctx.roster.cache.get(key, (_effective, option, ctx, key), own)


def _effective(option: Option, ctx: Context, key) -> Effective:
    eff = Effective(
        name=option.name,
        hidden=option.hidden,
        costs=dict(option.costs),
        constraint_values={c.id: c.value for c in option.constraints},
        categories=[(link.target_id, link.primary) for link in option.category_links],
    )
    # An entry whose conditions read itself again sees its unmodified values (no recursion).
    ctx.roster.cache.put_partial(key, eff)
    _apply_modifiers(eff, option.modifiers, ctx)
    return eff


def _apply_modifiers(eff: Effective, modifiers, ctx: Context, *, fields=None) -> None:
    """Apply each modifier whose guards hold, as many times as its repeats say (once without
    any), to `eff`; only those changing one of `fields` when given."""
    for mod in modifiers:
        if (fields is not None and mod.field not in fields) or not guards_hold(ctx, mod.guards):
            continue
        times = modifier_times(ctx, mod)
        if times <= 0:
            continue
        apply_modifier(eff, mod.type, mod.field, mod.value, times)


def link_constraint_values(link: CategoryLink, force) -> dict[str, float]:
    """{constraint id: limit} of a force entry's category link after the link's own modifiers,
    read in the force's context. Game systems set a force's slot limits this way (Ergofarg's
    WHFB 6th: Lords, Core, Special and Rare by the roster's points limit); BattleScribe applies
    them as it does an entry's."""
    if not link.modifiers:
        return {c.id: c.value for c in link.constraints}
    ctx = force.context()
    key = ("link-eff", id(link), id(force))
    return ctx.roster.cache.get(key, lambda: _link_constraint_values(link, ctx))


def _link_constraint_values(link: CategoryLink, ctx: Context) -> dict[str, float]:
    eff = Effective(
        name=link.name,
        hidden=link.hidden,
        costs={},
        constraint_values={c.id: c.value for c in link.constraints},
    )
    _apply_modifiers(eff, link.modifiers, ctx, fields=set(eff.constraint_values))
    return eff.constraint_values


def categories(option: Option, ctx: Context) -> tuple[tuple[str, bool], ...]:
    """An entry's categories after its category modifiers only (what queries match against:
    evaluating every modifier of every counted selection would chain through the roster)."""
    node = ctx.selection if ctx.selection is not None else ctx.parent
    key = ("cat", id(option), id(node))
    # Without a category modifier the categories are the entry's own: nothing to re-read.
    own = () if node.is_force or not has_category_modifier(option) else (node.bucket,)
    return ctx.roster.cache.get(key, (_categories, option, ctx, key), own)


def has_category_modifier(option: Option) -> bool:
    """Whether a modifier of `option` changes its categories."""
    for mod in option.modifiers:  # noqa: SIM110 - a plain loop on a hot path
        if mod.field == "category":
            return True
    return False


def _categories(option: Option, ctx: Context, key) -> tuple[tuple[str, bool], ...]:
    eff = Effective(
        name="",
        hidden=False,
        costs={},
        constraint_values={},
        categories=[(link.target_id, link.primary) for link in option.category_links],
    )
    mods = [m for m in option.modifiers if m.field == "category"]
    if not mods:
        return tuple(eff.categories)
    ctx.roster.cache.put_partial(key, tuple(eff.categories))
    for mod in mods:
        if not guards_hold(ctx, mod.guards):
            continue
        times = modifier_times(ctx, mod)
        if times <= 0:
            continue
        apply_modifier(eff, mod.type, mod.field, mod.value, times)
    return tuple(eff.categories)


#: Most times a text modifier (append, multiply…) is applied: repeats beyond it change nothing
#: a player can see and would only cost time.
MAX_REPEATS = 1000


def apply_modifier(eff: Effective, kind: str, field_name: str, value: str, times: int) -> None:
    times = min(times, MAX_REPEATS) if field_name in ("name",) else times
    operand = _number(value)
    if field_name == "hidden":
        if kind in ("set", "hide"):
            eff.hidden = value.strip().lower() == "true" if kind == "set" else True
        return
    if field_name == "name":
        for _ in range(times):
            if kind == "set":
                eff.name = value
            elif kind == "append":
                eff.name = f"{eff.name} {value}" if eff.name else value
            elif kind == "prepend":
                eff.name = f"{value} {eff.name}" if eff.name else value
            elif kind in ("increment", "decrement", "add") and operand is not None:
                current = _number(eff.name)
                if current is not None:
                    eff.name = _fmt(_arith(kind, current, operand))
        return
    if field_name == "page":
        if kind == "set":
            eff.page = value
        return
    if field_name == "category":
        cats = eff.categories
        if kind == "add":
            if value not in [c for c, _ in cats]:
                cats.append((value, False))
        elif kind == "remove":
            eff.categories = [(c, p) for c, p in cats if c != value]
        elif kind == "set-primary":
            if value not in [c for c, _ in cats]:
                cats.append((value, False))
            eff.categories = [(c, c == value) for c, _ in eff.categories]
        elif kind == "unset-primary":
            eff.categories = [(c, False if c == value else p) for c, p in cats]
        return
    target = None
    if field_name in eff.constraint_values:
        target = eff.constraint_values
    elif field_name in eff.costs or kind in ("set", "increment", "decrement"):
        target = eff.costs
    if target is None or operand is None:
        return
    current = target.get(field_name, 0.0)
    if kind == "set":
        current = operand
    elif kind in ("increment", "add", "cumulative-add"):
        current += operand * times
    elif kind == "decrement":
        current -= operand * times
    else:
        for _ in range(min(times, MAX_REPEATS)):
            current = _arith(kind, current, operand)
    target[field_name] = current


def force_hidden(force) -> bool:
    """Whether a force's entry is hidden after its `hidden` modifiers (read in the force's
    context: a detachment hidden once the roster holds some unit, for example)."""
    hidden = force.entry.hidden
    ctx = force.context()
    for mod in force.entry.modifiers:
        if mod.field == "hidden" and mod.type == "set" and guards_hold(ctx, mod.guards):
            hidden = mod.value.strip().lower() == "true"
    return hidden
