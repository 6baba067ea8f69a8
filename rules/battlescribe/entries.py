"""Resolving entries across files: the id index, entry links, and a unit's selection tree.

BattleScribe data is spread over a game system and catalogues that link to each other's
shared entries (`entryLink targetId=...`) and to whole other catalogues (`catalogueLink`).
`Index` holds every document of one import and resolves a link into the entry it points at,
with the link's own costs, constraints, modifiers and categories layered on top (as
BattleScribe does). `Node` is one selection in a unit's tree: an entry taken `count` times
under its parent.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from rules.battlescribe.catalogue import (
    CATALOGUE,
    GAME_SYSTEM,
    Document,
    Entry,
    Rule,
)
from rules.battlescribe.engine.model import Profile, merged_constraints
from rules.battlescribe.xml_reader import BattleScribeError

#: Deepest nesting of links followed (guards against cycles of links).
MAX_LINK_DEPTH = 24
GROUP, LINK = "selectionEntryGroup", "entryLink"


class Index:
    """Every entry, profile, rule and category of one import, by id."""

    def __init__(self, documents: list[Document]):
        self.documents = documents
        systems = [d for d in documents if d.kind == GAME_SYSTEM]
        errors = []
        if len(systems) > 1:
            errors.append(f"{systems[1].file}: gameSystem: only one game system per import")
        self.system = systems[0] if systems else None
        for doc in documents:
            if doc.kind == CATALOGUE and (self.system is None or doc.game_system_id != self.system.id):
                errors.append(
                    f"{doc.file}: catalogue: its game system (gameSystemId {doc.game_system_id!r}) "
                    "is not among the uploaded files; upload its .gst/.gstz too"
                )
        by_id = {d.id: d for d in documents}
        for doc in documents:
            for target in doc.catalogue_links:
                if target not in by_id:
                    errors.append(
                        f"{doc.file}: catalogueLink[@targetId={target!r}]: "
                        "the linked catalogue was not uploaded"
                    )
        if errors:
            raise BattleScribeError(errors)
        self.entries: dict[str, Entry] = {}
        #: {id(link entry): its merged entry}; the documents keep every link alive.
        self._resolved: dict[int, Entry] = {}
        self.profiles: dict[str, Profile] = {}
        self.rules: dict[str, Rule] = {}
        self.categories: dict[str, str] = {}
        self.cost_types: dict[str, str] = {}
        self.profile_types: dict[str, tuple[str, list[str]]] = {}
        for doc in documents:
            self.categories.update(doc.categories)
            self.cost_types.update(doc.cost_types)
            self.profile_types.update(doc.profile_types)
            for profile in doc.shared_profiles:
                self.profiles[profile.id] = profile
            for rule in doc.shared_rules:
                self.rules[rule.id] = rule
            for entry in doc.shared_entries:
                self._index(entry)
            for entry in doc.entries:
                self._index(entry)

    def _index(self, entry: Entry) -> None:
        if entry.kind != LINK:
            self.entries.setdefault(entry.id, entry)
        for profile in entry.profiles:
            self.profiles.setdefault(profile.id, profile)
        for rule in entry.rules:
            self.rules.setdefault(rule.id, rule)
        for child in entry.children:
            self._index(child)

    def resolve(self, entry: Entry, depth: int = 0) -> Entry:
        """`entry` with its link followed: the target's content plus the link's own additions."""
        if entry.kind != LINK:
            return entry
        known = self._resolved.get(id(entry))
        if known is not None:  # one link, one merged entry: links are followed many times
            return known
        if depth > MAX_LINK_DEPTH:
            raise BattleScribeError([f"{entry.path}: links nest deeper than {MAX_LINK_DEPTH} (a cycle?)"])
        target = self.entries.get(entry.target_id)
        if target is None:
            raise BattleScribeError(
                [f"{entry.path}: the link's target {entry.target_id!r} is in none of the uploaded files"]
            )
        target = self.resolve(target, depth + 1)
        merged = copy.copy(target)
        merged.id, merged.name = entry.id, entry.name or target.name
        merged.target_id = target.id
        merged.path = entry.path
        merged.hidden = entry.hidden or target.hidden
        merged.costs = {**target.costs, **entry.costs}
        # A link's limit of a target's type and field replaces the target's value, as the roster
        # engine merges them (`engine.model.merged_constraints`).
        merged.constraints = target.constraints
        if entry.constraints:
            modified = {m.field for m in (*target.modifiers, *entry.modifiers)}
            merged.constraints = (
                merged_constraints(target.constraints, entry.constraints, modified)
                if target.constraints
                else list(entry.constraints)
            )
        merged.modifiers = [*target.modifiers, *entry.modifiers]
        merged.categories = [*target.categories, *entry.categories]
        merged.profiles = [*target.profiles, *entry.profiles]
        merged.rules = [*target.rules, *entry.rules]
        merged.info_links = [*target.info_links, *entry.info_links]
        merged.children = [*target.children, *entry.children]
        self._resolved[id(entry)] = merged
        return merged

    def root_entries(self, doc: Document, resolve: bool = True) -> list[Entry]:
        """The entries a player picks from in `doc`: its own roots and those of the catalogues it
        links with `importRootEntries` (and they link so, in turn); links without it only lend
        their shared entries (Ultramarines' link to Space Marines). With `resolve` false the
        links are returned as they are, for the caller to resolve one by one (one link to
        nothing then leaves out that entry alone, not the whole catalogue)."""
        roots = list(doc.entries)
        by_id = {d.id: d for d in self.documents}
        seen, todo = {doc.id}, list(doc.root_imports)
        while todo:
            target = todo.pop(0)
            if target in seen or target not in by_id:
                continue
            seen.add(target)
            known = {id(e) for e in roots}
            # A linked catalogue's root entries marked import="false" stay in it (Inquisition's
            # "Acolytes" are not offered in Adeptus Astra Telepathica), as in BattleScribe.
            roots += [e for e in by_id[target].entries if id(e) not in known and e.imported]
            todo += by_id[target].root_imports
        return [self.resolve(e) for e in roots] if resolve else roots


@dataclass(eq=False)
class Node:
    """One selection: `entry` taken `count` times under `parent` (per parent selection).

    Nodes compare by identity (`eq=False`): two selections of the same entry are different
    selections, and comparing by value would walk both whole trees (a RecursionError on the
    deep trees of real catalogues, where parents point back at their children).
    """

    entry: Entry
    count: int
    parent: Node | None = None
    children: list[Node] = field(default_factory=list)

    def walk(self):
        yield self
        for child in self.children:
            yield from child.walk()
