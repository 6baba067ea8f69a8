"""An army list of an imported faction as a roster of the BattleScribe engine.

A list keeps each unit as a plain selection tree (`{"entry", "number", "children"}`, what
`tree_of` writes); this module rebuilds the engine's roster from those trees, applies the
player's changes through the engine's own operations (so required entries are auto-selected
and collective entries scale as BattleScribe does), and answers what a list needs: each
unit's costs, its options as the picker shows them (only those the engine shows, with the
limits its modifiers leave), and the roster's errors in a player's words.

Pure Python like the engine: the caller gives the `GameData` (loaded and cached by
`rules.battlescribe_lists`). The picker's keys are short hashes of an option's path in the
unit (`option_key`), so they are safe in HTML ids and form names and stable while the unit's
shape stays the same.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from points.catalogue.i18n import _, ngettext
from rules.battlescribe.engine.constraints import validate
from rules.battlescribe.engine.errors import EngineError, ValidationError
from rules.battlescribe.engine.model import Constraint, Definition, GameData, Option
from rules.battlescribe.engine.modifiers import effective
from rules.battlescribe.engine.roster import Context, Force, Roster, Selection, is_duplicate
from rules.battlescribe.units import slug

#: Largest count the picker offers for an option without a maximum.
UNLIMITED = 100
#: Most selections one unit may hold (a stored tree larger than this is refused).
MAX_NODES = 5000


class ListRosterError(Exception):
    """A stored list the catalogue cannot rebuild, or a change the roster cannot make."""


#: What starts every key of the picker (a letter first: safe as an HTML id).
KEY_PREFIX = "sel"


def option_key(path: Sequence[str]) -> str:
    """The picker's key of the option at `path` (instance steps of the unit, then the entry)."""
    return KEY_PREFIX + _path_hash(path)


def _path_hash(path: Sequence[str]) -> str:
    return hashlib.sha1("/".join(path).encode()).hexdigest()[:12]


def _earlier_key(key: str, entry_key: str) -> bool:
    """Whether `key` is the picker's key of the same option before its prefix changed (two
    letters, then the same hash), as a client or a saved list may still send it."""
    return len(key) == 14 and key[:2].isalpha() and key[2:] == entry_key.removeprefix(KEY_PREFIX)


def tree_of(sel: Selection) -> dict[str, Any]:
    """A selection and its children as a plain tree (what a list unit stores)."""
    return {
        "entry": sel.option.key,
        "number": sel.number,
        "children": [tree_of(child) for child in sel.children],
    }


def _flatten(options: list[Option]) -> list[Option]:
    out: list[Option] = []
    for option in options:
        if option.is_group:
            out.extend(_flatten(option.children()))
        else:
            out.append(option)
    return out


def size_keys(data: Mapping[str, Any]) -> dict[str, str]:
    """{unit-format key `more-<model>`: the id of the numbered entry that sizes the model} of an
    imported unit whose models are counted in a selection's name ("10 Bestigors": one more
    take of `more-bestigors` is one more selection of it), for `ListRoster.set_counts`."""
    per = data.get("battlescribe_per_selection") or {}
    ids = data.get("battlescribe_models") or {}
    return {f"more-{slug(str(name), 70)}": str(ids[name]) for name in per if name in ids}


@dataclass
class MenuEntry:
    """One option of the picker: where it sits in the unit and what taking it means."""

    key: str
    path: tuple[str, ...]
    label: str
    group: str
    minimum: int
    maximum: int
    count: int
    costs: dict[str, float]
    parent: Selection
    option: Option
    existing: list[Selection] = field(default_factory=list)

    def as_dict(self, points_type: str | None) -> dict[str, Any]:
        cost = self.costs.get(points_type, 0.0) if points_type else 0.0
        return {
            "key": self.key,
            "path": list(self.path),
            "group": self.group,
            "label": self.label,
            "kind": "add_item",
            "applies_to": "",
            "payload": {},
            "min_count": self.minimum,
            "max_count": max(self.maximum, self.minimum),
            "cost": round(cost),
        }


def force_entries(data: GameData, catalogue_id: str) -> list[Definition]:
    """The forces (detachments) a roster of `catalogue_id` can hold, game system's first."""
    out = [d for d in data.game_system.force_entries if not d.hidden]
    catalogue = data.catalogues.get(catalogue_id)
    if catalogue is not None:
        out += [d for d in catalogue.force_entries if not d.hidden]
    return out


def slug_is_of(unit_slug: str, entry_id: str) -> bool:
    """Whether an imported unit's slug (`bs-<entry id>`, `-<n>` after it for a second unit of
    the same entry) is of the root entry `entry_id`."""
    base = f"bs-{slug(entry_id, 60)}"
    suffix = unit_slug[len(base) + 1 :]
    return unit_slug == base or (unit_slug.startswith(base + "-") and suffix.isdigit())


class ListRoster:
    """A roster of one force holding a list's units, rebuilt from their stored trees."""

    def __init__(
        self,
        data: GameData,
        *,
        catalogue_id: str,
        force_entry_id: str,
        trees: Sequence[Mapping[str, Any]],
        cost_limits: Mapping[str, float] | None = None,
        quiet_limits: Collection[str] = (),
        quiet_shares: Collection[str] = (),
    ):
        self.data = data
        self.roster = Roster(data)
        for type_id, limit in (cost_limits or {}).items():
            self.roster.cost_limits[type_id] = limit
        #: Cost types whose limit the product checks itself (the list's points limit): the
        #: engine's error for going over them would say the same thing twice.
        self.quiet_limits = frozenset(quiet_limits)
        #: Cost types whose share per category the system's own rules judge (a percentage of
        #: the points limit, `BattleScribeMapping.system_point_shares`): the data's limits on
        #: it would report the same thing a second time, in other figures (`_is_quiet_share`).
        self.quiet_shares = frozenset(quiet_shares)
        choices = force_entries(data, catalogue_id)
        if not choices:
            raise ListRosterError(_("This catalogue has no force to build a list in."))
        entry = next((d for d in choices if d.id == force_entry_id), choices[0])
        self.force_entry_id = entry.id
        #: Entries that left the catalogue since a unit was saved (keys), dropped on rebuild.
        self.dropped: list[str] = []
        self.units: list[Selection | None] = []
        if not trees:
            # A new roster: the force comes with what it requires (40k: battle size, dynasty
            # choice), which the list keeps as units of its own so the player can change them.
            self.force: Force = self.roster.add_force(entry.id, catalogue_id)
            self.units = list(self.force.selections)
            return
        # A stored roster: its units are exactly what was saved, nothing auto-selected again.
        self.force = Force(self.roster, entry, catalogue_id, None)
        self.roster.forces.append(self.force)
        roots = _flatten(self.force.root_options())
        nodes = [0]
        for tree in trees:
            self.units.append(self._restore(self.force, tree, roots, nodes))
        self.roster.touch()

    # -- rebuilding ------------------------------------------------------------------------
    def _restore(self, parent, tree: Mapping[str, Any], options: list[Option], nodes: list[int]):
        key = str(tree.get("entry", ""))
        option = next((o for o in options if o.key == key), None)
        if option is None:
            self.dropped.append(key)
            return None
        nodes[0] += 1
        if nodes[0] > MAX_NODES:
            raise ListRosterError(_("A unit holds more selections than a list may store."))
        number = tree.get("number", 1)
        if isinstance(number, bool) or not isinstance(number, int) or not 0 < number <= 100_000:
            number = 1
        sel = Selection(self.roster, option, parent, self.force, number)
        parent.children.append(sel)
        children = option.selectable()
        for child in tree.get("children") or []:
            if isinstance(child, Mapping):
                self._restore(sel, child, children, nodes)
        if parent is self.force:
            self.force.index.add_subtree(sel)
        return sel

    # -- units -----------------------------------------------------------------------------
    def root_options(self) -> list[Option]:
        """Every entry the force offers at its root (groups looked through), in the data's order."""
        return _flatten(self.force.root_options())

    def root_option(self, unit_slug: str) -> Option | None:
        """The root entry an imported unit (its template's slug, `bs-<entry id>`) came from."""
        for option in _flatten(self.force.root_options()):
            if slug_is_of(unit_slug, option.defn.id):
                return option
        return None

    def shown_names(self, unit_slugs: Collection[str]) -> dict[str, str]:
        """{imported unit's slug: the name a list row of it shows} for the slugs of root entries
        the force has. The row shows the entry's own name, which a catalogue link may name
        otherwise (BSData AoS links "[SE] Celestant-Prime, Hammer of Sigmar" to an entry named
        "Celestant-Prime, Hammer of Sigmar", and the imported unit keeps the link's name)."""
        options = _flatten(self.force.root_options())
        by_base = {f"bs-{slug(option.defn.id, 60)}": option.name for option in options}
        names = {}
        for unit_slug in unit_slugs:
            base, _dash, suffix = unit_slug.rpartition("-")
            name = by_base.get(unit_slug) or (by_base.get(base) if suffix.isdigit() else None)
            if name:
                names[unit_slug] = name
        return names

    def entering_points(self, points_type: str) -> dict[str, int]:
        """{root entry id: points, rounded as a unit's} of each root entry the force shows,
        each selected alone (with what comes with it) and taken away again."""
        prices: dict[str, int] = {}
        #: Root entries whose price includes choices BattleScribe leaves to the player ("from").
        self.completed: set[str] = set()
        ctx = self.force.context()
        for option in _flatten(self.force.root_options()):
            if option.defn.id in prices or effective(option, ctx).hidden:
                continue
            try:
                sel = self.roster.select_entry(self.force, option.key)
            except EngineError:
                continue
            if self._fill_required(sel, sel, points_type, depth=0):
                self.completed.add(option.defn.id)
            prices[option.defn.id] = max(round(sel.cost(points_type)), 0)
            self.roster.deselect_all(sel)
        return prices

    def _fill_required(self, root: Selection, sel: Selection, points_type: str, depth: int) -> bool:
        """Take, under `sel`, the cheapest member of each group that needs a selection and names
        no default: BattleScribe adds such a unit with the choice left empty (Leman Russ Battle
        Tanks: "Leman Russ" needs 1 of several tanks, 0 pts with an error), and a menu price of
        0 is not what the unit costs; it costs at least its cheapest legal completion. Whether
        anything was taken."""
        if depth > _FILL_DEPTH:
            return False
        taken = False
        ctx = Context(self.roster, self.force, sel, None)
        groups = [o for o in sel.option.children() if o.is_group]
        while groups:
            group = groups.pop(0)
            nested = [o for o in group.children() if o.is_group]
            if not nested and not any(c.type == "min" for c in group.constraints):
                continue  # most groups: nothing required, no effective values to work out
            eff = effective(group, ctx)
            if eff.hidden:
                continue
            groups += nested
            low, _high = _limits(group, eff.constraint_values)
            ids = {id(o) for o in group.selectable()}
            if low <= 0 or any(id(s.option) in ids for s in sel.children):
                continue
            members = [o for o in group.children() if not o.is_group and not effective(o, ctx).hidden]
            best: tuple[float, Option] | None = None
            for member in members:
                try:
                    probe = self.roster.select_child(sel, member.key)
                except EngineError:
                    continue
                cost = root.cost(points_type)
                self.roster.deselect_all(probe)
                if best is None or cost < best[0]:
                    best = (cost, member)
            if best is None:
                continue
            for _taken in range(low):
                child = self.roster.select_child(sel, best[1].key)
            self._fill_required(root, child, points_type, depth + 1)
            taken = True
        return taken

    def add_unit(self, option: Option) -> int:
        """Select `option` at the root of the force (required children come with it). An entry
        BattleScribe hides here (always, or while its conditions hold) is not offered there,
        so it is refused here too rather than added for its points."""
        if effective(option, self.force.context()).hidden:
            message = _("%(unit)s is not available in this list: BattleScribe hides it here.")
            raise ListRosterError(message % {"unit": option.name})
        sel = self.roster.select_entry(self.force, option.key)
        self.units.append(sel)
        return len(self.units) - 1

    def unit(self, index: int) -> Selection:
        sel = self.units[index]
        if sel is None:
            raise ListRosterError(_("This unit is no longer in the catalogue."))
        return sel

    def costs(self, index: int) -> dict[str, float]:
        sel = self.units[index]
        if sel is None:
            return {}
        return {c.id: sel.cost(c.id) for c in self.data.cost_types}

    # -- the picker --------------------------------------------------------------------------
    def menu(self, index: int) -> list[MenuEntry]:
        """The unit's options as the engine shows them now, parents before their children."""
        out: list[MenuEntry] = []
        root = self.unit(index)
        self._menu_node(root, (), out, nested=False)
        return out

    def _menu_node(
        self, node: Selection, path: tuple[str, ...], out: list[MenuEntry], nested: bool, name: str = ""
    ) -> None:
        """The menu entries under `node`; a nested node's are grouped under its `name` (its own,
        numbered where its entry has several selections: "Marine 2: Gun", one model's choice,
        not one group of every Marine's guns)."""
        ctx = Context(self.roster, self.force, node, None)
        prefix = f"{name or node.name}: " if nested else ""

        def walk(options: list[Option], group: str, group_max: int | None) -> None:
            for option in options:
                eff = effective(option, ctx)
                if option.is_group:
                    if eff.hidden:
                        continue
                    low, high = _limits(option, eff.constraint_values)
                    walk(option.children(), prefix + eff.name, high)
                    continue
                existing = [s for s in node.children if s.option is option]
                if eff.hidden and not existing:
                    continue
                low, high = _limits(option, eff.constraint_values)
                if group_max is not None:
                    high = group_max if high is None else min(high, group_max)
                duplicate = is_duplicate(option)
                if duplicate:
                    count = len(existing)
                elif existing and option.collective:
                    count = max(existing[0].number // max(node.number, 1), 1)
                else:
                    count = sum(s.number for s in existing)
                step = (*path, option.key)
                entry = MenuEntry(
                    key=option_key(step),
                    path=step,
                    label=eff.name,
                    group=group or (prefix.rstrip(": ") if nested else ""),
                    minimum=low,
                    maximum=UNLIMITED if high is None else high,
                    count=count,
                    costs=dict(eff.costs),
                    parent=node,
                    option=option,
                    existing=existing,
                )
                out.append(entry)
                for i, sel in enumerate(existing):
                    numbered = f"{sel.name} {i + 1}" if len(existing) > 1 else sel.name
                    self._menu_node(sel, (*path, f"{option.key}#{i}"), out, nested=True, name=numbered)

        walk(node.option.children(), "", None)

    def set_counts(
        self, index: int, counts: Mapping[str, int], sized: Mapping[str, str] | None = None
    ) -> None:
        """Apply the picker's `{key: count}` through the engine's operations.

        Keys are the menu's; the unit format's keys of an imported unit (`opt-<entry id>`,
        `more-<model>`: extra models over the smallest size, or extra selections of the
        numbered entry that sizes it, `sized`: `size_keys` of the unit) are understood too,
        so clients and rosters written against them keep working. An option inside a selection the
        same change creates is applied once that selection exists (a few passes at most);
        a key that never matches is refused.
        """
        remaining = dict(counts)
        for _pass in range(4):
            if not remaining:
                return
            applied = False
            for entry in self.menu(index):
                key = self._matching_key(entry, remaining, sized or {})
                if key is None:
                    continue
                count = remaining.pop(key)
                if key.startswith("more-"):
                    count = max(entry.minimum, 1) + count
                if count == entry.count or not self._attached(entry.parent, index):
                    applied = applied or count == entry.count
                    continue
                self._set(entry, count)
                applied = True
            if not applied:
                break
        if remaining:
            raise ListRosterError(_("This unit has no such option."))

    @staticmethod
    def _matching_key(entry: MenuEntry, counts: Mapping[str, int], sized: Mapping[str, str]) -> str | None:
        if entry.key in counts:
            return entry.key
        earlier = next((key for key in counts if _earlier_key(key, entry.key)), None)
        if earlier is not None:
            return earlier
        option = entry.option
        ids = [option.defn.id, *([option.link.id] if option.link is not None else [])]
        for key, entry_id in sized.items():
            if entry_id in ids and key in counts:
                return key
        for entry_id in ids:
            legacy = f"opt-{slug(entry_id, 60)}"
            if legacy in counts:
                return legacy
        if option.type == "model":
            legacy = f"more-{slug(option.name, 70)}"
            if legacy in counts:
                return legacy
        return None

    def _attached(self, sel: Selection, index: int) -> bool:
        root = self.units[index]
        while not sel.parent.is_force:
            if sel not in sel.parent.children:
                return False
            sel = sel.parent
        return sel is root

    def _set(self, entry: MenuEntry, count: int) -> None:
        roster, parent, option = self.roster, entry.parent, entry.option
        existing = [s for s in parent.children if s.option is option]
        try:
            if is_duplicate(option):
                while len(existing) < count:
                    existing.append(roster.select_child(parent, option.key))
                while len(existing) > count:
                    roster.deselect_all(existing.pop())
                return
            if count <= 0:
                for sel in existing:
                    roster.deselect_all(sel)
                return
            if not existing:
                sel = roster.select_child(parent, option.key)
                per = sel.number // max(parent.number, 1) if option.collective else sel.number
                if per != count:
                    roster.set_count(sel, count)
                return
            roster.set_count(existing[0], count)
        except EngineError as exc:
            raise ListRosterError(str(exc)) from None

    # -- validation ------------------------------------------------------------------------
    def errors(self) -> list[ValidationError]:
        return validate(self.roster)

    def violations(self) -> list[dict[str, Any]]:
        """The roster's errors as a list's violations: `{"rule", "unit", "message"}`, the
        message in a player's words (the unit or force and the rule, never an id)."""
        names = _Names(self.data)
        out = []
        for error in self.errors():
            if error.source.startswith("costLimits/") and error.field in self.quiet_limits:
                continue
            if self.quiet_shares and _is_quiet_share(error, names, self.quiet_shares):
                continue
            out.append(
                {
                    "rule": "catalogue",
                    "unit": error.owner_name,
                    "message": player_message(error, names, self.force),
                }
            )
        return out


def _is_quiet_share(error: ValidationError, names: _Names, cost_types: frozenset[str]) -> bool:
    """Whether `error` is a category's share of one of `cost_types` in percent (of the roster's
    limit, `limit::<type>`, as a 1.x game system's `minPercentage` reads; or of the force's
    total of the type), which the system's own rules judge instead."""
    if error.owner_type != "category" or error.field not in cost_types:
        return False
    constraint = names.constraints.get(error.source.rsplit("/", 1)[-1])
    return constraint is not None and constraint.percent_value


#: How deep `ListRoster._fill_required` completes choices (a unit, its models, their gear).
_FILL_DEPTH = 3


def _limits(option: Option, values: Mapping[str, float]) -> tuple[int, int | None]:
    """The `min`/`max` selections per parent of `option` after modifiers (None: no maximum)."""
    low, high = 0, None
    for c in option.constraints:
        if c.field != "selections" or c.scope != "parent" or c.percent_value:
            continue
        value = values.get(c.id, c.value)
        if c.type == "min":
            low = max(low, int(value))
        elif c.type == "max" and value >= 0:
            high = int(value) if high is None else min(high, int(value))
    return max(low, 0), high


class _Names:
    """Names and constraints of the catalogue by id, for messages (built once per data)."""

    def __init__(self, data: GameData):
        cached = getattr(data, "_list_roster_names", None)
        if cached is None:
            cached = self._build(data)
            data._list_roster_names = cached  # type: ignore[attr-defined]
        self.names, self.constraints = cached

    @staticmethod
    def _build(data: GameData) -> tuple[dict[str, str], dict[str, Constraint]]:
        names: dict[str, str] = {}
        constraints: dict[str, Constraint] = {}
        for d in data.every_definition():
            name = d.name
            if not name and d.target_id:
                target = data.resolve(d.target_id)
                name = target.name if target else ""
            names.setdefault(d.id, name)
            for c in d.constraints:
                constraints.setdefault(c.id, c)
            for link in d.category_links:
                names.setdefault(link.id, data.category_name(link.target_id) or link.name)
                for c in link.constraints:
                    constraints.setdefault(c.id, c)
        return names, constraints


#: Where a limit counts, by constraint scope (English here; translated when a message is made).
_WHERE = {
    "roster": _("in the army"),
    "force": _("in the detachment"),
    "parent": _("in the unit"),
    "self": _("in the unit"),
}


def player_message(error: ValidationError, names: _Names, force: Force) -> str:
    """An engine error in a player's words: who, which entry, the limit and what the list has."""
    owner, constraint_id = [*error.source.split("/", 1), ""][:2]
    limit, actual = f"{error.limit:g}", f"{error.actual:g}"
    if owner == "costLimits":
        return _("The army costs %(actual)s; the limit is %(limit)s.") % {"actual": actual, "limit": limit}
    if constraint_id == "hidden":
        return _("%(unit)s: this choice is not available here.") % {"unit": error.owner_name}
    entry = names.names.get(owner, "") or error.owner_name
    constraint = names.constraints.get(constraint_id)
    where = _(str(_WHERE[constraint.scope])) if constraint is not None and constraint.scope in _WHERE else ""
    args = {"unit": error.owner_name or force.entry.name, "entry": entry, "limit": limit, "actual": actual}
    if error.owner_type == "category":
        args["unit"] = force.entry.name
        if error.field not in ("selections", "forces", ""):
            # the points of the category's units (a 1.x force's Core at least 25 % of the army)
            args["cost"] = next((c.name.strip() for c in names_cost_types(force) if c.id == error.field), "")
            if error.constraint_type == "min":
                return (
                    _("%(unit)s: at least %(limit)s %(cost)s of %(entry)s units needed (now %(actual)s).")
                    % args
                )
            return (
                _("%(unit)s: at most %(limit)s %(cost)s of %(entry)s units allowed (now %(actual)s).") % args
            )
        n = int(error.limit)
        if error.constraint_type == "min":
            return ngettext(
                "%(unit)s: at least %(limit)s %(entry)s unit needed (now %(actual)s).",
                "%(unit)s: at least %(limit)s %(entry)s units needed (now %(actual)s).",
                n,
            ) % args
        return ngettext(
            "%(unit)s: at most %(limit)s %(entry)s unit allowed (now %(actual)s).",
            "%(unit)s: at most %(limit)s %(entry)s units allowed (now %(actual)s).",
            n,
        ) % args
    if error.field not in ("selections", "forces", ""):
        args["cost"] = next((c.name.strip() for c in names_cost_types(force) if c.id == error.field), "")
        if error.constraint_type == "min":
            return _("%(unit)s: %(entry)s must cost at least %(limit)s %(cost)s (now %(actual)s).") % args
        return _("%(unit)s: %(entry)s may cost at most %(limit)s %(cost)s (now %(actual)s).") % args
    if where and entry == args["unit"]:
        args["where"] = where
        if error.constraint_type == "min":
            return _("%(entry)s: at least %(limit)s needed %(where)s (now %(actual)s).") % args
        return _("%(entry)s: at most %(limit)s allowed %(where)s (now %(actual)s).") % args
    if error.constraint_type == "min":
        return _("%(unit)s: at least %(limit)s × %(entry)s needed (now %(actual)s).") % args
    return _("%(unit)s: at most %(limit)s × %(entry)s allowed (now %(actual)s).") % args


def names_cost_types(force: Force):
    return force.roster.data.cost_types
