"""A roster in BattleScribe's .ros form, into the engine and out of it.

`load_roster` rebuilds a roster from a .ros document exactly as it was saved — the same
forces, selections and numbers, matched to the data by their entry ids, nothing
auto-selected — so the engine then prices and checks it as BattleScribe would. `write_roster`
saves the engine's roster as BattleScribe 2.03 writes it (element and attribute order, costs
as Java doubles, each force's Uncategorised category). Reading goes through the hardened XML
reader (no DTDs or entities, size limits).
"""

from __future__ import annotations

from xml.etree.ElementTree import Element
from xml.sax.saxutils import escape

from ..xml_reader import SourceFile, local_name, parse
from .errors import EngineError
from .gamedata_xml import java_double
from .model import GameData, Option
from .roster import Force, Roster, Selection, _flatten

NAMESPACE = "http://www.battlescribe.net/schema/rosterSchema"
#: The entry id BattleScribe gives a force's category of selections without one.
UNCATEGORISED = "(No Category)"


def _children(element: Element, container: str, tag: str) -> list[Element]:
    out: list[Element] = []
    for child in element:
        if local_name(child.tag) == container:
            out.extend(c for c in child if local_name(c.tag) == tag)
    return out


def load_roster(data: GameData, text: str, name: str = "roster.ros") -> Roster:
    """The roster a .ros document holds, rebuilt in the engine over `data`."""
    root = parse(SourceFile(name, text.encode("utf-8")))
    if local_name(root.tag) != "roster":
        raise EngineError(f"{name}: not a roster (its root element is <{local_name(root.tag)}>)")
    roster = Roster(data, name=root.get("name", ""))
    for limit in _children(root, "costLimits", "costLimit"):
        try:
            roster.cost_limits[limit.get("typeId", "")] = float(limit.get("value", "-1"))
        except ValueError:
            raise EngineError(f"{name}: cost limit {limit.get('name', '')!r} is not a number") from None
    for force_el in _children(root, "forces", "force"):
        _load_force(roster, force_el, None, name)
    roster.touch()
    return roster


def _load_force(roster: Roster, element: Element, parent: Force | None, name: str) -> None:
    entry = roster.data.force_entries.get(element.get("entryId", ""))
    if entry is None:
        raise EngineError(f"{name}: force {element.get('name', '')!r} names an unknown force entry")
    catalogue_id = element.get("catalogueId") or (parent.catalogue_id if parent else None)
    force = Force(roster, entry, roster._catalogue_for(entry, catalogue_id), parent)
    (parent.child_forces if parent is not None else roster.forces).append(force)
    force.custom_name = element.get("customName", "")
    options = _flatten(force.root_options())
    for sel_el in _children(element, "selections", "selection"):
        sel = _load_selection(roster, sel_el, force, force, options, name)
        force.index.add_subtree(sel)
    for child in _children(element, "forces", "force"):
        _load_force(roster, child, force, name)


def _load_selection(
    roster: Roster, element: Element, parent, force: Force, options: list[Option], name: str
) -> Selection:
    entry_id = element.get("entryId", "")
    try:
        option = roster.find_option(options, entry_id)
    except EngineError:
        raise EngineError(f"{name}: selection {element.get('name', '')!r} names an unknown entry") from None
    try:
        number = int(element.get("number", "1"))
    except ValueError:
        raise EngineError(f"{name}: selection {element.get('name', '')!r} has no whole number") from None
    sel = Selection(roster, option, parent, force, number)
    sel.custom_name = element.get("customName", "")
    parent.children.append(sel)
    for child in _children(element, "selections", "selection"):
        _load_selection(roster, child, sel, force, option.selectable(), name)
    return sel


def _attrs(pairs: list[tuple[str, str]]) -> str:
    return " ".join(f'{k}="{escape(v, {chr(34): "&quot;"})}"' for k, v in pairs)


def write_roster(roster: Roster, roster_id: str = "") -> str:
    """The roster as BattleScribe 2.03 .ros XML text."""
    data = roster.data
    lines = ['<?xml version="1.0" encoding="UTF-8" standalone="yes"?>']
    head = _attrs(
        [
            ("id", roster_id or f"roster-{roster.version}"),
            ("name", roster.name),
            ("battleScribeVersion", "2.03"),
            ("gameSystemId", data.id),
            ("gameSystemName", data.name),
            ("gameSystemRevision", "1"),
        ]
    )
    lines.append(f'<roster {head} xmlns="{NAMESPACE}">')
    totals = roster.costs()
    priced = [c for c in data.cost_types if c.id in data.priced_cost_types]
    _costs(lines, "  ", [(c.name, c.id, totals.get(c.id, 0.0)) for c in priced])
    limits = [(c.name, c.id, v) for c in data.cost_types for k, v in roster.cost_limits.items() if k == c.id]
    if limits:
        lines.append("  <costLimits>")
        for cname, type_id, value in limits:
            attrs = _attrs([("name", cname), ("typeId", type_id), ("value", java_double(str(value)))])
            lines.append(f"    <costLimit {attrs}/>")
        lines.append("  </costLimits>")
    if roster.forces:
        lines.append("  <forces>")
        for force in roster.forces:
            _write_force(lines, "    ", force)
        lines.append("  </forces>")
    lines.append("</roster>")
    return "\n".join(lines) + "\n"


def _costs(lines: list[str], indent: str, costs: list[tuple[str, str, float]]) -> None:
    if not costs:
        return
    lines.append(f"{indent}<costs>")
    for name, type_id, value in costs:
        attrs = _attrs([("name", name), ("typeId", type_id), ("value", java_double(str(value)))])
        lines.append(f"{indent}  <cost {attrs}/>")
    lines.append(f"{indent}</costs>")


def _write_force(lines: list[str], indent: str, force: Force) -> None:
    data = force.roster.data
    cat = data.catalogues.get(force.catalogue_id)
    head = _attrs(
        [
            ("id", force.id),
            ("name", force.entry.name),
            ("entryId", force.entry.id),
            ("catalogueId", force.catalogue_id),
            ("catalogueRevision", "1"),
            ("catalogueName", cat.name if cat else ""),
        ]
    )
    lines.append(f"{indent}<force {head}>")
    inner = indent + "  "
    if force.selections:
        lines.append(f"{inner}<selections>")
        for sel in force.selections:
            _write_selection(lines, inner + "  ", sel)
        lines.append(f"{inner}</selections>")
    lines.append(f"{inner}<categories>")
    categories = [(UNCATEGORISED, "Uncategorised"), *force.category_entries()]
    for cid, cname in categories:
        attrs = _attrs([("id", f"{force.id}-{cid}"), ("name", cname), ("entryId", cid), ("primary", "false")])
        lines.append(f"{inner}  <category {attrs}/>")
    lines.append(f"{inner}</categories>")
    if force.child_forces:
        lines.append(f"{inner}<forces>")
        for child in force.child_forces:
            _write_force(lines, inner + "  ", child)
        lines.append(f"{inner}</forces>")
    lines.append(f"{indent}</force>")


def _write_selection(lines: list[str], indent: str, sel: Selection) -> None:
    data = sel.roster.data
    eff = sel.effective()
    head = _attrs(
        [
            ("id", sel.id),
            ("name", eff.name),
            ("entryId", sel.option.key),
            ("number", str(sel.number)),
            ("type", sel.option.type or "upgrade"),
        ]
    )
    inner = indent + "  "
    body: list[str] = []
    if sel.children:
        body.append(f"{inner}<selections>")
        for child in sel.children:
            _write_selection(body, inner + "  ", child)
        body.append(f"{inner}</selections>")
    _costs(
        body,
        inner,
        [(c.name, c.id, eff.costs.get(c.id, 0.0) * sel.number) for c in data.cost_types if c.id in eff.costs],
    )
    if eff.categories:
        body.append(f"{inner}<categories>")
        for cid, primary in eff.categories:
            attrs = _attrs(
                [
                    ("id", f"{sel.id}-{cid}"),
                    ("name", data.category_name(cid)),
                    ("entryId", cid),
                    ("primary", "true" if primary else "false"),
                ]
            )
            body.append(f"{inner}  <category {attrs}/>")
        body.append(f"{inner}</categories>")
    if body:
        lines.append(f"{indent}<selection {head}>")
        lines.extend(body)
        lines.append(f"{indent}</selection>")
    else:
        lines.append(f"{indent}<selection {head}/>")
