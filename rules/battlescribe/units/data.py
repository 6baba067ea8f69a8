"""What the catalogue import reads of the engine's model (`engine.model.GameData`): the one model
of BattleScribe data, shared with the roster import and export and lists.

An entry of a unit is an engine `Option`: a definition reached through zero or more entry links,
whose constraints, modifiers, costs and categories are the link's and its target's as the
engine merges them. `ImportData` answers what the importer asks of an option beyond that: its
name as the data's menus show it (the link's), its ids (the link's and its target's), where it
is written (a warning's path: `file: catalogue/sharedSelectionEntries/selectionEntry[@name='X']`),
its profiles (read once), rules and info links (the target's, then the link's), its categories, its child
options (a link to nothing refused, naming the link), and each catalogue's root entries
(BattleScribe's "add unit" menu). `Node` is one selection of a unit's smallest selection, over
the engine's option.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from rules.battlescribe.catalogue import CATALOGUE, GAME_SYSTEM, Document, document_from_root, exact
from rules.battlescribe.engine.model import (
    Definition,
    GameData,
    Option,
    Profile,
    make_options,
    parse_profile,
)
from rules.battlescribe.engine.xmlform import element_to_dict
from rules.battlescribe.xml_reader import BattleScribeError, SourceFile, parse

GROUP = "selectionEntryGroup"
#: The lists a file's top-level shared definitions are written in, by kind.
_SHARED_LISTS = {
    "selectionEntry": "sharedSelectionEntries",
    "selectionEntryGroup": "sharedSelectionEntryGroups",
}


def hidden(raw: dict) -> bool:
    """Whether a rule, profile or info link of the engine's dict shape is written hidden."""
    value = raw.get("hidden", "")
    return value if isinstance(value, bool) else str(value).strip().lower() == "true"


class ImportData:
    """The engine's model of one import, with the files' headers (`catalogue.Document`)."""

    def __init__(self, documents: Sequence[Document], data: GameData, shapes: Sequence[dict[str, Any]]):
        self.documents = list(documents)
        self.data = data
        systems = [d for d in documents if d.kind == GAME_SYSTEM]
        errors = []
        if len(systems) > 1:
            errors.append(f"{systems[1].file}: gameSystem: only one game system per import")
        #: The game system's header (None: none uploaded).
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
        #: {cost type id: name}, the game system's first.
        self.cost_types: dict[str, str] = {c.id: c.name for c in data.cost_types}
        #: {category id: name}.
        self.categories: dict[str, str] = {cid: d.name for cid, d in data.categories.items()}
        #: {profile type id: (name, characteristic names)} of every file (a catalogue may add its
        #: own variants of the system's: wh40k-9e Titan Legions' "Unit (Titan)").
        self.profile_types: dict[str, tuple[str, list[str]]] = {}
        for shape in shapes:
            for p in shape.get("profileTypes") or []:
                self.profile_types[str(p.get("id", ""))] = (
                    str(p.get("name", "") or ""),
                    [str(c.get("name", "") or "") for c in p.get("characteristicTypes") or []],
                )
        self._files = {self._file_id(d): d for d in documents}
        #: What `profiles_of` read of an entry and its link, by their ids (the definitions live
        #: as long as this import's model).
        self._read: dict[tuple[str, int, int], list] = {}
        #: {id(profile dict): (it, its `Profile`)}, each profile parsed once.
        self._parsed: dict[int, tuple[dict, Profile]] = {}
        #: {id(definition): where it is written}, for warnings.
        self._paths: dict[int, str] = {}
        self._index_paths()
        #: Profiles and rules an info link can name, by id: the files' shared ones, then any
        #: entry's own (the first written wins).
        #: Each is read (`linked_profile`) only when an info link names it.
        self.profiles: dict[str, dict] = {}
        self.rules: dict[str, dict] = {}
        for shape in shapes:
            for raw in shape.get("sharedProfiles") or []:
                self.profiles[str(raw.get("id", ""))] = raw
            for raw in shape.get("sharedRules") or []:
                self.rules[str(raw.get("id", ""))] = raw
        for d in data.every_definition():
            for raw in d.profiles:
                self.profiles.setdefault(str(raw.get("id", "")), raw)
            for raw in d.rules:
                self.rules.setdefault(str(raw.get("id", "")), raw)

    def linked_profile(self, target_id: str) -> Profile | None:
        """The profile an info link names (None: none of the files holds it)."""
        raw = self.profiles.get(target_id)
        return None if raw is None else self._profile(raw)

    def _profile(self, raw: dict) -> Profile:
        """`raw` read once (`engine.model.parse_profile`)."""
        known = self._parsed.get(id(raw))
        if known is None or known[0] is not raw:
            known = self._parsed[id(raw)] = (raw, parse_profile(raw))
        return known[1]

    def _file_id(self, doc: Document) -> str:
        """The id the engine's model files `doc`'s definitions under (`Definition.catalogue_id`)."""
        return (self.data.id or "gs") if doc.kind == GAME_SYSTEM else doc.id

    # -- where a definition is written ----------------------------------------------------------
    def _index_paths(self) -> None:
        def walk(defs: list[Definition], parent: str) -> None:
            for d in defs:
                path = f"{parent}/{d.kind}[@name={d.name!r}]"
                if self._paths.setdefault(id(d), path) is path:
                    walk(d.children, path)

        containers = [(self.data.id or "gs", self.data.game_system)]
        containers += [(cid, c) for cid, c in self.data.catalogues.items()]
        for file_id, container in containers:
            doc = self._files.get(file_id)
            if doc is not None:
                walk(container.root, f"{doc.file}: {doc.kind}")
        nested = {id(c) for d in self.data.shared.values() for c in d.children}
        for d in self.data.shared.values():
            doc = self._files.get(d.catalogue_id)
            if id(d) not in nested and doc is not None:
                walk([d], f"{doc.file}: {doc.kind}/{_SHARED_LISTS.get(d.kind, d.kind)}")

    def written(self, d: Definition) -> str:
        """Where definition `d` is written (`file: catalogue/.../selectionEntry[@name='X']`)."""
        found = self._paths.get(id(d))
        if found is None:
            doc = self._files.get(d.catalogue_id)
            found = f"{doc.file if doc else d.catalogue_id}: {d.kind}[@name={d.name!r}]"
        return found

    def path(self, option: Option) -> str:
        """Where `option` is written: its link's place, else its entry's."""
        return self.written(option.link if option.link is not None else option.defn)

    # -- an option as the importer reads it -------------------------------------------------------
    @staticmethod
    def name(option: Option) -> str:
        """The option's name as the data's menus show it: the link's, else its entry's."""
        if option.link is not None and option.link.name:
            return option.link.name
        return option.defn.name

    @staticmethod
    def entry_id(option: Option) -> str:
        """The id written where the option is: its link's, else its entry's."""
        return option.link.id if option.link is not None else option.defn.id

    @staticmethod
    def target_id(option: Option) -> str:
        """The entry a link points at ("" for an entry of its own)."""
        return option.defn.id if option.link is not None else ""

    @staticmethod
    def unit_id(option: Option) -> str:
        """The id a unit or option imported from `option` is known by (saved lists keep it):
        the linked entry's, else the entry's own."""
        return option.defn.id

    @staticmethod
    def costs(option: Option) -> dict[str, Fraction]:
        return {type_id: exact(value) for type_id, value in option.costs.items()}

    @staticmethod
    def _defs(option: Option) -> tuple[Definition, ...]:
        return (option.defn,) if option.link is None else (option.defn, option.link)

    def profiles_of(self, option: Option) -> list[Profile]:
        """The profiles written on the entry and on its link (read once per entry and link)."""
        key = ("profiles", id(option.defn), id(option.link))
        found = self._read.get(key)
        if found is None:
            found = self._read[key] = [self._profile(raw) for d in self._defs(option) for raw in d.profiles]
        return found

    def own_rules(self, option: Option) -> list[dict]:
        """The rules written on the entry and on its link (the engine's dict shape: `name`,
        `description`, `hidden`)."""
        return [raw for d in self._defs(option) for raw in d.rules]

    def info_links(self, option: Option) -> list[dict]:
        """The info links written on the entry and on its link (`name`, `targetId`, `type`)."""
        return [raw for d in self._defs(option) for raw in d.info_links]

    def categories_of(self, option: Option) -> list[tuple[str, bool]]:
        """(category id, primary) of the entry's and its link's category links."""
        return [(c.target_id, c.primary) for d in self._defs(option) for c in d.category_links]

    @staticmethod
    def has_children(option: Option) -> bool:
        """Whether anything is written under the entry or its link."""
        return bool(option.defn.children) or (option.link is not None and bool(option.link.children))

    def children(self, option: Option) -> list[Option]:
        """The options written under `option` (groups as groups), in the data's order. A link
        among them to an entry none of the files holds is refused, naming the link: the engine
        leaves it out, and a unit is not imported without a part of it."""
        found = option.children()
        written = len(option.defn.children) + (len(option.link.children) if option.link is not None else 0)
        if len(found) != written:
            for d in self._defs(option):
                for child in d.children:
                    if child.kind == "entryLink" and self.data.resolve(child.target_id) is None:
                        raise self.dangling(child)
        return found

    def dangling(self, link: Definition) -> BattleScribeError:
        return BattleScribeError(
            [f"{self.written(link)}: the link's target {link.target_id!r} is in none of the uploaded files"]
        )

    def members(self, option: Option) -> list[Option]:
        """The options selectable under `option`, through its groups, in the data's order."""
        out: list[Option] = []
        for child in self.children(option):
            out += self.members(child) if child.is_group else [child]
        return out

    # -- a catalogue's units ----------------------------------------------------------------------
    def root_entries(self, doc: Document) -> Iterator[tuple[Definition, Option | None]]:
        """(written definition, its option; None: a link to nothing) of each entry a player picks
        from in `doc`: its own roots, then those of the catalogues it links with
        `importRootEntries` (and they link so, in turn), those marked `import="false"` left in
        their own catalogue (Inquisition's "Acolytes" are not offered in Adeptus Astra
        Telepathica), as in BattleScribe. A link without it only lends its shared entries
        (Ultramarines' link to Space Marines). The options are those of the engine's force of
        `doc` (`GameData.root_options`), so a unit's roster selects that very option."""
        data = self.data
        file_id = self._file_id(doc)
        own = data.game_system if doc.kind == GAME_SYSTEM else data.catalogues.get(file_id)
        if own is None:
            return
        roots = [d for d in own.root if d.kind != GROUP]
        seen, todo = {file_id}, list(own.import_root_from)
        while todo:
            target = todo.pop(0)
            if target in seen or target not in data.catalogues:
                continue
            seen.add(target)
            known = {id(d) for d in roots}
            roots += [
                d
                for d in data.catalogues[target].root
                if d.kind != GROUP and d.imported and id(d) not in known
            ]
            todo += data.catalogues[target].import_root_from
        options = {id(o.link if o.link is not None else o.defn): o for o in data.root_options(file_id)}
        for d in roots:
            option = options.get(id(d))
            if option is None:
                made = make_options(data, d, None, (), None)
                option = made[0] if made else None
            yield d, option


def read_files(sources: Sequence[SourceFile]) -> ImportData:
    """The files of one import read into the engine's model, each parsed once (for a caller
    that has only the files: `battlescribe_import.parse_import` reads them with its bounds)."""
    documents, shapes = [], []
    for source in sources:
        root = parse(source)
        documents.append(document_from_root(source, root))
        shapes.append(element_to_dict(root))
    systems = [s for s, d in zip(shapes, documents, strict=True) if d.kind == GAME_SYSTEM]
    catalogues = [s for s, d in zip(shapes, documents, strict=True) if d.kind != GAME_SYSTEM]
    return ImportData(documents, GameData(systems[0] if systems else {}, catalogues), shapes)


@dataclass(eq=False)
class Node:
    """One selection: `entry` (an engine option) taken `count` times under `parent` (per parent
    selection).

    Nodes compare by identity (`eq=False`): two selections of the same entry are different
    selections, and comparing by value would walk both whole trees (a RecursionError on the
    deep trees of real catalogues, where parents point back at their children).
    """

    entry: Option
    count: int
    parent: Node | None = None
    children: list[Node] = field(default_factory=list)

    def walk(self) -> Iterator[Node]:
        yield self
        for child in self.children:
            yield from child.walk()
