"""The cost of a model's abilities (docs/rules/opr-points.md §6), one named line per ability.

Four kinds of price:
- per toughness: the table value × the model's (priced) toughness (Stealth 2 × T3 = 6);
- aura: the table's aura column (the ability for 8 toughness), bought twice for 12";
- order: the table's order column (for 10 toughness), always 12", priced once;
- flat: Transport(X), Fear(X), Caster(X), Relay, Mending, Radio, and Hero (free).

Rules priced elsewhere (Fearless in morale, Resistant in defence, Furious in weapons…) do
not appear here; the breakdown shows them where they act.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from points.opr import tables
from points.opr.breakdown import AbilityCost
from points.opr.unit import Aura, Rule


def transport_factor(rule_names: frozenset[str]) -> tuple[Fraction, str]:
    """Transport(X)'s factor (§6). Decision (`tables.TRANSPORT_HIGHEST_FACTOR_WINS`): the
    highest factor of the unit's movement rules; switched off, the lowest of them."""
    found = [(factor, rule) for rule, factor in tables.TRANSPORT_FACTORS if rule in rule_names]
    if not found:
        return tables.TRANSPORT_DEFAULT_FACTOR, "no movement ability"
    choose = max if tables.TRANSPORT_HIGHEST_FACTOR_WINS else min
    factor, source = choose(found, key=lambda pair: pair[0])
    return factor, source


def aura_cost(aura: Aura) -> AbilityCost:
    """An aura: the aura column, ×2 when it reaches 12" (§6)."""
    price = tables.ABILITY_TABLE[aura.grants].aura
    assert price is not None, "the parser only accepts auras the table prices"
    quantity = tables.AURA_LONG_RANGE_MULTIPLIER if aura.range >= tables.AURA_LONG_RANGE else Fraction(1)
    name = f'Aura: {aura.effect} {aura.grants} to {aura.to}, {aura.range}"'
    return AbilityCost(name, "aura", price, quantity, price * quantity)


def order_cost(order: Aura) -> AbilityCost:
    """An order: the order column, once; an order always reaches 12" (§6)."""
    price = tables.ABILITY_TABLE[order.grants].order
    assert price is not None, "the parser only accepts orders the table prices"
    name = f"Order: {order.effect} {order.grants} to {order.to}"
    return AbilityCost(name, "order", price, Fraction(1), price)


@lru_cache(maxsize=1024)
def ability_costs(
    rules: tuple[Rule, ...], auras: tuple[Aura, ...], orders: tuple[Aura, ...], toughness: int
) -> tuple[AbilityCost, ...]:
    """Every priced ability of one model, in the order its rules, auras and orders are written."""
    names = frozenset(r.name for r in rules)
    lines: list[AbilityCost] = []
    t = Fraction(toughness)
    for rule in rules:
        row = tables.ABILITY_TABLE.get(rule.name)
        if row is not None:
            if row.per_toughness is not None:
                lines.append(
                    AbilityCost(rule.name, "per_toughness", row.per_toughness, t, row.per_toughness * t)
                )
        elif rule.name == "Hero":
            lines.append(AbilityCost("Hero", "flat", tables.HERO_COST, Fraction(1), tables.HERO_COST))
        elif rule.name == "Transport" and rule.value is not None:
            factor, _source = transport_factor(names)
            x = Fraction(rule.value)
            lines.append(AbilityCost(str(rule), "flat", factor, x, factor * x))
        elif rule.name == "Fear" and rule.value is not None:
            x = Fraction(rule.value)
            lines.append(AbilityCost(str(rule), "flat", tables.FEAR_PER_X, x, tables.FEAR_PER_X * x))
        elif rule.name == "Caster" and rule.value is not None:
            x = Fraction(rule.value)
            lines.append(AbilityCost(str(rule), "flat", tables.CASTER_PER_X, x, tables.CASTER_PER_X * x))
        elif rule.name in tables.FLAT_ABILITY_COSTS:
            price = tables.FLAT_ABILITY_COSTS[rule.name]
            lines.append(AbilityCost(rule.name, "flat", price, Fraction(1), price))
    lines.extend(aura_cost(aura) for aura in auras)
    lines.extend(order_cost(order) for order in orders)
    return tuple(lines)
