"""Ability cost, docs/rules/opr-points.md §6 (seed: "Koszt zdolności pasywnych w tabeli należy zapłacić za
każdy punkt
wytrzymałości", the aura and order columns, and "Bohater", "Transport(X)", "Strach(X)", "Mag(X)", …)."""

from fractions import Fraction

import pytest

from points.opr import price, tables
from points.opr.ability_cost import ability_costs, transport_factor
from points.opr.unit import Aura, Rule
from tests.factories.opr_units import model, unit

F = Fraction

#: §6 table: ability → (per toughness, aura, order); None for "see …" and "–".
TABLE = {
    "Ambush": ("2", None, None),
    "Scout": ("2", None, None),
    "Fast": ("1", "8", "10"),
    "Slow": ("-1", "8", "10"),
    "Skirmisher": ("1.5", "12", "15"),
    "Immobile": ("-2.5", None, "25"),
    "Agile": ("0.5", "4", "5"),
    "Clumsy": ("-0.5", "4", "5"),
    "Flying": ("1", "8", "10"),
    "Aircraft": ("3", None, None),
    "Furious": (None, "24", "30"),
    "Relentless": (None, "28", "35"),
    "Good Shot": (None, None, None),
    "Bad Shot": (None, None, None),
    "Counter": ("2", "16", "20"),
    "Delicate": (None, "4", "5"),
    "Resistant": (None, "16", "20"),
    "Regeneration": (None, "28", "35"),
    "Stealth": ("2", "16", "20"),
    "Entrenched": ("1", "8", "10"),
    "Shield": ("1.25", "10", "12.5"),
    "Fearless": (None, "12", "15"),
    "Reckless": (None, "12", "15"),
    "Guardian": ("3", "24", "30"),
    "Instinct": ("-1", "8", "10"),
}


def costs(*rules, toughness=1, auras=(), orders=()):
    return ability_costs(tuple(rules), tuple(auras), tuple(orders), toughness)


def test_table_has_every_row_of_the_spec():
    """§6: the data table holds exactly the spec's rows."""
    assert set(tables.ABILITY_TABLE) == set(TABLE)


@pytest.mark.parametrize("name", sorted(TABLE))
def test_table_row(name):
    """§6 table row: per-toughness price, aura column, order column (None = "see …" or "–")."""
    row = tables.ABILITY_TABLE[name]
    expected = tuple(None if v is None else F(v) for v in TABLE[name])
    assert (row.per_toughness, row.aura, row.order) == expected


@pytest.mark.parametrize("name", sorted(n for n, row in TABLE.items() if row[0] is not None))
def test_per_toughness_price_times_toughness(name):
    """§6: passive abilities cost the table value per point of toughness (T3 here)."""
    [line] = costs(Rule(name), toughness=3)
    assert (line.name, line.kind, line.rate, line.quantity) == (name, "per_toughness", F(TABLE[name][0]), 3)
    assert line.cost == 3 * F(TABLE[name][0])


@pytest.mark.parametrize("name", sorted(n for n, row in TABLE.items() if row[0] is None))
def test_see_weapon_defence_quality_rows_have_no_ability_line(name):
    """§6 "see weapon / defence / quality": priced where they act, not as an ability line."""
    assert costs(Rule(name), toughness=3) == ()


@pytest.mark.parametrize("name", sorted(n for n, row in TABLE.items() if row[1] is not None))
def test_aura_price_is_the_aura_column(name):
    """§6: an aura costs the table's aura column (the ability for 8 toughness), whatever the model's size."""
    [line] = costs(auras=[Aura(name, "friends", "grant", 6)], toughness=5)
    assert (line.kind, line.cost) == ("aura", F(TABLE[name][1]))


def test_twelve_inch_aura_is_bought_twice():
    """§6: "for a 12" range buy it twice"."""
    [line] = costs(auras=[Aura("Stealth", "friends", "grant", 12)])
    assert (line.rate, line.quantity, line.cost) == (16, 2, 32)


def test_aura_price_is_the_same_to_enemies_and_negating():
    """§6: an aura names friends/enemies and grant/negate; the price is the ability's either way."""
    prices = {
        costs(auras=[Aura("Fast", to, effect, 6)])[0].cost
        for to in ("friends", "enemies")
        for effect in ("grant", "negate")
    }
    assert prices == {8}


@pytest.mark.parametrize("name", sorted(n for n, row in TABLE.items() if row[2] is not None))
def test_order_price_is_the_order_column_once(name):
    """§6 Order(X): priced for 10 toughness (the order column), always 12", priced once."""
    [line] = costs(orders=[Aura(name, "friends", "grant", 12)])
    assert (line.kind, line.quantity, line.cost) == ("order", 1, F(TABLE[name][2]))


def test_hero_is_free():
    """§6 Hero (Bohater): free."""
    [line] = costs(Rule("Hero"), toughness=3)
    assert (line.name, line.cost) == ("Hero", 0)


@pytest.mark.parametrize(
    ("rule", "factor"),
    [
        ("Aircraft", "3.5"),
        ("Ambush", "2.5"),
        ("Scout", "2.5"),
        ("Flying", "1.5"),
        ("Fast", "1.25"),
        ("Agile", "1.25"),
    ],
)
def test_transport_factor_row(rule, factor):
    """§6 Transport(X): X × 3.5 Aircraft, 2.5 Ambush/Scout, 1.5 Flying, 1.25 Fast/Agile."""
    lines = costs(Rule(rule), Rule("Transport", 6), toughness=1)
    transport = next(line for line in lines if line.name == "Transport(6)")
    assert (transport.rate, transport.quantity, transport.cost) == (F(factor), 6, 6 * F(factor))


def test_transport_factor_otherwise_one():
    """§6 Transport(X): × 1 otherwise."""
    [line] = costs(Rule("Transport", 6), Rule("Hero"))[:1]
    assert line.cost == 6


def test_transport_takes_the_highest_factor():
    """§6 Decision: the highest factor that applies (Fast and Flying → 1.5)."""
    assert transport_factor(frozenset({"Fast", "Flying"})) == (F("1.5"), "Flying")
    assert transport_factor(frozenset({"Scout", "Aircraft"})) == (F("3.5"), "Aircraft")


@pytest.mark.parametrize(("rule", "per_x"), [("Fear", "0.75"), ("Caster", "8")])
def test_flat_per_x(rule, per_x):
    """§6 Fear(X) 0.75 × X, Caster(X) 8 × X."""
    [line] = costs(Rule(rule, 2))
    assert (line.name, line.kind, line.cost) == (f"{rule}(2)", "flat", 2 * F(per_x))


@pytest.mark.parametrize(("rule", "cost"), [("Relay", 4), ("Mending", 20), ("Radio", 3)])
def test_flat_price(rule, cost):
    """§6: Relay (Przekaźnik) 4, Mending (Łatanie) 20, Radio 3."""
    [line] = costs(Rule(rule))
    assert (line.kind, line.cost) == ("flat", cost)


def test_ability_cost_is_added_to_each_model():
    """§1: model cost = base + weapons + abilities; a 5-model Stealth T1 unit pays 2 per model."""
    plain = price(unit(model(count=5))).exact
    stealthy = price(unit(model(count=5, rule_names=["Stealth"]))).exact
    assert stealthy - plain == 5 * 2


def test_negative_abilities_lower_the_cost():
    """§6: Slow −1, Immobile −2.5, Clumsy −0.5, Instinct −1 per toughness lower the model cost."""
    [line] = costs(Rule("Immobile"), toughness=2)
    assert line.cost == -5
