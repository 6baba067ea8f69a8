"""Units inside a list: add one from the catalogue, change its options or place, remove it.

Every write is one call of an `armybuilder.lists.services` function (the same the list editor
page makes), needs `If-Match` with the list's ETag, and answers with the whole list as it
now is (new totals, violations and ETag), so a client never has to read it again.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, permissions, status, viewsets
from rest_framework.request import Request
from rest_framework.response import Response

from armybuilder.api.lists import ListLookupMixin, list_response, units_data
from armybuilder.api.permissions import IsListOwnerOrReadOnly
from armybuilder.api.preconditions import expected_version
from armybuilder.api.schema import ETAG_HEADER, IF_MATCH, STALE_RESPONSES
from armybuilder.api.serializers import (
    ArmyListSerializer,
    ListUnitAddSerializer,
    ListUnitChangeSerializer,
    ListUnitSerializer,
)
from armybuilder.lists.selectors import army_list_unit_choice, army_list_unit_get
from armybuilder.lists.services import (
    army_list_add_unit,
    army_list_unit_clear_options,
    army_list_unit_duplicate,
    army_list_unit_move,
    army_list_unit_remove,
    army_list_unit_set_details,
    army_list_unit_set_options,
)
from armybuilder.models import ListUnit

TAGS = ["list units"]
WRITE_RESPONSES = {200: ArmyListSerializer, **STALE_RESPONSES}


class ListUnitViewSet(ListLookupMixin, viewsets.GenericViewSet):
    """`/lists/{list_id}/units` and `/lists/{list_id}/units/{unit_id}`."""

    permission_classes = [permissions.IsAuthenticated, IsListOwnerOrReadOnly]
    serializer_class = ListUnitSerializer
    pagination_class = None  # a list has at most 200 units

    def get_unit(self) -> ListUnit:
        army_list = self.get_list()
        unit = army_list_unit_get(army_list=army_list, unit_id=self.kwargs["unit_id"])
        if unit is None:
            raise exceptions.NotFound(_("No such unit in this list."))
        return unit

    @extend_schema(tags=TAGS, summary="List the units of a list", responses=ListUnitSerializer(many=True))
    def list(self, request: Request, list_id: int) -> Response:
        """The units in list order, as in the list's `units`."""
        return Response(units_data(self.get_list()))

    @extend_schema(tags=TAGS, summary="Add a unit to a list", request=ListUnitAddSerializer,
                   parameters=[IF_MATCH, ETAG_HEADER], responses={201: ArmyListSerializer, **STALE_RESPONSES},
                   description="The unit must be of the list's faction (or one of your homebrew units of its "
                               "system). Answers with the whole list; the new unit is the last one.")
    def create(self, request: Request, list_id: int) -> Response:
        army_list = self.get_list()
        # The body first: a malformed request is a 400 whatever its If-Match says.
        serializer = ListUnitAddSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        version = expected_version(request, army_list)
        data = serializer.validated_data
        template = army_list_unit_choice(army_list=army_list, unit_id=data["unit"])
        if template is None:
            raise exceptions.ValidationError({"unit": [_("Not a unit you can add to this list.")]})
        army_list_add_unit(army_list=army_list, unit=template, options=data.get("options"),
                           expected_version=version)
        return list_response(request, army_list, status_code=status.HTTP_201_CREATED)

    @extend_schema(tags=TAGS, summary="Get a unit of a list", responses=ListUnitSerializer)
    def retrieve(self, request: Request, list_id: int, unit_id: int) -> Response:
        """One unit: its options menu, the options taken and the unit they produce."""
        return Response(ListUnitSerializer(self.get_unit()).data)

    @extend_schema(tags=TAGS, summary="Change a unit's options and/or its place in the list",
                   request=ListUnitChangeSerializer, parameters=[IF_MATCH, ETAG_HEADER],
                   responses=WRITE_RESPONSES,
                   description="`options` replaces the whole choice (option key → count; options left out "
                               "are not taken, or at their minimum). Answers with the whole list.")
    @transaction.atomic
    def partial_update(self, request: Request, list_id: int, unit_id: int) -> Response:
        unit = self.get_unit()
        army_list = unit.army_list
        # The body first: a malformed request is a 400 whatever its If-Match says.
        serializer = ListUnitChangeSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        version = expected_version(request, army_list)
        change = serializer.validated_data
        if "options" in change:
            army_list_unit_set_options(list_unit=unit, options=change["options"], expected_version=version)
            version = army_list.version if version is not None else None
        if "position" in change:
            army_list_unit_move(list_unit=unit, position=change["position"], expected_version=version)
            version = army_list.version if version is not None else None
        if {"custom_name", "notes", "group", "group_kind"} & change.keys():
            army_list_unit_set_details(
                list_unit=unit,
                custom_name=change.get("custom_name", unit.custom_name),
                notes=change.get("notes", unit.notes),
                group=change.get("group", unit.group),
                group_kind=change.get("group_kind"),
                expected_version=version,
            )
        return list_response(request, army_list)

    @extend_schema(tags=TAGS, summary="Remove a unit from a list", parameters=[IF_MATCH, ETAG_HEADER],
                   responses=WRITE_RESPONSES, description="Answers with the whole list as it now is.")
    def destroy(self, request: Request, list_id: int, unit_id: int) -> Response:
        unit = self.get_unit()
        army_list = unit.army_list
        army_list_unit_remove(list_unit=unit, expected_version=expected_version(request, army_list))
        return list_response(request, army_list)

    @extend_schema(tags=TAGS, summary="Duplicate a unit (the copy comes right after it)", request=None,
                   parameters=[IF_MATCH, ETAG_HEADER], responses={201: ArmyListSerializer, **STALE_RESPONSES})
    def duplicate(self, request: Request, list_id: int, unit_id: int) -> Response:
        """Same options, same points; answers with the whole list."""
        unit = self.get_unit()
        army_list = unit.army_list
        army_list_unit_duplicate(list_unit=unit, expected_version=expected_version(request, army_list))
        return list_response(request, army_list, status_code=status.HTTP_201_CREATED)

    @extend_schema(tags=TAGS, summary="Clear a unit's options (back to how it comes)", request=None,
                   parameters=[IF_MATCH, ETAG_HEADER], responses=WRITE_RESPONSES,
                   description="Every option at its minimum, as the editor's Clear does; "
                               "`POST /lists/{list_id}/undo` brings them back. Answers with the whole list.")
    def clear_options(self, request: Request, list_id: int, unit_id: int) -> Response:
        unit = self.get_unit()
        army_list = unit.army_list
        army_list_unit_clear_options(list_unit=unit, expected_version=expected_version(request, army_list))
        return list_response(request, army_list)
