"""The header of a BattleScribe game system (.gst) or catalogue (.cat), and the checks its XML
must pass before the engine's model reads it.

The data itself has one model: the roster engine's (`engine.model.GameData`, read from the
engine's dict shape of the XML, `engine.xmlform.element_to_dict`), used by the catalogue import,
the roster import and export and lists alike. What is read here is file metadata the import
needs before and beside that model, from the same parsed XML root: which file it is (kind, id,
name, revision, file name), the game system and revision it was written for, whether it is a
library, the catalogues it links, and how many entries it holds (an import's bound). Reading it
also refuses what the engine's model would read silently wrong: an entry without an id, a link
without a target, a cost, limit, condition or repeat value that is no number (the engine reads
each as 0), each naming the file and the element. A 1.x catalogue (`<entries>`) is read by the engine's
model as BattleScribe 2 converts it (`engine.legacy_catalogue`); its entries are checked here
alike (`_LegacyChecker`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from xml.etree.ElementTree import Element

from rules.battlescribe.xml_reader import BattleScribeError, SourceFile, local_name, parse

GAME_SYSTEM, CATALOGUE, ROSTER = "gameSystem", "catalogue", "roster"
#: A number as the files almost always write one (`number` reads these and more).
_PLAIN_NUMBER = re.compile(r"\s*[-+]?\d+(\.\d*)?\s*\Z")
#: The element lists that hold entries, groups and links under an entry (and at a file's root).
ENTRY_LISTS = ("selectionEntries", "selectionEntryGroups", "entryLinks")


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
class Document:
    """The header of one .gst or .cat file (what it is; its entries are the engine's model's)."""

    kind: str
    id: str
    name: str
    revision: str
    file: str
    game_system_id: str = ""
    #: The game system revision a catalogue was written for (`gameSystemRevision`).
    game_system_revision: str = ""
    library: bool = False
    catalogue_links: list[str] = field(default_factory=list)
    #: Root selection entries and entry links written in the file (not those it imports).
    root_entries: int = 0
    #: Every selection entry, entry group and entry link of the file, shared and nested ones
    #: included (`battlescribe_import.MAX_IMPORT_ENTRIES` bounds their sum over an import).
    entry_count: int = 0


def _children(element: Element, name: str) -> list[Element]:
    """The elements of the `name` list under `element` (e.g. `selectionEntries/selectionEntry`)."""
    for child in element:
        if local_name(child.tag) == name:
            return list(child)
    return []


def _flag(element: Element, name: str) -> bool:
    return element.get(name, "false").lower() == "true"


def is_legacy_catalogue(root: Element) -> bool:
    """Whether the file is in the BattleScribe 1.x catalogue format (`<entries>`/`<entry
    points=...>` instead of `selectionEntries` and costs): BSData/whfb still holds nine 8th-edition
    army books so ("Wood Elves - 8thBRB_6thAB.cat", 1.15). The engine's model reads them as
    BattleScribe 2 converts them (`engine.legacy_catalogue`); here only their header is read and
    their entries counted and checked (`_LegacyChecker`)."""
    version = root.get("battleScribeVersion", "")
    return version.split(".")[0] in ("0", "1") and bool(_children(root, "entries"))


class _Checker:
    """Walks a file's entries as the import reads them: counts them and refuses what cannot be
    read, naming the element by its path (`catalogue/selectionEntry[@name='Bad']/cost@value`)."""

    def __init__(self, file: str):
        self.file = file
        self.count = 0

    def fail(self, path: str, message: str) -> BattleScribeError:
        where = path if path.startswith(f"{self.file}: ") else f"{self.file}: {path}"
        return BattleScribeError([f"{where}: {message}"])

    def num(self, element: Element, attribute: str, path: str) -> None:
        text = element.get(attribute)
        if text is None or _PLAIN_NUMBER.match(text):  # most values: "15.0", "-1", "0"
            return
        try:
            number(text)
        except ValueError as exc:
            raise self.fail(f"{path}@{attribute}", str(exc)) from None

    def entry(self, element: Element, parent_path: str) -> None:
        self.count += 1
        kind = local_name(element.tag)
        path = f"{parent_path}/{kind}[@name={element.get('name', '')!r}]"
        if not element.get("id", ""):
            raise self.fail(path, "the element has no id")
        if kind == "entryLink" and not element.get("targetId", ""):
            raise self.fail(path, "the entry link has no targetId")
        # The element's lists by name, each name read once (what `_children` finds first).
        lists: dict[str, Element] = {}
        for child in element:
            lists.setdefault(local_name(child.tag), child)
        for cost in lists.get("costs", ()):
            self.num(cost, "value", f"{path}/cost")
        for constraint in lists.get("constraints", ()):
            self.num(constraint, "value", f"{path}/constraint")
        for child in element:
            if local_name(child.tag) in ("modifiers", "modifierGroups"):
                for query in child.iter():
                    name = local_name(query.tag)
                    if name in ("condition", "repeat"):
                        self.num(query, "value", f"{path}/modifier/{name}")
        for list_name in ENTRY_LISTS:
            for child in lists.get(list_name, ()):
                self.entry(child, path)


#: A 1.x entry's numeric attributes: its points and its limits (`engine.legacy_catalogue`).
_LEGACY_NUMBERS = ("points", "minSelections", "maxSelections", "minInForce", "maxInForce",
                   "minInRoster", "maxInRoster", "minPoints", "maxPoints")
#: The element lists of a 1.x file that hold entries, groups and links.
LEGACY_ENTRY_LISTS = ("entries", "entryGroups", "links")


class _LegacyChecker(_Checker):
    """`_Checker` for a 1.x catalogue: its entries, groups and links counted (an import's bound)
    and refused, naming the element, where a price, limit or modifier value is no number (the
    conversion would read it as 0 or as no limit)."""

    def entry(self, element: Element, parent_path: str) -> None:
        self.count += 1
        kind = local_name(element.tag)
        path = f"{parent_path}/{kind}[@name={element.get('name', '')!r}]"
        if not element.get("id", ""):
            raise self.fail(path, "the element has no id")
        for attribute in _LEGACY_NUMBERS:
            self.num(element, attribute, path)
        for child in element:
            if local_name(child.tag) == "modifiers":
                for query in child.iter():
                    name = local_name(query.tag)
                    if name in ("modifier", "condition"):
                        self.num(query, "value" if name == "condition" else "incrementValue",
                                 f"{path}/modifier/{name}")
        for list_name in LEGACY_ENTRY_LISTS:
            for child in _children(element, list_name):
                self.entry(child, path)


def document_from_root(source: SourceFile, root: Element) -> Document:
    """The header of a file already parsed (`xml_reader.parse`), its entries checked; the caller
    reads the same tree into the engine's dict shape, so the file is parsed once.
    `BattleScribeError` names the file and element."""
    file = source.name
    kind = local_name(root.tag)
    if kind not in (GAME_SYSTEM, CATALOGUE):
        raise BattleScribeError(
            [
                f"{file}: {kind}: not a BattleScribe game system or catalogue (its root element is "
                f"<{kind}>, expected <gameSystem> or <catalogue>)"
            ]
        )
    doc = Document(
        kind=kind,
        id=root.get("id", ""),
        name=root.get("name", ""),
        revision=root.get("revision", ""),
        file=file,
        game_system_id=root.get("gameSystemId", root.get("id", "") if kind == GAME_SYSTEM else ""),
        game_system_revision=root.get(
            "gameSystemRevision", root.get("revision", "") if kind == GAME_SYSTEM else ""
        ),
        library=_flag(root, "library"),
    )
    if not doc.id or not doc.name:
        raise BattleScribeError([f"{file}: {kind}: the root element needs an id and a name"])
    if kind == CATALOGUE and not doc.game_system_id:
        raise BattleScribeError(
            [f"{file}: {kind}: the catalogue does not name its game system (gameSystemId)"]
        )
    doc.catalogue_links = [link.get("targetId", "") for link in _children(root, "catalogueLinks")]
    legacy = is_legacy_catalogue(root)
    checker = _LegacyChecker(file) if legacy else _Checker(file)
    roots, shared = (
        (("entries", "links"), ("sharedEntries", "sharedEntryGroups"))
        if legacy
        else (("selectionEntries", "entryLinks"), ("sharedSelectionEntries", "sharedSelectionEntryGroups"))
    )
    for list_name in roots:
        for element in _children(root, list_name):
            checker.entry(element, f"{file}: {kind}")
    doc.root_entries = checker.count
    for list_name in shared:
        for element in _children(root, list_name):
            checker.entry(element, f"{file}: {kind}/{list_name}")
    doc.entry_count = checker.count
    return doc


def read_document(source: SourceFile, text: bytes | None = None) -> Document:
    """The header of one .gst/.gstz/.cat/.catz file (`text`: its XML, already unzipped), its
    entries checked (`document_from_root`)."""
    return document_from_root(source, parse(source, text))
