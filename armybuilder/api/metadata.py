"""What `OPTIONS` says about an endpoint: its name, description and media types.

DRF's default metadata also describes the write form of each action by building the
view's serializer and looking up the object through `get_queryset()`. Our views find
their objects through selectors (a list you may not read is a 404), have no queryset, and
document their bodies in the OpenAPI schema instead, so that part is left out: the same
answer for every endpoint, and never a 500.
"""

from __future__ import annotations

from typing import Any

from rest_framework.metadata import BaseMetadata
from rest_framework.request import Request


class SchemaPointerMetadata(BaseMetadata):
    """Name, description, renderers and parsers; the body shapes are in `/api/v1/schema/`."""

    def determine_metadata(self, request: Request, view: Any) -> dict[str, Any]:
        return {
            "name": view.get_view_name(),
            "description": view.get_view_description(),
            "renders": [renderer.media_type for renderer in view.renderer_classes],
            "parses": [parser.media_type for parser in view.parser_classes],
            "schema": "/api/v1/schema/",
        }
