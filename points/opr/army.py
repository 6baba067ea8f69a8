"""Plain-data shape of an army list in the interchange format (`docs/unit-format.md`).

An army is a name, a points limit, the list's switches for the optional army-structure
rules, and its units (each with how many times it is taken). Like `points.opr.unit`, this is the
shape the functional core passes around; `rules.systems.opr.unit_format` parses and writes the JSON
form, and each system's validator (OPR: `points.opr.validate`) reads it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from points.opr.unit import Unit
from points.shared_format import FORMAT_VERSION


@dataclass(frozen=True, slots=True)
class ArmyEntry:
    """One unit of the list, taken `count` times (each copy is a unit of the army)."""

    unit: Unit
    count: int = 1


@dataclass(frozen=True, slots=True)
class Army:
    """An army list.

    `options` holds the list's switches for the optional structure rules by key (for OPR:
    `points.opr.army_structure.OPTION_KEYS`); a key that is absent takes the system's default.
    """

    name: str
    points_limit: int
    units: tuple[ArmyEntry, ...] = ()
    options: dict[str, bool] = field(default_factory=dict, hash=False)
    system: str = "opr"
    format: int = FORMAT_VERSION

    @property
    def unit_count(self) -> int:
        """How many units the list fields (an entry taken twice is two units)."""
        return sum(entry.count for entry in self.units)
