"""Expected-damage estimate jobs over the API.

`POST /api/v1/estimates` asks a question — one unit attacking another (each a unit in the
interchange format, or a reference to a catalogue unit, a unit of a list, or a reference
target), or every unit of one list against every unit of another and back (list ids the
caller can read) — and answers 202 with the job's URL in `Location` and the job in the
body. `GET /api/v1/estimates/{estimate_id}` then shows its status and progress, its result
when done, its error when failed. An identical question reuses the stored job.

Both call what the pages call: `estimates.sources` to resolve references (with the same
visibility rules), `estimates.inputs` to build and check the inputs, and
`estimates.services.estimate_request`. A refused request is a 400 whose `details` name each
field at fault (`attacker.models[0].count`, `situation.mode`, `list_b`). The situation's
fields are the game system's (`GET /api/v1/systems/{key}/situation-schema`). Creating a
job counts against the `estimates` throttle rate, lower than the general ones: each job is
CPU on a worker. A job's id is a random UUID, so knowing it is the permission to read it
(as on the pages); anyone may ask, as with the points calculator.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from django.urls import path, reverse
from django.utils.translation import gettext as _
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
    extend_schema_serializer,
)
from rest_framework import exceptions, permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from armybuilder.api.exceptions import NON_FIELD
from armybuilder.api.filters import MAX_ID
from armybuilder.api.points import EXAMPLE_TARGET, EXAMPLE_UNIT
from armybuilder.api.schema import error, unit_format_schema
from armybuilder.api.throttling import EstimateThrottle, PerIPThrottle, PerUserThrottle
from armybuilder.estimates import sources
from armybuilder.estimates.inputs import (
    EstimateRequestError,
    army_inputs,
    list_vs_list_inputs,
    unit_vs_unit_inputs,
    with_references,
)
from armybuilder.estimates.models import Estimate
from armybuilder.estimates.result_pages import api_result_page
from armybuilder.estimates.selectors import estimate_get
from armybuilder.estimates.services import estimate_request
from rules.systems.registry import get_system

TAGS = ["estimates"]
#: What a side of a unit-vs-unit request may be instead of a unit written out in full.
REFERENCE_KEYS = ("catalogue_unit", "list_unit", "reference_target")

# --- Bodies ------------------------------------------------------------------------------


def _reference_schema() -> dict[str, Any]:
    return {
        "type": "object", "title": "UnitReference",
        "description": "A unit by reference instead of in full: exactly one of `catalogue_unit` (a unit's "
                       "id, as in `/api/v1/units/{id}`), `list_unit` with `list` (a unit of a list you can "
                       "read), or `reference_target` with `system` (a slug of the system's standard "
                       "targets).",
        "properties": {
            "catalogue_unit": {"type": "integer", "minimum": 1},
            "list": {"type": "integer", "minimum": 1},
            "list_unit": {"type": "integer", "minimum": 1},
            "reference_target": {"type": "string", "example": "infantry-10"},
            "system": {"type": "string", "example": EXAMPLE_UNIT["system"]},
        },
    }




@extend_schema_field({"oneOf": [unit_format_schema(), _reference_schema()]})
class UnitOrReferenceField(serializers.JSONField):
    """A side of a unit-vs-unit request: a unit in full, or a reference to one."""


@extend_schema_field({
    "type": "object", "additionalProperties": True,
    "description": "How the attack happens: the fields of the game system's situation schema "
                   "(`GET /api/v1/systems/{key}/situation-schema`), e.g. `mode`; missing fields take "
                   "their defaults, unknown fields and values outside the schema are refused."})
class SituationField(serializers.JSONField):
    """The situation, checked against the system's `situation_schema` by `estimates.inputs`."""


@extend_schema_serializer(component_name="Estimate")  # request bodies get "Request" appended: EstimateRequest
class EstimateRequestSerializer(serializers.Serializer):
    """The shape of a request; what the units, lists and situation are is checked by `estimates.inputs`."""

    kind = serializers.ChoiceField(choices=Estimate.Kind.values)
    attacker = UnitOrReferenceField(required=False, help_text="unit_vs_unit: the attacking unit.")
    defender = UnitOrReferenceField(required=False,
                                    help_text="unit_vs_unit: the unit attacked (same game system).")
    list_a = serializers.IntegerField(required=False, min_value=1, max_value=MAX_ID,
                                      help_text="list_vs_list: your list's id.")
    list_b = serializers.IntegerField(required=False, min_value=1, max_value=MAX_ID,
                                      help_text="list_vs_list: the opponent list's id.")
    situation = SituationField(required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        unit_vs_unit = attrs["kind"] == Estimate.Kind.UNIT_VS_UNIT
        needed = ("attacker", "defender") if unit_vs_unit else ("list_a", "list_b")
        missing = {name: [_("This field is required for this kind of estimate.")] for name in needed
                   if name not in attrs}
        if missing:
            raise serializers.ValidationError(missing)
        return attrs


class SituationSchemaSerializer(serializers.Serializer):
    """A game system's situation: the JSON Schema of the `situation` of its estimates."""

    system = serializers.CharField(help_text="The game system's key.")
    name = serializers.CharField(help_text="The game system's name.")
    schema = serializers.JSONField(
        help_text="JSON Schema (an object, no additional properties): each property has a `title`, a "
                  "`default`, and is a boolean, an integer/number with `minimum`/`maximum`, or a string "
                  "with `enum` (labels in `x-enum-labels`).")


class EstimateSerializer(serializers.Serializer):
    """A job: what it is, how far it is, and its result (done) or error (failed)."""

    id = serializers.UUIDField()
    url = serializers.SerializerMethodField(help_text="This job's URL, to poll.")
    kind = serializers.ChoiceField(choices=Estimate.Kind.values)
    system = serializers.CharField(help_text="The game system's key.")
    status = serializers.ChoiceField(choices=Estimate.Status.values,
                                     help_text="`queued`, `running`, then `done` or `failed`.")
    progress = serializers.FloatField(min_value=0, max_value=1, help_text="From 0 to 1.")
    attempts = serializers.IntegerField(help_text="How many times a worker started the job.")
    created = serializers.DateTimeField()
    started = serializers.DateTimeField(allow_null=True)
    finished = serializers.DateTimeField(allow_null=True)
    compute_ms = serializers.FloatField(allow_null=True, help_text="Computation time of the finished job.")
    result = serializers.JSONField(
        allow_null=True,
        help_text="When done. Unit vs unit: `expected` {attacks, hits, wounds, kills}, "
                  "`wounds_distribution`, `kills_distribution`, `kills_at_least`, `p_destroyed`, "
                  "`expected_points_destroyed`, `points_efficiency` (null for an attacker that costs "
                  "nothing), `weapons`, `not_used` [{role: attacker | defender, unit, abilities: [names]}] "
                  "(the units' abilities kept as text, which the estimate did not apply). List vs list: "
                  "`list_a`/`list_b` {name, units}, `fields`, and the "
                  "matrices `a_vs_b` and `b_vs_a` of cells {expected_kills, p_destroyed, "
                  "expected_points_destroyed, points_efficiency, and the system's probability and number "
                  "`outcomes` by their keys}. A system may add `outcomes` [{key, label, kind: probability | "
                  "distribution | number, value, expected?, offset?, matrix? (false: not in matrix "
                  "cells)}] to a unit-vs-unit result.")
    error = serializers.CharField(help_text="Why the job failed; empty otherwise.")
    result_page = serializers.SerializerMethodField(
        help_text="List vs list: which rows of the matrices `result` holds (a page of them, so an answer "
                  "costs the same at any size; ask `?rows=N` for page N): {page, pages, rows_per_page, "
                  "a_rows: [first, end) of `a_vs_b`, b_rows: [first, end) of `b_vs_a`}. Null otherwise.")

    def get_url(self, estimate: Estimate) -> str:
        return job_url(self.context["request"], estimate)

    def get_result_page(self, estimate: Estimate) -> dict[str, Any] | None:
        return self.context.get("result_page")

    def to_representation(self, estimate: Estimate) -> dict[str, Any]:
        """The result of a list-vs-list job holds the page of rows the request asks for."""
        request = self.context["request"]
        result, paging = api_result_page(estimate.result, page=request.query_params.get("rows"))
        self.context["result_page"] = paging
        body = super().to_representation(estimate)
        body["result"] = result
        return body


def job_url(request: Request, estimate: Estimate) -> str:
    return request.build_absolute_uri(reverse("api:estimate-detail", args=[estimate.pk]))


LOCATION = OpenApiParameter("Location", str, OpenApiParameter.HEADER, response=[202], required=True,
                            description="The job's URL, to poll with GET.")

# --- Resolving the request ---------------------------------------------------------------


def _side(request: Request, value: Any, role: str) -> Mapping[str, Any]:
    """One side of a unit-vs-unit request as a unit dict: itself, or what its reference names."""
    if not isinstance(value, Mapping):
        raise EstimateRequestError({role: [_("A unit must be a JSON object.")]})
    named = [key for key in REFERENCE_KEYS if key in value]
    if not named:
        return value  # a unit written out in full: `inputs.unit_check` checks it
    if len(named) > 1 or "models" in value:
        raise EstimateRequestError({role: [_("Give a unit in full or one reference: catalogue_unit, "
                                             "list_unit (with list) or reference_target (with system).")]})
    key = named[0]
    found: sources.UnitSource | None
    if key == "catalogue_unit":
        found = sources.catalogue_unit_source(user=request.user, unit_id=value[key])
        missing = _("No catalogue unit with this id that you can see.")
    elif key == "list_unit":
        found = sources.list_unit_source(user=request.user, unit_id=value[key], list_id=value.get("list"))
        missing = _("No unit with this id in a list with the id `list` that you can read.")
    else:
        system = value.get("system")
        found = sources.reference_source(system_key=system, slug=str(value[key])) if isinstance(system, str) \
            else None
        missing = _("No reference target with this slug in the game system named by `system`.")
    if found is None:
        raise EstimateRequestError({f"{role}.{key}": [missing]})
    return copy.deepcopy(dict(found.unit))


def _unit_vs_unit(request: Request, data: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    errors: dict[str, list[str]] = {}
    sides: dict[str, Mapping[str, Any]] = {}
    for role in ("attacker", "defender"):
        try:
            sides[role] = _side(request, data[role], role)
        except EstimateRequestError as exc:
            errors.update(exc.errors)
    if errors:
        raise EstimateRequestError(errors)
    system_key, inputs = unit_vs_unit_inputs(attacker=sides["attacker"], defender=sides["defender"],
                                             situation=data.get("situation"))
    # A side given as a reference target is marked, as the form marks it: its pages translate its name.
    marked = [role for role in ("attacker", "defender") if "reference_target" in data[role]]
    return system_key, with_references(inputs, marked)


def _list_vs_list(request: Request, data: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    found = {role: sources.list_source(user=request.user, list_id=data[role])
             for role in ("list_a", "list_b")}
    errors = {role: [_("No list with this id that you can read.")]
              for role, source in found.items() if source is None}
    list_a, list_b = found["list_a"], found["list_b"]
    if list_a and list_b and list_a.system_key != list_b.system_key:
        errors["list_b"] = [_("The lists must be of the same game system.")]
    if errors or list_a is None or list_b is None:
        raise EstimateRequestError(errors)
    return list_vs_list_inputs(system_key=list_a.system_key, situation=data.get("situation"),
                               list_a=army_inputs(name=list_a.name, units=list_a.units),
                               list_b=army_inputs(name=list_b.name, units=list_b.units))


# --- Views ---------------------------------------------------------------------------------


def _response(request: Request, estimate: Estimate, *, status_code: int = status.HTTP_200_OK) -> Response:
    body = EstimateSerializer(estimate, context={"request": request}).data
    headers = {"Location": body["url"]} if status_code == status.HTTP_202_ACCEPTED else None
    return Response(body, status=status_code, headers=headers)


class EstimateCreateView(APIView):
    """Ask for an estimate (a background job)."""

    permission_classes = [permissions.AllowAny]
    throttle_classes = [PerUserThrottle, PerIPThrottle, EstimateThrottle]

    @extend_schema(
        tags=TAGS, operation_id="estimates_create", summary="Ask for an expected-damage estimate",
        description="Queues a job (or finds the stored one for the identical question) and answers 202 at "
                    "once; poll the URL in `Location` until `status` is `done` or `failed`. Creating jobs "
                    "has its own, lower rate limit.",
        request=EstimateRequestSerializer,
        parameters=[LOCATION],
        responses={202: OpenApiResponse(EstimateSerializer, description="The job, queued, running or done."),
                   400: error("Invalid input: each field at fault by its path (`attacker.models[0].count`, "
                              "`situation.mode`, `list_b`).")},
        examples=[
            OpenApiExample("Unit against a reference target", request_only=True, value={
                "kind": "unit_vs_unit", "attacker": EXAMPLE_UNIT,
                "defender": {"reference_target": EXAMPLE_TARGET, "system": EXAMPLE_UNIT["system"]},
                "situation": {"mode": "shooting"}}),
            OpenApiExample("List against list", request_only=True, value={
                "kind": "list_vs_list", "list_a": 7, "list_b": 12, "situation": {"mode": "melee"}}),
        ],
    )
    def post(self, request: Request) -> Response:
        incoming = EstimateRequestSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        data = incoming.validated_data
        try:
            if data["kind"] == Estimate.Kind.UNIT_VS_UNIT:
                system_key, inputs = _unit_vs_unit(request, data)
            else:
                system_key, inputs = _list_vs_list(request, data)
        except EstimateRequestError as exc:
            raise exceptions.ValidationError({path or NON_FIELD: messages
                                              for path, messages in exc.errors.items()}) from None
        estimate = estimate_request(kind=data["kind"], system=system_key, inputs=inputs, user=request.user)
        return _response(request, estimate, status_code=status.HTTP_202_ACCEPTED)


class EstimateDetailView(APIView):
    """A job's status, progress and outcome."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        tags=TAGS, operation_id="estimates_retrieve", summary="Read an estimate job",
        description="`status` is `queued` or `running` (with `progress` from 0 to 1), then `done` with the "
                    "`result`, or `failed` with the `error`. A job whose worker vanished is reported failed "
                    "once it has been running longer than any worker allows.",
        responses={200: EstimateSerializer, 404: error("No job with this id.")},
    )
    def get(self, request: Request, estimate_id: Any) -> Response:
        estimate = estimate_get(estimate_id=estimate_id, user=request.user)
        if estimate is None:
            raise exceptions.NotFound(_("No estimate with this id."))
        return _response(request, estimate)


class SituationSchemaView(APIView):
    """The situation schema of one game system's estimates."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        tags=TAGS, operation_id="systems_situation_schema", summary="Situation schema of a game system",
        description="The JSON Schema the `situation` of an estimate in this game system must follow: what a "
                    "client shows as the situation form. 404 for a system without damage estimates.",
        responses={200: SituationSchemaSerializer, 404: error("No game system with estimates by this key.")},
    )
    def get(self, request: Request, key: str) -> Response:
        try:
            system = get_system(key)
        except KeyError:
            raise exceptions.NotFound("No game system with this key.") from None
        if not system.can_attack:
            raise exceptions.NotFound("This game system has no damage estimates yet.")
        return Response(SituationSchemaSerializer(
            {"system": system.key, "name": system.name, "schema": system.situation_schema}).data)


urlpatterns = [
    path("estimates", EstimateCreateView.as_view(), name="estimate-list"),
    path("estimates/<uuid:estimate_id>", EstimateDetailView.as_view(), name="estimate-detail"),
    path("systems/<slug:key>/situation-schema", SituationSchemaView.as_view(),
         name="system-situation-schema"),
]
