"""Reading a BattleScribe roster (.ros, or zipped .rosz) into plain data, hardened like catalogues.

Only what a list needs is read: the roster's name, game system and points limit, and per
force the top-level selections (units) with their nested selections (models and upgrades),
how many of each, and the points BattleScribe totals for each unit (the sum of the `pts`
costs in its selection tree).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
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
        for force in _list(root, "forces"):
            self.force(force, roster, "roster/force")
        return roster

    def force(self, force: Element, roster: Roster, path: str) -> None:
        roster.catalogue_names.append(force.get("catalogueName", ""))
        here = f"{path}[@name={force.get('name', '')!r}]"
        for element in _list(force, "selections"):
            roster.units.append(self.selection(element, here))
        for sub in _list(force, "forces"):
            self.force(sub, roster, f"{here}/force")


def read_roster(source: SourceFile) -> Roster:
    """Parse a .ros/.rosz; `BattleScribeError` names the file and element of any problem."""
    return _Reader(source.name).roster(parse(source))
