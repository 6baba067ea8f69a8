"""Your army lists: create, read, change, delete; validate, share, fork.

Every read goes through `armybuilder.lists.selectors` (a list you may not read is a 404, the
same answer as for a list that does not exist) and every write through
`armybuilder.lists.services` / `armybuilder.lists.sharing`, exactly as the list pages do. A write to
an existing list needs `If-Match` with the list's ETag (`preconditions.py`). Units inside
a list are in `list_units.py`; exports and import in `exports.py`.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions, permissions, status, viewsets
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse

from armybuilder.api import list_cache, list_documents
from armybuilder.api.filters import checked_text
from armybuilder.api.permissions import IsListOwnerOrReadOnly
from armybuilder.api.preconditions import etag, expected_version, if_none_match, with_etag, with_version_etag
from armybuilder.api.schema import ETAG_HEADER, IF_MATCH, IF_NONE_MATCH, NOT_MODIFIED, STALE_RESPONSES, error
from armybuilder.api.serializers import (
    ArmyListCreateSerializer,
    ArmyListSerializer,
    ArmyListSummarySerializer,
    ArmyListWriteSerializer,
    EvaluationSerializer,
    GauntletSerializer,
    GauntletSettingsSerializer,
    ListAuditSerializer,
    ListUnitSerializer,
    LockSerializer,
    ShareSerializer,
)
from armybuilder.estimates.gauntlet_live import gauntlet_settings, opponent_choices
from armybuilder.estimates.gauntlet_panel import gauntlet_state
from armybuilder.estimates.gauntlet_text import shown_targets, unit_sentences
from armybuilder.lists.audit import army_list_audit
from armybuilder.lists.evaluation import army_list_evaluate
from armybuilder.lists.locks import army_list_lock, army_list_locks
from armybuilder.lists.selectors import (
    API_READ_UNREAD,
    army_list_get_for_user,
    army_list_units,
    army_lists_owned_by,
)
from armybuilder.lists.services import (
    army_list_create,
    army_list_delete,
    army_list_fork,
    army_list_undo,
    army_list_update,
)
from armybuilder.lists.sharing import army_list_share, army_list_unshare
from armybuilder.models import POINTS_LIMIT_MAX, ArmyList, ListUnit
from rules.models import Faction, GameSystem
from rules.systems.registry import get_system

SEARCH = OpenApiParameter("search", {"type": "string", "maxLength": 100},
                         description="Only lists whose name contains this text (any case).")
TAGS = ["lists"]


def units_data(army_list: ArmyList, units: list[ListUnit] | None = None) -> list[dict[str, Any]]:
    """The list's units as `ListUnitSerializer` renders them (one query, cached points;
    none when `units`, the list's units in order, are given)."""
    if units is None:
        units = army_list_units(army_list=army_list)
    return ListUnitSerializer(units, many=True).data


def _representation(army_list: ArmyList) -> dict[str, Any]:
    """The list as `ArmyListSerializer` gives it, its units read once (one query, without the
    columns it never shows)."""
    return list_documents.representation(army_list)


def list_response(request: Request, army_list: ArmyList, *, status_code: int = 200,
                  store: bool = False) -> Response | HttpResponse:
    """A whole list (cached points, nothing re-priced) with its ETag.

    The representation of each version is built once per process (`list_cache`); only the
    share token, which the owner alone may see, is filled in per request. A read whose
    `If-None-Match` names the current ETag is answered 304 with no body.

    `store`: `army_list` and its units are read from the database as they are now (a read by
    id whose stored document did not match): the list is serialized afresh and its document
    stored for the next reads (`list_documents`). Not after a write: the objects a service
    changed hold JSON documents in the order they were built, the database's in its own.
    """
    if status_code == 200 and request.method == "GET" and etag(army_list) in if_none_match(request):
        return with_etag(Response(status=status.HTTP_304_NOT_MODIFIED), army_list)
    is_owner = request.user.is_authenticated and request.user.pk == army_list.owner_id
    token = army_list.share_token if is_owner else None
    if store and list_documents.enabled() and army_list.locked_at is None:
        head, tail = list_documents.save(army_list)
        return with_version_etag(list_documents.json_response(head, tail, token, status=status_code),
                                 army_list.version)
    cached = list_cache.representation(army_list, lambda: _representation(army_list))
    body = {**cached, "share_token": token}
    return with_etag(Response(body, status=status_code), army_list)


def stored_list_response(request: Request, found: list_documents.StoredList) -> HttpResponse | Response:
    """A read answered from the list's stored document (`list_documents.stored`)."""
    if f'"{found.version}"' in if_none_match(request):
        return with_version_etag(Response(status=status.HTTP_304_NOT_MODIFIED), found.version)
    assert found.head is not None and found.tail is not None
    token = found.share_token if request.user.pk == found.owner_id else None
    return with_version_etag(list_documents.json_response(found.head, found.tail, token), found.version)


def system_for_new_list(key: str) -> GameSystem:
    """The catalogue row of a registered system, or a 400 on `system`."""
    system = GameSystem.objects.filter(key=key).first()
    try:
        if system is not None:
            get_system(key)
    except KeyError:
        system = None
    if system is None:
        raise exceptions.ValidationError({"system": [_("No such game system.")]})
    return system


class ListLookupMixin:
    """`get_object()` for views under `/lists/{list_id}`: the selector decides, 404 otherwise."""

    request: Request
    kwargs: dict[str, Any]

    def get_list(self, unread: tuple[str, ...] = ()) -> ArmyList:
        """`unread`: columns of the list the caller never reads (see `army_list_get_for_user`)."""
        army_list = army_list_get_for_user(user=self.request.user, list_id=self.kwargs["list_id"],
                                           unread=unread)
        if army_list is None:
            raise exceptions.NotFound(_("No such list."))
        self.check_object_permissions(self.request, army_list)  # type: ignore[attr-defined]
        return army_list


class ArmyListViewSet(ListLookupMixin, viewsets.GenericViewSet):
    """The signed-in player's lists (`/lists`) and any list they may read (`/lists/{list_id}`)."""

    permission_classes = [permissions.IsAuthenticated, IsListOwnerOrReadOnly]
    serializer_class = ArmyListSerializer

    def get_permissions(self) -> list[permissions.BasePermission]:
        if self.action == "fork":  # anyone who may read a list may fork it
            return [permissions.IsAuthenticated()]
        return super().get_permissions()

    @extend_schema(tags=TAGS, summary="List your lists", responses=ArmyListSummarySerializer(many=True),
                   parameters=[SEARCH])
    def list(self, request: Request) -> Response:
        """Your own lists, most recently changed first (others' public lists are read by id)."""
        search = checked_text("search", request.query_params.get("search", ""))
        page = self.paginate_queryset(army_lists_owned_by(user=request.user, search=search, summary=True))
        return self.get_paginated_response(ArmyListSummarySerializer(page, many=True).data)

    @extend_schema(tags=TAGS, summary="Create a list", request=ArmyListCreateSerializer,
                   responses={201: ArmyListSerializer}, parameters=[ETAG_HEADER])
    def create(self, request: Request) -> Response:
        """A new, empty list of yours; its game system and faction cannot change later."""
        serializer = ArmyListCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        system = system_for_new_list(data["system"])
        if get_system(system.key).points_sized and "points_limit" not in data:
            raise exceptions.ValidationError({"points_limit": [_("This field is required.")]})
        faction = None
        if data.get("faction") is not None:
            faction = Faction.objects.filter(pk=data["faction"]).first()
            if faction is None:
                raise exceptions.ValidationError({"faction": [_("No such faction.")]})
        army_list = army_list_create(
            owner=request.user, system=system, faction=faction, name=data["name"],
            points_limit=data.get("points_limit", POINTS_LIMIT_MAX),
            structure_options=data.get("structure_options"),
            is_public=data.get("is_public", False), settings=data.get("settings"))
        return list_response(request, army_list, status_code=status.HTTP_201_CREATED)

    @extend_schema(tags=TAGS, summary="Get a list with its units", parameters=[ETAG_HEADER, IF_NONE_MATCH],
                   responses={200: ArmyListSerializer, **NOT_MODIFIED})
    def retrieve(self, request: Request, list_id: int) -> Response:
        """The list with its units, their options and points as saved (nothing is re-priced)."""
        if list_documents.enabled():
            found = list_documents.stored(user=request.user, list_id=list_id)
            if found is not None and found.head is not None:
                return stored_list_response(request, found)
        return list_response(request, self.get_list(unread=API_READ_UNREAD), store=True)

    @extend_schema(tags=TAGS, summary="Replace a list's settings", request=ArmyListWriteSerializer,
                   parameters=[IF_MATCH, ETAG_HEADER], responses={200: ArmyListSerializer, **STALE_RESPONSES})
    def update(self, request: Request, list_id: int) -> Response:
        """Name, points limit, structure rules and gallery visibility, all at once."""
        return self._update(request, partial=False)

    @extend_schema(tags=TAGS, summary="Change some of a list's settings", request=ArmyListWriteSerializer,
                   parameters=[IF_MATCH, ETAG_HEADER], responses={200: ArmyListSerializer, **STALE_RESPONSES})
    def partial_update(self, request: Request, list_id: int) -> Response:
        """Only the settings sent change."""
        return self._update(request, partial=True)

    def _update(self, request: Request, *, partial: bool) -> Response:
        army_list = self.get_list()
        # The body first: a malformed request is a 400 whatever its If-Match says.
        serializer = ArmyListWriteSerializer(data=request.data, partial=partial)
        serializer.is_valid(raise_exception=True)
        if not partial and army_list.points_sized and "points_limit" not in serializer.validated_data:
            raise exceptions.ValidationError({"points_limit": [_("This field is required.")]})
        version = expected_version(request, army_list)
        army_list_update(army_list=army_list, expected_version=version, **serializer.validated_data)
        return list_response(request, army_list)

    @extend_schema(tags=TAGS, summary="Delete a list", parameters=[IF_MATCH],
                   responses={204: OpenApiResponse(description="Deleted."), **STALE_RESPONSES})
    def destroy(self, request: Request, list_id: int) -> Response:
        """The list and its units; lists forked from it stay."""
        army_list = self.get_list()
        army_list_delete(army_list=army_list, expected_version=expected_version(request, army_list))
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(tags=TAGS, summary="Validate a list: points and violations, freshly computed",
                   responses={200: EvaluationSerializer})
    def validate(self, request: Request, list_id: int) -> Response:
        """Every unit re-priced by the game system and the army re-validated, now."""
        army_list = self.get_list()
        evaluation, sized = army_list_evaluate(army_list=army_list), army_list.points_sized
        return Response(EvaluationSerializer({
            "total_points": evaluation.total_points,
            "points_limit": evaluation.points_limit if sized else None,
            "points_left": evaluation.points_left if sized else None, "is_valid": evaluation.is_valid,
            "unit_points": {str(pk): points for pk, points in evaluation.unit_points.items()},
            "violations": evaluation.violations,
        }).data)

    @extend_schema(tags=TAGS, summary="The points audit: each unit's book price beside the formula's",
                   responses={200: ListAuditSerializer})
    def audit(self, request: Request, list_id: int) -> Response:
        """Each unit's book price (Army Forge's, for an imported unit) beside the published
        formula's, the difference, and the rules the formula did not price; the list's totals.
        404 for a list whose game system has no published formula."""
        return Response(ListAuditSerializer(army_list_audit(army_list=self.get_list())).data)

    @extend_schema(tags=TAGS, summary="Undo the last removal of a unit or clearing of its options",
                   request=None, parameters=[IF_MATCH, ETAG_HEADER],
                   responses={200: ArmyListSerializer, 400: error("There is nothing to undo (`undo`)."),
                              **STALE_RESPONSES},
                   description="What the editor's Undo does: a removed unit returns to its place with its "
                               "options, name and notes; cleared options come back. A 400 on `undo` when "
                               "there is nothing to undo. Answers with the whole list.")
    def undo(self, request: Request, list_id: int) -> Response:
        army_list = self.get_list()
        army_list_undo(army_list=army_list, expected_version=expected_version(request, army_list))
        return list_response(request, army_list)

    @extend_schema(tags=TAGS, summary="Fork a list into a private copy of your own", request=None,
                   responses={201: ArmyListSerializer}, parameters=[ETAG_HEADER])
    def fork(self, request: Request, list_id: int) -> Response:
        """A private copy of a list you may read (yours or a public one), units and all."""
        copy = army_list_fork(army_list=self.get_list(), user=request.user)
        copy = army_list_get_for_user(user=request.user, list_id=copy.pk)
        return list_response(request, copy, status_code=status.HTTP_201_CREATED)

    @extend_schema(tags=TAGS, summary="Share a list: a read-only link anyone can open", request=None,
                   parameters=[IF_MATCH, ETAG_HEADER], responses={200: ShareSerializer, **STALE_RESPONSES},
                   description="Sharing twice keeps the same token. The list's version changes.")
    def share(self, request: Request, list_id: int) -> Response:
        army_list = self.get_list()
        token = army_list_share(army_list=army_list, expected_version=expected_version(request, army_list))
        url = reverse("api:shared-list", kwargs={"token": token}, request=request)
        return with_etag(Response(ShareSerializer({"token": token, "url": url}).data), army_list)

    @extend_schema(tags=TAGS, summary="Revoke a list's share link", request=None,
                   parameters=[IF_MATCH, ETAG_HEADER],
                   responses={204: OpenApiResponse(description="The old link now answers 404."),
                              **STALE_RESPONSES})
    def unshare(self, request: Request, list_id: int) -> Response:
        """The share token is forgotten; sharing again makes a new one."""
        army_list = self.get_list()
        army_list_unshare(army_list=army_list, expected_version=expected_version(request, army_list))
        return with_etag(Response(status=status.HTTP_204_NO_CONTENT), army_list)

    @extend_schema(tags=TAGS, summary="Locked versions of a list, newest first",
                   responses={200: LockSerializer(many=True)})
    def locks(self, request: Request, list_id: int) -> Response:
        """Every "Lock and share" made of this list (owner only)."""
        army_list = self.get_list()
        if army_list.owner_id != request.user.pk:  # a public list's locks are its owner's business
            raise exceptions.NotFound(_("No such list."))
        page = self.paginate_queryset(army_list_locks(army_list=army_list))
        return self.get_paginated_response(LockSerializer(page, many=True, context={"request": request}).data)

    @extend_schema(tags=TAGS, summary="Lock and share: freeze the list as it is now", request=None,
                   parameters=[IF_MATCH], responses={201: LockSerializer, **STALE_RESPONSES},
                   description="A read-only copy with its own share link, the time and a fingerprint of "
                               "its content; later changes of the list never change it. The list's version "
                               "does not change.")
    def lock(self, request: Request, list_id: int) -> Response:
        army_list = self.get_list()
        locked = army_list_lock(army_list=army_list, expected_version=expected_version(request, army_list))
        data = LockSerializer(locked, context={"request": request}).data
        return Response(data, status=status.HTTP_201_CREATED)

    def _gauntlet_response(self, army_list: ArmyList) -> Response:
        state = gauntlet_state(army_list)
        report = state.report
        system = get_system(army_list.system.key)
        units = [{**row, **shown_targets(row), "unit_id": unit_id,
                  "offence_per_wound": row.get("offence_per_wound"),
                  "durability_per_wound": row.get("durability_per_wound"),
                  "combat_chances": [{**c, "label": _(c["label"])} for c in row["combat_chances"]],
                  "explanation": unit_sentences(row, system=system, per_model=report.worth_unit == "models")}
                 for unit_id, row in zip(state.unit_ids, report.units, strict=True)] if report else []
        data = {"state": state.state, "done": state.done, "total": state.total,
                "worth_unit": report.worth_unit if report else None, "settings": gauntlet_settings(army_list),
                "units": units, "opponents": report.opponents if report else []}
        headers = {"Retry-After": "1"} if state.state == "computing" else {}
        return Response(GauntletSerializer(data).data, headers={**headers, "Cache-Control": "no-store"})

    @extend_schema(tags=TAGS, summary="The list measured against its gauntlet",
                   responses={200: GauntletSerializer},
                   description="Every unit against every unit of the opponents, computed by the worker "
                               "and cached by content; while `state` is `computing`, ask again after "
                               "`Retry-After`.")
    def gauntlet(self, request: Request, list_id: int) -> Response:
        army_list = self.get_list()
        if army_list.owner_id != request.user.pk:
            raise exceptions.NotFound(_("No such list."))
        return self._gauntlet_response(army_list)

    @extend_schema(tags=TAGS, summary="Choose the opponents of the list's gauntlet",
                   request=GauntletSettingsSerializer, parameters=[IF_MATCH],
                   responses={200: GauntletSerializer, **STALE_RESPONSES})
    def set_gauntlet(self, request: Request, list_id: int) -> Response:
        """Not a change of the list: its version and ETag stay as they are."""
        army_list = self.get_list()
        # The body first, as every other write: a malformed request is a 400 whatever its If-Match says.
        chosen = GauntletSettingsSerializer(data=request.data)
        chosen.is_valid(raise_exception=True)
        expected_version(request, army_list)  # 428 without If-Match, 412 for another version
        allowed = {choice.pk for choice in opponent_choices(army_list)}
        unknown = [pk for pk in chosen.validated_data["lists"] if pk not in allowed]
        if unknown:
            message = _("No list you may use as an opponent has the id %(id)s.") % {"id": unknown[0]}
            raise exceptions.ValidationError({"lists": [message]})
        army_list.gauntlet = dict(chosen.validated_data)
        ArmyList.objects.filter(pk=army_list.pk).update(gauntlet=army_list.gauntlet)
        return self._gauntlet_response(army_list)
