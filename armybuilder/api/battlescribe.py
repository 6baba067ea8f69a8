"""BattleScribe endpoints: catalogues into your own factions, rosters in and out as lists.

`POST /battlescribe/imports` (multipart: `system`, one or more `files`) queues an import into
private factions of the signed-in user (shareable like homebrew) on the worker, through the same
job as the upload page (`rules.battlescribe_jobs`) and the same service as the admin command
(`rules.battlescribe_import`): it answers 202 with the job's URL in `Location` and
`Retry-After`; `GET /battlescribe/imports/{id}` answers 202 while the import is queued or
running, then 200 with the result (units, report, warnings) or with the errors, each naming the
file and element. What can be told at once (unknown system, no files, a file above its size
limit) is a 400; a request above the upload limit is a 413 before anything is read; past the
account's `battlescribe_import` rate a 429. `POST /battlescribe/rosters` makes a list from a
.ros/.rosz as a list import on the worker (`armybuilder.lists.import_jobs`): 202 with the list
import job's URL in `Location` (`GET /lists/imports/{id}`), the size and the system checked
first; `GET /lists/{id}/export/rosz` is the list as a .rosz.
"""

from __future__ import annotations

from django.http import HttpResponse
from django.urls import path, reverse
from django.utils.translation import get_language
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, permissions, serializers, status
from rest_framework.parsers import MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from armybuilder.api.exceptions import PayloadTooLarge, ServiceUnavailable
from armybuilder.api.exports import ListImportJobSerializer, list_import_answer
from armybuilder.api.schema import error
from armybuilder.lists import import_jobs
from armybuilder.roster.battlescribe import list_rosz
from rules.battlescribe.xml_reader import BattleScribeError
from rules.battlescribe_import import MAX_UPLOAD_BYTES, read_uploads
from rules.battlescribe_jobs import (
    RETRY_AFTER,
    ImportJob,
    ImportThrottled,
    ImportUnavailable,
    import_state,
    queue_import,
)
from rules.models import GameSystem


class BattleScribeImportRequestSerializer(serializers.Serializer):
    system = serializers.CharField(max_length=32, help_text="Key of the game system to import into.")
    files = serializers.ListField(
        child=serializers.FileField(), min_length=1, help_text="A .gst/.gstz and its .cat/.catz files."
    )


class ImportedUnitSerializer(serializers.Serializer):
    name = serializers.CharField()
    points = serializers.IntegerField(allow_null=True, help_text="At the unit's minimum size.")
    power = serializers.IntegerField(
        allow_null=True, help_text="Power at minimum size; null if the system has none."
    )
    models = serializers.IntegerField(help_text="Models at the minimum size.")


class ImportedFactionSerializer(serializers.Serializer):
    id = serializers.IntegerField(allow_null=True)
    slug = serializers.CharField()
    name = serializers.CharField()
    units = ImportedUnitSerializer(many=True)


class ImportReportSerializer(serializers.Serializer):
    kind = serializers.CharField(help_text="unit_left_out, not_unit, price_differs, offered_always, ...")
    count = serializers.IntegerField(help_text="How many entries the line concerns.")
    names = serializers.ListField(child=serializers.CharField(), help_text="The entries concerned.")
    text = serializers.CharField(help_text="The line in plain words, in the request's language.")


class BattleScribeImportResultSerializer(serializers.Serializer):
    system = serializers.CharField()
    factions = ImportedFactionSerializer(many=True)
    errors = serializers.ListField(child=serializers.CharField())
    report = ImportReportSerializer(many=True, help_text="What was left out and why, grouped.")
    warnings = serializers.ListField(child=serializers.CharField(), help_text="What was kept as text only.")


class BattleScribeImportJobSerializer(serializers.Serializer):
    id = serializers.CharField(help_text="The import's id.")
    url = serializers.URLField(help_text="Where to poll it.")
    status = serializers.CharField(help_text="`queued`, `running`, then `done` or `failed`.")
    elapsed_seconds = serializers.FloatField(help_text="Seconds since the files were uploaded.")
    result = BattleScribeImportResultSerializer(allow_null=True, help_text="When `status` is `done`.")
    errors = serializers.ListField(
        child=serializers.CharField(), help_text="When `status` is `failed`: each names its file and element."
    )


def _job_answer(request: Request, job: ImportJob, *, created: bool = False) -> Response:
    """202 with `Location` and `Retry-After` while the import waits or runs; 200 once it ended."""
    url = request.build_absolute_uri(reverse("api:battlescribe-import-detail", args=[job.id]))
    body = {"id": job.id, "url": url, "status": job.state, "elapsed_seconds": job.elapsed,
            "result": job.summary if job.state == "done" else None, "errors": job.errors}
    data = BattleScribeImportJobSerializer(body).data
    if job.finished and not created:
        return Response(data, status=status.HTTP_200_OK)
    headers = {"Location": url, "Cache-Control": "no-store"}
    if not job.finished:
        headers["Retry-After"] = str(RETRY_AFTER)
    return Response(data, status=status.HTTP_202_ACCEPTED, headers=headers)


class BattleScribeImportView(APIView):
    permission_classes = [permissions.IsAuthenticated]
    parser_classes = [MultiPartParser]

    @extend_schema(
        tags=["catalogue"],
        summary="Import BattleScribe files into your own factions (a background job)",
        description="Stores the files and queues their import; poll the URL in `Location` until "
                    "`status` is `done` or `failed`.",
        request={"multipart/form-data": BattleScribeImportRequestSerializer},
        responses={
            202: BattleScribeImportJobSerializer,
            400: error("The system is unknown, no file was sent, or a file is above its size limit."),
            413: error("The upload is larger than the limit."),
            503: error("The job queue is unreachable; nothing was stored."),
        },
    )
    def post(self, request: Request) -> Response:
        declared = request.META.get("CONTENT_LENGTH", "")
        if declared.isdigit() and int(declared) > MAX_UPLOAD_BYTES:
            raise PayloadTooLarge(MAX_UPLOAD_BYTES)
        body = BattleScribeImportRequestSerializer(
            data={"system": request.data.get("system"), "files": request.FILES.getlist("files")}
        )
        body.is_valid(raise_exception=True)
        system_key = body.validated_data["system"]
        if not GameSystem.objects.filter(key=system_key).exists():
            raise serializers.ValidationError(
                {"files": [f"system: unknown game system {system_key!r} (load the catalogue first)"]})
        try:
            job = queue_import(system_key=system_key, files=read_uploads(body.validated_data["files"]),
                               owner_id=request.user.pk, language=get_language())
        except BattleScribeError as exc:
            raise serializers.ValidationError({"files": exc.errors}) from None
        except ImportThrottled as exc:
            raise exceptions.Throttled(exc.wait) from None
        except ImportUnavailable:
            raise ServiceUnavailable() from None
        return _job_answer(request, job, created=True)


class BattleScribeImportDetailView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        tags=["catalogue"],
        summary="An import of BattleScribe files: its status, then its result",
        responses={
            200: BattleScribeImportJobSerializer,
            202: BattleScribeImportJobSerializer,
            404: error("No such import of yours (an import is kept for an hour)."),
            503: error("The job queue is unreachable."),
        },
    )
    def get(self, request: Request, job_id: str) -> Response:
        try:
            job = import_state(job_id=job_id, owner_id=request.user.pk)
        except ImportUnavailable:
            raise ServiceUnavailable() from None
        if job is None:
            raise exceptions.NotFound()
        return _job_answer(request, job)


class BattleScribeRosterRequestSerializer(serializers.Serializer):
    system = serializers.CharField(max_length=32, help_text="Key of the game system of the list.")
    file = serializers.FileField(help_text="A BattleScribe roster (.ros or .rosz).")


class BattleScribeRosterImportView(APIView):
    permission_classes = [permissions.IsAuthenticated]
    parser_classes = [MultiPartParser]

    @extend_schema(
        tags=["lists"],
        summary="Import a BattleScribe roster as a new list (a background job)",
        description="Stores the roster and queues its import as a list import; poll the URL in "
                    "`Location` (`GET /lists/imports/{id}`) until `status` is `done` (the list's id "
                    "and URL; under `roster` each unit's price beside the roster's and what "
                    "differs) or `failed` (each problem naming the file and selection).",
        request={"multipart/form-data": BattleScribeRosterRequestSerializer},
        responses={
            202: ListImportJobSerializer,
            400: error("The system is unknown, no file was sent, or the file is above its size limit."),
            413: error("The upload is larger than the limit."),
            503: error("The job queue is unreachable; nothing was stored."),
        },
    )
    def post(self, request: Request) -> Response:
        declared = request.META.get("CONTENT_LENGTH", "")
        if declared.isdigit() and int(declared) > MAX_UPLOAD_BYTES:
            raise PayloadTooLarge(MAX_UPLOAD_BYTES)
        body = BattleScribeRosterRequestSerializer(
            data={"system": request.data.get("system"), "file": request.FILES.get("file")}
        )
        body.is_valid(raise_exception=True)
        system = GameSystem.objects.filter(key=body.validated_data["system"]).first()
        if system is None:
            raise serializers.ValidationError({"system": ["unknown game system"]})
        try:
            (source,) = read_uploads([body.validated_data["file"]])
        except BattleScribeError as exc:
            raise serializers.ValidationError({"file": exc.errors}) from None
        try:
            job = import_jobs.queue_roster_import(owner_id=request.user.pk, language=get_language(),
                                                  source=source, system_key=system.key)
        except import_jobs.ImportThrottled as exc:
            raise exceptions.Throttled(exc.wait) from None
        except import_jobs.ImportUnavailable:
            raise ServiceUnavailable() from None
        return list_import_answer(request, job, created=True)


class BattleScribeRosterExportView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        tags=["exports"],
        summary="List as a BattleScribe roster (.rosz)",
        responses={
            (200, "application/octet-stream"): OpenApiResponse(OpenApiTypes.BINARY,
                                                              description="The .rosz file.")
        },
    )
    def get(self, request: Request, list_id: int) -> HttpResponse:
        return list_rosz(request._request, list_id=list_id)


urlpatterns = [
    path("battlescribe/rosters", BattleScribeRosterImportView.as_view(), name="battlescribe-roster-import"),
    path("lists/<int:list_id>/export/rosz", BattleScribeRosterExportView.as_view(), name="list-export-rosz"),
    path("battlescribe/imports", BattleScribeImportView.as_view(), name="battlescribe-import"),
    path("battlescribe/imports/<slug:job_id>", BattleScribeImportDetailView.as_view(),
         name="battlescribe-import-detail"),
]
