"""A roster file — BattleScribe's .ros (zipped: .rosz) or New Recruit's JSON — read and written:
the one reader and the one writer of rosters.

`read_roster_file` (XML, through the hardened reader: no DTDs or entities, size limits) and
`read_roster_json` read a file into a `RosterFile` by one reader (the XML is taken in New
Recruit's shape first), plain data as the file has it: forces, selections with their entry
ids, numbers, own costs, categories, custom names and notes.
`roster_text` writes a `RosterFile` as BattleScribe 2.03 does (element and attribute order,
costs as Java doubles). Between the file and the engine: `load_roster` rebuilds the engine's
roster from a file exactly as it was saved (matched to the data by entry ids, nothing
auto-selected), and `roster_file_of` describes an engine roster as a file (`write_roster`
does both steps). A list of units without BattleScribe data is described as a `RosterFile`
by the list side (`rules.battlescribe.unit_roster`), and an import reads a file's units and
trees from here, whatever wrote it.
"""

from __future__ import annotations

import hashlib
import io
import zipfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any
from xml.etree.ElementTree import Element
from xml.sax.saxutils import escape

from ..catalogue import number as exact_number
from ..mapping import POINTS_COST_TYPES, norm
from ..xml_reader import BattleScribeError, SourceFile, local_name, parse
from .errors import EngineError
from .gamedata_xml import java_double
from .model import GameData, Option
from .roster import Force, Roster, Selection, _flatten

NAMESPACE = "http://www.battlescribe.net/schema/rosterSchema"
BATTLESCRIBE_VERSION = "2.03"
#: The entry id BattleScribe gives a force's category of selections without one.
UNCATEGORISED = "(No Category)"
#: Cost names a roster's points go by, whatever its cost type's id: the one list the importer
#: and the engine read points by (`mapping.POINTS_COST_TYPES`), compared as `mapping.norm` does.
POINTS_NAMES = frozenset(norm(name) for name in POINTS_COST_TYPES)
#: Most selections a roster may hold (a real roster has a few hundred).
MAX_SELECTIONS = 20000
#: Deepest nesting of forces and of selections a roster may have (real rosters nest selections
#: a few deep: unit, model, wargear).
MAX_FORCE_DEPTH, MAX_SELECTION_DEPTH = 10, 30


def stable_id(*parts: str) -> str:
    """A BattleScribe-looking id ("1a2b-3c4d-5e6f-7a8b") derived from `parts`, stable across exports."""
    digest = hashlib.sha1("/".join(parts).encode()).hexdigest()[:16]
    return "-".join(digest[i : i + 4] for i in range(0, 16, 4))


@dataclass
class FileCost:
    name: str
    type_id: str
    #: exact as read from a file; the engine's own figures are floats
    value: Fraction | float


@dataclass
class FileCategory:
    id: str
    name: str
    entry_id: str
    primary: bool = False


@dataclass
class FileSelection:
    """One selection as the file has it; its costs are its own (times its number), not its children's."""

    id: str
    name: str
    entry_id: str
    number: int = 1
    type: str = "upgrade"
    entry_group_id: str = ""
    custom_name: str = ""
    custom_notes: str = ""
    costs: list[FileCost] = field(default_factory=list)
    categories: list[FileCategory] = field(default_factory=list)
    selections: list[FileSelection] = field(default_factory=list)

    def walk(self) -> Iterator[FileSelection]:
        """Every selection under this one, depth first."""
        for child in self.selections:
            yield child
            yield from child.walk()

    def own_points(self) -> Fraction:
        """This selection's own points (a free "Magic Items" container costs 0)."""
        return _points(self.costs)

    @property
    def points(self) -> Fraction:
        """The points of this selection's whole tree (BattleScribe totals the tree)."""
        return self.own_points() + sum((child.points for child in self.selections), Fraction(0))

    def tree(self) -> dict[str, Any]:
        """The selection as a list unit stores it: `{"entry", "number", "children"}`."""
        return {
            "entry": self.entry_id,
            "number": max(self.number, 1),
            "children": [child.tree() for child in self.selections],
        }


@dataclass
class FileForce:
    id: str
    name: str
    entry_id: str
    catalogue_id: str = ""
    catalogue_revision: str = "1"
    catalogue_name: str = ""
    custom_name: str = ""
    custom_notes: str = ""
    selections: list[FileSelection] = field(default_factory=list)
    categories: list[FileCategory] = field(default_factory=list)
    forces: list[FileForce] = field(default_factory=list)

    def walk(self) -> Iterator[FileForce]:
        """This force and every force under it, depth first."""
        yield self
        for child in self.forces:
            yield from child.walk()


@dataclass
class RosterFile:
    """A roster as its file has it."""

    id: str
    name: str
    game_system_id: str = ""
    game_system_name: str = ""
    game_system_revision: str = "1"
    costs: list[FileCost] = field(default_factory=list)
    cost_limits: list[FileCost] = field(default_factory=list)
    forces: list[FileForce] = field(default_factory=list)

    def all_forces(self) -> list[FileForce]:
        return [force for top in self.forces for force in top.walk()]

    @property
    def units(self) -> list[FileSelection]:
        """Each force's selections (its units), forces in file order, a force before those it holds."""
        return [sel for force in self.all_forces() for sel in force.selections]

    @property
    def trees(self) -> list[dict[str, Any]]:
        """Each unit's selection tree (`FileSelection.tree`), in the order of `units`."""
        return [unit.tree() for unit in self.units]

    @property
    def catalogue_names(self) -> list[str]:
        return [force.catalogue_name for force in self.all_forces()]

    @property
    def force_entry_ids(self) -> list[str]:
        """The force entry (detachment) id of each force, in order."""
        return [force.entry_id for force in self.all_forces()]

    @property
    def points_limit(self) -> int | None:
        """The points limit the roster states (None: none, or a negative one: no limit)."""
        limit = None
        for cost in self.cost_limits:
            if norm(cost.name) in POINTS_NAMES:
                limit = int(cost.value) if cost.value >= 0 else None
        return limit

    @property
    def declared_points(self) -> Fraction | None:
        """The points total the roster states (its own costs), None when it states none."""
        if not any(norm(cost.name) in POINTS_NAMES for cost in self.costs):
            return None
        return _points(self.costs)

    @property
    def selections_points(self) -> Fraction:
        """The points of the roster's selections (every unit's whole tree)."""
        return sum((unit.points for unit in self.units), Fraction(0))

    def declared_difference(self) -> tuple[Fraction, Fraction] | None:
        """(stated total, selections' total) when the roster states a total they do not make: a
        file edited by hand or saved by another tool may (480 stated, 65 selected)."""
        declared = self.declared_points
        if declared is None or declared == self.selections_points:
            return None
        return declared, self.selections_points


def _points(costs: list[FileCost]) -> Fraction:
    return sum((Fraction(c.value) for c in costs if norm(c.name) in POINTS_NAMES), Fraction(0))


# -- reading ------------------------------------------------------------------------------------
#: A roster's lists and the element each holds, as BattleScribe's XML nests them.
_LISTS = {"costs": "cost", "costLimits": "costLimit", "forces": "force", "selections": "selection",
          "categories": "category"}


def _as_object(element: Element) -> dict[str, Any]:
    """An XML element in New Recruit's shape: its attributes as keys, each list of `_LISTS` as an
    array of objects, `<customNotes>` as text (what the reader below takes of the XML)."""
    out: dict[str, Any] = dict(element.attrib)
    for child in element:
        tag = local_name(child.tag)
        if tag in _LISTS:
            out[tag] = [_as_object(item) for item in child if local_name(item.tag) == _LISTS[tag]]
        elif tag == "customNotes":
            out[tag] = child.text or ""
    return out


def read_roster_file(source: SourceFile) -> RosterFile:
    """Parse a .ros/.rosz; `BattleScribeError` names the file and the place of any problem."""
    root = parse(source)
    if local_name(root.tag) != "roster":
        raise BattleScribeError(
            [f"{source.name}: {local_name(root.tag)}: not a BattleScribe roster (expected <roster>)"]
        )
    return _Reader(source.name).roster({"roster": _as_object(root)})


def read_roster_json(data: Any, *, name: str) -> RosterFile:
    """A New Recruit JSON roster (already parsed); `BattleScribeError` names the file and field."""
    return _Reader(name).roster(data)


class _Reader:
    """A roster in New Recruit's JSON shape — BattleScribe's roster schema with elements as
    objects and child lists as arrays (`roster.forces[].selections[].selections[]`, `costs[]`
    of `{name, typeId, value}`) — read into a `RosterFile` within the limits above; XML comes
    here in the same shape (`_as_object`)."""

    def __init__(self, file: str):
        self.file = file
        self.count = 0

    def items(self, value: Any, path: str) -> list[Any]:
        if value is None:
            return []
        if isinstance(value, Mapping):  # some writers keep XML's wrapper: {"selection": [...]}
            value = next(iter(value.values()), [])
        if not isinstance(value, list):
            raise BattleScribeError([f"{self.file}: {path}: must be a list"])
        return value

    def costs(self, element: Mapping[str, Any], key: str, path: str) -> list[FileCost]:
        out = []
        for index, cost in enumerate(self.items(element.get(key), f"{path}.{key}")):
            if not isinstance(cost, Mapping):
                raise BattleScribeError([f"{self.file}: {path}.{key}[{index}]: must be an object"])
            try:
                value = exact_number(str(cost.get("value", 0)))
            except ValueError as exc:
                raise BattleScribeError([f"{self.file}: {path}.{key}[{index}].value: {exc}"]) from None
            out.append(FileCost(str(cost.get("name", "")), str(cost.get("typeId", "")), value))
        return out

    def categories(self, element: Mapping[str, Any], path: str) -> list[FileCategory]:
        out = []
        for c in self.items(element.get("categories"), f"{path}.categories"):
            if isinstance(c, Mapping):
                out.append(
                    FileCategory(str(c.get("id", "")), str(c.get("name", "")), str(c.get("entryId", "")),
                                 c.get("primary") in (True, "true"))
                )
        return out

    def roster(self, data: Any) -> RosterFile:
        root = data.get("roster") if isinstance(data, Mapping) else None
        if not isinstance(root, Mapping):
            raise BattleScribeError([f"{self.file}: roster: not a roster (expected an object \"roster\")"])
        roster = RosterFile(
            id=str(root.get("id", "")),
            name=str(root.get("name", "")),
            game_system_id=str(root.get("gameSystemId", "")),
            game_system_name=str(root.get("gameSystemName", "")),
            game_system_revision=str(root.get("gameSystemRevision", "1")),
            costs=self.costs(root, "costs", "roster"),
            cost_limits=self.costs(root, "costLimits", "roster"),
        )
        roster.forces = [
            self.force(force, f"roster.forces[{index}]", 0)
            for index, force in enumerate(self.items(root.get("forces"), "roster.forces"))
        ]
        return roster

    def force(self, force: Any, path: str, depth: int) -> FileForce:
        if not isinstance(force, Mapping) or depth > MAX_FORCE_DEPTH:
            raise BattleScribeError([f"{self.file}: {path}: must be an object"])
        selections = self.items(force.get("selections"), f"{path}.selections")
        forces = self.items(force.get("forces"), f"{path}.forces")
        return FileForce(
            id=str(force.get("id", "")),
            name=str(force.get("name", "")),
            entry_id=str(force.get("entryId", "")),
            catalogue_id=str(force.get("catalogueId", "")),
            catalogue_revision=str(force.get("catalogueRevision", "1")),
            catalogue_name=str(force.get("catalogueName", "")),
            custom_name=str(force.get("customName") or ""),
            custom_notes=str(force.get("customNotes") or ""),
            selections=[self.selection(s, f"{path}.selections[{i}]", 0) for i, s in enumerate(selections)],
            categories=self.categories(force, path),
            forces=[self.force(f, f"{path}.forces[{i}]", depth + 1) for i, f in enumerate(forces)],
        )

    def selection(self, element: Any, path: str, depth: int) -> FileSelection:
        self.count += 1
        if self.count > MAX_SELECTIONS:
            raise BattleScribeError([f"{self.file}: more than {MAX_SELECTIONS} selections"])
        if not isinstance(element, Mapping) or depth > MAX_SELECTION_DEPTH:
            raise BattleScribeError([f"{self.file}: {path}: must be an object"])
        count = element.get("number", 1)
        if isinstance(count, bool) or not isinstance(count, int | str) or not str(count).isdigit():
            raise BattleScribeError([f"{self.file}: {path}.number: not a whole number"])
        children = self.items(element.get("selections"), f"{path}.selections")
        return FileSelection(
            id=str(element.get("id", "")),
            name=str(element.get("name", "")),
            entry_id=str(element.get("entryId", "")),
            number=int(count),
            type=str(element.get("type", "")),
            entry_group_id=str(element.get("entryGroupId") or ""),
            custom_name=str(element.get("customName") or ""),
            custom_notes=str(element.get("customNotes") or ""),
            costs=self.costs(element, "costs", path),
            categories=self.categories(element, path),
            selections=[
                self.selection(child, f"{path}.selections[{i}]", depth + 1)
                for i, child in enumerate(children)
            ],
        )


# -- writing -------------------------------------------------------------------------------------
def _attrs(pairs: list[tuple[str, str]]) -> str:
    return " ".join(f'{k}="{escape(v, {chr(34): "&quot;"})}"' for k, v in pairs)


def _value(value: Fraction | float) -> str:
    return java_double(str(float(value)))


def roster_text(roster: RosterFile) -> str:
    """The roster as BattleScribe 2.03 .ros XML text."""
    lines = ['<?xml version="1.0" encoding="UTF-8" standalone="yes"?>']
    head = _attrs(
        [
            ("id", roster.id),
            ("name", roster.name),
            ("battleScribeVersion", BATTLESCRIBE_VERSION),
            ("gameSystemId", roster.game_system_id),
            ("gameSystemName", roster.game_system_name),
            ("gameSystemRevision", roster.game_system_revision),
        ]
    )
    lines.append(f'<roster {head} xmlns="{NAMESPACE}">')
    _write_costs(lines, "  ", "costs", "cost", roster.costs)
    _write_costs(lines, "  ", "costLimits", "costLimit", roster.cost_limits)
    if roster.forces:
        lines.append("  <forces>")
        for force in roster.forces:
            _write_force(lines, "    ", force)
        lines.append("  </forces>")
    lines.append("</roster>")
    return "\n".join(lines) + "\n"


def roster_bytes(roster: RosterFile) -> bytes:
    """The roster as .ros XML (UTF-8, with the declaration)."""
    return roster_text(roster).encode("utf-8")


def rosz_of(xml: bytes, filename: str = "roster.ros") -> bytes:
    """Roster XML zipped as BattleScribe's .rosz (one .ros member)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(filename, xml)
    return buffer.getvalue()


def _write_costs(lines: list[str], indent: str, container: str, tag: str, costs: list[FileCost]) -> None:
    if not costs:
        return
    lines.append(f"{indent}<{container}>")
    for cost in costs:
        attrs = _attrs([("name", cost.name), ("typeId", cost.type_id), ("value", _value(cost.value))])
        lines.append(f"{indent}  <{tag} {attrs}/>")
    lines.append(f"{indent}</{container}>")


def _notes(lines: list[str], indent: str, notes: str) -> None:
    if notes:
        lines.append(f"{indent}<customNotes>{escape(notes)}</customNotes>")


def _write_categories(lines: list[str], indent: str, categories: list[FileCategory]) -> None:
    if not categories:
        return
    lines.append(f"{indent}<categories>")
    for c in categories:
        primary = "true" if c.primary else "false"
        attrs = _attrs([("id", c.id), ("name", c.name), ("entryId", c.entry_id), ("primary", primary)])
        lines.append(f"{indent}  <category {attrs}/>")
    lines.append(f"{indent}</categories>")


def _write_force(lines: list[str], indent: str, force: FileForce) -> None:
    head = [("id", force.id), ("name", force.name), ("entryId", force.entry_id)]
    if force.custom_name:
        head.append(("customName", force.custom_name))
    head += [
        ("catalogueId", force.catalogue_id),
        ("catalogueRevision", force.catalogue_revision),
        ("catalogueName", force.catalogue_name),
    ]
    lines.append(f"{indent}<force {_attrs(head)}>")
    inner = indent + "  "
    _notes(lines, inner, force.custom_notes)
    if force.selections:
        lines.append(f"{inner}<selections>")
        for sel in force.selections:
            _write_selection(lines, inner + "  ", sel)
        lines.append(f"{inner}</selections>")
    _write_categories(lines, inner, force.categories)
    if force.forces:
        lines.append(f"{inner}<forces>")
        for child in force.forces:
            _write_force(lines, inner + "  ", child)
        lines.append(f"{inner}</forces>")
    lines.append(f"{indent}</force>")


def _write_selection(lines: list[str], indent: str, sel: FileSelection) -> None:
    head = [("id", sel.id), ("name", sel.name), ("entryId", sel.entry_id)]
    if sel.entry_group_id:
        head.append(("entryGroupId", sel.entry_group_id))
    if sel.custom_name:
        head.append(("customName", sel.custom_name))
    head += [("number", str(sel.number)), ("type", sel.type or "upgrade")]
    inner = indent + "  "
    body: list[str] = []
    _notes(body, inner, sel.custom_notes)
    if sel.selections:
        body.append(f"{inner}<selections>")
        for child in sel.selections:
            _write_selection(body, inner + "  ", child)
        body.append(f"{inner}</selections>")
    _write_costs(body, inner, "costs", "cost", sel.costs)
    _write_categories(body, inner, sel.categories)
    if body:
        lines.append(f"{indent}<selection {_attrs(head)}>")
        lines.extend(body)
        lines.append(f"{indent}</selection>")
    else:
        lines.append(f"{indent}<selection {_attrs(head)}/>")


# -- the engine's roster from a file and as one ---------------------------------------------------
def load_roster(data: GameData, text: str | RosterFile, name: str = "roster.ros") -> Roster:
    """The roster a .ros document (or a file already read) holds, rebuilt in the engine over `data`."""
    if isinstance(text, RosterFile):
        file = text
    else:
        try:
            file = read_roster_file(SourceFile(name, text.encode("utf-8")))
        except BattleScribeError as exc:
            raise EngineError("\n".join(exc.errors)) from None
    roster = Roster(data, name=file.name)
    for limit in file.cost_limits:
        roster.cost_limits[limit.type_id] = float(limit.value)
    for force in file.forces:
        _load_force(roster, force, None, name)
    roster.touch()
    return roster


def _load_force(roster: Roster, file: FileForce, parent: Force | None, name: str) -> None:
    entry = roster.data.force_entries.get(file.entry_id)
    if entry is None:
        raise EngineError(f"{name}: force {file.name!r} names an unknown force entry")
    catalogue_id = file.catalogue_id or (parent.catalogue_id if parent else None)
    force = Force(roster, entry, roster._catalogue_for(entry, catalogue_id), parent)
    (parent.child_forces if parent is not None else roster.forces).append(force)
    force.custom_name, force.custom_notes = file.custom_name, file.custom_notes
    options = _flatten(force.root_options())
    for sel_file in file.selections:
        sel = _load_selection(roster, sel_file, force, force, options, name)
        force.index.add_subtree(sel)
    for child in file.forces:
        _load_force(roster, child, force, name)


def _load_selection(
    roster: Roster, file: FileSelection, parent, force: Force, options: list[Option], name: str
) -> Selection:
    try:
        option = roster.find_option(options, file.entry_id)
    except EngineError:
        raise EngineError(f"{name}: selection {file.name!r} names an unknown entry") from None
    sel = Selection(roster, option, parent, force, file.number)
    sel.custom_name, sel.custom_notes = file.custom_name, file.custom_notes
    parent.children.append(sel)
    for child in file.selections:
        _load_selection(roster, child, sel, force, option.selectable(), name)
    return sel


def roster_file_of(
    roster: Roster,
    *,
    roster_id: str = "",
    name: str | None = None,
    revisions: Mapping[str, str] | None = None,
    cost_limits: Mapping[str, float] | None = None,
    stable_ids: bool = False,
) -> RosterFile:
    """The engine's roster as a file: each selection with the entry id BattleScribe builds
    (`link::target`, the engine's option key), its group, number, own costs (cost × number,
    children apart: BattleScribe totals the tree), categories, custom name and notes, and each
    force with the game system's and catalogue's ids and `revisions` (by id: BattleScribe
    compares them with its data's), so BattleScribe opens it against the same data and finds
    the same selections. `cost_limits` (by cost type id) stand for the roster's own;
    `stable_ids`: ids derived from each selection's place, so the same roster is written the
    same whatever the engine numbered it."""
    data = roster.data
    revisions = revisions or {}
    priced = [c for c in data.cost_types if c.id in data.priced_cost_types]
    totals = roster.costs()
    limits = [
        FileCost(c.name, c.id, (value))
        for c in data.cost_types
        for type_id, value in (roster.cost_limits if cost_limits is None else cost_limits).items()
        if type_id == c.id
    ]
    file = RosterFile(
        id=roster_id or f"roster-{roster.version}",
        name=roster.name if name is None else name,
        game_system_id=data.id,
        game_system_name=data.name,
        game_system_revision=str(revisions.get(data.id) or "1"),
        costs=[FileCost(c.name, c.id, (totals.get(c.id, 0.0))) for c in priced],
        cost_limits=limits,
    )

    def force_of(force: Force, path: str) -> FileForce:
        force_id = stable_id("force", path, force.entry.id) if stable_ids else force.id
        cat = data.catalogues.get(force.catalogue_id)
        categories = [(UNCATEGORISED, "Uncategorised"), *force.category_entries()]
        return FileForce(
            id=force_id,
            name=force.entry.name,
            entry_id=force.entry.id,
            catalogue_id=force.catalogue_id,
            catalogue_revision=str(revisions.get(force.catalogue_id) or "1"),
            catalogue_name=cat.name if cat else "",
            custom_name=force.custom_name,
            custom_notes=force.custom_notes,
            selections=[selection_of(s, f"{path}/{i}") for i, s in enumerate(force.selections)],
            categories=[FileCategory(f"{force_id}-{cid}", cname, cid) for cid, cname in categories],
            forces=[force_of(child, f"{path}/f{i}") for i, child in enumerate(force.child_forces)],
        )

    def selection_of(sel: Selection, path: str) -> FileSelection:
        eff = sel.effective()
        sel_id = stable_id("selection", path) if stable_ids else sel.id
        return FileSelection(
            id=sel_id,
            name=eff.name,
            entry_id=sel.option.key,
            number=sel.number,
            type=sel.option.type or "upgrade",
            entry_group_id=sel.entry_group_id,
            custom_name=sel.custom_name,
            custom_notes=sel.custom_notes,
            costs=[
                FileCost(c.name, c.id, (eff.costs.get(c.id, 0.0) * sel.number))
                for c in data.cost_types
                if c.id in eff.costs
            ],
            categories=[
                FileCategory(f"{sel_id}-{cid}", data.category_name(cid), cid, primary)
                for cid, primary in eff.categories
            ],
            selections=[selection_of(child, f"{path}/{i}") for i, child in enumerate(sel.children)],
        )

    file.forces = [force_of(force, str(i)) for i, force in enumerate(roster.forces)]
    return file


def write_roster(roster: Roster, roster_id: str = "") -> str:
    """The engine's roster as BattleScribe 2.03 .ros XML text."""
    return roster_text(roster_file_of(roster, roster_id=roster_id))
