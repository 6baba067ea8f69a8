"""The morale modifier (docs/rules/opr-points.md §2): how much a model's Quality is worth.

    morale modifier = 1.3 − (Q − 1)/10 × m

m = 1, halved by Fearless and halved by Reckless. A better (lower) Quality and the two
"ignores morale" rules both make a model harder to break, so both raise the base cost.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from points.opr import tables
from points.opr.breakdown import MoraleBreakdown, Term


def morale_multiplier(rule_names: frozenset[str]) -> tuple[Fraction, tuple[Term, ...]]:
    """m and its factors. Decision (§2, `tables.MORALE_MULTIPLIERS_STACK`): they multiply
    (Fearless + Reckless: m = 1/4); switched off, only the strongest factor counts (m = 1/2)."""
    m = Fraction(1)
    terms: list[Term] = []
    for name, factor in tables.MORALE_MULTIPLIER_RULES.items():
        if name in rule_names:
            m = m * factor if tables.MORALE_MULTIPLIERS_STACK else min(m, factor)
            terms.append(Term(name, factor))
    return m, tuple(terms)


@lru_cache(maxsize=256)
def morale(quality: int, rule_names: frozenset[str]) -> MoraleBreakdown:
    """The morale modifier of a model with Quality `quality` and the given model rules."""
    m, terms = morale_multiplier(rule_names)
    modifier = (
        tables.MORALE_START
        - Fraction(quality - tables.MORALE_QUALITY_OFFSET, tables.MORALE_QUALITY_DIVISOR) * m
    )
    return MoraleBreakdown(quality=quality, multiplier=m, multiplier_terms=terms, modifier=modifier)
