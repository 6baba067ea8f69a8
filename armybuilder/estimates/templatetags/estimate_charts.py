"""Template helpers for estimate results: SVG charts, percentages, the heat-map matrix."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django import template
from django.utils.formats import get_format, number_format
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from armybuilder.estimates.charts import at_least, bar_chart, heat_step
from armybuilder.estimates.describe import shown_matrix_result, shown_not_used
from armybuilder.estimates.result_pages import RowPage, row_page

register = template.Library()


@register.filter
def percent(value: float | None) -> str:
    """0.256 → "25.6%" ("25,6%" in Polish, Czech, Russian); a missing value → "–"."""
    if not isinstance(value, int | float):
        return "–"
    return f"{number_format(rounded(float(value) * 100, 1), 1)}%"


@register.filter
def number(value: float | None, places: int = 2) -> str:
    """A figure with `places` decimals; a missing one (an attacker that costs nothing has no
    points efficiency) → "–"."""
    if not isinstance(value, int | float):
        return "–"
    return number_format(rounded(float(value), int(places)), int(places))


def rounded(value: float, places: int) -> Decimal:
    """`value` rounded half up to `places` decimals. Django's `number_format` cuts a float's
    digits off (1.9999 attacks printed "1.99"); a rounded Decimal prints "2.00"."""
    return Decimal(repr(value)).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)


@register.filter
def with_tails(distribution: Sequence[float]) -> list[dict[str, float]]:
    """Rows of the distribution table: k, P(exactly k), P(at least k)."""
    tails = at_least(distribution)
    return [{"k": k, "p": p, "tail": tails[k]} for k, p in enumerate(distribution)]


@register.simple_tag
def kills_chart(distribution: Sequence[float]) -> SafeString:
    """The SVG bar chart of P(exactly k models killed)."""
    return mark_safe(bar_chart(
        distribution, title=_("Probability of killing exactly k models"),
        description=_("Bar chart: for each number of models k, the probability that exactly k die."),
        x_label=_("models killed (k)"), decimal_separator=get_format("DECIMAL_SEPARATOR")))


@register.simple_tag
def at_least_chart(distribution: Sequence[float]) -> SafeString:
    """The SVG bar chart of P(at least k models killed)."""
    return mark_safe(bar_chart(
        at_least(distribution), title=_("Probability of killing at least k models"),
        description=_("Bar chart: for each number of models k, the probability that k or more die."),
        x_label=_("models killed (at least k)"), css_class="chart chart-tail",
        decimal_separator=get_format("DECIMAL_SEPARATOR")))


#: The figure a heat map headlines and colours its cells by: points efficiency where the
#: attackers cost points, else expected models killed (AoS 1st edition has no points, so an
#: efficiency heat map there would be a grid of dashes).
HEADLINES = ("points_efficiency", "expected_kills")


def _figure(cell: Mapping[str, Any], key: str) -> float | None:
    value = cell.get(key)
    return float(value) if isinstance(value, int | float) else None


def matrix_headline(*grids: Sequence[Sequence[Mapping[str, Any]]]) -> str:
    """The key the matrices headline: `points_efficiency` when any cell of either direction
    has one, else `expected_kills` (a system without points, or attackers that cost none)."""
    cells = [cell for grid in grids for row in grid for cell in row]
    return next((key for key in HEADLINES if any(_figure(c, key) is not None for c in cells)), HEADLINES[0])


def _direction(*, title: str, corner: str, best_note: str, rows: Sequence[str], columns: Sequence[str],
               cells: Sequence[Sequence[Mapping[str, Any]]], best_along: str,
               headline: str, shown: range | None = None,
               labels: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """One heat-map table: each cell coloured by its `headline` figure against the matrix's
    best, and the best cell of each row (or column: `best_along`) marked. Only the rows in
    `shown` (all by default) are drawn; shades, stars and totals are of the whole matrix.

    A cell without the figure (an attacker that costs nothing has no efficiency) is shown
    as "–", never best.
    """
    shown = range(len(rows)) if shown is None else shown
    values = [[_figure(c, headline) for c in row] for row in cells]
    best_overall = max((v for row in values for v in row if v is not None), default=0.0)
    lines = values if best_along == "row" else [list(column) for column in zip(*values, strict=True)]
    best_of_line = [max((v for v in line if v is not None), default=None) for line in lines]

    def is_best(i: int, j: int) -> bool:
        value, best = values[i][j], best_of_line[i if best_along == "row" else j]
        return value is not None and best is not None and best > 0 and value == best

    # What a cell says when pointed at, written here once per cell (a translated sentence per
    # cell in the template cost most of a large result page).
    sentence = (_("%(k)s models killed, %(p)s to destroy") if headline == "expected_kills"
                else _("%(k)s models killed, %(pts)s points destroyed, %(p)s to destroy"))
    places = 2 if headline == "expected_kills" else 1

    def decorated(i: int, j: int, cell: Mapping[str, Any]) -> dict[str, Any]:
        value = values[i][j]
        title = sentence % {"k": number(cell.get("expected_kills"), 2), "p": percent(cell.get("p_destroyed")),
                            "pts": number(cell.get("expected_points_destroyed"), 1)}
        extras = "".join(
            f"; {extra['label']}: "
            + (percent(extra["value"]) if extra["kind"] == "probability" else number(extra["value"], 2))
            for extra in extra_outcomes(cell, labels))
        return {**cell, "headline": value, "text": number(value, places), "title": title + extras,
                "column": columns[j],
                "shade": heat_step(value or 0.0, best_overall), "best": is_best(i, j),
                "top": value is not None and best_overall > 0 and value == best_overall}

    out_rows = [{"name": rows[i], "cells": [decorated(i, j, cell) for j, cell in enumerate(cells[i])],
                 "total": _total(values[i])}
                for i in shown]
    column_totals = [_total(list(column)) for column in zip(*values, strict=True)] if values else []
    return {"title": title, "corner": corner, "best_note": best_note, "columns": columns, "rows": out_rows,
            "headline": headline, "column_totals": column_totals, "total": _total(
                [v for row in values for v in row])}


def _total(values: Sequence[float | None]) -> float | None:
    """The sum of a row's or column's figures ("–" when none has one)."""
    present = [v for v in values if v is not None]
    return sum(present) if present else None


def _mean(grid: Sequence[Sequence[Mapping[str, Any]]], key: str) -> float:
    figures = [_figure(cell, key) for row in grid for cell in row]
    present = [v for v in figures if v is not None]
    return sum(present) / len(present) if present else 0.0


@register.filter
def matrix_verdict(result: Mapping[str, Any]) -> dict[str, Any]:
    """Which list comes out ahead, and by how much: each side's headline figure averaged over
    every pairing of one of its units with one of the other's (`a`, `b`), the `leader` ("a",
    "b" or "" for even), and the sentence that says it in the reader's language."""
    grid_a, grid_b = result["a_vs_b"], result["b_vs_a"]
    headline = matrix_headline(grid_a, grid_b)
    a, b = _mean(grid_a, headline), _mean(grid_b, headline)
    places = 1 if headline == "points_efficiency" else 2
    names = {"a": _("List A (%(name)s)") % {"name": result["list_a"]["name"]},
             "b": _("List B (%(name)s)") % {"name": result["list_b"]["name"]}}
    if round(a, places) == round(b, places):
        leader = ""
        text = _("The two lists come out even: %(value)s on average each way.") % {"value": number(a, places)}
    else:
        leader = "a" if a > b else "b"
        high, low = (a, b) if a > b else (b, a)
        figures = {"winner": names[leader], "loser": names["b" if leader == "a" else "a"],
                   "high": number(high, places), "low": number(low, places),
                   "difference": number(high - low, places)}
        if headline == "points_efficiency":
            text = _("%(winner)s comes out ahead by %(difference)s points destroyed per 100 points: its "
                     "units average %(high)s against %(low)s for %(loser)s.") % figures
        else:
            text = _("%(winner)s comes out ahead by %(difference)s models killed: its units average "
                     "%(high)s per pairing against %(low)s for %(loser)s.") % figures
    return {"a": a, "b": b, "leader": leader, "text": text, "headline": headline}


@register.filter
def shown_matrix(estimate: Any) -> Mapping[str, Any]:
    """A list-vs-list estimate's result with its names as the reader reads them
    (`describe.shown_matrix_result`: the reference set's and a bundled army's translated)."""
    return shown_matrix_result(estimate.result, estimate.inputs, estimate.system)


@register.filter
def not_used_lines(estimate: Any) -> list[Mapping[str, Any]]:
    """A unit-vs-unit estimate's abilities it did not use, each side named as the reader reads
    it (`describe.shown_not_used`: a reference target's translated)."""
    return shown_not_used(estimate.result, estimate.inputs)


@register.simple_tag(takes_context=True)
def matrix_view(context: Any, result: Mapping[str, Any]) -> dict[str, Any]:
    """The heat maps of the page of rows the request asks for (`?rows=N`, else the first):
    `{"directions": matrix_directions, "rows": matrix_page}`."""
    request = context.get("request")
    page = request.GET.get("rows") if request is not None else None
    return {"directions": matrix_directions(result, page), "rows": matrix_page(result, page)}


@register.filter
def matrix_page(result: Mapping[str, Any], page: Any = None) -> RowPage:
    """Which rows (list A's units) of the heat maps this view draws (`result_pages`)."""
    return row_page(rows=len(result["list_a"]["units"]), columns=len(result["list_b"]["units"]), page=page)


@register.filter
def matrix_directions(result: Mapping[str, Any], page: Any = None) -> list[dict[str, Any]]:
    """Both directions of a list-vs-list result as heat maps with the same layout — rows are
    list A's units (mine), columns list B's (theirs) — so a player reads one grid twice:
    what my units do to theirs (★ on each of my units' best target), and what theirs do to
    mine (★ on each of their units' best target: the threats to answer first).

    Both maps headline the same figure (`matrix_headline`), so they read alike. Only the rows
    of page `page` (`matrix_page`) are drawn."""
    a, b = result["list_a"], result["list_b"]
    names = {"a": a["name"], "b": b["name"]}
    back = [[result["b_vs_a"][j][i] for j in range(len(b["units"]))] for i in range(len(a["units"]))]
    headline = matrix_headline(result["a_vs_b"], back)
    paging = matrix_page(result, page)
    shown = range(paging.start, paging.stop)
    return [
        _direction(title=_("%(a)s attacking %(b)s") % names, corner=_("Attacker ↓ · target →"),
                   best_note=_("★ marks the best target of each unit of %(a)s.") % names,
                   rows=a["units"], columns=b["units"], cells=result["a_vs_b"], best_along="row",
                   headline=headline, shown=shown, labels=result.get("outcomes")),
        _direction(title=_("%(b)s attacking %(a)s") % names, corner=_("Target ↓ · attacker →"),
                   best_note=_("★ marks the best target of each unit of %(b)s.") % names,
                   rows=a["units"], columns=b["units"], cells=back, best_along="column",
                   headline=headline, shown=shown, labels=result.get("outcomes")),
    ]


@register.filter
def translated(label: Any) -> str:
    """A system's English label (marked with `gettext_noop` at the system's side), translated."""
    return _(str(label)) if label else ""


@register.simple_tag
def outcome_chart(outcome: Mapping[str, Any]) -> SafeString:
    """The SVG bar chart of a system's distribution outcome (`kind` "distribution"): bar k is
    P(value = offset + k)."""
    label = _(str(outcome.get("label", outcome.get("key", ""))))
    values = outcome.get("value") or []
    offset = int(outcome.get("offset") or 0)
    return mark_safe(bar_chart(
        values, title=label, x_label=label, offset=offset,
        description=_("Bar chart: for each value, the probability of exactly that value."),
        css_class="chart chart-outcome", decimal_separator=get_format("DECIMAL_SEPARATOR")))


@register.filter
def extra_outcomes(cell: Mapping[str, Any], labels: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """A matrix cell's system outcomes, with their translated labels, in the result's order."""
    return [{"label": _(str(info.get("label", key))), "kind": info.get("kind"), "value": cell.get(key)}
            for key, info in (labels or {}).items() if key in cell]
