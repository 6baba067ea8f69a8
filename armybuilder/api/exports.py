"""Exports of a list (roster PDF, forum text, interchange JSON) and import of a JSON list.

An export answers with exactly what the list pages' download links give: the views of
`armybuilder/roster/` are called with the request, after the API has authenticated it (so
a token works as well as a session). A list by id must be readable by the caller (404
otherwise); a list by share token needs no account. Import is a job on the worker, the same
as the Import page's (`armybuilder.lists.import_jobs`).
"""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpResponse
from django.urls import reverse
from django.utils.translation import get_language
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions, permissions, serializers, status, viewsets
from rest_framework.parsers import MultiPartParser
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from armybuilder.api.exceptions import PayloadTooLarge, ServiceUnavailable
from armybuilder.api.parsers import BoundedJSONParser
from armybuilder.api.renderers import FileExportMixin
from armybuilder.api.schema import error, unit_format_schema
from armybuilder.lists import import_jobs
from armybuilder.lists.army_forge_export import list_army_forge
from armybuilder.lists.errors import ArmyListError
from armybuilder.lists.importers import FORMATS
from armybuilder.lists.importers.base import MAX_SOURCE_BYTES
from armybuilder.lists.imports import import_input_of
from armybuilder.lists.interchange import MAX_ENTRY_COUNT, army_file_problems
from armybuilder.models import (
    LIST_NAME_MAX_LENGTH,
    MAX_UNITS_PER_LIST,
    POINTS_LIMIT_MAX,
    POINTS_LIMIT_MIN,
    UNIT_GROUP_MAX_LENGTH,
    UNIT_NAME_MAX_LENGTH,
    UNIT_NOTES_MAX_LENGTH,
)
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
    """An army list file (`docs/unit-format.md`, "An army list"): the fields, bounds and
    entry shape the request checks (`interchange.army_file_problems`) before it answers 202."""
    return {
        "type": "object", "title": "ArmyListFile", "required": ["system", "name", "points_limit", "units"],
        "additionalProperties": False,
        "properties": {
            "format": {"type": "integer", "enum": [1]},
            "system": {"type": "string", "enum": sorted(system.key for system in all_systems())},
            "name": {"type": "string", "minLength": 1, "maxLength": LIST_NAME_MAX_LENGTH, "pattern": r"\S"},
            "points_limit": {"type": "integer", "minimum": POINTS_LIMIT_MIN, "maximum": POINTS_LIMIT_MAX},
            "options": {"type": "object", "additionalProperties": {"type": "boolean"}},
            "faction": {"type": "string", "description": "The slug of the faction whose units the list "
                        "adds; an import where it is visible keeps it (optional)."},
            "roster_force": {"type": "string", "description": "A roster list's BattleScribe force entry."},
            "configuration": {"type": "array", "maxItems": MAX_UNITS_PER_LIST, "items": {"type": "object"},
                              "description": "A roster list's configuration selections (battle size, "
                              "allegiance) as chosen, each a BattleScribe selection tree "
                              "(`{entry, number, children}`): not units; read before them."},
            "settings": {"type": "object"},
            "groups": {"type": "object"},
            "units": {"type": "array", "maxItems": MAX_UNITS_PER_LIST, "items": {
                "type": "object", "additionalProperties": False,
                "properties": {
                    "unit": unit_format_schema(),
                    "count": {"type": "integer", "minimum": 1, "maximum": MAX_ENTRY_COUNT},
                    "catalogue_unit": {
                        "type": "string", "description": "`<faction-slug>/<unit-slug>`. Beside `unit` (our "
                        "export), it counts where it builds exactly that unit."},
                    "options": {"type": "array", "items": {"type": "string"}},
                    "selection": {"type": "object", "description": "A roster list's unit as its BattleScribe "
                                  "selection tree (`{entry, number, children}`)."},
                    "custom_name": {"type": "string", "maxLength": UNIT_NAME_MAX_LENGTH},
                    "notes": {"type": "string", "maxLength": UNIT_NOTES_MAX_LENGTH},
                    "group": {"type": "string", "maxLength": UNIT_GROUP_MAX_LENGTH}},
                "anyOf": [{"required": ["unit"]}, {"required": ["catalogue_unit"]}]}},
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
    unpriced = serializers.ListField(
        child=serializers.CharField(), required=False,
        help_text="The unit's rules the formula does not price, as the source writes them: kept on the "
                  "unit as text, and `formula_points` is its price without them.")


class ListImportReportSerializer(serializers.Serializer):
    format = serializers.ChoiceField(choices=list(FORMATS[1:]), help_text="The format that was read.")
    source_total = serializers.FloatField(allow_null=True, help_text="The total as the source states it.")
    units = ImportReportUnitSerializer(many=True, help_text="One per unit entry of the source, in its order.")
    configuration = serializers.ListField(
        child=serializers.CharField(),
        help_text="The roster's configuration selections (battle size, allegiance): kept, never units.")
    unpriced_rules = serializers.ListField(
        child=serializers.CharField(), required=False,
        help_text="Every rule the formula does not price, by name, each once (kept on the units as text).")
    left_out = serializers.ListField(child=serializers.CharField(), help_text="What was not understood.")


class ImportedFactionSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField(allow_null=True)
    system = serializers.CharField()
    slug = serializers.CharField()
    name = serializers.CharField()
    units = serializers.ListField(child=serializers.CharField())


class RosterUnitSerializer(serializers.Serializer):
    name = serializers.CharField()
    points = serializers.IntegerField(help_text="Our price of the unit as imported.")
    roster_points = serializers.FloatField(help_text="What the roster says it costs.")


class RosterImportSerializer(serializers.Serializer):
    """A BattleScribe roster's units, our price beside the roster's (`POST /battlescribe/rosters`)."""

    name = serializers.CharField(help_text="The new list's name (the roster's).")
    units = RosterUnitSerializer(many=True)
    configuration = RosterUnitSerializer(many=True, required=False, help_text=(
        "The roster's configuration selections (battle size, allegiance, …): priced and kept with "
        "the roster, not units of the army."))
    differences = serializers.ListField(child=serializers.CharField(),
                                        help_text="Unmatched selections, other points.")


class ImportResultSerializer(serializers.Serializer):
    """What an import made (or, in a dry run, would make), with the report."""

    saved = serializers.BooleanField()
    list_id = serializers.IntegerField(allow_null=True, help_text="The new list's id (null for an army book "
                                                                  "or a dry run).")
    list_url = serializers.URLField(allow_null=True, help_text="The new list (`GET /lists/{id}`).")
    list_file = serializers.JSONField(allow_null=True, help_text="The list in our list-file format (an "
                                                                 "upload or text in any format).")
    faction = ImportedFactionSummarySerializer(allow_null=True,
                                               help_text="The new private faction (army book).")
    report = ListImportReportSerializer(allow_null=True, help_text="Each unit's price in the source beside "
                                                                   "ours (null for our own JSON file).")
    roster = RosterImportSerializer(allow_null=True, help_text="A BattleScribe roster's import "
                                                               "(`POST /battlescribe/rosters`); else null.")


class ImportProblemSerializer(serializers.Serializer):
    field = serializers.CharField(allow_blank=True, help_text="The field path or line (`units[3].models[0]`, "
                                                              "`line 7`); empty for the whole source.")
    message = serializers.CharField(help_text="What is wrong, in the requester's language.")


class ListImportJobSerializer(serializers.Serializer):
    """A list import run by the worker: poll `url` until `status` is `done` or `failed`."""

    id = serializers.CharField(help_text="The import's id.")
    url = serializers.URLField(help_text="Where to poll it.")
    status = serializers.ChoiceField(choices=["queued", "running", "done", "failed"],
                                     help_text="`queued`, `running`, then `done` or `failed`.")
    dry_run = serializers.BooleanField(help_text="Checked and reported only; nothing is saved.")
    elapsed_seconds = serializers.FloatField(help_text="Seconds since the import was sent.")
    result = ImportResultSerializer(allow_null=True, help_text="When `status` is `done`.")
    errors = ImportProblemSerializer(many=True, help_text="When `status` is `failed`: each problem with its "
                                                          "line or field; nothing was saved.")


def list_import_answer(request: Request, job: import_jobs.ListImportJob, *,
                       created: bool = False) -> Response:
    """202 with `Location` and `Retry-After` while the import waits or runs; 200 once it ended
    (a POST answers 202 with `Location` even when the job already ended)."""
    url = request.build_absolute_uri(reverse("api:list-import-job", args=[job.id]))
    result = None
    if job.state == "done" and job.result is not None:
        found = job.result
        list_id = found.get("list_id")
        result = {"saved": found["saved"], "list_id": list_id,
                  "list_url": request.build_absolute_uri(reverse("api:list-detail", args=[list_id]))
                  if list_id else None,
                  "list_file": found.get("list_file"), "faction": found.get("faction"),
                  "report": found.get("report"),
                  "roster": {"name": found.get("list_name", ""), **found["roster"]}
                  if found.get("roster") else None}
    body = {"id": job.id, "url": url, "status": job.state, "dry_run": job.dry_run,
            "elapsed_seconds": job.elapsed, "result": result,
            "errors": [{"field": path, "message": message} for path, message in job.errors]}
    data = ListImportJobSerializer(body).data
    if job.finished and not created:
        return Response(data, status=status.HTTP_200_OK)
    headers = {"Location": url, "Cache-Control": "no-store"}
    if not job.finished:
        headers["Retry-After"] = str(import_jobs.RETRY_AFTER)
    return Response(data, status=status.HTTP_202_ACCEPTED, headers=headers)


class ListImportViewSet(viewsets.ViewSet):
    """`POST /lists/import`: a list file becomes a new list of yours, on the worker.

    `application/json`: our list file. `multipart/form-data`: any format we read
    (`armybuilder.lists.importers`), with a report (source price beside ours, what was left
    out). The request checks only what is cheap (the body parses, sizes, fields) and queues the
    import (`armybuilder.lists.import_jobs`): 202 with the job's URL in `Location`; the job
    gives the list (or faction) and the report, or every problem with its line or field.
    """

    permission_classes = [permissions.IsAuthenticated]
    parser_classes = [BoundedJSONParser, MultiPartParser]

    @extend_schema(tags=["exports"], summary="Import a list: our JSON file, or any format with a report "
                                             "(a background job)",
                   description="Stores the list and queues its import; poll the URL in `Location` until "
                               "`status` is `done` (the list's id and URL, the report) or `failed` (each "
                               "problem with its line or field).",
                   request={"application/json": army_file_schema(),
                            "multipart/form-data": ImportRequestSerializer},
                   responses={202: ListImportJobSerializer,
                              400: error("Nothing to import, a malformed JSON body, or an unknown faction."),
                              413: error("The upload is larger than the limit."),
                              503: error("The job queue is unreachable; nothing was stored.")})
    def create(self, request: Request) -> Response:
        if request.content_type.startswith("multipart/"):
            return self._any_format(request)
        if not isinstance(request.data, dict):
            raise exceptions.ValidationError({"non_field_errors": ["A list file is a JSON object."]})
        problems = army_file_problems(request.data)  # in the request: a body the worker would refuse
        if problems:
            raise ArmyListError(problems)
        return self._queue(request, mode="api_json", text=json.dumps(request.data))

    def _any_format(self, request: Request) -> Response:
        declared = request.META.get("CONTENT_LENGTH", "")
        if declared.isdigit() and int(declared) > MAX_SOURCE_BYTES + 64 * 1024:
            raise PayloadTooLarge(MAX_SOURCE_BYTES)
        body = ImportRequestSerializer(data={k: v for k, v in request.data.items()})
        body.is_valid(raise_exception=True)
        values = body.validated_data
        faction_id = None
        if values.get("faction"):
            if not factions_visible_to(user=request.user).filter(pk=values["faction"]).exists():
                raise exceptions.ValidationError({"faction": ["No such faction."]})
            faction_id = values["faction"]
        name, data, text = import_input_of(upload=values.get("file"), text=values.get("text") or "")
        return self._queue(request, mode="api_any", name=name, data=data, text=text, format=values["format"],
                           system_key=values.get("system") or None, faction_id=faction_id,
                           dry_run=values["dry_run"])

    def _queue(self, request: Request, **given: Any) -> Response:
        try:
            job = import_jobs.queue_list_import(owner_id=request.user.pk, language=get_language(), **given)
        except import_jobs.ImportThrottled as exc:
            raise exceptions.Throttled(exc.wait) from None
        except import_jobs.ImportUnavailable:
            raise ServiceUnavailable() from None
        return list_import_answer(request, job, created=True)


class ListImportJobView(APIView):
    """`GET /lists/imports/{id}`: a list import's state, then its outcome (its owner only)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(tags=["exports"], summary="A list import: its status, then the list and the report",
                   responses={200: ListImportJobSerializer, 202: ListImportJobSerializer,
                              404: error("No such import of yours (an import is kept for an hour)."),
                              503: error("The job queue is unreachable.")})
    def get(self, request: Request, job_id: str) -> Response:
        try:
            job = import_jobs.list_import_state(job_id=job_id, owner_id=request.user.pk)
        except import_jobs.ImportUnavailable:
            raise ServiceUnavailable() from None
        if job is None:
            raise exceptions.NotFound()
        return list_import_answer(request, job)
