"""BattleScribe endpoints: catalogues into your own factions, rosters in and out as lists.

`POST /battlescribe/imports` (multipart: `system`, one or more `files`) imports into private
factions of the signed-in user (shareable like homebrew), through the same service as the
upload page and the admin command (`rules.battlescribe_import`). `POST /battlescribe/rosters`
makes a list from a .ros/.rosz; `GET /lists/{id}/export/rosz` is the list as a .rosz.
Bad files are a 400 whose
`details.files` names each file and element; a request above the upload limit is a 413
before anything is read.
"""

from __future__ import annotations

from django.http import HttpResponse
from django.urls import path
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.parsers import MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from armybuilder.api.exceptions import PayloadTooLarge
from armybuilder.api.schema import error
from armybuilder.lists.battlescribe_rosters import roster_import
from armybuilder.roster.battlescribe import list_rosz
from rules.battlescribe.xml_reader import BattleScribeError
from rules.battlescribe_import import MAX_UPLOAD_BYTES, import_files, read_uploads
from rules.catalogue_files import CatalogueFileError
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


class BattleScribeImportView(APIView):
    permission_classes = [permissions.IsAuthenticated]
    parser_classes = [MultiPartParser]

    @extend_schema(
        tags=["catalogue"],
        summary="Import BattleScribe files into your own factions",
        request={"multipart/form-data": BattleScribeImportRequestSerializer},
        responses={
            201: BattleScribeImportResultSerializer,
            400: error("A file cannot be imported (each named with its element)."),
            413: error("The upload is larger than the limit."),
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
        try:
            result = import_files(
                system_key=body.validated_data["system"],
                files=read_uploads(body.validated_data["files"]),
                owner=request.user,
            )
        except (BattleScribeError, CatalogueFileError) as exc:
            raise serializers.ValidationError({"files": exc.errors}) from None
        return Response(
            BattleScribeImportResultSerializer(result.summary()).data, status=status.HTTP_201_CREATED
        )


class BattleScribeRosterRequestSerializer(serializers.Serializer):
    system = serializers.CharField(max_length=32, help_text="Key of the game system of the list.")
    file = serializers.FileField(help_text="A BattleScribe roster (.ros or .rosz).")


class RosterUnitSerializer(serializers.Serializer):
    name = serializers.CharField()
    points = serializers.IntegerField(help_text="Our price of the unit as imported.")
    roster_points = serializers.FloatField(help_text="What the roster says it costs.")


class BattleScribeRosterResultSerializer(serializers.Serializer):
    list_id = serializers.IntegerField()
    name = serializers.CharField()
    units = RosterUnitSerializer(many=True)
    differences = serializers.ListField(
        child=serializers.CharField(), help_text="Unmatched selections, other points."
    )


class BattleScribeRosterImportView(APIView):
    permission_classes = [permissions.IsAuthenticated]
    parser_classes = [MultiPartParser]

    @extend_schema(
        tags=["lists"],
        summary="Import a BattleScribe roster as a new list",
        request={"multipart/form-data": BattleScribeRosterRequestSerializer},
        responses={
            201: BattleScribeRosterResultSerializer,
            400: error("The roster cannot be read or the system is unknown."),
            413: error("The upload is larger than the limit."),
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
            result = roster_import(owner=request.user, system=system, source=source)
        except BattleScribeError as exc:
            raise serializers.ValidationError({"file": exc.errors}) from None
        data = {
            "list_id": result.army_list.pk,
            "name": result.army_list.name,
            "units": result.units,
            "differences": result.differences,
        }
        return Response(BattleScribeRosterResultSerializer(data).data, status=status.HTTP_201_CREATED)


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
]
