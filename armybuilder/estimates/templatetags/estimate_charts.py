"""Template helpers for estimate results: SVG charts, percentages, the heat-map matrix."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django import template
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from armybuilder.estimates.charts import at_least, bar_chart, heat_colour

register = template.Library()


@register.filter
def percent(value: float | None) -> str:
    if value is None:
        return "–"
    return f"{float(value) * 100:.1f}%"


@register.filter
def with_tails(distribution: Sequence[float]) -> list[dict[str, float]]:
    tails = at_least(distribution)
    return [{"k": k, "p": p, "tail": tails[k]} for k, p in enumerate(distribution)]


@register.simple_tag
def kills_chart(distribution: Sequence[float]) -> SafeString:
    return mark_safe(bar_chart(
        distribution, title=_("Probability of killing exactly k models"),
        description=_("Bar chart: for each number of models k, the probability that exactly k die."),
        x_label=_("models killed (k)")))


@register.simple_tag
def at_least_chart(distribution: Sequence[float]) -> SafeString:
    return mark_safe(bar_chart(
        at_least(distribution), title=_("Probability of killing at least k models"),
        description=_("Bar chart: for each number of models k, the probability that k or more die."),
        x_label=_("models killed (at least k)"), css_class="chart chart-tail"))


def _direction(title: str, rows: Sequence[str], columns: Sequence[str],
               cells: Sequence[Sequence[Mapping[str, Any]]]) -> dict[str, Any]:
    best_overall = max((c["points_efficiency"] for row in cells for c in row), default=0.0)
    out_rows = []
    for name, row in zip(rows, cells, strict=True):
        best_in_row = max((c["points_efficiency"] for c in row), default=0.0)
        out_rows.append({"name": name, "cells": [
            {**c, "colour": heat_colour(c["points_efficiency"], best_overall),
             "best": best_in_row > 0 and c["points_efficiency"] == best_in_row}
            for c in row]})
    return {"title": title, "columns": columns, "rows": out_rows}


@register.filter
def matrix_directions(result: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Both matrices of a list-vs-list result, with colours and the best target per row."""
    a, b = result["list_a"], result["list_b"]
    return [
        _direction(_("%(a)s attacking %(b)s") % {"a": a["name"], "b": b["name"]}, a["units"], b["units"],
                   result["a_vs_b"]),
        _direction(_("%(b)s attacking %(a)s") % {"a": a["name"], "b": b["name"]}, b["units"], a["units"],
                   result["b_vs_a"]),
    ]
