"""The points audit of a list (pages and `GET /api/v1/lists/{id}/audit`): each unit's book price
beside the formula's, the rules its formula price is without, the whole list's, and each unit's
formula breakdown one click away (`rules.points_audit`).

Only for a system priced by a published formula (`GameSystem.formula_priced`); any other
system answers 404, as there is no formula to audit against.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from armybuilder.lists import selectors
from armybuilder.lists.errors import NotApplicable
from armybuilder.models import ArmyList
from armybuilder.roster.views import readable_list
from rules.points_audit import AuditRow, AuditTotal, audit_row, audit_total, unpriced_names
from rules.source_language import localized_breakdown
from rules.systems.registry import GameSystem, get_system


def audited_system(army_list: ArmyList) -> GameSystem:
    """The engine that audits `army_list`; `NotApplicable` (a 404 that says why) for a system
    priced from its book."""
    engine = get_system(army_list.system.key)
    if not engine.formula_priced:
        raise NotApplicable(
            _("This game system prices units from its book: there is no formula to audit them against.")
        )
    return engine


@dataclass(frozen=True)
class ListAudit:
    """A list's audit: a row per unit (in list order), the totals, and every rule the formula
    prices are without (by name, each once)."""

    rows: list[AuditRow]
    total: AuditTotal
    unpriced: list[str]


def army_list_audit(*, army_list: ArmyList) -> ListAudit:
    """The audit of `army_list` (the page and the API); `Http404` for a system without a formula.
    Each row's `ref` is its list unit and `link` the page of its breakdown."""
    engine = audited_system(army_list)
    rows = [
        audit_row(
            engine,
            name=unit.display_name,
            unit=unit.data or {},
            formula=unit.points,
            ref=unit,
            link=reverse("lists:audit_unit", args=[army_list.pk, unit.pk]),
        )
        for unit in selectors.army_list_units(army_list=army_list)
    ]
    return ListAudit(rows=rows, total=audit_total(rows), unpriced=unpriced_names(rows))


@require_GET
def list_audit(request: HttpRequest, list_id: int) -> HttpResponse:
    """Every unit of the list: book, formula and the difference; the list's totals."""
    army_list = readable_list(request, list_id, None)
    audit = army_list_audit(army_list=army_list)
    return render(
        request,
        "armybuilder/list_audit.html",
        {"army_list": army_list, "rows": audit.rows, "total": audit.total, "unpriced": audit.unpriced},
    )


@require_GET
def list_unit_breakdown(request: HttpRequest, list_id: int, unit_id: int) -> HttpResponse:
    """One unit of the list priced by the formula, term by term, beside its book price."""
    army_list = readable_list(request, list_id, None)
    engine = audited_system(army_list)
    unit = next((u for u in selectors.army_list_units(army_list=army_list) if u.pk == unit_id), None)
    if unit is None:
        raise Http404
    breakdown = localized_breakdown(engine.price(unit.data or {}), system=army_list.system)
    row = audit_row(engine, name=unit.display_name, unit=unit.data or {}, formula=int(breakdown["points"]))
    return render(
        request,
        "armybuilder/list_unit_breakdown.html",
        {"army_list": army_list, "unit": unit, "row": row, "breakdown": breakdown,
         # the system's own term-by-term explanation (OPR's formula), as the designer shows it
         "breakdown_template": engine.breakdown_template or "rules/_breakdown_catalogue.html"},
    )
