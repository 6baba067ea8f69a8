"""Constraint evaluation: the validation errors of a roster as BattleScribe reports them."""

from __future__ import annotations

from .conditions import LIMIT_PREFIX, candidates, cost_limit, matching, read_bucket, scope_container
from .errors import ValidationError
from .evalcache import MISSING
from .model import Constraint, Option
from .modifiers import effective, link_constraint_values
from .roster import Context, Force, Roster, Selection, unit_blocks, units_by_block


def _matches_option(sel: Selection, option: Option, shared: bool) -> bool:
    if option.is_group:
        group = sel.option.group
        while group is not None:
            if group.key == option.key or (shared and group.defn.id == option.defn.id):
                return True
            group = group.group
        return False
    if sel.option is option or sel.option.key == option.key:
        return True
    return shared and sel.option.defn.id == option.defn.id


def constraint_count(ctx: Context, option: Option, c: Constraint) -> tuple[float, Selection | None]:
    """The value a constraint on `option` tests, and the first selection it counted."""
    container = scope_container(ctx, c.scope)
    if container is None:
        return 0.0, None
    # A shared count in a force or the roster matches by the entry's id, so every option of
    # that entry (reached through different links or units) shares one cached count.
    shared_count = c.shared and (isinstance(container, Roster) or container.is_force)
    key = ("cc", id(container), option.defn.id if shared_count else id(option), c.id, c.owner_id)
    return ctx.roster.cache.get(key, (_constraint_count, container, option, c))


def _constraint_count(container, option: Option, c: Constraint) -> tuple[float, Selection | None]:
    deep = c.include_child_selections or c.scope not in ("parent", "self")
    forces = c.include_child_forces or c.scope == "roster"
    if isinstance(container, Roster) or container.is_force:
        matched, everything = matching(
            container, deep, forces, option.defn.id if c.shared else option.key, c.shared
        )
    else:
        sels = candidates(container, deep, forces)
        matched = [s for s in sels if _matches_option(s, option, c.shared)]

        def everything():
            return sels

    first = matched[0] if matched else None
    if c.field != "selections" or c.percent_value:
        read_bucket(container)
    if c.field == "selections":
        value = float(sum(s.number for s in matched))
        total = float(sum(s.number for s in everything())) if c.percent_value else 0.0
    elif c.field == "forces":
        return 0.0, first
    else:
        value = sum(s.cost(c.field) for s in matched)
        if not c.percent_value:
            total = 0.0
        elif isinstance(container, Roster):
            total = container.costs().get(c.field, 0.0)
        else:
            total = sum(s.cost(c.field) for s in everything())
    if c.percent_value:
        return ((value / total * 100.0) if total else 0.0), first
    if c.scope == "parent" and not container.is_force and _per_model(option):
        value /= max(container.number, 1)  # collective: per model (docs/battlescribe.md)
    return value, first


def _per_model(option: Option) -> bool:
    if option.is_group:
        return all(o.collective for o in option.selectable())
    return option.collective


def _violated(kind: str, value: float, limit: float) -> bool:
    if kind == "min":
        return value < limit
    if kind == "max":
        return limit >= 0 and value > limit
    if kind == "exactly":
        return value != limit
    return False


def _option_owner(option: Option) -> str:
    return option.defn.id


class Validator:
    def __init__(self, roster: Roster):
        self.roster = roster
        self.errors: dict[tuple, ValidationError] = {}

    def add(self, error: ValidationError, instance: str = "") -> None:
        self.errors.setdefault((error.owner_type, error.owner_id, error.source, instance), error)

    def run(self) -> list[ValidationError]:
        """All errors: each force's and each selection's part comes from the evaluation cache
        when nothing it read has changed since (see `evalcache`)."""
        roster = self.roster
        cache = roster.cache
        for force in roster.all_forces():
            part = cache.get(("force-all-errors", id(force)), lambda f=force: self._force_all(f), lazy=True)
            for key, error in part:
                self.errors.setdefault(key, error)
        totals = roster.costs()
        for type_id, limit in roster.cost_limits.items():
            if limit is not None and limit >= 0 and totals.get(type_id, 0.0) > limit:
                name = next((c.name for c in roster.data.cost_types if c.id == type_id), type_id)
                self.add(
                    ValidationError(
                        "roster",
                        "",
                        f"costLimits/{type_id}",
                        f"{name} total {totals[type_id]:g} is over the limit of {limit:g}",
                        entry_name=name,
                        owner_name=roster.name,
                        constraint_type="max",
                        limit=limit,
                        actual=totals[type_id],
                        field=type_id,
                    )
                )
        return list(self.errors.values())

    def _force_all(self, force: Force) -> tuple:
        """Errors of a force: its own checks and each unit's, merged (a cached value that reads
        the force's list of selections and each unit's errors)."""
        cache = self.roster.cache
        merged: dict = dict(
            cache.get(("force-errors", id(force)), lambda: self._part(self._force_checks, force), lazy=True)
        )
        cache.read(("fid", id(force), "any"))
        categories = force.category_ids()
        for block in unit_blocks(force):
            part = cache.get(
                ("block-errors", id(force), block, categories),
                lambda b=block: self._block(force, b, categories),
                lazy=True,
            )
            for key, error in part:
                merged.setdefault(key, error)
        return tuple(merged.items())

    def _block(self, force: Force, block: int, categories) -> tuple:
        """Errors of the force's units in one block (reads the block's list and each unit's)."""
        cache = self.roster.cache
        cache.read(("ublock", id(force), block))
        merged: dict = {}
        for root in units_by_block(force).get(block, []):
            part = cache.peek(("unit-errors", id(root), categories))
            if part is MISSING:
                part = cache.get(
                    ("unit-errors", id(root), categories),
                    lambda r=root: self._unit(r, categories),
                    (root.bucket,),
                    lazy=True,
                )
            for key, error in part:
                merged.setdefault(key, error)
        return tuple(merged.items())

    def _unit(self, root: Selection, categories) -> tuple:
        cache = self.roster.cache
        merged: dict = {}
        for sel in [root, *root.descendants()]:
            part = cache.get(
                ("sel-errors", id(sel)),
                lambda s=sel: self._part(self._selection_checks, s, categories),
                (sel.bucket,),
                lazy=True,
            )
            for key, error in part:
                merged.setdefault(key, error)
        return tuple(merged.items())

    def _part(self, check, *args) -> tuple[tuple, ...]:
        # A tuple: most checks find nothing, and the empty tuple is one shared object, not
        # one more per cached check for the server's full collections to walk.
        sub = Validator(self.roster)
        check(sub, *args)
        return tuple(sub.errors.items())

    @staticmethod
    def _force_checks(self: Validator, force: Force) -> None:
        self._options(force.root_options(), force.context(), force)
        self._categories(force)
        self._force_entry(force)

    @staticmethod
    def _selection_checks(self: Validator, sel: Selection, force_categories: set) -> None:
        sel_eff = sel.effective()
        # BattleScribe reaches root selections through the force's categories only
        # (`docs/battlescribe.md`, "Hidden entries"): a root selection in none of them is never
        # checked for being hidden.
        reachable = not sel.parent.is_force or any(cid in force_categories for cid, _ in sel_eff.categories)
        if sel_eff.hidden and reachable:
            self.add(
                ValidationError(
                    "selection",
                    sel.option.defn.id,
                    f"{sel.option.defn.id}/hidden",
                    f"{sel_eff.name} is not available",
                    entry_name=sel_eff.name,
                    owner_name=sel_eff.name,
                    owner_ids=sel.option.ids,
                )
            )
        # Each option's check is a value of its own: a count that moves re-checks only the
        # options that read it, and an unchanged result stops there.
        ctx = Context(self.roster, sel.force, sel, None)
        cache = self.roster.cache
        errors = self.errors
        for option, reads_self in checked_options(self.roster.data, sel.option):
            key = ("opt-errors", id(sel), id(option))
            part = cache.peek(key)
            if part is MISSING:
                part = cache.get(
                    key,
                    (Validator._part, self, _check_option, option, ctx, sel),
                    # It reads the selection's children and their numbers: its own subtree.
                    (sel.node_bucket,) if reads_self else (),
                )
            for error_key, error in part:
                errors.setdefault(error_key, error)

    def _force_entry(self, force: Force) -> None:
        entry = force.entry
        for c in entry.constraints:
            if c.field == "forces":
                # Forces of this entry in the roster (or in the parent force), counted per
                # force of the entry: BattleScribe reports the error once per such force.
                if force.parent_force is None or c.scope == "roster":
                    pool = self.roster.all_forces() if c.include_child_forces else self.roster.forces
                else:
                    pool = (
                        force.parent_force.force_tree()[1:]
                        if c.include_child_forces
                        else force.parent_force.child_forces
                    )
                value = float(sum(1 for f in pool if f.entry.id == entry.id))
                if _violated(c.type, value, c.value):
                    self.add(
                        ValidationError(
                            "roster",
                            "",
                            f"{entry.id}/{c.id}",
                            _message(c.type, entry.name, c.value, value, "forces"),
                            entry_name=entry.name,
                            owner_name=entry.name,
                            constraint_type=c.type,
                            limit=c.value,
                            actual=value,
                            field=c.field,
                        ),
                        instance=force.id,
                    )
                continue
            container = force
            sels = candidates(container, True, c.include_child_forces)
            field, limit = c.field, c.value
            if field.startswith(LIMIT_PREFIX):
                field, limit = _share_of_limit(self.roster, c, c.value)
                if limit is None:
                    continue
            value = (
                float(sum(s.number for s in sels))
                if field == "selections"
                else sum(s.cost(field, False) for s in sels)
            )
            if _violated(c.type, value, limit):
                self.add(
                    ValidationError(
                        "force",
                        entry.id,
                        f"{entry.id}/{c.id}",
                        _message(c.type, entry.name, limit, value),
                        entry_name=entry.name,
                        owner_name=entry.name,
                        constraint_type=c.type,
                        limit=limit,
                        actual=value,
                        field=field,
                    )
                )

    def _categories(self, force: Force) -> None:
        data = self.roster.data
        for link in force.entry.category_links:
            category = data.categories.get(link.target_id)
            name = (category.name if category else "") or link.name
            constraints = list(link.constraints)
            limits = link_constraint_values(link, force) if constraints else {}
            for c in constraints:
                limit = limits.get(c.id, c.value)
                members, _ = matching(force, True, False, link.target_id, True)
                if c.field != "selections" or c.percent_value:
                    read_bucket(force)
                field = c.field
                if field.startswith(LIMIT_PREFIX):
                    field, limit = _share_of_limit(self.roster, c, limit)
                    if limit is None:
                        continue
                    value = sum(s.cost(field, True) for s in members)
                elif c.field == "selections":
                    value = float(sum(s.number for s in members))
                else:
                    value = sum(s.cost(c.field, True) for s in members)
                if c.percent_value and field == c.field:
                    total = (
                        sum(s.cost(c.field, True) for s in force.selections)
                        if c.field != "selections"
                        else float(sum(s.number for s in force.descendants()))
                    )
                    value = value / total * 100.0 if total else 0.0
                if _violated(c.type, value, limit):
                    self.add(
                        ValidationError(
                            "category",
                            link.target_id,
                            f"{link.id}/{c.id}",
                            _message(c.type, name, limit, value),
                            entry_name=name,
                            owner_name=name,
                            constraint_type=c.type,
                            limit=limit,
                            actual=value,
                            field=field,
                        )
                    )

    def _options(self, options: list[Option], ctx: Context, parent) -> None:
        for option in options:
            if option.constraints:
                self._option(option, ctx, parent)
            if option.is_group:
                self._options(option.children(), ctx, parent)

    def _option(self, option: Option, ctx: Context, parent) -> None:
        eff = effective(option, ctx)
        if eff.hidden:
            return  # a hidden entry's constraints are skipped (docs/battlescribe.md)
        uncategorised = False
        if parent.is_force:
            # BattleScribe reaches root entries through the force's categories: the
            # `scope: parent` constraints of an entry in none of them are never checked.
            force_categories = parent.category_ids()
            uncategorised = not any(cid in force_categories for cid, _ in eff.categories)
        for c in option.constraints:
            if uncategorised and c.scope == "parent":
                continue
            limit = eff.constraint_values.get(c.id, c.value)
            if c.field == "forces":
                # On a selection entry the count of forces is always 0 (docs/battlescribe.md).
                value = 0.0
                if _violated(c.type, value, limit):
                    self.add(
                        ValidationError(
                            "roster",
                            "",
                            f"{c.owner_id}/{c.id}",
                            _message(c.type, eff.name, limit, value),
                            entry_name=eff.name,
                            owner_name=eff.name,
                            constraint_type=c.type,
                            limit=limit,
                            actual=value,
                            field=c.field,
                        )
                    )
                continue
            if c.scope == "self":
                for sel in parent.children:
                    if not _matches_option(sel, option, True):
                        continue
                    value = float(sel.number) if c.field == "selections" else sel.cost(c.field)
                    if _violated(c.type, value, limit):
                        self._error_on_selection(sel, option, c, eff.name, limit, value)
                continue
            own = None
            if not parent.is_force and c.type == "max" and c.scope not in ("parent", "self"):
                # Too many across the force or roster: on the selections of the entry itself
                # (a unit without one has nothing to give up). Looked at before the count, so
                # the check of a unit without one does not read the force- or roster-wide count
                # and is not redone each time that count moves.
                own = next((s for s in parent.children if _matches_option(s, option, True)), None)
                if own is None:
                    continue
            value, first = constraint_count(ctx, option, c)
            if not _violated(c.type, value, limit):
                continue
            if own is not None:
                self._error_on_selection(own, option, c, eff.name, limit, value)
            elif not parent.is_force:
                self.add(
                    ValidationError(
                        "selection",
                        parent.option.defn.id,
                        f"{c.owner_id}/{c.id}",
                        _message(c.type, eff.name, limit, value),
                        entry_name=eff.name,
                        owner_name=parent.name,
                        constraint_type=c.type,
                        limit=limit,
                        actual=value,
                        field=c.field,
                        owner_ids=parent.option.ids,
                    )
                )
            elif first is not None and c.type != "min":
                # Too many: the selection that is one too many. Too few of a root entry: the
                # category (or force) that should hold more, as BattleScribe reports it.
                self._error_on_selection(first, option, c, eff.name, limit, value)
            else:
                primary = next((cid for cid, p in eff.categories if p), None)
                if primary is None and eff.categories:
                    primary = eff.categories[0][0]
                force_cats = [cid for cid, _ in parent.category_entries()]
                # Counted in the whole force: the force is short of it, not one category.
                counted_in_force = c.scope == "force"
                if primary is not None and primary in force_cats and not counted_in_force:
                    self.add(
                        ValidationError(
                            "category",
                            primary,
                            f"{c.owner_id}/{c.id}",
                            _message(c.type, eff.name, limit, value),
                            entry_name=eff.name,
                            owner_name=self.roster.data.category_name(primary),
                            constraint_type=c.type,
                            limit=limit,
                            actual=value,
                            field=c.field,
                        )
                    )
                else:
                    self.add(
                        ValidationError(
                            "force",
                            parent.entry.id,
                            f"{c.owner_id}/{c.id}",
                            _message(c.type, eff.name, limit, value),
                            entry_name=eff.name,
                            owner_name=parent.entry.name,
                            constraint_type=c.type,
                            limit=limit,
                            actual=value,
                            field=c.field,
                        )
                    )

    def _error_on_selection(
        self, sel: Selection, option: Option, c: Constraint, name: str, limit: float, value: float
    ) -> None:
        self.add(
            ValidationError(
                "selection",
                sel.option.defn.id,
                f"{c.owner_id}/{c.id}",
                _message(c.type, name, limit, value),
                entry_name=name,
                owner_name=sel.name,
                constraint_type=c.type,
                limit=limit,
                actual=value,
                field=c.field,
                owner_ids=sel.option.ids,
            )
        )


def checked_options(data, option: Option) -> list[tuple[Option, bool]]:
    """(option, whether a constraint reads the selection's children) for each option a selection of
    `option` checks, computed once per option of the data."""
    cached = data.checked_options.get(id(option))
    if cached is None:
        cached = data.checked_options[id(option)] = [
            (o, any(_reads_children(c) for c in o.constraints)) for o in _checked(option.children())
        ]
    return cached


def _reads_children(c: Constraint) -> bool:
    """Whether checking `c` reads the parent's children directly (not through a count)."""
    return c.scope == "self" or (c.type == "max" and c.scope not in ("parent", "self"))


def _checked(options: list[Option]) -> list[Option]:
    """The options a selection's check visits, in order: those with constraints, looking
    through groups (as `Validator._options` does)."""
    out: list[Option] = []
    for option in options:
        if option.constraints:
            out.append(option)
        if option.is_group:
            out.extend(_checked(option.children()))
    return out


def _check_option(validator: Validator, option: Option, ctx: Context, parent) -> None:
    validator._option(option, ctx, parent)


def _share_of_limit(roster: Roster, c: Constraint, limit: float) -> tuple[str, float | None]:
    """(cost type, limit in it) of a constraint on `limit::<cost type>`, None for no limit: with
    percentValue, `limit` percent of the roster's limit of that cost type (BattleScribe 2's
    reading of a 1.x category's `minPercentage="25"`: the category's points at least a quarter
    of the army's points limit; `legacy.upgraded`), else `limit` itself. A roster without a
    limit of the cost type has no share to keep to."""
    cost_type = c.field[len(LIMIT_PREFIX) :]
    if not c.percent_value:
        return cost_type, limit
    whole = cost_limit(roster, cost_type)
    return cost_type, (limit * whole / 100.0 if whole >= 0 else None)


def _message(kind: str, name: str, limit: float, value: float, what: str = "") -> str:
    unit = f" {what}" if what else ""
    if kind == "min":
        return f"{name}: at least {limit:g}{unit} needed (has {value:g})"
    if kind == "max":
        return f"{name}: at most {limit:g}{unit} allowed (has {value:g})"
    return f"{name}: exactly {limit:g}{unit} needed (has {value:g})"


def validate(roster: Roster) -> list[ValidationError]:
    return Validator(roster).run()
