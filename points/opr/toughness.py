"""The toughness modifier (docs/rules/opr-points.md §4), and which toughness a model is priced with.

The table lists T 1, 2, 3, 6, 9, 12 and "+5 per +3"; the spec's Decision interpolates
linearly between listed points and continues the line above 12. A Massive model (one made
of several parts) is priced with the sum of its parts' toughness.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from points.opr import tables
from points.opr.breakdown import ToughnessBreakdown
from points.opr.interpolation import interpolate, is_listed
from points.opr.unit import Model


@lru_cache(maxsize=256)
def toughness_modifier(toughness: int) -> Fraction:
    """Decision (§4, documented in `tables`): T4 = 5, T7 = 29/3, T13 = 18 + 5/3."""
    return interpolate(tables.TOUGHNESS_POINTS, toughness, tables.TOUGHNESS_SLOPE_ABOVE_TABLE)


def pricing_toughness(model: Model) -> int:
    """Massive (§4): the sum of the parts' toughness; otherwise the model's own toughness."""
    if model.parts and model.has("Massive"):
        return sum(part.toughness for part in model.parts)
    return model.toughness


def ability_toughness(model: Model, priced: ToughnessBreakdown | None = None) -> int:
    """The toughness that per-toughness ability costs multiply (§6); `priced` if already computed.

    Decision (ours, `tables.MASSIVE_TOUGHNESS_FOR_ABILITIES`): the same priced toughness.
    """
    if not tables.MASSIVE_TOUGHNESS_FOR_ABILITIES:
        return model.toughness
    return priced.priced_toughness if priced is not None else pricing_toughness(model)


@lru_cache(maxsize=256)
def _toughness(toughness: int, parts: tuple[tuple[str, int], ...]) -> ToughnessBreakdown:
    priced = sum(t for _, t in parts) if parts else toughness
    return ToughnessBreakdown(
        toughness=toughness,
        priced_toughness=priced,
        parts=parts,
        modifier=toughness_modifier(priced),
        interpolated=not _read_from_table(priced),
    )


def _read_from_table(toughness: int) -> bool:
    """Whether the table gives this value directly: a listed T, or 12 plus whole "+3" steps."""
    last = tables.TOUGHNESS_POINTS[-1][0]
    if toughness > last:
        return (toughness - last) % tables.TOUGHNESS_STEP == 0
    return is_listed(tables.TOUGHNESS_POINTS, toughness)


def toughness(model: Model, rule_names: frozenset[str] | None = None) -> ToughnessBreakdown:
    """The toughness breakdown of a model (its own toughness, its parts, the modifier).

    `rule_names` (the model's rule names) may be passed when the caller has them already.
    """
    massive = model.has("Massive") if rule_names is None else "Massive" in rule_names
    parts = tuple((p.name, p.toughness) for p in model.parts) if massive and model.parts else ()
    return _toughness(model.toughness, parts)


def clear_caches() -> None:
    """Forget the cached lookups of this module."""
    toughness_modifier.cache_clear()
    _toughness.cache_clear()
