"""Reading a BattleScribe roster (.ros, or zipped .rosz) into plain data, hardened like catalogues.

Only what a list needs is read: the roster's name, game system and points limit, and per
force the top-level selections (units) with their nested selections (models and upgrades),
how many of each, and the points BattleScribe totals for each unit (the sum of the `pts`
costs in its selection tree).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any
from xml.etree.ElementTree import Element

from rules.battlescribe.catalogue import ROSTER, number
from rules.battlescribe.xml_reader import BattleScribeError, SourceFile, local_name, parse

POINTS_NAMES = ("pts", "points", "pt", "point")
POWER_NAMES = ("pl", "power", "power level")
#: Most selections a roster may hold (a real roster has a few hundred).
MAX_SELECTIONS = 20000


@dataclass
class RosterSelection:
    name: str
    entry_id: str
    number: int
    type: str
    points: Fraction = Fraction(0)  # this selection's whole tree
    power: Fraction = Fraction(0)
    children: list[RosterSelection] = field(default_factory=list)

    def walk(self):
        for child in self.children:
            yield child
            yield from child.walk()


@dataclass
class Roster:
    name: str
    game_system_id: str
    game_system_name: str
    points_limit: int | None
    units: list[RosterSelection] = field(default_factory=list)
    catalogue_names: list[str] = field(default_factory=list)
    #: The force entry (detachment) id of each force, in order.
    force_entry_ids: list[str] = field(default_factory=list)
    #: The BattleScribe selection tree of each unit (`{"entry", "number", "children"}`), in order.
    trees: list[dict] = field(default_factory=list)
    #: The points total the roster states (its own `costs`), None when it states none. A file
    #: edited by hand or saved by another tool may state a total its selections do not add up
    #: to (480 stated, 65 selected): the importers report the difference.
    declared_points: Fraction | None = None

    @property
    def selections_points(self) -> Fraction:
        """The points of the roster's selections (every unit's whole tree)."""
        return sum((unit.points for unit in self.units), Fraction(0))

    def declared_difference(self) -> tuple[Fraction, Fraction] | None:
        """(stated total, selections' total) when the roster states a total they do not make."""
        if self.declared_points is None or self.declared_points == self.selections_points:
            return None
        return self.declared_points, self.selections_points


def _list(element: Element, name: str) -> list[Element]:
    for child in element:
        if local_name(child.tag) == name:
            return list(child)
    return []


class _Reader:
    def __init__(self, file: str):
        self.file = file
        self.count = 0

    def costs(self, element: Element, path: str) -> tuple[Fraction, Fraction]:
        points = power = Fraction(0)
        for cost in _list(element, "costs"):
            name = cost.get("name", "").strip().lower()
            try:
                value = number(cost.get("value"))
            except ValueError as exc:
                raise BattleScribeError([f"{self.file}: {path}/cost@value: {exc}"]) from None
            if name in POINTS_NAMES:
                points += value
            elif name in POWER_NAMES:
                power += value
        return points, power

    def selection(self, element: Element, path: str) -> RosterSelection:
        self.count += 1
        if self.count > MAX_SELECTIONS:
            raise BattleScribeError([f"{self.file}: more than {MAX_SELECTIONS} selections"])
        name = element.get("name", "")
        here = f"{path}/selection[@name={name!r}]"
        try:
            count = int(element.get("number", "1"))
        except ValueError:
            raise BattleScribeError([f"{self.file}: {here}@number: not a whole number"]) from None
        selection = RosterSelection(
            name=name, entry_id=element.get("entryId", ""), number=count, type=element.get("type", "")
        )
        selection.points, selection.power = self.costs(element, here)
        for child in _list(element, "selections"):
            sub = self.selection(child, here)
            selection.children.append(sub)
            selection.points += sub.points
            selection.power += sub.power
        return selection

    def roster(self, root: Element) -> Roster:
        if local_name(root.tag) != ROSTER:
            raise BattleScribeError(
                [f"{self.file}: {local_name(root.tag)}: not a BattleScribe roster (expected <roster>)"]
            )
        limit = None
        for cost_limit in _list(root, "costLimits"):
            if cost_limit.get("name", "").strip().lower() in POINTS_NAMES:
                try:
                    value = number(cost_limit.get("value"))
                except ValueError as exc:
                    raise BattleScribeError([f"{self.file}: roster/costLimit@value: {exc}"]) from None
                limit = int(value) if value >= 0 else None
        roster = Roster(
            name=root.get("name", "") or "BattleScribe roster",
            game_system_id=root.get("gameSystemId", ""),
            game_system_name=root.get("gameSystemName", ""),
            points_limit=limit,
        )
        if any(c.get("name", "").strip().lower() in POINTS_NAMES for c in _list(root, "costs")):
            roster.declared_points = self.costs(root, "roster")[0]
        for force in _list(root, "forces"):
            self.force(force, roster, "roster/force")
        return roster

    def force(self, force: Element, roster: Roster, path: str) -> None:
        roster.catalogue_names.append(force.get("catalogueName", ""))
        roster.force_entry_ids.append(force.get("entryId", ""))
        here = f"{path}[@name={force.get('name', '')!r}]"
        for element in _list(force, "selections"):
            selection = self.selection(element, here)
            roster.units.append(selection)
            roster.trees.append(_tree(selection))
        for sub in _list(force, "forces"):
            self.force(sub, roster, f"{here}/force")


def _tree(selection: RosterSelection) -> dict:
    return {
        "entry": selection.entry_id,
        "number": max(selection.number, 1),
        "children": [_tree(child) for child in selection.children],
    }


def read_roster(source: SourceFile) -> Roster:
    """Parse a .ros/.rosz; `BattleScribeError` names the file and element of any problem."""
    return _Reader(source.name).roster(parse(source))


class _JsonReader:
    """New Recruit's JSON roster: BattleScribe's roster schema with elements as objects and
    child lists as arrays (`roster.forces[].selections[].selections[]`, `costs[]` of
    `{name, value}`). Read into the same `Roster` as the XML, with the same limits."""

    def __init__(self, file: str):
        self.file = file
        self.count = 0

    def _items(self, value: Any, path: str) -> list[Any]:
        if value is None:
            return []
        if isinstance(value, Mapping):  # some writers keep XML's wrapper: {"selection": [...]}
            value = next(iter(value.values()), [])
        if not isinstance(value, list):
            raise BattleScribeError([f"{self.file}: {path}: must be a list"])
        return value

    def costs(self, element: Mapping[str, Any], path: str) -> tuple[Fraction, Fraction]:
        points = power = Fraction(0)
        for index, cost in enumerate(self._items(element.get("costs"), f"{path}.costs")):
            if not isinstance(cost, Mapping):
                raise BattleScribeError([f"{self.file}: {path}.costs[{index}]: must be an object"])
            name = str(cost.get("name", "")).strip().lower()
            try:
                value = number(str(cost.get("value", 0)))
            except ValueError as exc:
                raise BattleScribeError([f"{self.file}: {path}.costs[{index}].value: {exc}"]) from None
            if name in POINTS_NAMES:
                points += value
            elif name in POWER_NAMES:
                power += value
        return points, power

    def selection(self, element: Any, path: str, depth: int = 0) -> RosterSelection:
        self.count += 1
        if self.count > MAX_SELECTIONS:
            raise BattleScribeError([f"{self.file}: more than {MAX_SELECTIONS} selections"])
        if not isinstance(element, Mapping) or depth > 30:
            raise BattleScribeError([f"{self.file}: {path}: must be an object"])
        count = element.get("number", 1)
        if isinstance(count, bool) or not isinstance(count, int | str) or not str(count).isdigit():
            raise BattleScribeError([f"{self.file}: {path}.number: not a whole number"])
        selection = RosterSelection(
            name=str(element.get("name", "")), entry_id=str(element.get("entryId", "")),
            number=int(count), type=str(element.get("type", "")),
        )
        selection.points, selection.power = self.costs(element, path)
        for index, child in enumerate(self._items(element.get("selections"), f"{path}.selections")):
            sub = self.selection(child, f"{path}.selections[{index}]", depth + 1)
            selection.children.append(sub)
            selection.points += sub.points
            selection.power += sub.power
        return selection

    def roster(self, data: Any) -> Roster:
        root = data.get("roster") if isinstance(data, Mapping) else None
        if not isinstance(root, Mapping):
            raise BattleScribeError([f"{self.file}: roster: not a roster (expected an object \"roster\")"])
        limit = None
        for index, cost_limit in enumerate(self._items(root.get("costLimits"), "roster.costLimits")):
            name = str(cost_limit.get("name", "")) if isinstance(cost_limit, Mapping) else ""
            if name.strip().lower() in POINTS_NAMES:
                try:
                    value = number(str(cost_limit.get("value")))
                except ValueError as exc:
                    where = f"roster.costLimits[{index}].value"
                    raise BattleScribeError([f"{self.file}: {where}: {exc}"]) from None
                limit = int(value) if value >= 0 else None
        roster = Roster(
            name=str(root.get("name", "")) or "New Recruit roster",
            game_system_id=str(root.get("gameSystemId", "")),
            game_system_name=str(root.get("gameSystemName", "")),
            points_limit=limit,
        )
        stated = self._items(root.get("costs"), "roster.costs")
        names = [str(c.get("name", "")).strip().lower() for c in stated if isinstance(c, Mapping)]
        if any(name in POINTS_NAMES for name in names):
            roster.declared_points = self.costs(root, "roster")[0]
        for index, force in enumerate(self._items(root.get("forces"), "roster.forces")):
            self.force(force, roster, f"roster.forces[{index}]", 0)
        return roster

    def force(self, force: Any, roster: Roster, path: str, depth: int) -> None:
        if not isinstance(force, Mapping) or depth > 10:
            raise BattleScribeError([f"{self.file}: {path}: must be an object"])
        roster.catalogue_names.append(str(force.get("catalogueName", "")))
        for index, element in enumerate(self._items(force.get("selections"), f"{path}.selections")):
            roster.units.append(self.selection(element, f"{path}.selections[{index}]"))
        for index, sub in enumerate(self._items(force.get("forces"), f"{path}.forces")):
            self.force(sub, roster, f"{path}.forces[{index}]", depth + 1)


def read_roster_json(data: Any, *, name: str) -> Roster:
    """A New Recruit JSON roster (already parsed); `BattleScribeError` names the file and field."""
    return _JsonReader(name).roster(data)
