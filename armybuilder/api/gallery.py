"""The public gallery and the comparison of two lists: `/api/v1/gallery`, `/api/v1/lists/compare`.

The same selectors as the pages (`armybuilder.lists.views.gallery` and `compare`): the gallery
lists what owners chose to show, filtered by name, system, faction and points; the comparison
sets two lists the caller may read side by side, points by unit category. Neither needs an
account (a visitor sees public lists, as on the pages); neither changes anything.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import exceptions, permissions, serializers
from rest_framework.generics import GenericAPIView
from rest_framework.request import Request
from rest_framework.response import Response

from armybuilder.api.filters import checked_text
from armybuilder.api.serializers import ArmyListSummarySerializer
from armybuilder.lists import selectors
from armybuilder.models import ArmyList

MAX_ID = 2**63 - 1


def _whole_number(request: Request, name: str, *, minimum: int = 0) -> int | None:
    """An optional whole-number query parameter, or a 400 naming it."""
    raw = request.query_params.get(name, "").strip()
    if not raw:
        return None
    if not raw.isdigit() or not minimum <= int(raw) <= MAX_ID:
        message = _("Must be a whole number from %(min)s to %(max)s.") % {"min": minimum, "max": MAX_ID}
        raise exceptions.ValidationError({name: [message]})
    return int(raw)


GALLERY_PARAMETERS = [
    OpenApiParameter("search", {"type": "string", "maxLength": 100},
                     description="Only lists whose name contains this text (any case)."),
    OpenApiParameter("system", {"type": "string", "maxLength": 32}, description="A game system's key."),
    OpenApiParameter("faction", {"type": "integer", "minimum": 1}, description="A faction's id."),
    OpenApiParameter("points_min", {"type": "integer", "minimum": 0},
                     description="Only lists worth at least this many points."),
    OpenApiParameter("points_max", {"type": "integer", "minimum": 0},
                     description="Only lists worth at most this many points."),
]


class GalleryView(GenericAPIView):
    """`GET /gallery`: public lists, newest first, as the gallery page filters them."""

    permission_classes = [permissions.AllowAny]
    serializer_class = ArmyListSummarySerializer

    @extend_schema(tags=["lists"], operation_id="gallery_list", summary="The public gallery",
                   parameters=GALLERY_PARAMETERS, responses=ArmyListSummarySerializer(many=True))
    def get(self, request: Request) -> Response:
        search = checked_text("search", request.query_params.get("search", ""))
        system_key = checked_text("system", request.query_params.get("system", ""))[:32]
        lists = selectors.public_army_lists(
            search=search,
            system_key=system_key,
            faction_id=_whole_number(request, "faction", minimum=1),
            points_min=_whole_number(request, "points_min"),
            points_max=_whole_number(request, "points_max"),
        )
        page = self.paginate_queryset(lists)
        return self.get_paginated_response(ArmyListSummarySerializer(page, many=True).data)


class ComparedUnitSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField(source="display_name")
    points = serializers.IntegerField()


class ComparedListSerializer(serializers.Serializer):
    """One side: the list's summary, its units, and its points by unit category."""

    army_list = ArmyListSummarySerializer()
    units = ComparedUnitSerializer(many=True)
    by_category = serializers.DictField(child=serializers.IntegerField(),
                                        help_text="Points by unit category (hero, infantry, …).")


class ComparedCellSerializer(serializers.Serializer):
    points = serializers.IntegerField()
    share = serializers.IntegerField(help_text="Per cent of that list's total, rounded.")


class ComparedRowSerializer(serializers.Serializer):
    label = serializers.CharField(help_text="The unit category.")
    cells = ComparedCellSerializer(many=True, help_text="One per list, in the order asked.")


class ComparisonSerializer(serializers.Serializer):
    lists = ComparedListSerializer(many=True)
    rows = ComparedRowSerializer(many=True)


class CompareView(GenericAPIView):
    """`GET /lists/compare?a=<id>&b=<id>`: two lists side by side, as the compare page shows them."""

    permission_classes = [permissions.AllowAny]
    serializer_class = ComparisonSerializer
    pagination_class = None

    @extend_schema(
        tags=["lists"], operation_id="lists_compare_retrieve", summary="Compare two lists",
        parameters=[OpenApiParameter(name, {"type": "integer", "minimum": 1}, required=True,
                                     description="The id of a list you may read (yours or a public one).")
                    for name in ("a", "b")],
        responses=ComparisonSerializer)
    def get(self, request: Request) -> Response:
        chosen: list[ArmyList] = []
        errors: dict[str, list[str]] = {}
        for name in ("a", "b"):
            try:
                list_id = _whole_number(request, name, minimum=1)
            except exceptions.ValidationError as exc:
                errors.update(exc.detail)  # type: ignore[arg-type]
                continue
            army_list = None
            if list_id is not None:
                army_list = selectors.army_list_get_for_user(user=request.user, list_id=list_id)
            if army_list is None:
                errors[name] = [_("No such list, or not one you may read.")]
            else:
                chosen.append(army_list)
        if errors:
            raise exceptions.ValidationError(errors)
        sides, rows = selectors.army_lists_compared(army_lists=chosen)
        data: dict[str, Any] = {
            "lists": [{"army_list": side["list"], "units": side["units"], "by_category": side["by_category"]}
                      for side in sides],
            "rows": [{"label": str(row["label"]), "cells": row["cells"]} for row in rows],
        }
        return Response(ComparisonSerializer(data).data)

