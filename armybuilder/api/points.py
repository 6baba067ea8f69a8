"""`POST /api/v1/points/price`: the points of any unit in the interchange format.

The unit's `system` names a registered game system; its `price` does all the work and
raises `UnitFormatError` with a path per bad field, which the exception handler turns into
the 400's `details`.
This is the same call the `price` command and the unit editor make.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import exceptions, permissions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from armybuilder.api.schema import error, unit_format_schema
from armybuilder.api.serializers import PriceBreakdownSerializer
from rules.systems.registry import GameSystem, get_system

EXAMPLE_UNIT = {
    "format": 1, "system": "opr", "name": "Veteran Squad",
    "models": [{
        "name": "Veteran", "count": 5, "quality": 4, "defence": 5, "toughness": 1,
        "rules": ["Fearless"],
        "weapons": [{"name": "Rifle", "range": 24, "attacks": 1, "ap": 0, "rules": []}],
    }],
}


def system_of(unit: Any) -> GameSystem:
    """The registered system a unit-format document names, or a 400 on `system`."""
    if not isinstance(unit, Mapping):
        raise exceptions.ValidationError({"non_field_errors": ["A unit must be a JSON object."]})
    key = unit.get("system")
    if not isinstance(key, str) or not key:
        raise exceptions.ValidationError({"system": [_("Name the unit's game system, e.g. “opr”.")]})
    try:
        return get_system(key)
    except KeyError as exc:
        raise exceptions.ValidationError({"system": [str(exc.args[0])]}) from None


class PriceView(APIView):
    """Price one unit; anyone may ask (the calculator works without an account)."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        tags=["points"], operation_id="points_price",
        request={"application/json": unit_format_schema()},
        responses={200: PriceBreakdownSerializer,
                   400: error("The unit is not valid: each bad field's path "
                              "(`models[1].weapons[0].ap`) with its message.")},
        examples=[OpenApiExample("A unit", value=EXAMPLE_UNIT, request_only=True)],
        summary="Price a unit",
        description="Prices a unit in the interchange format (`shared/spec/unit-format.md`) with its "
                    "game system's rules and returns the full breakdown. All errors are reported at once.",
    )
    def post(self, request: Request) -> Response:
        # A UnitFormatError becomes a 400 with each field's path (`exceptions.exception_handler`).
        return Response(system_of(request.data).price(request.data))
