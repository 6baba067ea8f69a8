"""The priced unit, term by term: what the UI, the API and the command line show.

Every number a user sees can be traced to a row of `docs/rules/opr-points.md`: a unit is
models, a model is base cost (morale × defence × toughness) plus weapons plus abilities, a
weapon is attacks × 2 × range × hit chance × multipliers. These frozen dataclasses hold the
exact values (Fractions); `to_dict()` turns them into JSON-ready data where every exact
value is a string (a decimal when it terminates, otherwise a fraction "p/q").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any, Generic, Literal, TypeVar

WeaponCategory = Literal["melee", "ranged"]
UnitCategory = Literal["warrior", "shooter"]
AbilityKind = Literal["per_toughness", "aura", "order", "flat"]

#: Places used when a value that does not terminate in decimal must be shown as a decimal.
DISPLAY_PLACES = 10


def _terminating_scale(denominator: int) -> int | None:
    """The power of ten that makes 1/denominator whole, or None if it never does."""
    twos = fives = 0
    while denominator % 2 == 0:
        denominator //= 2
        twos += 1
    while denominator % 5 == 0:
        denominator //= 5
        fives += 1
    return max(twos, fives) if denominator == 1 else None


def _decimal_digits(value: Fraction, places: int) -> str:
    """`value` × 10**places (already whole) written with `places` decimals, zeros trimmed.

    Integer arithmetic on numerator and denominator (a breakdown writes ~70 of
    these, and Fraction multiplication and comparison were most of its cost)."""
    numerator, denominator = value.numerator, value.denominator
    units = abs(numerator) * 10**places // denominator
    sign = "-" if numerator < 0 else ""
    whole, frac = divmod(units, 10**places)
    if places == 0:
        return f"{sign}{whole}"
    text = f"{frac:0{places}d}".rstrip("0")
    return f"{sign}{whole}.{text}" if text else f"{sign}{whole}"


def exact_text(value: Fraction | int) -> str:
    """An exact value as text: "199.728" when it terminates in decimal, else "29/3"."""
    if isinstance(value, int):
        return str(value)
    return _exact_text(value.numerator, value.denominator)


@lru_cache(maxsize=4096)
def _exact_text(numerator: int, denominator: int) -> str:
    """`exact_text` by the value's lowest terms: the same few hundred values recur in every
    breakdown (costs from the tables), so each is written once per process."""
    scale = _terminating_scale(denominator)
    if scale is None:
        return f"{numerator}/{denominator}"
    return _decimal_digits(Fraction(numerator, denominator), scale)


def decimal_text(value: Fraction | int, places: int = DISPLAY_PLACES) -> str:
    """A decimal string: exact when the value terminates, else rounded half-up to `places`."""
    value = Fraction(value)
    scale = _terminating_scale(value.denominator)
    if scale is not None:
        return _decimal_digits(value, scale)
    step = Fraction(1, 10**places)
    rounded = Fraction((value / step + Fraction(1, 2)).__floor__()) * step
    return _decimal_digits(rounded, places)


@dataclass(frozen=True, slots=True)
class Term:
    """One named addend or factor of a formula ("Rending" +1, "Blast(3)" ×2.8)."""

    name: str
    value: Fraction

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "value": exact_text(self.value)}


def _terms(terms: tuple[Term, ...]) -> list[dict[str, Any]]:
    return [t.to_dict() for t in terms]


@dataclass(frozen=True, slots=True)
class MoraleBreakdown:
    """§2: modifier = 1.3 − (Q − 1)/10 × m, with m's factors (Fearless ×0.5, …)."""

    quality: int
    multiplier: Fraction
    multiplier_terms: tuple[Term, ...]
    modifier: Fraction

    def to_dict(self) -> dict[str, Any]:
        return {
            "quality": self.quality,
            "multiplier": exact_text(self.multiplier),
            "multiplier_terms": _terms(self.multiplier_terms),
            "modifier": exact_text(self.modifier),
        }


@dataclass(frozen=True, slots=True)
class DefenceBreakdown:
    """§3: modifier = the Defence's base value plus each row the model has."""

    defence: int
    base: Fraction
    rows: tuple[Term, ...]
    modifier: Fraction

    def to_dict(self) -> dict[str, Any]:
        return {
            "defence": self.defence,
            "base": exact_text(self.base),
            "rows": _terms(self.rows),
            "modifier": exact_text(self.modifier),
        }


@dataclass(frozen=True, slots=True)
class ToughnessBreakdown:
    """§4: the modifier of the priced toughness (a Massive model: the sum of its parts)."""

    toughness: int
    priced_toughness: int
    parts: tuple[tuple[str, int], ...]
    modifier: Fraction
    interpolated: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "toughness": self.toughness,
            "priced_toughness": self.priced_toughness,
            "parts": [{"name": name, "toughness": t} for name, t in self.parts],
            "modifier": exact_text(self.modifier),
            "interpolated": self.interpolated,
        }


@dataclass(frozen=True, slots=True)
class WeaponBreakdown:
    """§5: cost = attacks × 2 × range modifier × hit chance × Π multipliers, for ONE model.

    `assault_copy` marks the melee pricing of a ranged Assault weapon (both costs count).
    `cost_before_halving` is the formula's value; `cost` is what the model pays after the
    warrior/shooter rule halved the cheaper category (`halved`).
    """

    name: str
    category: WeaponCategory
    assault_copy: bool
    attacks: int
    range: int
    range_modifier: Fraction
    quality: int
    quality_source: str
    hit_chance: Fraction
    hit_terms: tuple[Term, ...]
    ap: int
    ap_modifier: Fraction
    ap_terms: tuple[Term, ...]
    multipliers: tuple[Term, ...]
    cost_before_halving: Fraction
    halved: bool
    cost: Fraction

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "category": self.category,
            "assault_copy": self.assault_copy,
            "attacks": self.attacks,
            "range": self.range,
            "range_modifier": exact_text(self.range_modifier),
            "quality": self.quality,
            "quality_source": self.quality_source,
            "hit_chance": exact_text(self.hit_chance),
            "hit_terms": _terms(self.hit_terms),
            "ap": self.ap,
            "ap_modifier": exact_text(self.ap_modifier),
            "ap_terms": _terms(self.ap_terms),
            "multipliers": _terms(self.multipliers),
            "cost_before_halving": exact_text(self.cost_before_halving),
            "halved": self.halved,
            "cost": exact_text(self.cost),
        }


@dataclass(frozen=True, slots=True)
class AbilityCost:
    """§6: one ability's price for one model: `rate` × `quantity` = `cost`.

    per_toughness: rate per point of toughness × toughness; aura: the aura column × 1 (6") or
    2 (12"); order: the order column × 1; flat: Fear(X) 0.75 × X, Caster(X) 8 × X, Transport(X)
    factor × X, Relay/Mending/Radio/Hero × 1.
    """

    name: str
    kind: AbilityKind
    rate: Fraction
    quantity: Fraction
    cost: Fraction

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "kind": self.kind,
            "rate": exact_text(self.rate),
            "quantity": exact_text(self.quantity),
            "cost": exact_text(self.cost),
        }


@dataclass(frozen=True, slots=True)
class ModelBreakdown:
    """§1: one model profile: base + weapons + abilities = `model_cost`; × `count` = `total`.

    `model_cost` is ONE model's final cost (after the warrior/shooter halving): the dice
    engine multiplies it by models killed for "expected points destroyed".
    """

    name: str
    count: int
    morale: MoraleBreakdown
    defence: DefenceBreakdown
    toughness: ToughnessBreakdown
    base_cost: Fraction
    weapons: tuple[WeaponBreakdown, ...]
    weapon_cost_before_halving: Fraction
    weapon_cost: Fraction
    abilities: tuple[AbilityCost, ...]
    ability_cost: Fraction
    model_cost: Fraction
    total: Fraction

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "count": self.count,
            "model_cost": exact_text(self.model_cost),
            "total": exact_text(self.total),
            "base_cost": exact_text(self.base_cost),
            "morale": self.morale.to_dict(),
            "defence": self.defence.to_dict(),
            "toughness": self.toughness.to_dict(),
            "weapons": [w.to_dict() for w in self.weapons],
            "weapon_cost_before_halving": exact_text(self.weapon_cost_before_halving),
            "weapon_cost": exact_text(self.weapon_cost),
            "abilities": [a.to_dict() for a in self.abilities],
            "ability_cost": exact_text(self.ability_cost),
        }


T = TypeVar("T")


class Deferred(Generic[T]):
    """A field value not built yet: `build()` makes it, on the field's first read (`BuiltOnFirstRead`)."""

    __slots__ = ("build",)

    def __init__(self, build: Callable[[], T]) -> None:
        self.build = build


class BuiltOnFirstRead:
    """A dataclass field that may be given as a `Deferred`, built on its first read and then kept.

    For `Breakdown.models`: `price()` needs a unit's totals at once, but the model and weapon
    breakdowns (thirty-odd objects for a 10-model, 3-weapon unit, most of the work of pricing a
    unit never seen) only when someone reads them. Reading the field, and so comparing, hashing,
    printing, copying or serialising the dataclass, builds it: no reader ever sees a `Deferred`.
    It needs an instance `__dict__` (no slots); the frozen dataclass still refuses assignment.
    """

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, instance: object, owner: type | None = None) -> Any:
        if instance is None:
            raise AttributeError(self.name)  # as for a field without a default: it stays required
        value = instance.__dict__[self.name]
        if type(value) is Deferred:
            value = instance.__dict__[self.name] = value.build()
        return value

    def __set__(self, instance: object, value: Any) -> None:
        instance.__dict__[self.name] = value


@dataclass(frozen=True)
class Breakdown:
    """A priced unit: the exact total, the rounded points, and every term behind them.

    `exact` = Σ model totals; `points` = `exact` rounded half-up, once for the unit (§1).
    `category` is "warrior" when the unit's melee weapons cost more than its ranged ones,
    else "shooter"; `halved_category` is the category whose weapons cost half (§5).
    `models` may be passed as a `Deferred`: it is built when first read (see `BuiltOnFirstRead`).
    """

    name: str
    exact: Fraction
    points: int
    category: UnitCategory
    melee_total: Fraction
    ranged_total: Fraction
    halved_category: WeaponCategory
    models: tuple[ModelBreakdown, ...] = BuiltOnFirstRead()  # type: ignore[assignment]
    model_count: int
    system: str = "opr"

    def __getstate__(self) -> dict[str, Any]:
        """Pickled (and copied) with its models built: a `Deferred` holds the engine's internals."""
        return {**self.__dict__, "models": self.models}

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: exact values as strings, `exact` always a decimal string.

        `exact` is exact when the total terminates in decimal (it does unless an
        interpolated third or sixth is involved); `exact_fraction` is always exact.
        """
        return {
            "system": self.system,
            "name": self.name,
            "points": self.points,
            "exact": decimal_text(self.exact),
            "exact_fraction": f"{self.exact.numerator}/{self.exact.denominator}"
            if self.exact.denominator != 1
            else str(self.exact.numerator),
            "category": self.category,
            "melee_total": exact_text(self.melee_total),
            "ranged_total": exact_text(self.ranged_total),
            "halved_category": self.halved_category,
            "model_count": self.model_count,
            "models": [m.to_dict() for m in self.models],
        }
