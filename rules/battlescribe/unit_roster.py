"""A list of units in the unit format as a roster file (`engine.roster_xml.RosterFile`), for
the one roster writer: what a list of a faction without BattleScribe data exports as .ros.

The roster holds one force with one selection per unit (type `unit`, or `model` for a
one-model unit), a `model` selection per model profile (with its count), an `upgrade`
selection per option taken, the unit's custom name and notes, and the costs BattleScribe
shows (the points, and the system's second cost when the list has it), named as the system's
BattleScribe mapping names them (`RosterDocument.points_name`, `power_name`). Units imported from
BattleScribe keep their entry ids, so BattleScribe (and our roster reader) recognise them;
other units get stable ids derived from their names.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from rules.battlescribe.engine.roster_xml import (
    FileCategory,
    FileCost,
    FileForce,
    FileSelection,
    RosterFile,
    roster_bytes,
    rosz_of,
    stable_id,
)
from rules.battlescribe.mapping import DEFAULT as DEFAULT_MAPPING

POINTS_TYPE, POWER_TYPE = "points", "power"


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
    #: The player's own name for the unit and notes (BattleScribe's customName, customNotes)
    custom_name: str = ""
    notes: str = ""


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
    #: the names of the two cost types, from the system's BattleScribe mapping
    #: (`BattleScribeMapping.cost_type_name`): the one list of cost-type names per system
    points_name: str = DEFAULT_MAPPING.cost_type_name(POINTS_TYPE)
    power_name: str = DEFAULT_MAPPING.cost_type_name(POWER_TYPE)


def _costs(points: float, power: float | None, doc: RosterDocument) -> list[FileCost]:
    costs = [FileCost(doc.points_name, doc.points_type, Fraction(points))]
    if power is not None:
        costs.append(FileCost(doc.power_name, doc.power_type, Fraction(power)))
    return costs


def roster_file(doc: RosterDocument) -> RosterFile:
    """The list as a roster file."""
    total = sum(u.points for u in doc.units)
    power_total = sum(u.power or 0 for u in doc.units) if doc.with_power else None
    roster = RosterFile(
        id=stable_id("roster", doc.name, doc.system_id),
        name=doc.name,
        game_system_id=doc.system_id,
        game_system_name=doc.system_name,
        costs=_costs(total, power_total, doc),
    )
    if doc.points_limit is not None:  # a list sized by models has no points limit to state
        roster.cost_limits.append(FileCost(doc.points_name, doc.points_type, Fraction(doc.points_limit)))
    force = FileForce(
        id=stable_id("force", doc.catalogue_id),
        name=doc.force_entry[1] if doc.force_entry else doc.catalogue_name,
        entry_id=doc.force_entry[0] if doc.force_entry else stable_id("force-entry", doc.system_id),
        catalogue_id=doc.catalogue_id,
        catalogue_revision=doc.catalogue_revision,
        catalogue_name=doc.catalogue_name,
    )
    roster.forces.append(force)
    categories: dict[str, str] = {}
    for index, unit in enumerate(doc.units):
        force.selections.append(_unit(index, unit, doc, categories))
    force.categories = [
        FileCategory(stable_id("force-category", name), name, category_id)
        for name, category_id in categories.items()
    ]
    return roster


def _unit(index: int, unit: RosterUnit, doc: RosterDocument, categories: dict[str, str]) -> FileSelection:
    one_model = (
        len(unit.models) == 1
        and int(unit.models[0]["count"]) == 1
        and not unit.upgrades
        and not unit.per_selection
    )
    selection = FileSelection(
        id=stable_id("selection", str(index), unit.entry_id),
        name=unit.name,
        entry_id=unit.entry_id,
        number=1,
        type="model" if one_model else "unit",
        custom_name=unit.custom_name,
        custom_notes=unit.notes,
    )
    if not one_model:
        per = {str(k): int(v) for k, v in unit.per_selection.items()}
        for model in unit.models:
            name = str(model["name"])
            selection.selections.append(
                FileSelection(
                    id=stable_id("model", str(index), name),
                    name=name,
                    entry_id=unit.model_ids.get(name) or stable_id(unit.entry_id, name),
                    number=max(1, int(model["count"]) // per.get(name, 1)),
                    type="model",
                )
            )
    for upgrade in unit.upgrades:
        selection.selections.append(
            FileSelection(
                id=stable_id("upgrade", str(index), str(upgrade["entry_id"])),
                name=str(upgrade["name"]),
                entry_id=str(upgrade["entry_id"]),
                number=int(upgrade.get("number") or upgrade["count"]),
                type=str(upgrade.get("type") or "upgrade"),
                costs=_costs(upgrade.get("points", 0) * int(upgrade["count"]), None, doc),
            )
        )
    # a selection's costs are its own; BattleScribe totals the tree (upgrades are priced above)
    own = unit.points - sum(u.get("points", 0) * int(u["count"]) for u in unit.upgrades)
    selection.costs = _costs(own, unit.power if doc.with_power else None, doc)
    for number, name in enumerate(unit.categories):
        category_id = categories.setdefault(name, unit.category_ids.get(name) or stable_id("category", name))
        selection.categories.append(
            FileCategory(stable_id("unit-category", str(index), name), name, category_id, primary=number == 0)
        )
    return selection


def roster_xml(doc: RosterDocument) -> bytes:
    """The list as BattleScribe XML (UTF-8, with the declaration)."""
    return roster_bytes(roster_file(doc))


def roster_rosz(doc: RosterDocument, filename: str = "roster.ros") -> bytes:
    """The list zipped as BattleScribe's .rosz (one .ros member)."""
    return rosz_of(roster_xml(doc), filename)
