"""The points audit (issue 28, item 2): book price beside the published formula's, exactly."""

from __future__ import annotations

from fractions import Fraction

from points.opr import price
from rules.points_audit import audit_row, audit_total, book_points, by_gap
from rules.systems.opr.unit_format import parse_unit
from rules.systems.registry import get_system

UNIT = {
    "format": 1,
    "system": "opr",
    "name": "Wardens",
    "models": [
        {
            "name": "Warden",
            "count": 5,
            "quality": 4,
            "defence": 5,
            "weapons": [{"name": "Rifle", "range": 24, "attacks": 1}],
        }
    ],
}


def with_book(points):
    return {**UNIT, "extra": {"source": "Army Forge", "source_points": points}}


def test_book_price_is_read_exactly():
    assert book_points(with_book(100)) == 100
    assert book_points(with_book(62.5)) == Fraction(125, 2)
    assert book_points(UNIT) is None
    assert book_points(with_book(True)) is None


def test_gap_is_formula_minus_book_for_each_unit_and_the_list():
    """docs/rules/opr-points.md: the formula's points are the engine's; the gap is formula − book."""
    system = get_system("opr")
    formula = price(parse_unit(UNIT)).points
    cheap = audit_row(system, name="A", unit=with_book(formula - 10))
    dear = audit_row(system, name="B", unit=with_book(formula + 1.5))
    none = audit_row(system, name="C", unit=UNIT)
    assert (cheap.formula, cheap.gap, cheap.models) == (formula, 10, 5)
    assert dear.gap == Fraction(-3, 2) and dear.gap_number == -1.5
    assert none.gap is None
    total = audit_total([cheap, dear, none])
    assert (total.book, total.formula, total.audited, total.units) == (
        Fraction(4 * formula - 17, 2),
        2 * formula,
        2,
        3,
    )
    assert total.gap == Fraction(17, 2)
    assert [r.name for r in by_gap([none, dear, cheap])] == ["A", "B", "C"]


def test_only_formula_priced_systems_are_audited():
    assert get_system("opr").formula_priced is True
    assert [key for key in ("whfb6", "wh40k9", "aos1", "ru_whfb") if get_system(key).formula_priced] == []
