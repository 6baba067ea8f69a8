"""The model of a BattleScribe game system (.gst) or catalogue (.cat), read from its XML.

Only what an import uses is modelled: cost, profile and category types; selection entries,
entry groups and entry links with their costs, constraints, modifiers, profiles, rules,
info links and category links; shared entries, profiles and rules; catalogue links.
Each element keeps its XML path (`path`) so warnings and errors can point at it.

Costs, constraints, modifiers and profiles are read by the roster engine's model from the
engine's dict of the element (`engine.xmlform.element_to_dict`, `engine.model.parse_*`): one
reader of those for an import and a roster (issue 39).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from xml.etree.ElementTree import Element

from rules.battlescribe.engine.model import (
    Constraint,
    Modifier,
    Profile,
    parse_constraints,
    parse_costs,
    parse_modifiers,
    parse_profile,
)
from rules.battlescribe.engine.xmlform import element_to_dict
from rules.battlescribe.xml_reader import BattleScribeError, SourceFile, local_name, parse

GAME_SYSTEM, CATALOGUE, ROSTER = "gameSystem", "catalogue", "roster"
#: The cost type BattleScribe 2 gives the built-in points of a 1.x game system (id, name).
LEGACY_POINTS_ID, LEGACY_POINTS_NAME = "points", "pts"


def exact(value: float) -> Fraction:
    """A number the engine read as a float, as the exact number the data wrote (7.5, 0.1)."""
    return Fraction(value).limit_denominator(1_000_000)


def shown(value: float) -> str:
    """A number of the engine's model as the data's notes show it ("3", "2.5")."""
    return str(exact(value))


def number(text: str | None, default: Fraction = Fraction(0)) -> Fraction:
    """A BattleScribe number ("15.0", "-1", "7.5") as an exact Fraction."""
    if text is None or text.strip() == "":
        return default
    try:
        return Fraction(text.strip())
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"{text!r} is not a number") from None


@dataclass
class Rule:
    id: str
    name: str
    description: str
    hidden: bool = False


@dataclass
class InfoLink:
    id: str
    name: str
    target_id: str
    type: str


@dataclass(eq=False)
class Entry:
    """A selection entry, an entry group or an entry link (`kind`), with its children.

    Entries compare by identity: one written element is one entry, and a comparison by value
    would walk whole subtrees."""

    kind: str  # selectionEntry | selectionEntryGroup | entryLink
    id: str
    name: str
    path: str
    type: str = ""  # unit | model | upgrade (entries); selectionEntry | selectionEntryGroup (links)
    hidden: bool = False
    target_id: str = ""
    costs: dict[str, Fraction] = field(default_factory=dict)
    constraints: list[Constraint] = field(default_factory=list)
    modifiers: list[Modifier] = field(default_factory=list)
    profiles: list[Profile] = field(default_factory=list)
    rules: list[Rule] = field(default_factory=list)
    info_links: list[InfoLink] = field(default_factory=list)
    categories: list[tuple[str, bool]] = field(default_factory=list)  # (category id, primary)
    children: list[Entry] = field(default_factory=list)
    #: `import="false"`: a root entry of a catalogue another links with `importRootEntries`
    #: that stays in its own catalogue (BattleScribe does not offer it in the linking one).
    imported: bool = True


@dataclass
class Document:
    """One .gst or .cat file."""

    kind: str
    id: str
    name: str
    revision: str
    file: str
    game_system_id: str = ""
    #: The game system revision a catalogue was written for (`gameSystemRevision`).
    game_system_revision: str = ""
    library: bool = False
    cost_types: dict[str, str] = field(default_factory=dict)
    profile_types: dict[str, tuple[str, list[str]]] = field(default_factory=dict)
    categories: dict[str, str] = field(default_factory=dict)
    entries: list[Entry] = field(default_factory=list)  # root selection entries and entry links
    shared_entries: list[Entry] = field(default_factory=list)
    shared_profiles: list[Profile] = field(default_factory=list)
    shared_rules: list[Rule] = field(default_factory=list)
    catalogue_links: list[str] = field(default_factory=list)
    #: The linked catalogues whose root entries this one offers (`importRootEntries="true"`).
    root_imports: list[str] = field(default_factory=list)
    #: (id, name) of the forces (detachments) a roster can hold, e.g. "Warhammer Fantasy 7th Edition"
    force_entries: list[tuple[str, str]] = field(default_factory=list)


def _children(element: Element, name: str) -> list[Element]:
    """The elements of the `name` list under `element` (e.g. `selectionEntries/selectionEntry`)."""
    for child in element:
        if local_name(child.tag) == name:
            return list(child)
    return []


def _text(element: Element, name: str) -> str:
    for child in element:
        if local_name(child.tag) == name:
            return (child.text or "").strip()
    return ""


def _flag(element: Element, name: str) -> bool:
    return element.get(name, "false").lower() == "true"


class _Reader:
    def __init__(self, file: str):
        self.file = file

    def fail(self, path: str, message: str) -> BattleScribeError:
        where = path if path.startswith(f"{self.file}: ") else f"{self.file}: {path}"
        return BattleScribeError([f"{where}: {message}"])

    def num(self, element: Element, attribute: str, path: str, default: Fraction = Fraction(0)) -> Fraction:
        try:
            return number(element.get(attribute), default)
        except ValueError as exc:
            raise self.fail(f"{path}@{attribute}", str(exc)) from None

    def rule(self, element: Element) -> Rule:
        return Rule(
            id=element.get("id", ""),
            name=element.get("name", ""),
            description=_text(element, "description"),
            hidden=_flag(element, "hidden"),
        )

    def modifiers(self, element: Element, path: str) -> list[Modifier]:
        """The element's modifiers and those of its `modifierGroups`, read by the roster engine's
        model (`engine.model.parse_modifiers`): a group's conditions guard each modifier it holds
        and its repeats join theirs. A number that is not one is refused here, naming where."""
        raw: dict = {}
        for child in element:
            name = local_name(child.tag)
            if name in ("modifiers", "modifierGroups"):
                for query in child.iter():
                    if local_name(query.tag) in ("condition", "repeat"):
                        self.num(query, "value", f"{path}/modifier/{local_name(query.tag)}")
                raw[name] = [element_to_dict(m) for m in child]
        return parse_modifiers(raw) if raw else []

    def entry(self, element: Element, parent_path: str) -> Entry:
        kind = local_name(element.tag)
        name = element.get("name", "")
        path = f"{parent_path}/{kind}[@name={name!r}]"
        entry = Entry(
            kind=kind,
            id=element.get("id", ""),
            name=name,
            path=path,
            type=element.get("type", ""),
            hidden=_flag(element, "hidden"),
            target_id=element.get("targetId", ""),
            imported=element.get("import", "true").lower() != "false",
        )
        if not entry.id:
            raise self.fail(path, "the element has no id")
        if kind == "entryLink" and not entry.target_id:
            raise self.fail(path, "the entry link has no targetId")
        raw = {
            name: [element_to_dict(c) for c in _children(element, name)] for name in ("costs", "constraints")
        }
        for cost in _children(element, "costs"):
            self.num(cost, "value", f"{path}/cost")
        for c in _children(element, "constraints"):
            self.num(c, "value", f"{path}/constraint")
        entry.costs = {type_id: exact(value) for type_id, value in parse_costs(raw).items()}
        entry.constraints = parse_constraints(raw, entry.id)
        entry.modifiers = self.modifiers(element, path)
        entry.profiles = [parse_profile(element_to_dict(p)) for p in _children(element, "profiles")]
        entry.rules = [self.rule(r) for r in _children(element, "rules")]
        entry.info_links = [
            InfoLink(l.get("id", ""), l.get("name", ""), l.get("targetId", ""), l.get("type", ""))
            for l in _children(element, "infoLinks")  # noqa: E741
        ]
        entry.categories = [
            (c.get("targetId", ""), _flag(c, "primary")) for c in _children(element, "categoryLinks")
        ]
        for list_name in ("selectionEntries", "selectionEntryGroups", "entryLinks"):
            entry.children += [self.entry(child, path) for child in _children(element, list_name)]
        return entry

    def document(self, root: Element) -> Document:
        kind = local_name(root.tag)
        if kind not in (GAME_SYSTEM, CATALOGUE):
            raise self.fail(
                kind,
                "not a BattleScribe game system or catalogue (its root element is "
                f"<{kind}>, expected <gameSystem> or <catalogue>)",
            )
        version = root.get("battleScribeVersion", "")
        if version.split(".")[0] in ("0", "1") and _children(root, "entries"):
            # BSData/whfb still holds a few such files ("Wood Elves - 8thBRB_6thAB.cat", 1.15):
            # `<entries>`/`<entry points=...>` instead of `selectionEntries` and costs.
            raise self.fail(
                kind,
                f"written for BattleScribe {version} (the 1.x file format, with <entries> and "
                "points attributes), which this importer does not read; open it in a current "
                "BattleScribe data editor and save it in the 2.x format",
            )
        doc = Document(
            kind=kind,
            id=root.get("id", ""),
            name=root.get("name", ""),
            revision=root.get("revision", ""),
            file=self.file,
            game_system_id=root.get("gameSystemId", root.get("id", "") if kind == GAME_SYSTEM else ""),
            game_system_revision=root.get(
                "gameSystemRevision", root.get("revision", "") if kind == GAME_SYSTEM else ""
            ),
            library=_flag(root, "library"),
        )
        if not doc.id or not doc.name:
            raise self.fail(kind, "the root element needs an id and a name")
        if kind == CATALOGUE and not doc.game_system_id:
            raise self.fail(kind, "the catalogue does not name its game system (gameSystemId)")
        doc.cost_types = {c.get("id", ""): c.get("name", "") for c in _children(root, "costTypes")}
        if kind == GAME_SYSTEM and not doc.cost_types and version.split(".")[0] in ("0", "1"):
            # A 1.x game system declares no cost types: points were built in. BattleScribe 2
            # reads it with its points as the cost type "points" named "pts", the one the 2.x
            # catalogues of it price in (BSData/whfb's "Warhammer Fantasy 8th ed.gst", 1.15,
            # and every 8thBRB army book); without it every unit of them imported at 0 points.
            doc.cost_types = {LEGACY_POINTS_ID: LEGACY_POINTS_NAME}
        for p in _children(root, "profileTypes"):
            doc.profile_types[p.get("id", "")] = (
                p.get("name", ""),
                [c.get("name", "") for c in _children(p, "characteristicTypes")],
            )
        doc.categories = {c.get("id", ""): c.get("name", "") for c in _children(root, "categoryEntries")}
        if kind == GAME_SYSTEM and version.split(".")[0] in ("0", "1"):
            # A 1.x game system declares its categories inside its force types (Lords, Core, …):
            # the 2.x catalogues of it link their units to them by id.
            for force in _children(root, "forceTypes"):
                for category in _children(force, "categories"):
                    doc.categories.setdefault(category.get("id", ""), category.get("name", ""))
        links = _children(root, "catalogueLinks")
        doc.catalogue_links = [link.get("targetId", "") for link in links]
        doc.root_imports = [link.get("targetId", "") for link in links if _flag(link, "importRootEntries")]
        doc.force_entries = [(f.get("id", ""), f.get("name", "")) for f in _children(root, "forceEntries")]
        if kind == GAME_SYSTEM and not doc.force_entries and version.split(".")[0] in ("0", "1"):
            # its forces are its force types, read as force entries of the same id (`engine.legacy`)
            doc.force_entries = [(f.get("id", ""), f.get("name", "")) for f in _children(root, "forceTypes")]
        for list_name in ("selectionEntries", "entryLinks"):
            doc.entries += [self.entry(e, f"{self.file}: {kind}") for e in _children(root, list_name)]
        for list_name in ("sharedSelectionEntries", "sharedSelectionEntryGroups"):
            doc.shared_entries += [
                self.entry(e, f"{self.file}: {kind}/{list_name}") for e in _children(root, list_name)
            ]
        doc.shared_profiles = [parse_profile(element_to_dict(p)) for p in _children(root, "sharedProfiles")]
        doc.shared_rules = [self.rule(r) for r in _children(root, "sharedRules")]
        return doc


def read_document(source: SourceFile, text: bytes | None = None) -> Document:
    """Parse one .gst/.gstz/.cat/.catz file (`text`: its XML, already unzipped);
    `BattleScribeError` names the file and element."""
    return document_from_root(source, parse(source, text))


def document_from_root(source: SourceFile, root: Element) -> Document:
    """The document of a file already parsed (`xml_reader.parse`), for a caller that reads the
    same XML tree for something else too and should not parse it twice."""
    return _Reader(source.name).document(root)
