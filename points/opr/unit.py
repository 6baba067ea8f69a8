"""Plain-data shape of a unit in the interchange format (`docs/unit-format.md`).

OPR's unit in the points engine, the dice engine, list import and export, the API and
the command line: passed around as these frozen dataclasses, so
the functional core never sees a Django model or a raw dict. Parsing and validation of
the JSON form live in `rules.systems.opr.unit_format`; this module only says what a unit *is*.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from points.shared_format import FORMAT_VERSION


@dataclass(frozen=True, slots=True)
class Rule:
    """A special rule by its canonical English name, with its `(X)` value if it has one."""

    name: str
    value: int | None = None

    def __str__(self) -> str:
        return self.name if self.value is None else f"{self.name}({self.value})"


@dataclass(frozen=True, slots=True)
class Weapon:
    """A weapon profile. `range` 0 means a melee weapon (docs/unit-format.md)."""

    name: str
    range: int
    attacks: int
    ap: int = 0
    rules: tuple[Rule, ...] = ()

    @property
    def is_melee(self) -> bool:
        return self.range == 0

    def has(self, rule_name: str) -> bool:
        # a loop, not any(): the dice engine asks this many times a matchup, any() is 2x slower
        for r in self.rules:  # noqa: SIM110
            if r.name == rule_name:
                return True
        return False

    def value_of(self, rule_name: str) -> int | None:
        for r in self.rules:
            if r.name == rule_name:
                return r.value
        return None


@dataclass(frozen=True, slots=True)
class Aura:
    """An aura or an order: the model grants (or negates) `grants` to friends or enemies."""

    grants: str
    to: Literal["friends", "enemies"] = "friends"
    effect: Literal["grant", "negate"] = "grant"
    range: int = 6


@dataclass(frozen=True, slots=True)
class Part:
    """One element of a Massive model (a tank's hull, a monster's heads).

    The points engine prices a Massive model with the sum of its parts' toughness instead
    of its own (docs/rules/opr-points.md §4); the dice engine keeps using `Model.toughness`.
    """

    name: str
    toughness: int


@dataclass(frozen=True, slots=True)
class Model:
    """One model profile of a unit, `count` times. Models of a unit may differ."""

    name: str
    count: int
    quality: int
    defence: int
    toughness: int
    rules: tuple[Rule, ...] = ()
    weapons: tuple[Weapon, ...] = ()
    auras: tuple[Aura, ...] = ()
    orders: tuple[Aura, ...] = ()
    #: Only for a model with the Massive rule: the parts whose toughness is summed for pricing.
    parts: tuple[Part, ...] = ()

    def has(self, rule_name: str) -> bool:
        # a loop, not any(): the dice engine asks this many times a matchup, any() is 2x slower
        for r in self.rules:  # noqa: SIM110
            if r.name == rule_name:
                return True
        return False

    def value_of(self, rule_name: str) -> int | None:
        for r in self.rules:
            if r.name == rule_name:
                return r.value
        return None


@dataclass(frozen=True, slots=True)
class Unit:
    """A unit of the OPR-style system: a name and one or more model profiles."""

    name: str
    models: tuple[Model, ...]
    system: str = "opr"
    format: int = FORMAT_VERSION
    extra: dict = field(default_factory=dict, compare=False, hash=False)

    @property
    def model_count(self) -> int:
        return sum(m.count for m in self.models)
