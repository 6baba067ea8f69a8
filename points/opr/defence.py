"""The defence modifier (docs/rules/opr-points.md §3): the Defence's base value plus each row that applies.

Delicate lowers it, Resistant, Regeneration and Spearhead raise it; the rows add to the base
(they do not multiply), so a model with several of them pays for each.
"""

from __future__ import annotations

from functools import lru_cache

from points.opr import tables
from points.opr.breakdown import DefenceBreakdown, Term
from points.opr.exact import total


@lru_cache(maxsize=256)
def defence(defence_value: int, rule_names: frozenset[str]) -> DefenceBreakdown:
    """The defence modifier of a model with Defence `defence_value` (2–6) and the given rules."""
    base = tables.DEFENCE_BASE[defence_value]
    rows = tuple(
        Term(name, row[defence_value]) for name, row in tables.DEFENCE_ROWS.items() if name in rule_names
    )
    modifier = total((base, *(row.value for row in rows)))
    return DefenceBreakdown(defence=defence_value, base=base, rows=rows, modifier=modifier)
