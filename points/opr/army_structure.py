"""Army-structure rules of an OPR list (docs/rules/opr-points.md §7), each switchable per list.

A violation names the unit, the rule and the numbers ("Heavy Tank costs 812 pts, over 35%
of 2000 (700)"). A list with violations can still be saved; it is marked invalid. The
points limit (rule 6) is always checked; the other rules are switched by the list's
`options` (one key per rule, see `OPTION_KEYS`; the unit format's `army_structure` key
switches the seed's "Struktura armii" pair, rules 1 and 2, at once).

Messages go through `_()`, the core's plain-Python translation hook (`points.catalogue.i18n`):
Django's `gettext` once the `rules` app is ready, the identity elsewhere; the core stays
Django-free. The rule labels are marked with `gettext_noop` and translated where shown.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, NamedTuple

from points.catalogue.i18n import _, gettext_noop
from points.opr import tables
from points.opr.army import Army
from points.opr.breakdown import Breakdown, decimal_text, exact_text
from points.opr.unit import Unit
from points.opr.unit_cost import price, weapon_balance

#: The list's switch for each optional rule of §7, with what it checks.
OPTION_KEYS: dict[str, str] = {
    "max_units_per_200": gettext_noop("At most 1 unit per full 200 points of the points limit (§7.1)"),
    "unit_cost_bounds": gettext_noop(
        # xgettext:no-python-format
        "No unit over 35% of the limit, under 50 points, or over 21 models (§7.2)"
    ),
    "hero_limits": gettext_noop("At most 1 hero per full 500 points, and 1 per unit (§7.3)"),
    "unit_balance": gettext_noop("A model's weapons cost 1× to 5× its base cost, before halving (§7.4)"),
    "ability_markers": gettext_noop(
        "A unit has at most one active ability; a model an active ability or an aura (§7.5)"
    ),
}
#: A key that switches several rules at once: the seed's "Struktura armii" is rules 1 and 2.
GROUP_OPTIONS: dict[str, tuple[str, ...]] = {"army_structure": ("max_units_per_200", "unit_cost_bounds")}
#: Every optional rule is on unless the list switches it off.
DEFAULT_OPTIONS: dict[str, bool] = dict.fromkeys(OPTION_KEYS, True)
#: Rule 6, the points limit: always on, not an option.
POINTS_LIMIT_RULE = "points_limit"


def enabled_rules(options: Mapping[str, bool]) -> dict[str, bool]:
    """Which optional rules are on: defaults, then group keys, then one-rule keys (most specific wins)."""
    enabled = dict(DEFAULT_OPTIONS)
    for group, members in GROUP_OPTIONS.items():
        if group in options:
            for member in members:
                enabled[member] = bool(options[group])
    for key in OPTION_KEYS:
        if key in options:
            enabled[key] = bool(options[key])
    return enabled


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken rule: which (`rule`, the option key; `check`, the precise test), where
    (`unit`, `model`: names, or None for the whole list), and the numbers (`value` against
    `limit`)."""

    rule: str
    check: str
    unit: str | None
    message: str
    value: Fraction | int
    limit: Fraction | int
    model: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "check": self.check,
            "unit": self.unit,
            "model": self.model,
            "message": self.message,
            "value": exact_text(self.value),
            "limit": exact_text(self.limit),
        }


@dataclass(frozen=True, slots=True)
class PricedEntry:
    """One entry of a list with its unit's breakdown; `points` is for all `count` copies."""

    breakdown: Breakdown
    count: int

    @property
    def points(self) -> int:
        return self.breakdown.points * self.count


@dataclass(frozen=True, slots=True)
class ArmyPrice:
    """A list's total: the sum of rounded unit totals (§1), entry by entry."""

    name: str
    points_limit: int
    entries: tuple[PricedEntry, ...]

    @property
    def total(self) -> int:
        return sum(entry.points for entry in self.entries)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "points_limit": self.points_limit,
            "total": self.total,
            "units": [
                {
                    "name": e.breakdown.name,
                    "count": e.count,
                    "points_each": e.breakdown.points,
                    "points": e.points,
                    "exact_each": decimal_text(e.breakdown.exact),
                    "category": e.breakdown.category,
                }
                for e in self.entries
            ],
        }


def price_army(army: Army) -> ArmyPrice:
    """Price every entry of a list (a unit taken twice is priced once)."""
    priced: dict[int, Breakdown] = {}
    entries = []
    for entry in army.units:
        breakdown = priced.get(id(entry.unit))
        if breakdown is None:
            breakdown = priced[id(entry.unit)] = price(entry.unit)
        entries.append(PricedEntry(breakdown, entry.count))
    return ArmyPrice(army.name, army.points_limit, tuple(entries))


def _shown(value: Fraction | int) -> str:
    """A number for a message, the way players read points: whole numbers as they are, others
    rounded half-up to one decimal place ("62.5", not "62.52586"); the exact value stays in
    the violation's `value` and `limit`."""
    value = Fraction(value)
    sign, value = ("-", -value) if value < 0 else ("", value)
    tenths = (value * 10 + Fraction(1, 2)).__floor__()
    return sign + (str(tenths // 10) if tenths % 10 == 0 else f"{tenths // 10}.{tenths % 10}")


# --- rule 6: the points limit (always on) ---------------------------------------------------


def check_points_limit(army: Army, priced: ArmyPrice) -> list[Violation]:
    """§7.6: the army total (sum of rounded unit totals) is at most the points limit."""
    if priced.total <= army.points_limit:
        return []
    message = _("{army} totals {total} pts, over its points limit of {limit}").format(
        army=army.name, total=priced.total, limit=army.points_limit
    )
    return [Violation(POINTS_LIMIT_RULE, "over_points_limit", None, message, priced.total, army.points_limit)]


# --- rule 1: units per 200 points -----------------------------------------------------------


def units_allowed(points_limit: int) -> int:
    """§7.1: one unit per *full* 200 points of the limit."""
    return points_limit // tables.POINTS_PER_UNIT_ALLOWED


def check_units_per_points(army: Army, priced: ArmyPrice) -> list[Violation]:
    """§7.1: at most 1 unit per full 200 points (an entry taken twice counts twice)."""
    allowed = units_allowed(army.points_limit)
    if army.unit_count <= allowed:
        return []
    message = _("{army} has {count} units, over 1 per full {per} pts of {limit} ({allowed})").format(
        army=army.name,
        count=army.unit_count,
        per=tables.POINTS_PER_UNIT_ALLOWED,
        limit=army.points_limit,
        allowed=allowed,
    )
    return [Violation("max_units_per_200", "too_many_units", None, message, army.unit_count, allowed)]


# --- rule 2: unit cost and size -------------------------------------------------------------


def check_unit_cost_bounds(army: Army, priced: ArmyPrice) -> list[Violation]:
    """§7.2: no unit costs over 35% of the limit or under 50 points, or has over 21 models."""
    cap = tables.MAX_UNIT_SHARE * army.points_limit
    share = _shown(tables.MAX_UNIT_SHARE * 100)
    found: list[Violation] = []
    for entry in priced.entries:
        b = entry.breakdown
        if b.points > cap:
            # xgettext:no-python-format
            message = _("{unit} costs {points} pts, over {share}% of {limit} ({cap})").format(
                unit=b.name, points=b.points, share=share, limit=army.points_limit, cap=_shown(cap)
            )
            found.append(Violation("unit_cost_bounds", "over_max_share", b.name, message, b.points, cap))
        if b.points < tables.MIN_UNIT_POINTS:
            message = _("{unit} costs {points} pts, under the minimum of {minimum}").format(
                unit=b.name, points=b.points, minimum=tables.MIN_UNIT_POINTS
            )
            found.append(
                Violation(
                    "unit_cost_bounds", "under_min_points", b.name, message, b.points, tables.MIN_UNIT_POINTS
                )
            )
        if b.model_count > tables.MAX_MODELS_PER_UNIT:
            message = _("{unit} has {models} models, over the maximum of {maximum}").format(
                unit=b.name, models=b.model_count, maximum=tables.MAX_MODELS_PER_UNIT
            )
            found.append(
                Violation(
                    "unit_cost_bounds",
                    "too_many_models",
                    b.name,
                    message,
                    b.model_count,
                    tables.MAX_MODELS_PER_UNIT,
                )
            )
    return found


# --- rule 3: heroes -------------------------------------------------------------------------


def heroes_allowed(points_limit: int) -> int:
    """§7.3: one hero per 500 points. Decision (ours, `tables.POINTS_PER_HERO_ALLOWED`): full 500s."""
    return points_limit // tables.POINTS_PER_HERO_ALLOWED


def _heroes_in(unit: Unit) -> int:
    return sum(model.count for model in unit.models if model.has("Hero"))


def check_hero_limits(army: Army, priced: ArmyPrice) -> list[Violation]:
    """§7.3: at most 1 hero per (full) 500 points of the limit, and at most 1 per unit."""
    found: list[Violation] = []
    total = 0
    for entry in army.units:
        heroes = _heroes_in(entry.unit)
        total += heroes * entry.count
        if heroes > tables.MAX_HEROES_PER_UNIT:
            message = _("{unit} has {heroes} heroes, over {maximum} per unit").format(
                unit=entry.unit.name, heroes=heroes, maximum=tables.MAX_HEROES_PER_UNIT
            )
            found.append(
                Violation(
                    "hero_limits",
                    "heroes_per_unit",
                    entry.unit.name,
                    message,
                    heroes,
                    tables.MAX_HEROES_PER_UNIT,
                )
            )
    allowed = heroes_allowed(army.points_limit)
    if total > allowed:
        message = _("{army} has {heroes} heroes, over 1 per full {per} pts of {limit} ({allowed})").format(
            army=army.name,
            heroes=total,
            per=tables.POINTS_PER_HERO_ALLOWED,
            limit=army.points_limit,
            allowed=allowed,
        )
        found.insert(0, Violation("hero_limits", "heroes_per_points", None, message, total, allowed))
    return found


# --- rule 4: unit balance -------------------------------------------------------------------


class _BalanceLine(NamedTuple):
    """What rule 4 reads of one model profile (the same names as its `ModelBreakdown`)."""

    name: str
    base_cost: Fraction
    weapon_cost_before_halving: Fraction


def check_unit_balance(army: Army, priced: ArmyPrice) -> list[Violation]:
    """§7.4: each model's weapon cost, before the warrior/shooter halving, is 1× to 5× its base cost."""
    found: list[Violation] = []
    low_n, low_d = tables.BALANCE_MIN_RATIO.numerator, tables.BALANCE_MIN_RATIO.denominator
    high_n, high_d = tables.BALANCE_MAX_RATIO.numerator, tables.BALANCE_MAX_RATIO.denominator
    for entry, army_entry in zip(priced.entries, army.units, strict=True):
        # the two costs of each profile, without building the unit's breakdown (the
        # breakdowns were most of validating a list); compared as integers, Fractions only for a message
        for name, (base_n, base_d), (weapons_n, weapons_d) in weapon_balance(army_entry.unit):
            under = weapons_n * base_d * low_d < low_n * base_n * weapons_d
            over = not under and weapons_n * base_d * high_d > high_n * base_n * weapons_d
            if not (under or over):
                continue
            m = _BalanceLine(name, Fraction(base_n, base_d), Fraction(weapons_n, weapons_d))
            weapons = m.weapon_cost_before_halving
            low = tables.BALANCE_MIN_RATIO * m.base_cost
            high = tables.BALANCE_MAX_RATIO * m.base_cost
            if under:
                # In a player's words (issue 43): what the model carries against what it is,
                # not "before halving" and "base cost", the formula's terms.
                message = _(
                    "{unit}: {model} carries too little weaponry for what it is: its weapons are "
                    "worth {weapons} pts, and the rules ask for at least {ratio}× the model's own cost "
                    "({bound} pts)"
                ).format(
                    unit=entry.breakdown.name,
                    model=m.name,
                    weapons=_shown(weapons),
                    ratio=_shown(tables.BALANCE_MIN_RATIO),
                    bound=_shown(low),
                )
                found.append(
                    Violation(
                        "unit_balance",
                        "weapons_under_base",
                        entry.breakdown.name,
                        message,
                        weapons,
                        low,
                        model=m.name,
                    )
                )
            else:
                message = _(
                    "{unit}: {model} carries too much weaponry for what it is: its weapons are "
                    "worth {weapons} pts, and the rules allow at most {ratio}× the model's own cost "
                    "({bound} pts)"
                ).format(
                    unit=entry.breakdown.name,
                    model=m.name,
                    weapons=_shown(weapons),
                    ratio=_shown(tables.BALANCE_MAX_RATIO),
                    bound=_shown(high),
                )
                found.append(
                    Violation(
                        "unit_balance",
                        "weapons_over_base",
                        entry.breakdown.name,
                        message,
                        weapons,
                        high,
                        model=m.name,
                    )
                )
    return found


# --- rule 5: ability markers ----------------------------------------------------------------


def active_abilities(unit: Unit) -> list[str]:
    """The distinct active abilities of a unit: Caster, Relay, Mending, and each order (§7.5)."""
    names: list[str] = []
    for model in unit.models:
        for name in _model_active(model):
            if name not in names:
                names.append(name)
    return names


def _model_active(model) -> list[str]:
    active = [r.name for r in model.rules if r.name in tables.ACTIVE_ABILITIES]
    active += [f"Order: {o.grants}" for o in model.orders]
    return active


def _model_auras(model) -> list[str]:
    auras = [r.name for r in model.rules if r.name in tables.AURA_ABILITIES]
    auras += [f"Aura: {a.grants}" for a in model.auras]
    return auras


def check_ability_markers(army: Army, priced: ArmyPrice) -> list[Violation]:
    """§7.5: a unit has at most one active ability; a model has an active ability or an aura."""
    found: list[Violation] = []
    for entry in army.units:
        unit = entry.unit
        active = active_abilities(unit)
        if len(active) > tables.MAX_ACTIVE_ABILITIES_PER_UNIT:
            message = _("{unit} has {count} active abilities ({names}), over {maximum} per unit").format(
                unit=unit.name,
                count=len(active),
                names=", ".join(active),
                maximum=tables.MAX_ACTIVE_ABILITIES_PER_UNIT,
            )
            found.append(
                Violation(
                    "ability_markers",
                    "active_per_unit",
                    unit.name,
                    message,
                    len(active),
                    tables.MAX_ACTIVE_ABILITIES_PER_UNIT,
                )
            )
        for model in unit.models:
            model_active, model_auras = _model_active(model), _model_auras(model)
            if model_active and model_auras:
                message = _(
                    "{unit}: {model} has an active ability ({active}) and an aura ({auras}); "
                    "a model may have one or the other"
                ).format(
                    unit=unit.name,
                    model=model.name,
                    active=", ".join(model_active),
                    auras=", ".join(model_auras),
                )
                found.append(
                    Violation(
                        "ability_markers",
                        "active_and_aura",
                        unit.name,
                        message,
                        len(model_active) + len(model_auras),
                        1,
                        model=model.name,
                    )
                )
    return found


#: Each optional rule's check, by its option key, in §7 order.
CHECKS = {
    "max_units_per_200": check_units_per_points,
    "unit_cost_bounds": check_unit_cost_bounds,
    "hero_limits": check_hero_limits,
    "unit_balance": check_unit_balance,
    "ability_markers": check_ability_markers,
}


def validate(army: Army, priced: ArmyPrice | None = None) -> list[Violation]:
    """Every army-structure violation of a list: the points limit, then each rule switched on."""
    if priced is None:
        priced = price_army(army)
    found = check_points_limit(army, priced)
    enabled = enabled_rules(army.options)
    for key, check in CHECKS.items():
        if enabled[key]:
            found.extend(check(army, priced))
    return found
