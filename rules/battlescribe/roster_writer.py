"""Writing a BattleScribe roster (.ros XML, zipped as .rosz) from a plain description of a list.

The roster holds one force with one selection per unit (type `unit`, or `model` for a
one-model unit), a `model` selection per model profile (with its count), an `upgrade`
selection per option taken, and the costs BattleScribe shows (`pts`, and Power when the
list has it). Units imported from BattleScribe keep their entry ids, so BattleScribe (and
our roster reader) recognise them; other units get stable ids derived from their names.
"""

from __future__ import annotations

import hashlib
import io
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from xml.etree.ElementTree import Element, SubElement, tostring

NAMESPACE = "http://www.battlescribe.net/schema/rosterSchema"
BATTLESCRIBE_VERSION = "2.03"
POINTS_TYPE, POWER_TYPE = "points", "power"


def stable_id(*parts: str) -> str:
    """A BattleScribe-looking id ("1a2b-3c4d-5e6f-7a8b") derived from `parts`, stable across exports."""
    digest = hashlib.sha1("/".join(parts).encode()).hexdigest()[:16]
    return "-".join(digest[i : i + 4] for i in range(0, 16, 4))


@dataclass
class RosterUnit:
    name: str
    entry_id: str
    points: int
    power: int | None
    models: Sequence[Mapping[str, Any]]  # {name, count}
    #: options taken: {name, entry_id, count, points (each)}, and for an option that adds models
    #: of a profile of their own `type` "model" and `number` (the models its selection stands for)
    upgrades: Sequence[Mapping[str, Any]] = field(default_factory=list)
    categories: Sequence[str] = field(default_factory=list)
    #: BattleScribe entry ids of the unit's model entries by model name (imported units)
    model_ids: Mapping[str, str] = field(default_factory=dict)
    #: BattleScribe category entry ids by category name (imported units)
    category_ids: Mapping[str, str] = field(default_factory=dict)
    #: Models each selection of a model's entry stands for, by model name (imported AoS units
    #: sized by a "10 Bestigors" selection): the roster writes count / N selections
    per_selection: Mapping[str, int] = field(default_factory=dict)


@dataclass
class RosterDocument:
    name: str
    system_id: str
    system_name: str
    catalogue_id: str
    catalogue_name: str
    points_limit: int | None  # None: a system without points (`points_sized` False) has no limit
    units: Sequence[RosterUnit]
    with_power: bool = False
    #: the game system's cost type ids (an imported catalogue's own, so BattleScribe totals them)
    points_type: str = POINTS_TYPE
    power_type: str = POWER_TYPE
    catalogue_revision: str = "1"
    #: the game system's force entry (detachment) the roster's force uses: (id, name)
    force_entry: tuple[str, str] | None = None


def _costs(parent: Element, points: float, power: float | None, doc: RosterDocument) -> None:
    costs = SubElement(parent, "costs")
    SubElement(costs, "cost", name="pts", typeId=doc.points_type, value=f"{float(points)}")
    if power is not None:
        SubElement(costs, "cost", name=" PL", typeId=doc.power_type, value=f"{float(power)}")


def roster_xml(doc: RosterDocument) -> bytes:
    """The roster as BattleScribe XML (UTF-8, with the declaration)."""
    total = sum(u.points for u in doc.units)
    power_total = sum(u.power or 0 for u in doc.units) if doc.with_power else None
    root = Element(
        "roster",
        id=stable_id("roster", doc.name, doc.system_id),
        name=doc.name,
        battleScribeVersion=BATTLESCRIBE_VERSION,
        gameSystemId=doc.system_id,
        gameSystemName=doc.system_name,
        gameSystemRevision="1",
        xmlns=NAMESPACE,
    )
    _costs(root, total, power_total, doc)
    if doc.points_limit is not None:  # a list sized by models has no points limit to state
        limits = SubElement(root, "costLimits")
        SubElement(
            limits, "costLimit", name="pts", typeId=doc.points_type, value=f"{float(doc.points_limit)}"
        )
    forces = SubElement(root, "forces")
    force = SubElement(
        forces,
        "force",
        id=stable_id("force", doc.catalogue_id),
        name=doc.force_entry[1] if doc.force_entry else doc.catalogue_name,
        entryId=doc.force_entry[0] if doc.force_entry else stable_id("force-entry", doc.system_id),
        catalogueId=doc.catalogue_id,
        catalogueRevision=doc.catalogue_revision,
        catalogueName=doc.catalogue_name,
    )
    selections = SubElement(force, "selections")
    categories: dict[str, str] = {}
    for index, unit in enumerate(doc.units):
        one_model = (
            len(unit.models) == 1
            and int(unit.models[0]["count"]) == 1
            and not unit.upgrades
            and not unit.per_selection
        )
        selection = SubElement(
            selections,
            "selection",
            id=stable_id("selection", str(index), unit.entry_id),
            name=unit.name,
            entryId=unit.entry_id,
            number="1",
            type="model" if one_model else "unit",
        )
        children = SubElement(selection, "selections")
        if not one_model:
            per = {str(k): int(v) for k, v in unit.per_selection.items()}
            for model in unit.models:
                SubElement(
                    children,
                    "selection",
                    id=stable_id("model", str(index), str(model["name"])),
                    name=str(model["name"]),
                    entryId=unit.model_ids.get(str(model["name"]))
                    or stable_id(unit.entry_id, str(model["name"])),
                    number=str(max(1, int(model["count"]) // per.get(str(model["name"]), 1))),
                    type="model",
                )
        for upgrade in unit.upgrades:
            child = SubElement(
                children,
                "selection",
                id=stable_id("upgrade", str(index), str(upgrade["entry_id"])),
                name=str(upgrade["name"]),
                entryId=str(upgrade["entry_id"]),
                number=str(int(upgrade.get("number") or upgrade["count"])),
                type=str(upgrade.get("type") or "upgrade"),
            )
            _costs(child, upgrade.get("points", 0) * int(upgrade["count"]), None, doc)
        # a selection's costs are its own; BattleScribe totals the tree (upgrades are priced above)
        own = unit.points - sum(u.get("points", 0) * int(u["count"]) for u in unit.upgrades)
        _costs(selection, own, unit.power if doc.with_power else None, doc)
        unit_categories = SubElement(selection, "categories")
        for number, name in enumerate(unit.categories):
            category_id = categories.setdefault(
                name, unit.category_ids.get(name) or stable_id("category", name)
            )
            SubElement(
                unit_categories,
                "category",
                id=stable_id("unit-category", str(index), name),
                name=name,
                entryId=category_id,
                primary="true" if number == 0 else "false",
            )
    force_categories = SubElement(force, "categories")
    for name, category_id in categories.items():
        SubElement(
            force_categories,
            "category",
            id=stable_id("force-category", name),
            name=name,
            entryId=category_id,
            primary="false",
        )
    return b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' + tostring(root, encoding="utf-8")


def roster_rosz(doc: RosterDocument, filename: str = "roster.ros") -> bytes:
    """The roster zipped as BattleScribe's .rosz (one .ros member)."""
    return rosz_of(roster_xml(doc), filename)


def rosz_of(xml: bytes, filename: str = "roster.ros") -> bytes:
    """Roster XML zipped as BattleScribe's .rosz (one .ros member)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(filename, xml)
    return buffer.getvalue()
