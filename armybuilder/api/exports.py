"""Exports of a list (roster PDF, forum text, interchange JSON) and import of a JSON list.

An export answers with exactly what the list pages' download links give: the views of
`armybuilder/roster/` are called with the request, after the API has authenticated it (so
a token works as well as a session). A list by id must be readable by the caller (404
otherwise); a list by share token needs no account. Import goes through the same
`army_list_import` service as the import page.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, PolymorphicProxySerializer, extend_schema
from rest_framework import exceptions, permissions, serializers, status, viewsets
from rest_framework.parsers import MultiPartParser
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from armybuilder.api.exceptions import PayloadTooLarge, ServiceUnavailable
from armybuilder.api.lists import list_response
from armybuilder.api.parsers import BoundedJSONParser
from armybuilder.api.renderers import FileExportMixin
from armybuilder.api.schema import ETAG_HEADER, error, unit_format_schema
from armybuilder.api.serializers import ArmyListSerializer
from armybuilder.lists.army_forge_export import list_army_forge
from armybuilder.lists.importers import FORMATS
from armybuilder.lists.importers.base import MAX_SOURCE_BYTES
from armybuilder.lists.imports import import_source, import_source_of
from armybuilder.lists.interchange import army_list_import
from armybuilder.lists.selectors import army_list_get_for_user
from armybuilder.roster import pdf_jobs
from armybuilder.roster import views as roster
from armybuilder.roster.battlescribe import list_rosz
from rules.selectors import factions_visible_to
from rules.systems.registry import all_systems

PAPER = OpenApiParameter("paper", str, enum=["a4", "letter"], default="a4",
                         description="Page size of the printed roster.")


class PdfPendingSerializer(serializers.Serializer):
    """A roster PDF being rendered by the worker: ask the same URL again after `retry_after` s."""

    status = serializers.ChoiceField(choices=["pending"])
    retry_after = serializers.IntegerField(min_value=1, help_text="Seconds to wait before asking again.")
    stage = serializers.ChoiceField(
        choices=list(pdf_jobs.STAGES),
        help_text="Where the render is: `queued` (waiting for a worker), `building` (the roster's "
                  "HTML), `laying_out` (pages), `writing` (the PDF file).")
    pages = serializers.IntegerField(min_value=0, help_text="Pages laid out so far (the total is "
                                                            "not known until the render ends).")
    elapsed_seconds = serializers.FloatField(min_value=0, help_text="Seconds since the render was queued.")


PDF = {(200, "application/pdf"): OpenApiResponse(OpenApiTypes.BINARY, description="The roster as a PDF."),
       (202, "application/json"): OpenApiResponse(
           PdfPendingSerializer, description="Not rendered yet: the render is queued; ask again after "
                                             "`Retry-After` seconds (the same URL)."),
       503: error("PDFs cannot be made now (the job queue is down, or the render failed); retry later.")}


def pdf_answer(request: Request, list_id: int | None = None, token: str | None = None) -> Any:
    """The roster PDF if rendered, else 202 with when to ask again (the render is queued)."""
    army_list = roster.readable_list(request._request, list_id, token)
    try:
        state = roster.pdf_state(request._request, army_list)
    except pdf_jobs.PdfUnavailable:
        raise ServiceUnavailable("PDFs cannot be made now: the job queue is unreachable.") from None
    except pdf_jobs.PdfThrottled as exc:
        raise exceptions.Throttled(exc.wait) from None
    if state.state == "ready" and state.pdf is not None:
        return roster.pdf_response(army_list, state.pdf)
    if state.state == "failed":
        raise ServiceUnavailable(state.error, retry_after=pdf_jobs.FAILURE_TTL)
    request.accepted_renderer = JSONRenderer()
    request.accepted_media_type = JSONRenderer.media_type
    return Response({"status": "pending", "retry_after": state.retry_after, "stage": state.stage,
                     "pages": state.pages, "elapsed_seconds": state.elapsed}, status=status.HTTP_202_ACCEPTED,
                    headers={"Retry-After": str(state.retry_after), "Cache-Control": "no-store"})
CARD = {(200, "image/png"): OpenApiResponse(
    OpenApiTypes.BINARY,
    description="The list's share card: a 1200×630 PNG (name, system, faction, points or models, units with "
                "sizes and costs, rules broken, a locked version's fingerprint), the image of its link "
                "previews.")}
TEXT = {(200, "text/plain"): OpenApiResponse(OpenApiTypes.STR, description="The list as text, for a forum.")}


def army_file_schema() -> dict[str, Any]:
    """An army list file (`shared/spec/unit-format.md`, "An army list")."""
    return {
        "type": "object", "title": "ArmyListFile", "required": ["system", "name", "points_limit", "units"],
        "additionalProperties": True,
        "properties": {
            "format": {"type": "integer", "enum": [1]},
            "system": {"type": "string"}, "name": {"type": "string"},
            "points_limit": {"type": "integer"},
            "options": {"type": "object", "additionalProperties": {"type": "boolean"}},
            "units": {"type": "array", "items": {
                "type": "object", "additionalProperties": True,
                "properties": {
                    "unit": unit_format_schema(), "count": {"type": "integer", "minimum": 1},
                    "catalogue_unit": {"type": "string", "description": "`<faction-slug>/<unit-slug>`"},
                    "options": {}}}},
        },
    }


def army_forge_schema() -> dict[str, Any]:
    """A list in Army Forge's share-JSON shape, as the system that writes it declares it
    (`GameSystem.foreign_units["army_forge"].list_schema`): the API names no system."""
    for system in all_systems():
        module = system.foreign_units.get("army_forge")
        if module is not None and hasattr(module, "list_schema"):
            return module.list_schema()
    return {"type": "object", "title": "ArmyForgeList"}


ARMY_FORGE = {200: OpenApiResponse(army_forge_schema(), description=(
    "The list in Army Forge's share-JSON shape (what Tabletop Simulator tools for OPR read); "
    "404 for a list of a system Army Forge does not have."))}
ROSZ = {(200, "application/octet-stream"): OpenApiResponse(
    OpenApiTypes.BINARY,
    description="The list as a BattleScribe roster (.rosz), which 40k Tabletop Simulator tools read.")}


class ListExportViewSet(FileExportMixin, viewsets.ViewSet):
    """`/lists/{list_id}/export/{pdf,text,json}`: exports of a list you may read."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(tags=["exports"], summary="Roster as PDF", parameters=[PAPER], responses=PDF)
    def pdf(self, request: Request, list_id: int) -> HttpResponse:
        return pdf_answer(request, list_id=list_id)

    @extend_schema(tags=["exports"], summary="Roster as plain text", responses=TEXT)
    def text(self, request: Request, list_id: int) -> HttpResponse:
        return roster.roster_text(request._request, list_id=list_id)

    @extend_schema(tags=["exports"], summary="List as an interchange-format JSON file",
                   responses={200: OpenApiResponse(army_file_schema(), description="The list file.")})
    def json(self, request: Request, list_id: int) -> HttpResponse:
        return roster.list_json(request._request, list_id=list_id)

    @extend_schema(tags=["exports"], summary="List's share card (PNG image)", responses=CARD)
    def card(self, request: Request, list_id: int) -> HttpResponse:
        return roster.share_card(request._request, list_id=list_id)
    @extend_schema(tags=["exports"], summary="List as Army Forge share JSON", responses=ARMY_FORGE)
    def army_forge(self, request: Request, list_id: int) -> HttpResponse:
        return list_army_forge(request._request, list_id=list_id)


class SharedExportViewSet(FileExportMixin, viewsets.ViewSet):
    """`/shared/{token}/export/{pdf,text,json}`: the same, through a share link, no account needed."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(tags=["exports"], summary="Shared list's roster as PDF", parameters=[PAPER], responses=PDF)
    def pdf(self, request: Request, token: str) -> HttpResponse:
        return pdf_answer(request, token=token)

    @extend_schema(tags=["exports"], summary="Shared list's roster as plain text", responses=TEXT)
    def text(self, request: Request, token: str) -> HttpResponse:
        return roster.roster_text(request._request, token=token)

    @extend_schema(tags=["exports"], summary="Shared list as an interchange-format JSON file",
                   responses={200: OpenApiResponse(army_file_schema(), description="The list file.")})
    def json(self, request: Request, token: str) -> HttpResponse:
        return roster.list_json(request._request, token=token)

    @extend_schema(tags=["exports"], summary="Shared list's share card (PNG image)", responses=CARD)
    def card(self, request: Request, token: str) -> HttpResponse:
        return roster.share_card(request._request, token=token)
    @extend_schema(tags=["exports"], summary="Shared list as Army Forge share JSON", responses=ARMY_FORGE)
    def army_forge(self, request: Request, token: str) -> HttpResponse:
        return list_army_forge(request._request, token=token)

    @extend_schema(tags=["exports"], summary="Shared list as a BattleScribe roster (.rosz)", responses=ROSZ)
    def rosz(self, request: Request, token: str) -> HttpResponse:
        return list_rosz(request._request, token=token)


class ImportRequestSerializer(serializers.Serializer):
    """A list (or army book) in any format we read: a file, pasted text or an Army Forge link."""

    file = serializers.FileField(required=False, help_text=(
        "Our list JSON, an Army Forge list (share JSON) or army book, a BattleScribe .ros/.rosz, "
        "a New Recruit JSON roster, or a text list."))
    text = serializers.CharField(required=False, allow_blank=True, max_length=MAX_SOURCE_BYTES,
                                 trim_whitespace=False,
                                 help_text="The same pasted as text, or an Army Forge share link "
                                           "(fetched by the server from Army Forge only).")
    format = serializers.ChoiceField(choices=list(FORMATS), default="auto",
                                     help_text="The format; `auto` detects it.")
    system = serializers.CharField(required=False, allow_blank=True, max_length=32,
                                   help_text="Key of the game system (detected when left out).")
    faction = serializers.IntegerField(required=False, allow_null=True,
                                       help_text="Id of a faction to match text and rosters against.")
    dry_run = serializers.BooleanField(default=False, help_text="Check and report; save nothing (200).")


class ImportReportUnitSerializer(serializers.Serializer):
    name = serializers.CharField()
    size = serializers.IntegerField(help_text="Models in the unit.")
    source_points = serializers.FloatField(allow_null=True, help_text="The price the source states.")
    formula_points = serializers.IntegerField(allow_null=True, help_text="Our price (the system's formula).")


class ListImportReportSerializer(serializers.Serializer):
    format = serializers.ChoiceField(choices=list(FORMATS[1:]), help_text="The format that was read.")
    source_total = serializers.FloatField(allow_null=True, help_text="The total as the source states it.")
    units = ImportReportUnitSerializer(many=True, help_text="One per unit entry of the source, in its order.")
    left_out = serializers.ListField(child=serializers.CharField(), help_text="What was not understood.")


class ImportedFactionSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField(allow_null=True)
    system = serializers.CharField()
    slug = serializers.CharField()
    name = serializers.CharField()
    units = serializers.ListField(child=serializers.CharField())


class ImportResultSerializer(serializers.Serializer):
    """What an import made (or, in a dry run, would make), with the report."""

    saved = serializers.BooleanField()
    list = ArmyListSerializer(allow_null=True, help_text="The new list (null for an army book or a dry run).")
    list_file = serializers.JSONField(allow_null=True, help_text="The list in our list-file format.")
    faction = ImportedFactionSummarySerializer(allow_null=True,
                                               help_text="The new private faction (army book).")
    report = ListImportReportSerializer()


IMPORT_RESPONSE = PolymorphicProxySerializer(
    component_name="ListImportResponse", resource_type_field_name=None,
    serializers=[ArmyListSerializer, ImportResultSerializer])


class ListImportViewSet(viewsets.ViewSet):
    """`POST /lists/import`: a list file becomes a new list of yours.

    `application/json`: our list file, answered with the new list (as before). `multipart/form-data`:
    any format we read (`armybuilder.lists.importers`), answered with the list or faction and the
    report (source price beside ours, what was left out).
    """

    permission_classes = [permissions.IsAuthenticated]
    parser_classes = [BoundedJSONParser, MultiPartParser]

    @extend_schema(tags=["exports"], summary="Import a list: our JSON file, or any format with a report",
                   request={"application/json": army_file_schema(),
                            "multipart/form-data": ImportRequestSerializer},
                   parameters=[ETAG_HEADER],
                   responses={201: IMPORT_RESPONSE,
                              200: OpenApiResponse(ImportResultSerializer,
                                                   description="A dry run: nothing saved."),
                              400: error("The source cannot be imported: each problem with its line or field "
                                         "path (`units[3].models[0]`, `line 7`)."),
                              413: error("The upload is larger than the limit.")})
    def create(self, request: Request) -> Response:
        if request.content_type.startswith("multipart/"):
            return self._any_format(request)
        if not isinstance(request.data, dict):
            raise exceptions.ValidationError({"non_field_errors": ["A list file is a JSON object."]})
        imported = army_list_import(user=request.user, data=request.data)
        imported = army_list_get_for_user(user=request.user, list_id=imported.pk)
        return list_response(request, imported, status_code=status.HTTP_201_CREATED)

    def _any_format(self, request: Request) -> Response:
        declared = request.META.get("CONTENT_LENGTH", "")
        if declared.isdigit() and int(declared) > MAX_SOURCE_BYTES + 64 * 1024:
            raise PayloadTooLarge(MAX_SOURCE_BYTES)
        body = ImportRequestSerializer(data={k: v for k, v in request.data.items()})
        body.is_valid(raise_exception=True)
        values = body.validated_data
        faction = None
        if values.get("faction"):
            faction = factions_visible_to(user=request.user).filter(pk=values["faction"]).first()
            if faction is None:
                raise exceptions.ValidationError({"faction": ["No such faction."]})
        source = import_source_of(upload=values.get("file"), text=values.get("text") or "")
        outcome = import_source(user=request.user, source=source, format=values["format"],
                                system_key=values.get("system") or None, faction=faction,
                                dry_run=values["dry_run"])
        answer = outcome.as_dict()
        data: dict[str, Any] = {"saved": outcome.saved, "list": None, "list_file": answer.get("list"),
                                "faction": answer.get("faction"), "report": answer["report"]}
        body = dict(ImportResultSerializer(data).data)
        if outcome.saved and outcome.army_list is not None:  # the list exactly as `GET /lists/{id}` gives it
            saved = army_list_get_for_user(user=request.user, list_id=outcome.army_list.pk)
            body["list"] = list_response(request, saved, status_code=status.HTTP_201_CREATED).data
        return Response(body, status=status.HTTP_201_CREATED if outcome.saved else status.HTTP_200_OK)
