"""The loaded game system and catalogues: entries, links, groups, categories, force entries.

Input is the neutral dict shape of the conformance suite (camelCase keys, child lists under
plural keys); `xmlform.element_to_dict` turns .gst/.cat XML into the same shape. Links are
not copied: an `Option` pairs a link (or none) with its target definition and a composite
id (`link::target`, `docs/battlescribe.md`, "Entry ids"), and options are built
lazily and cached, so a catalogue of thousands of entries loads in one pass.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from .legacy import upgraded
from .legacy_catalogue import upgraded_catalogue


def _num(value, default=0.0) -> float:
    if value is None or value == "":
        return default
    try:
        return float(value)
    except (TypeError, ValueError):
        return default


def _bool(value) -> bool:
    if isinstance(value, str):
        return value.strip().lower() == "true"
    return bool(value)


@dataclass
class Condition:
    type: str
    value: float
    field: str
    scope: str
    child_id: str | None
    shared: bool
    include_child_selections: bool
    include_child_forces: bool
    percent_value: bool


@dataclass
class ConditionGroup:
    type: str
    conditions: list[Condition]
    groups: list[ConditionGroup]


@dataclass
class Repeat:
    value: float
    repeats: int
    field: str
    scope: str
    child_id: str | None
    round_up: bool
    shared: bool
    include_child_selections: bool
    include_child_forces: bool
    percent_value: bool


@dataclass
class Modifier:
    type: str
    field: str
    value: str
    #: (conditions, condition groups) that must all hold: the modifier's own and its groups'.
    guards: list[tuple[list[Condition], list[ConditionGroup]]]
    #: Every repeat of the modifier and of its modifier groups.
    repeats: list[Repeat]
    #: The same repeats by level, outermost group first, levels without repeats left out: each
    #: level's steps are summed, and the levels multiply (`conditions.modifier_times`).
    repeat_levels: list[list[Repeat]] = field(default_factory=list)


@dataclass
class Constraint:
    id: str
    type: str
    value: float
    field: str
    scope: str
    shared: bool
    include_child_selections: bool
    include_child_forces: bool
    percent_value: bool
    #: Id of the definition (entry, link, category link…) that declares the constraint.
    owner_id: str = ""


@dataclass
class CategoryLink:
    id: str
    target_id: str
    name: str
    primary: bool
    hidden: bool
    constraints: list[Constraint]
    modifiers: list[Modifier]


@dataclass
class Definition:
    """One selectionEntry, selectionEntryGroup, entryLink, forceEntry or categoryEntry."""

    kind: str
    id: str
    name: str
    type: str = ""
    hidden: bool = False
    collective: bool = False
    target_id: str = ""
    costs: dict[str, float] = field(default_factory=dict)
    constraints: list[Constraint] = field(default_factory=list)
    modifiers: list[Modifier] = field(default_factory=list)
    children: list[Definition] = field(default_factory=list)
    category_links: list[CategoryLink] = field(default_factory=list)
    force_entries: list[Definition] = field(default_factory=list)
    default_selection_entry_id: str = ""
    page: str = ""
    publication_id: str = ""
    rules: list[dict] = field(default_factory=list)
    profiles: list[dict] = field(default_factory=list)
    info_links: list[dict] = field(default_factory=list)
    info_groups: list[dict] = field(default_factory=list)
    catalogue_id: str = ""
    #: `import`: whether a root entry is offered by catalogues that link this one with
    #: `importRootEntries` (an entry meant only for its own catalogue says false).
    imported: bool = True

    @property
    def is_group(self) -> bool:
        return self.kind == "selectionEntryGroup"


def parse_condition(raw: dict) -> Condition:
    return Condition(
        type=raw.get("type", ""),
        value=_num(raw.get("value")),
        field=str(raw.get("field", "selections")),
        scope=str(raw.get("scope", "parent")),
        child_id=raw.get("childId"),
        shared=_bool(raw.get("shared", False)),
        include_child_selections=_bool(raw.get("includeChildSelections", False)),
        include_child_forces=_bool(raw.get("includeChildForces", False)),
        percent_value=_bool(raw.get("percentValue", False)),
    )


def parse_condition_group(raw: dict) -> ConditionGroup:
    return ConditionGroup(
        type=raw.get("type", "and"),
        conditions=[parse_condition(c) for c in raw.get("conditions") or []],
        groups=[parse_condition_group(g) for g in raw.get("conditionGroups") or []],
    )


def parse_repeat(raw: dict) -> Repeat:
    return Repeat(
        value=_num(raw.get("value"), 1.0),
        repeats=int(_num(raw.get("repeats"), 1)),
        field=str(raw.get("field", "selections")),
        scope=str(raw.get("scope", "parent")),
        child_id=raw.get("childId"),
        round_up=_bool(raw.get("roundUp", False)),
        shared=_bool(raw.get("shared", False)),
        include_child_selections=_bool(raw.get("includeChildSelections", False)),
        include_child_forces=_bool(raw.get("includeChildForces", False)),
        percent_value=_bool(raw.get("percentValue", False)),
    )


def parse_modifiers(raw: dict, guards=(), repeats=(), levels=()) -> list[Modifier]:
    """The modifiers of `raw` and of its modifier groups, each carrying its groups' guards and
    repeats."""
    out: list[Modifier] = []
    for m in raw.get("modifiers") or []:
        value = m.get("value", "")
        if isinstance(value, bool):
            value = "true" if value else "false"
        own = [parse_repeat(r) for r in m.get("repeats") or []]
        out.append(
            Modifier(
                type=m.get("type", "set"),
                field=str(m.get("field", "")),
                value=str(value if value is not None else ""),
                guards=[
                    *guards,
                    (
                        [parse_condition(c) for c in m.get("conditions") or []],
                        [parse_condition_group(g) for g in m.get("conditionGroups") or []],
                    ),
                ],
                repeats=[*repeats, *own],
                repeat_levels=[*levels, own] if own else list(levels),
            )
        )
    for group in raw.get("modifierGroups") or []:
        guard = (
            [parse_condition(c) for c in group.get("conditions") or []],
            [parse_condition_group(g) for g in group.get("conditionGroups") or []],
        )
        group_repeats = [parse_repeat(r) for r in group.get("repeats") or []]
        out.extend(
            parse_modifiers(
                group,
                [*guards, guard],
                [*repeats, *group_repeats],
                [*levels, group_repeats] if group_repeats else levels,
            )
        )
    return out


def parse_constraints(raw: dict, owner_id: str) -> list[Constraint]:
    return [
        Constraint(
            id=str(c.get("id", "")),
            type=c.get("type", "max"),
            value=_num(c.get("value")),
            field=str(c.get("field", "selections")),
            scope=str(c.get("scope", "parent")),
            shared=_bool(c.get("shared", False)),
            include_child_selections=_bool(c.get("includeChildSelections", False)),
            include_child_forces=_bool(c.get("includeChildForces", False)),
            percent_value=_bool(c.get("percentValue", False)),
            owner_id=owner_id,
        )
        for c in raw.get("constraints") or []
    ]


def parse_costs(raw: dict) -> dict[str, float]:
    """{cost type id: value} of an entry's `costs` (a later cost of one type replaces the first)."""
    return {str(cost.get("typeId", "")): _num(cost.get("value")) for cost in raw.get("costs") or []}


def parse_category_link(raw: dict) -> CategoryLink:
    link_id = str(raw.get("id") or raw.get("targetId", ""))
    return CategoryLink(
        id=link_id,
        target_id=str(raw.get("targetId", "")),
        name=str(raw.get("name", "")),
        primary=_bool(raw.get("primary", False)),
        hidden=_bool(raw.get("hidden", False)),
        constraints=parse_constraints(raw, link_id),
        modifiers=parse_modifiers(raw),
    )


_CHILD_KEYS = (
    ("selectionEntries", "selectionEntry"),
    ("selectionEntryGroups", "selectionEntryGroup"),
    ("entryLinks", "entryLink"),
)


def parse_definition(raw: dict, kind: str, catalogue_id: str = "") -> Definition:
    def_id = str(raw.get("id", ""))
    children: list[Definition] = []
    for key, child_kind in _CHILD_KEYS:
        children.extend(parse_definition(c, child_kind, catalogue_id) for c in raw.get(key) or [])
    costs = parse_costs(raw)
    return Definition(
        kind=kind,
        id=def_id,
        name=str(raw.get("name", "")),
        type=str(raw.get("type", "") or ""),
        hidden=_bool(raw.get("hidden", False)),
        collective=_bool(raw.get("collective", False)),
        imported=_bool(raw.get("import", True)),
        target_id=str(raw.get("targetId", "") or ""),
        costs=costs,
        constraints=parse_constraints(raw, def_id),
        modifiers=parse_modifiers(raw),
        children=children,
        category_links=[parse_category_link(c) for c in raw.get("categoryLinks") or []],
        force_entries=[
            parse_definition(f, "forceEntry", catalogue_id) for f in raw.get("forceEntries") or []
        ],
        default_selection_entry_id=str(raw.get("defaultSelectionEntryId", "") or ""),
        page=str(raw.get("page", "") or ""),
        publication_id=str(raw.get("publicationId", "") or ""),
        rules=list(raw.get("rules") or []),
        profiles=list(raw.get("profiles") or []),
        info_links=list(raw.get("infoLinks") or []),
        info_groups=list(raw.get("infoGroups") or []),
        catalogue_id=catalogue_id,
    )


@dataclass
class Profile:
    """A profile as written: its characteristics as (name, characteristic type id, value).

    The one reader of a profile for the roster engine's model and the catalogue import (which
    maps a unit's profiles onto the system's fields, `units.profiles`); a roster's shown profile,
    after modifiers, is `info.collect`'s."""

    id: str
    name: str
    type_id: str
    type_name: str
    characteristics: list[tuple[str, str, str]]
    hidden: bool = False


def parse_profile(raw: dict) -> Profile:
    """A profile of the dict shape (`xmlform.element_to_dict`, the suite's YAML)."""
    return Profile(
        id=str(raw.get("id", "") or ""),
        name=str(raw.get("name", "") or ""),
        type_id=str(raw.get("typeId", "") or ""),
        type_name=str(raw.get("typeName", "") or ""),
        characteristics=[
            (str(c.get("name", "") or ""), str(c.get("typeId", "") or ""), str(c.get("value", "") or ""))
            for c in raw.get("characteristics") or []
        ],
        hidden=_bool(raw.get("hidden", False)),
    )


@dataclass
class CostType:
    id: str
    name: str
    default_cost_limit: float | None
    hidden: bool


@dataclass
class Catalogue:
    id: str
    name: str
    library: bool
    root: list[Definition]
    force_entries: list[Definition]
    category_entries: list[Definition]
    links: list[str]
    import_root_from: list[str]
    shared_rules: list[dict] = field(default_factory=list)


class GameData:
    """A game system and its catalogues, indexed by id for link resolution."""

    def __init__(self, game_system: dict, catalogues: list[dict]):
        # A 1.x game system's force types are read as BattleScribe 2 converts them (`legacy`).
        gs = upgraded(game_system or {})
        # A 1.x catalogue (`<entries>`, points attributes) is read as BattleScribe 2 converts it
        # (`legacy_catalogue`); what it cannot convert is left out and said in `warnings`.
        type_names = {str(p.get("id", "")): str(p.get("name", "")) for p in gs.get("profileTypes") or []}
        #: What could not be read of the data as written (a 1.x catalogue's unconverted parts).
        self.warnings: list[str] = []
        read = []
        for raw in catalogues or []:
            catalogue, warnings = upgraded_catalogue(raw, type_names)
            read.append(catalogue)
            self.warnings.extend(warnings)
        catalogues = read
        self.id = str(gs.get("id", "") or "")
        self.name = str(gs.get("name", "") or "")
        self.cost_types = [
            CostType(
                id=str(c.get("id")),
                name=str(c.get("name", "")),
                default_cost_limit=(
                    _num(c.get("defaultCostLimit")) if c.get("defaultCostLimit") not in (None, "") else None
                ),
                hidden=_bool(c.get("hidden", False)),
            )
            for c in gs.get("costTypes") or []
        ]
        self.shared: dict[str, Definition] = {}
        self.categories: dict[str, Definition] = {}
        self.force_entries: dict[str, Definition] = {}
        self.profile_types: dict[str, dict] = {p.get("id"): p for p in gs.get("profileTypes") or []}
        self.shared_infos: dict[str, dict] = {}
        self.catalogues: dict[str, Catalogue] = {}
        #: Publications by id, and the ids each file (game system or catalogue) declares.
        self.publications: dict[str, dict] = {}
        self.file_publications: dict[str, list[str]] = {}
        files = [(gs, self.id or "gs"), *((c, str(c.get("id", ""))) for c in catalogues or [])]
        for raw_file, file_id in files:
            ids = self.file_publications.setdefault(file_id, [])
            for pub in raw_file.get("publications") or []:
                pid = str(pub.get("id", ""))
                self.publications.setdefault(pid, pub)
                ids.append(pid)
        self.game_system = self._load_container(gs, self.id or "gs", is_system=True)
        for raw in catalogues or []:
            cat = self._load_container(raw, str(raw.get("id", "")))
            self.catalogues[cat.id] = cat
            known = {c.id for c in self.cost_types}
            for c in raw.get("costTypes") or []:
                if str(c.get("id")) not in known:
                    self.cost_types.append(
                        CostType(
                            id=str(c.get("id")),
                            name=str(c.get("name", "")),
                            default_cost_limit=(
                                _num(c.get("defaultCostLimit"))
                                if c.get("defaultCostLimit") not in (None, "")
                                else None
                            ),
                            hidden=_bool(c.get("hidden", False)),
                        )
                    )
        self._options: dict[tuple, list[Option]] = {}
        #: What a selection of an option checks, by id of the option (see `constraints`).
        self.checked_options: dict[int, list] = {}
        #: Cost types some entry of the data prices (a roster lists only these totals).
        self.priced_cost_types: set[str] = set()
        seen: set[int] = set()

        def walk(defs):
            for d in defs:
                if id(d) in seen:
                    continue
                seen.add(id(d))
                self.priced_cost_types.update(d.costs)
                walk(d.children)

        walk(self.shared.values())
        walk(self.game_system.root)
        for cat in self.catalogues.values():
            walk(cat.root)

    def publication_name(self, publication_id: str) -> str:
        """The name of a publication (game system's or any catalogue's), "" when unknown."""
        return str((self.publications.get(publication_id) or {}).get("name", "") or "")

    def publications_for(self, catalogue_id: str) -> list[dict]:
        """Publications a force of `catalogue_id` can cite: its catalogue's, then the system's."""
        own = self.file_publications.get(catalogue_id, [])
        ids = [*own, *self.file_publications.get(self.id or "gs", [])]
        return [self.publications[i] for i in dict.fromkeys(ids)]

    def _index_info(self, item: dict, depth: int = 0) -> None:
        self.shared_infos.setdefault(str(item.get("id")), item)
        if depth < 16:
            for key in ("rules", "profiles", "infoGroups"):
                for child in item.get(key) or []:
                    self._index_info(child, depth + 1)

    def _index_defs(self, defs: list[Definition]) -> None:
        for d in defs:
            self.shared.setdefault(d.id, d)
            self._index_defs(d.children)

    def _load_container(self, raw: dict, cid: str, is_system: bool = False) -> Catalogue:
        root = []
        for key, kind in _CHILD_KEYS:
            root.extend(parse_definition(c, kind, cid) for c in raw.get(key) or [])
        for key, kind in (
            ("sharedSelectionEntries", "selectionEntry"),
            ("sharedSelectionEntryGroups", "selectionEntryGroup"),
        ):
            for c in raw.get(key) or []:
                d = parse_definition(c, kind, cid)
                self.shared[d.id] = d
                self._index_defs(d.children)
        self._index_defs([d for d in root if d.kind != "entryLink"])
        for key in ("sharedRules", "sharedProfiles", "sharedInfoGroups", "rules", "profiles"):
            for item in raw.get(key) or []:
                self._index_info(item)
        cats = []
        for c in raw.get("categoryEntries") or []:
            d = parse_definition(c, "categoryEntry", cid)
            self.categories[d.id] = d
            cats.append(d)
        forces = []

        def index_forces(raws, into):
            for f in raws or []:
                d = parse_definition(f, "forceEntry", cid)
                into.append(d)
                self.force_entries[d.id] = d
                _walk_forces(d)

        def _walk_forces(d):
            for child in d.force_entries:
                self.force_entries[child.id] = child
                _walk_forces(child)

        index_forces(raw.get("forceEntries"), forces)
        links = [str(link.get("targetId")) for link in raw.get("catalogueLinks") or []]
        import_root = [
            str(link.get("targetId"))
            for link in raw.get("catalogueLinks") or []
            if _bool(link.get("importRootEntries", False))
        ]
        return Catalogue(
            id=cid,
            name=str(raw.get("name", "") or ""),
            library=_bool(raw.get("library", False)),
            root=root,
            force_entries=forces,
            category_entries=cats,
            links=links,
            import_root_from=import_root,
            shared_rules=list(raw.get("sharedRules") or []),
        )

    def resolve(self, target_id: str) -> Definition | None:
        return self.shared.get(target_id)

    def every_definition(self) -> Iterator[Definition]:
        """Every definition of the data once (one shared by several parents is met once), each
        before its children and force entries: the shared ones, the categories, the force
        entries, then the system's and each catalogue's root entries. For the passes that index
        what any definition declares (its constraints' ids, its name), whatever holds it."""
        seen: set[int] = set()

        def walk(defs: Iterable[Definition]) -> Iterator[Definition]:
            for d in defs:
                if id(d) in seen:
                    continue
                seen.add(id(d))
                yield d
                yield from walk(d.children)
                yield from walk(d.force_entries)

        yield from walk(self.shared.values())
        yield from walk(self.categories.values())
        yield from walk(self.force_entries.values())
        yield from walk(self.game_system.root)
        for catalogue in self.catalogues.values():
            yield from walk(catalogue.root)

    def category_name(self, category_id: str) -> str:
        d = self.categories.get(category_id)
        return d.name if d else ""

    def root_options(self, catalogue_id: str) -> list[Option]:
        """Entries selectable at the root of a force of `catalogue_id` (plus the system's)."""
        key = ("root", catalogue_id)
        if key not in self._options:
            defs: list[Definition] = []
            seen_cats: set[str] = set()

            def add_catalogue(cid: str, primary: bool):
                if cid in seen_cats:
                    return
                seen_cats.add(cid)
                cat = self.catalogues.get(cid)
                if cat is None:
                    return
                defs.extend(d for d in cat.root if primary or d.imported)
                for linked in cat.import_root_from:
                    add_catalogue(linked, False)

            add_catalogue(catalogue_id, True)
            defs = [*self.game_system.root, *defs]
            options = []
            for d in defs:
                options.extend(make_options(self, d, None, (), None))
            self._options[key] = options
        return self._options[key]


def merged_constraints(
    own: list[Constraint], linked: list[Constraint], modified: set[str]
) -> list[Constraint]:
    """A link's constraints merged into its target's: a link limit of the same type and field
    as a target limit replaces that limit's value (BattleScribe keeps the target's
    constraint, with its id and scope); others, and those a modifier changes by id, are added."""
    out = list(own)
    for c in linked:
        index = next((i for i, t in enumerate(out) if t.type == c.type and t.field == c.field), None)
        if index is None or out[index].owner_id == c.owner_id or {c.id, out[index].id} & modified:
            out.append(c)
        else:
            out[index] = dataclasses.replace(out[index], value=c.value)
    return out


#: Category modifiers that can give a selection a category it did not have
#: (`modifiers.apply_modifier`): `set-primary` adds the category when it is missing.
CATEGORY_ADDS = frozenset({"add", "set-primary"})


class Option:
    """An entry as the roster sees it: a definition reached through zero or more links."""

    __slots__ = (
        "_children",
        "_static_ids",
        "base_id",
        "category_adds",
        "category_links",
        "collective",
        "constraints",
        "costs",
        "data",
        "defn",
        "group",
        "hidden",
        "key",
        "link",
        "modifiers",
        "name",
        "parent",
        "prefix",
        "static_categories",
        "type",
    )

    def __init__(
        self,
        data: GameData,
        defn: Definition,
        link: Definition | None,
        prefix: tuple[str, ...],
        group: Option | None,
        parent: Option | None,
    ):
        self.data = data
        self.defn = defn
        self.link = link
        self.prefix = prefix
        self.key = "::".join((*prefix, defn.id))
        self.base_id = defn.id
        self.group = group
        self.parent = parent
        self._children: list[Option] | None = None
        #: (ids, shared ids) a query counts a selection of this option under (`index.static_ids`).
        self._static_ids: tuple[frozenset[str], frozenset[str]] | None = None
        defs = [defn] if link is None else [defn, link]
        # The three sequences are read only, and most are empty: an empty one is the shared
        # `()`, not a list of its own. Options are made as the rosters reach them, after the
        # faction's data was set aside from full collections, so each of their objects is one
        # more that every full collection of the server process walks.
        constraints = [c for d in defs for c in d.constraints]
        if link is not None and link.constraints and defn.constraints:
            modified = {m.field for d in defs for m in d.modifiers}
            constraints = merged_constraints(defn.constraints, link.constraints, modified)
        self.constraints = constraints or ()
        self.modifiers = [m for d in defs for m in d.modifiers] or ()
        costs = dict(defn.costs)
        if link is not None:
            costs.update(link.costs)
        self.costs = costs
        category_links = [c for d in defs for c in d.category_links]
        if group is not None:
            # An entry inside a group carries the group's categories too (BattleScribe's
            # selection of a grouped entry lists them).
            own = {c.target_id for c in category_links}
            category_links += [c for c in group.category_links if c.target_id not in own]
        self.category_links = category_links or ()
        #: The categories of a selection of this option when no modifier changes them (None
        #: when one may): what `Selection.has_category` answers without the evaluation cache.
        self.static_categories = (
            None
            if any(m.field == "category" for m in self.modifiers)
            else tuple((c.target_id, c.primary) for c in self.category_links)
        )
        #: The categories a modifier of this option may give a selection (`add`, `set-primary`):
        #: a scan for a category looks only at the selections that hold it or may be given it
        #: (`index.SelectionIndex.lookup`), so it never evaluates the category modifiers of a
        #: selection that cannot match.
        self.category_adds = frozenset(
            m.value for m in self.modifiers if m.field == "category" and m.type in CATEGORY_ADDS
        )
        self.hidden = any(d.hidden for d in defs)
        self.collective = any(d.collective for d in defs)
        self.name = defn.name or (link.name if link else "")
        self.type = defn.type

    @property
    def is_group(self) -> bool:
        return self.defn.is_group

    @property
    def ids(self) -> tuple[str, ...]:
        """Every id this option answers to when a constraint or condition names it."""
        if self.link is None:
            return (self.key, self.defn.id)
        return (self.key, self.defn.id, self.link.id)

    def children(self) -> list[Option]:
        """Direct child options (groups appear as group options, not flattened)."""
        if self._children is None:
            out: list[Option] = []
            defs = list(self.defn.children)
            if self.link is not None:
                defs.extend(self.link.children)
            inner_group = self if self.is_group else None
            for d in defs:
                out.extend(make_options(self.data, d, self, self.prefix, inner_group))
            self._children = out
        return self._children

    def selectable(self) -> list[Option]:
        """Entries (not groups) reachable as children, looking through groups."""
        out = []
        for child in self.children():
            if child.is_group:
                out.extend(child.selectable())
            else:
                out.append(child)
        return out

    def __repr__(self) -> str:
        return f"Option({self.key})"


def make_options(
    data: GameData, d: Definition, parent: Option | None, prefix: tuple[str, ...], group: Option | None
) -> list[Option]:
    if d.kind == "entryLink":
        target = data.resolve(d.target_id)
        if target is None:
            return []
        return [Option(data, target, d, (*prefix, d.id), group, parent)]
    return [Option(data, d, None, prefix, group, parent)]
