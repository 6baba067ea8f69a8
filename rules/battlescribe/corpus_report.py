"""A corpus report: for a folder of BattleScribe files, what BattleScribe offers against what the
product offers and how a list of each offered entry checks (issue 40).

For each catalogue of the folder (a library another catalogue links is read through that one),
with its game system and the catalogues it links, at each points limit asked for:

- **offered**: the root entries BattleScribe's "add" menu shows in a new force of the catalogue
  (the roster engine's root options not hidden there, the force's own required selections
  made first, as BattleScribe makes them);
- **imported**: the units the product's import makes of them (`parse_import`, no database);
  `missing` are offered and not imported (with the import's reason), `never_shown` imported
  and not offered (a unit BattleScribe never shows that a player could add);
- for each offered entry, a roster holding it once besides what the force requires: the
  errors it **introduces** (not in the roster without it), each with the constraint's value as
  the XML writes it and after modifiers, so that a limit the data scales (WHFB slots by army
  size) and the engine did not is seen at once (a choice still to make inside the unit, a
  weapon group without a default, is BattleScribe's answer too and is listed, not counted);
  and the entry's **price** in a list against the catalogue's (the import's smallest legal
  unit; the "Add a unit" menu shows the list's, `rules.battlescribe_lists.entering_points`).

One entry BattleScribe offers whose lone selection breaks a limit, or whose price differs
between the menu and the list, is what a player would see as a wrong answer: the report lists
them so the next defect of this kind is found by a command (`manage.py
battlescribe_corpus_report`).
"""

from __future__ import annotations

import fnmatch
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

from .engine.constraints import validate
from .engine.errors import EngineError, ValidationError
from .engine.model import GameData, Option
from .engine.modifiers import effective
from .engine.roster import Roster, _flatten
from .xml_reader import BattleScribeError, SourceFile

#: Most entries checked per catalogue (the largest real catalogue offers a few hundred).
MAX_ENTRIES = 2000


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


@dataclass
class FileInfo:
    path: Path
    kind: str
    id: str
    name: str
    system_id: str
    library: bool
    links: list[str]


def _info(path: Path) -> FileInfo | None:
    try:
        root = ElementTree.parse(path).getroot()
    except (ElementTree.ParseError, OSError):
        return None
    links = [
        link.get("targetId", "")
        for child in root
        if _local(child.tag) == "catalogueLinks"
        for link in child
    ]
    return FileInfo(
        path=path,
        kind=_local(root.tag),
        id=root.get("id", ""),
        name=root.get("name", ""),
        system_id=root.get("gameSystemId", root.get("id", "")),
        library=root.get("library", "false").lower() == "true",
        links=links,
    )


@dataclass
class EntryCheck:
    entry_id: str
    name: str
    #: Points in a list (the engine's, rounded as a list unit's) and in the catalogue (the
    #: import's price of the smallest legal unit, which catalogue pages show).
    roster_points: int | None = None
    menu_points: int | None = None
    #: Errors this entry's lone selection introduces: (message, XML value, modified value).
    errors: list[dict[str, Any]] = field(default_factory=list)
    failure: str = ""


@dataclass
class LimitReport:
    points_limit: int | None
    offered: list[tuple[str, str]] = field(default_factory=list)
    #: Root entries hidden in a new force that a modifier may show (once their conditions hold).
    shown_later: list[tuple[str, str]] = field(default_factory=list)
    checks: list[EntryCheck] = field(default_factory=list)

    @property
    def price_mismatches(self) -> list[EntryCheck]:
        return [
            c for c in self.checks
            if c.menu_points is not None and c.roster_points is not None and c.menu_points != c.roster_points
        ]

    @property
    def with_errors(self) -> list[EntryCheck]:
        """Entries whose lone selection breaks a limit (a maximum, a slot, a force or roster
        limit): a choice still to make inside the unit (a weapon group without a default) is
        BattleScribe's answer too and not counted."""
        return [c for c in self.checks if c.failure or any(e["kind"] == "limit" for e in c.errors)]


@dataclass
class CatalogueReport:
    file: str
    name: str
    status: str = "ok"
    problems: list[str] = field(default_factory=list)
    imported: dict[str, tuple[str, int]] = field(default_factory=dict)
    missing: list[dict[str, str]] = field(default_factory=list)
    never_shown: list[dict[str, str]] = field(default_factory=list)
    limits: list[LimitReport] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "name": self.name,
            "status": self.status,
            "problems": self.problems,
            "offered": len(self.limits[0].offered) if self.limits else 0,
            "imported": len(self.imported),
            "missing": self.missing,
            "never_shown": self.never_shown,
            "limits": [
                {
                    "points_limit": lim.points_limit,
                    "offered": len(lim.offered),
                    "introduced_errors": [
                        {"entry": c.name, "entry_id": c.entry_id, "errors": c.errors, "failure": c.failure}
                        for c in lim.with_errors
                    ],
                    "price_mismatches": [
                        {
                            "entry": c.name,
                            "entry_id": c.entry_id,
                            "catalogue": c.menu_points,
                            "list": c.roster_points,
                        }
                        for c in lim.price_mismatches
                    ],
                }
                for lim in self.limits
            ],
        }


def catalogue_files(folder: Path, pattern: str = "*") -> list[tuple[FileInfo, list[FileInfo]]]:
    """(catalogue, the files one import of it needs: its game system first, then it and every
    catalogue it links, transitively) for each catalogue of `folder` matching `pattern` that is
    not only another one's library."""
    paths = [p for p in sorted(Path(folder).iterdir()) if p.suffix in (".gst", ".cat")]
    infos = [i for i in map(_info, paths) if i is not None]
    by_id = {i.id: i for i in infos if i.kind == "catalogue"}
    systems = {i.id: i for i in infos if i.kind == "gameSystem"}
    linked = {t for i in infos for t in i.links}
    out = []
    for info in infos:
        if info.kind != "catalogue" or not fnmatch.fnmatch(info.path.name, pattern):
            continue
        if info.id in linked and info.library:
            continue
        needed, todo = [], [info]
        while todo:
            doc = todo.pop(0)
            if doc in needed:
                continue
            needed.append(doc)
            todo += [by_id[t] for t in doc.links if t in by_id]
        system = systems.get(info.system_id)
        out.append((info, ([system] if system else []) + needed))
    return out


def _error_key(error: ValidationError) -> tuple:
    return (error.owner_type, error.owner_id, error.source)


def _xml_value(data: GameData, error: ValidationError) -> float | None:
    """The constraint's value as the data writes it (before modifiers), from its id."""
    constraint_id = error.source.rsplit("/", 1)[-1]
    names = getattr(data, "_report_constraints", None)
    if names is None:
        names = {}
        for link in _all_links(data):
            for c in link.constraints:
                names.setdefault(c.id, c.value)
        data._report_constraints = names  # type: ignore[attr-defined]
    return names.get(constraint_id)


def _all_links(data: GameData) -> Iterable[Any]:
    """Every definition once (`GameData.every_definition`), each followed by its category links."""
    for d in data.every_definition():
        yield d
        yield from d.category_links


def check_limit(
    data: GameData, catalogue_id: str, force_entry_id: str, points_type: str | None, points_limit: int | None
) -> LimitReport:
    """The offered root entries of a new force of `catalogue_id` at `points_limit`, and what each
    one's lone selection introduces."""
    report = LimitReport(points_limit)
    roster = Roster(data)
    for cost_type in data.cost_types:
        roster.cost_limits[cost_type.id] = -1.0
    if points_type is not None and points_limit is not None:
        roster.set_cost_limit(points_type, float(points_limit))
    force = roster.add_force(force_entry_id, catalogue_id)
    baseline = {_error_key(e) for e in validate(roster)}
    ctx = force.context()
    roots = _flatten(force.root_options())
    options: list[Option] = [o for o in roots if not effective(o, ctx).hidden]
    report.offered = [(o.defn.id, o.name) for o in options]
    report.shown_later = [
        (o.defn.id, o.name) for o in roots if effective(o, ctx).hidden and _may_unhide(o)
    ]
    # What the force selects by itself (an AoS allegiance, a 40k battle size) is already there:
    # a second one breaking its "at most 1" says nothing about the data.
    present = {sel.option.key for sel in force.selections}
    for option in options[:MAX_ENTRIES]:
        if option.key in present:
            continue
        check = EntryCheck(option.defn.id, option.name)
        report.checks.append(check)
        try:
            sel = roster.select_entry(force, option.key)
        except (EngineError, RecursionError, ValueError) as exc:
            check.failure = f"cannot be selected: {exc}"
            continue
        try:
            if points_type is not None:
                check.roster_points = round(sel.cost(points_type))
            for error in validate(roster):
                if _error_key(error) in baseline or error.source.startswith("costLimits/"):
                    continue
                choice = error.owner_type == "selection" and error.constraint_type == "min"
                check.errors.append(
                    {
                        "kind": "choice" if choice else "limit",
                        "message": error.message,
                        "source": error.source,
                        "xml_value": _xml_value(data, error),
                        "value": error.limit,
                        "actual": error.actual,
                    }
                )
        finally:
            roster.deselect_all(sel)
    return report


def _may_unhide(option: Option) -> bool:
    """Whether an entry hidden now may be shown later: hidden by a modifier whose conditions
    may stop holding, or hidden as written with a modifier that shows it."""
    return not option.hidden or any(
        m.field == "hidden" and m.type == "set" and m.value.strip().lower() == "false"
        for m in option.modifiers
    )


def report_catalogue(
    system_key: str, info: FileInfo, files: Sequence[FileInfo], points_limits: Sequence[int | None]
) -> CatalogueReport:
    """The report of one catalogue (see the module docstring)."""
    from rules.battlescribe.list_roster import force_entries
    from rules.battlescribe_import import parse_import
    from rules.battlescribe_lists import cost_fields, gathered_sources, source_shape
    from rules.catalogue_files import CatalogueFileError

    out = CatalogueReport(info.path.name, info.name)
    sources = [SourceFile(f.path.name, f.path.read_bytes()) for f in files]
    shapes: list = []
    try:
        result = parse_import(system_key=system_key, files=sources, shapes=shapes)
    except (BattleScribeError, CatalogueFileError) as exc:
        out.status = "refused"
        out.problems = list(exc.errors[:5])
        result = None
    if result is not None:
        from rules.battlescribe.units import slug

        faction_slug = f"bs-{slug(info.id, 60)}"
        for plan in result.plans:
            if plan.slug != faction_slug:
                continue
            for unit in plan.units:
                bs_id = str(unit.values["data"].get("battlescribe_id", ""))
                out.imported.setdefault(bs_id, (str(unit.values["name"]), int(unit.values["points"])))
        warnings = result.warnings
    else:
        warnings = []
        from rules.battlescribe.xml_reader import parse, xml_bytes

        try:
            shapes = [source_shape(parse(s, xml_bytes(s))) for s in sources]
        except BattleScribeError as exc:
            out.problems += exc.errors[:3]
            return out
    system, catalogues = gathered_sources(shapes)
    if system is None:
        out.status = "no game system"
        return out
    data = GameData(system, list(catalogues.values()))
    choices = force_entries(data, info.id)
    if not choices:
        out.problems.append("no force to build a list in")
        return out
    points_type, _fields = cost_fields(data, system_key)
    for limit in points_limits:
        out.limits.append(check_limit(data, info.id, choices[0].id, points_type, limit))
    offered = dict(out.limits[0].offered) if out.limits else {}
    shown_later = dict(out.limits[0].shown_later) if out.limits else {}
    # Entries of the game system itself are offered in every catalogue; the import makes them
    # the game system's own faction, so they are compared there, not here.
    own = {d.target_id or d.id for d in _roots_of(data, info.id)}
    for entry_id, name in offered.items():
        if entry_id in own and entry_id not in out.imported:
            reason = next((w for w in warnings if f"@name={name!r}" in w or f"[@name='{name}']" in w), "")
            out.missing.append({"entry": name, "entry_id": entry_id, "reason": reason})
    for entry_id, (name, _points) in out.imported.items():
        if entry_id not in offered and entry_id not in shown_later:
            out.never_shown.append({"entry": name, "entry_id": entry_id})
    for lim in out.limits:
        for check in lim.checks:
            found = out.imported.get(check.entry_id)
            if found is not None:
                check.menu_points = found[1]
    return out


def _roots_of(data: GameData, catalogue_id: str) -> list:
    """Root definitions of a catalogue and of those it imports the root entries of."""
    out, seen, todo = [], set(), [catalogue_id]
    while todo:
        cid = todo.pop(0)
        if cid in seen or cid not in data.catalogues:
            continue
        seen.add(cid)
        cat = data.catalogues[cid]
        out += list(cat.root)
        todo += list(cat.import_root_from)
    return out
