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
from rules.systems.registry import GameSystem, all_systems, get_system


def example_unit() -> tuple[dict[str, Any], str]:
    """A unit for the API documentation's examples, and the name of its reference target: the
    first system's first reference target, so the documentation names no system itself."""
    system = next(s for s in all_systems() if s.reference_targets)
    name, unit = next(iter(system.reference_targets.items()))
    return {**unit, "system": system.key}, name


EXAMPLE_UNIT, EXAMPLE_TARGET = example_unit()


def system_of(unit: Any) -> GameSystem:
    """The registered system a unit-format document names, or a 400 on `system`."""
    if not isinstance(unit, Mapping):
        raise exceptions.ValidationError({"non_field_errors": ["A unit must be a JSON object."]})
    key = unit.get("system")
    if not isinstance(key, str) or not key:
        message = _("Name the unit's game system by its key (GET /api/v1/systems lists them).")
        raise exceptions.ValidationError({"system": [message]})
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
        description="Prices a unit in the interchange format (`docs/unit-format.md`) with its "
                    "game system's rules and returns the full breakdown. All errors are reported at once.",
    )
    def post(self, request: Request) -> Response:
        # A UnitFormatError becomes a 400 with each field's path (`exceptions.exception_handler`).
        return Response(system_of(request.data).price(request.data))
