"""Defence modifier, docs/rules/opr-points.md §3: the base value plus each row that applies (seed:
"Modyfikator
obrony")."""

from fractions import Fraction

import pytest

from points.opr.defence import defence

BASE = {6: "0.8", 5: "1", 4: "1.33", 3: "1.67", 2: "2"}
ROWS = {
    "Delicate": {6: "-0.13", 5: "-0.1", 4: "-0.08", 3: "-0.07", 2: "-0.05"},
    "Resistant": {6: "0.35", 5: "0.3", 4: "0.2", 3: "0.1", 2: "0.05"},
    "Regeneration": {6: "0.4", 5: "0.45", 4: "0.5", 3: "0.65", 2: "1"},
    "Spearhead": {6: "0.1", 5: "0.17", 4: "0.17", 3: "0.17", 2: "0.1"},
}


@pytest.mark.parametrize("value", sorted(BASE))
def test_base_row(value):
    """§3 table, row "base" (no armour 6+ … heavy plating 2+)."""
    b = defence(value, frozenset())
    assert b.base == b.modifier == Fraction(BASE[value])
    assert b.rows == ()


@pytest.mark.parametrize("rule", sorted(ROWS))
@pytest.mark.parametrize("value", sorted(BASE))
def test_rule_row_adds_to_base(rule, value):
    """§3: a rule's row is added to the base value."""
    b = defence(value, frozenset({rule}))
    assert b.modifier == Fraction(BASE[value]) + Fraction(ROWS[rule][value])
    assert [(t.name, t.value) for t in b.rows] == [(rule, Fraction(ROWS[rule][value]))]


def test_several_rows_all_add():
    """§3: "the rows add" — Resistant and Regeneration at D4: 1.33 + 0.2 + 0.5 = 2.03."""
    assert defence(4, frozenset({"Resistant", "Regeneration"})).modifier == Fraction("2.03")
