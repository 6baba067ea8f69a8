"""The points audit: a unit's book price beside the published formula's, and the gap.

For a system priced by a published formula (`GameSystem.formula_priced`: OPR), a unit may
also carry the price its source printed — Army Forge's cost, kept by the importers as
`extra.source_points` — and the audit sets the two side by side, per unit and for a whole
list, with exact arithmetic (Fractions; a source may print halves). A unit without a book
price (bundled and homebrew units: their book *is* the formula) shows no gap. No other tool
shows this: Army Forge keeps its own calculator private.

Part of a gap is explained, not hidden: a rule the formula does not price (Army Forge's army
rules, Impact, Bane, …) is kept on the unit as text (`extra.text_rules`), and each row names
those rules, so its formula price reads "without" them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rules.systems.registry import GameSystem, unit_points


def book_points(unit: Mapping[str, Any]) -> Fraction | None:
    """The price the unit's source printed (`extra.source_points`), exactly; None without one."""
    extra = unit.get("extra") if isinstance(unit, Mapping) else None
    stated = extra.get("source_points") if isinstance(extra, Mapping) else None
    if isinstance(stated, bool) or not isinstance(stated, int | float | str):
        return None
    try:
        return Fraction(str(stated))
    except (ValueError, ZeroDivisionError):
        return None


def unpriced_rules(unit: Mapping[str, Any]) -> tuple[str, ...]:
    """The unit's rules the formula does not price (`extra.text_rules`), as its source wrote them."""
    extra = unit.get("extra") if isinstance(unit, Mapping) else None
    written = extra.get("text_rules") if isinstance(extra, Mapping) else None
    if not isinstance(written, list):
        return ()
    return tuple(str(rule) for rule in written if isinstance(rule, str) and rule.strip())


def _number(value: Fraction | None) -> int | float | None:
    if value is None:
        return None
    return int(value) if value.denominator == 1 else float(value)


@dataclass(frozen=True)
class AuditRow:
    """One unit: its book price, the formula's, and formula − book (positive: the book is cheap);
    `unpriced`: the rules the formula price is without (kept on the unit as text)."""

    name: str
    models: int
    book: Fraction | None
    formula: int
    ref: Any = None  # what the row is about (a unit template or a list unit)
    link: str = ""  # where its formula breakdown is shown
    unpriced: tuple[str, ...] = ()

    @property
    def gap(self) -> Fraction | None:
        return None if self.book is None else Fraction(self.formula) - self.book

    @property
    def book_number(self) -> int | float | None:
        return _number(self.book)

    @property
    def gap_number(self) -> int | float | None:
        return _number(self.gap)


def audit_row(
    system: GameSystem,
    *,
    name: str,
    unit: Mapping[str, Any],
    ref: Any = None,
    formula: int | None = None,
    link: str = "",
) -> AuditRow:
    """The audit of one unit dict (`formula`: its points when the caller has them already)."""
    models = sum(int(m.get("count", 0) or 0) for m in unit.get("models") or [] if isinstance(m, Mapping))
    points = unit_points(system, unit) if formula is None else formula
    return AuditRow(
        name=name, models=models, book=book_points(unit), formula=int(points), ref=ref, link=link,
        unpriced=unpriced_rules(unit),
    )


@dataclass(frozen=True)
class AuditTotal:
    book: Fraction
    formula: int
    audited: int  # units with a book price
    units: int

    @property
    def gap(self) -> Fraction:
        return Fraction(self.formula) - self.book

    @property
    def book_number(self) -> int | float | None:
        return _number(self.book)

    @property
    def gap_number(self) -> int | float | None:
        return _number(self.gap)


def audit_total(rows: Iterable[AuditRow]) -> AuditTotal:
    """The whole list: book and formula summed over the units that have a book price."""
    rows = list(rows)
    priced = [r for r in rows if r.book is not None]
    return AuditTotal(
        book=sum((r.book for r in priced if r.book is not None), Fraction(0)),
        formula=sum(r.formula for r in priced),
        audited=len(priced),
        units=len(rows),
    )


def unpriced_names(rows: Iterable[AuditRow]) -> list[str]:
    """Every rule the rows' formula prices are without, by name (its value dropped), each once."""
    names: list[str] = []
    for row in rows:
        for written in row.unpriced:
            name = written.split("(", 1)[0].strip()
            if name and name not in names:
                names.append(name)
    return names


def by_gap(rows: Iterable[AuditRow]) -> list[AuditRow]:
    """Largest gap (either way) first; units without a book price last, by name."""
    return sorted(rows, key=lambda r: (r.gap is None, -abs(r.gap or 0), r.name))
