"""An engine roster written as BattleScribe's roster XML (.ros), selection for selection.

A list of an imported faction is a roster of the engine, so its export is the roster itself:
each selection with the entry id BattleScribe builds (`link::target`, the engine's option key),
its group, number, own costs (cost × number, children apart: BattleScribe totals the tree),
categories, and the force with the game system's and catalogue's ids and revisions, so
BattleScribe opens it against the same data and finds the same selections.
"""

from __future__ import annotations

from collections.abc import Mapping
from xml.etree.ElementTree import Element, SubElement, tostring

from rules.battlescribe.engine.modifiers import categories as selection_categories
from rules.battlescribe.engine.roster import Selection
from rules.battlescribe.list_roster import ListRoster
from rules.battlescribe.roster_writer import BATTLESCRIBE_VERSION, NAMESPACE, stable_id


def _value(number: float) -> str:
    return f"{float(number)}"


def _costs(parent: Element, roster: ListRoster, values: dict[str, float]) -> None:
    costs = SubElement(parent, "costs")
    for cost_type in roster.data.cost_types:
        if cost_type.id in roster.data.priced_cost_types:
            value = _value(values.get(cost_type.id, 0.0))
            SubElement(costs, "cost", name=cost_type.name, typeId=cost_type.id, value=value)


def _selection(parent: Element, roster: ListRoster, sel: Selection, path: str) -> None:
    option = sel.option
    attributes = {
        "id": stable_id("selection", path),
        "name": sel.name,
        "entryId": option.key,
        "number": str(sel.number),
        "type": option.type or "upgrade",
    }
    if option.group is not None:
        attributes["entryGroupId"] = option.group.key
    element = SubElement(parent, "selection", attributes)
    # BattleScribe's order: child selections, then costs, then categories.
    if sel.children:
        children = SubElement(element, "selections")
        for index, child in enumerate(sel.children):
            _selection(children, roster, child, f"{path}/{index}")
    _costs(element, roster, {c.id: sel.own_cost(c.id) for c in roster.data.cost_types})
    cats = SubElement(element, "categories")
    for category_id, primary in selection_categories(option, sel.context()):
        SubElement(
            cats,
            "category",
            id=stable_id("category", path, category_id),
            name=roster.data.category_name(category_id),
            entryId=category_id,
            primary="true" if primary else "false",
        )


def roster_xml(
    roster: ListRoster,
    *,
    name: str,
    points_limit: int | None,
    points_type: str | None,
    revisions: Mapping[str, str] | None = None,
) -> bytes:
    """The roster as BattleScribe XML (UTF-8, with the declaration); `revisions` are the game
    system's and catalogues' revisions by id (BattleScribe compares them with its data's)."""
    data = roster.data
    revisions = revisions or {}
    force = roster.force
    catalogue = data.catalogues.get(force.catalogue_id)
    root = Element(
        "roster",
        id=stable_id("roster", name, data.id),
        name=name,
        battleScribeVersion=BATTLESCRIBE_VERSION,
        gameSystemId=data.id,
        gameSystemName=data.name,
        gameSystemRevision=str(revisions.get(data.id) or "1"),
        xmlns=NAMESPACE,
    )
    _costs(root, roster, roster.roster.costs())
    if points_limit is not None and points_type:
        limits = SubElement(root, "costLimits")
        points_name = next((c.name for c in data.cost_types if c.id == points_type), "pts")
        SubElement(limits, "costLimit", name=points_name, typeId=points_type, value=_value(points_limit))
    forces = SubElement(root, "forces")
    force_element = SubElement(
        forces,
        "force",
        id=stable_id("force", force.catalogue_id, force.entry.id),
        name=force.entry.name,
        entryId=force.entry.id,
        catalogueId=force.catalogue_id,
        catalogueRevision=str(revisions.get(force.catalogue_id) or "1"),
        catalogueName=catalogue.name if catalogue else "",
    )
    selections = SubElement(force_element, "selections")
    for index, sel in enumerate(force.selections):
        _selection(selections, roster, sel, str(index))
    cats = SubElement(force_element, "categories")
    for category_id, category_name in force.category_entries():
        SubElement(
            cats,
            "category",
            id=stable_id("force-category", category_id),
            name=category_name,
            entryId=category_id,
            primary="false",
        )
    return b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' + tostring(root, encoding="utf-8")
