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
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions, permissions, serializers, status, viewsets
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from armybuilder.api.exceptions import ServiceUnavailable
from armybuilder.api.lists import list_response
from armybuilder.api.renderers import FileExportMixin
from armybuilder.api.schema import ETAG_HEADER, error, unit_format_schema
from armybuilder.api.serializers import ArmyListSerializer
from armybuilder.interchange import army_list_import
from armybuilder.roster import pdf_jobs
from armybuilder.roster import views as roster
from armybuilder.selectors import army_list_get_for_user

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


class ListImportViewSet(viewsets.ViewSet):
    """`POST /lists/import`: a list file becomes a new list of yours."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(tags=["exports"], summary="Import a list from an interchange-format JSON file",
                   request={"application/json": army_file_schema()}, parameters=[ETAG_HEADER],
                   responses={201: ArmyListSerializer,
                              400: error("The file is not a valid list: each problem with its field path "
                                         "(`units[3].unit.models[0].count`).")})
    def create(self, request: Request) -> Response:
        if not isinstance(request.data, dict):
            raise exceptions.ValidationError({"non_field_errors": ["A list file is a JSON object."]})
        imported = army_list_import(user=request.user, data=request.data)
        imported = army_list_get_for_user(user=request.user, list_id=imported.pk)
        return list_response(request, imported, status_code=status.HTTP_201_CREATED)
