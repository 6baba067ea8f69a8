"""The points audit of a list: `/api/v1/lists/{list_id}/audit` and `…/audit/{unit_id}`.

What the audit pages show (`armybuilder.lists.audit`), from the same functions
(`rules.points_audit`): each unit's book price beside the published formula's, the list's
totals, and one unit's formula breakdown term by term. Only a system priced by a published
formula (`GameSystem.formula_priced`) has one; for any other the answer is a 404 that says so.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, permissions, serializers
from rest_framework.generics import GenericAPIView
from rest_framework.request import Request
from rest_framework.response import Response

from armybuilder.api.lists import ListLookupMixin
from armybuilder.api.permissions import IsListOwnerOrReadOnly
from armybuilder.lists.selectors import army_list_units
from armybuilder.models import ArmyList
from rules.points_audit import AuditRow, audit_row, audit_total
from rules.source_language import localized_breakdown
from rules.systems.registry import GameSystem, get_system

TAGS = ["lists"]


class AuditRowSerializer(serializers.Serializer):
    unit_id = serializers.IntegerField(source="ref.pk")
    name = serializers.CharField()
    models = serializers.IntegerField()
    book = serializers.FloatField(source="book_number", allow_null=True,
                                  help_text="The price the unit's source printed; null without one.")
    formula = serializers.IntegerField(help_text="The published formula's price.")
    gap = serializers.FloatField(source="gap_number", allow_null=True,
                                 help_text="formula − book (positive: the book is cheap).")


class AuditTotalSerializer(serializers.Serializer):
    book = serializers.FloatField(source="book_number")
    formula = serializers.IntegerField()
    gap = serializers.FloatField(source="gap_number")
    audited = serializers.IntegerField(help_text="Units with a book price (the totals sum these).")
    units = serializers.IntegerField()


class ListAuditSerializer(serializers.Serializer):
    rows = AuditRowSerializer(many=True)
    total = AuditTotalSerializer()


class UnitAuditSerializer(serializers.Serializer):
    row = AuditRowSerializer()
    breakdown = serializers.DictField(help_text="The formula's terms, as the system's price reports them.")


def _audited(army_list: ArmyList) -> GameSystem:
    engine = get_system(army_list.system.key)
    if not engine.formula_priced:
        raise exceptions.NotFound(
            _("This game system prices units from its book: there is no formula to audit them against.")
        )
    return engine


class _AuditView(ListLookupMixin, GenericAPIView):
    permission_classes = [permissions.IsAuthenticated, IsListOwnerOrReadOnly]
    pagination_class = None


class ListAuditView(_AuditView):
    """Every unit of the list: book, formula and the gap; the list's totals."""

    serializer_class = ListAuditSerializer

    @extend_schema(tags=TAGS, operation_id="lists_audit_retrieve", summary="The points audit of a list",
                   responses=ListAuditSerializer)
    def get(self, request: Request, list_id: int) -> Response:
        army_list = self.get_list()
        engine = _audited(army_list)
        rows = [audit_row(engine, name=u.display_name, unit=u.data or {}, formula=u.points, ref=u)
                for u in army_list_units(army_list=army_list)]
        return Response(ListAuditSerializer({"rows": rows, "total": audit_total(rows)}).data)


class UnitAuditView(_AuditView):
    """One unit priced by the formula, term by term, beside its book price."""

    serializer_class = UnitAuditSerializer

    @extend_schema(tags=TAGS, operation_id="lists_audit_unit_retrieve",
                   summary="One unit's formula breakdown", responses=UnitAuditSerializer)
    def get(self, request: Request, list_id: int, unit_id: int) -> Response:
        army_list = self.get_list()
        engine = _audited(army_list)
        unit = next((u for u in army_list_units(army_list=army_list) if u.pk == unit_id), None)
        if unit is None:
            raise exceptions.NotFound(_("No such unit in this list."))
        priced = engine.price(unit.data or {})
        breakdown: dict[str, Any] = localized_breakdown(priced, system=army_list.system)
        row: AuditRow = audit_row(engine, name=unit.display_name, unit=unit.data or {},
                                  formula=int(breakdown["points"]), ref=unit)
        return Response(UnitAuditSerializer({"row": row, "breakdown": breakdown}).data)
