"""Derived expectations (issue 18.6): the golden roster's points, computed from the spec's terms.

`golden/roster_forum.txt` is what `test_roster_exports` compares the text export with; its
numbers are written here once more, by an independent path (plain Fractions from the numbers
printed in `docs/rules/opr-points.md`), so a wrong golden file cannot pass unnoticed.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from pathlib import Path

GOLDEN = Path(__file__).parent / "golden"


def _half_up(value: Fraction) -> int:
    """The spec rounds a unit's exact total once, halves up (199.728 → 200, 175.5 → 176)."""
    return int(Decimal(value.numerator) / Decimal(value.denominator) + Decimal("0.5"))


def test_golden_points_follow_from_the_spec_terms():
    """The golden file's "[176 pts]", "[200 pts]" and "376/750", derived here from docs/rules/opr-points.md's
    own numbers (not from the engine): §9 Infantry plus a Plasma Gun and two extra troopers.

    Infantry, 12 × (Q4 D5 T1): base = 5 × morale 1.0 × defence 1 × toughness 1 = 5 each → 60;
    Rifle 24" A1 = 1 × 2 × 1.25 (24") × 3 (7 − Q) × 1 (AP 0) = 7.5, on 11 models → 82.5;
    Plasma Gun 18" A1 AP2 = 1 × 2 × 1 (18") × 3 × 1.9 (AP 2) = 11.4, on 1 model;
    Knife melee A1 = 1 × 2 × 0.6 × 3 = 3.6 on 12 models = 43.2; ranged 93.9 > melee 43.2, a
    shooter unit, so melee counts half → 21.6. Total 175.5 → 176.
    Brutes (§9): 199.728 → 200. The list: 176 + 200 = 376 of 750.
    """
    base = 12 * 5 * Fraction(1) * 1 * 1
    rifles = 11 * (1 * 2 * Fraction("1.25") * 3 * 1)
    plasma = 1 * 2 * Fraction(1) * 3 * Fraction("1.9")
    knives = 12 * (1 * 2 * Fraction("0.6") * 3)
    assert rifles + plasma > knives  # a shooter unit: its melee weapons count half
    infantry = _half_up(base + rifles + plasma + knives / 2)
    morale = Fraction("1.3") - Fraction("0.2") * Fraction("0.5")  # Q3, Fearless
    brutes_model = (5 * morale * Fraction("1.33") * Fraction("3.5")  # base: D4 1.33, T3 3.5
                    + 3 * 2 * Fraction("0.6") * (4 + 1 + Fraction("0.65")) * Fraction("1.9"))  # Great Axe
    brutes = _half_up(3 * brutes_model)
    assert (infantry, brutes) == (176, 200)
    golden = (GOLDEN / "roster_forum.txt").read_text(encoding="utf-8")
    assert f"Infantry [{infantry} pts]" in golden
    assert f"Brutes [{brutes} pts]" in golden
    assert f"Total: {infantry + brutes}/750 pts, 2 units" in golden
