"""One unit of a list's points audit: `/api/v1/lists/{list_id}/audit/{unit_id}` (the list's
audit is the list viewset's `audit` action).

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
from armybuilder.api.serializers import AuditUnitSerializer
from armybuilder.lists.audit import audited_system
from armybuilder.lists.selectors import army_list_units
from rules.points_audit import AuditRow, audit_row
from rules.source_language import localized_breakdown

TAGS = ["lists"]


class UnitAuditSerializer(serializers.Serializer):
    row = AuditUnitSerializer()
    breakdown = serializers.DictField(help_text="The formula's terms, as the system's price reports them.")


class _AuditView(ListLookupMixin, GenericAPIView):
    permission_classes = [permissions.IsAuthenticated, IsListOwnerOrReadOnly]
    pagination_class = None


class UnitAuditView(_AuditView):
    """One unit priced by the formula, term by term, beside its book price."""

    serializer_class = UnitAuditSerializer

    @extend_schema(tags=TAGS, operation_id="lists_audit_unit_retrieve",
                   summary="One unit's formula breakdown", responses=UnitAuditSerializer)
    def get(self, request: Request, list_id: int, unit_id: int) -> Response:
        army_list = self.get_list()
        engine = audited_system(army_list)
        unit = next((u for u in army_list_units(army_list=army_list) if u.pk == unit_id), None)
        if unit is None:
            raise exceptions.NotFound(_("No such unit in this list."))
        priced = engine.price(unit.data or {})
        breakdown: dict[str, Any] = localized_breakdown(priced, system=army_list.system)
        row: AuditRow = audit_row(engine, name=unit.display_name, unit=unit.data or {},
                                  formula=int(breakdown["points"]), ref=unit)
        return Response(UnitAuditSerializer({"row": row, "breakdown": breakdown}).data)
