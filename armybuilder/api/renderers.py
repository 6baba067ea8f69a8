"""Renderers for the file exports, so `Accept: application/pdf` or `text/plain` is honoured.

The export endpoints answer with the bytes the roster views produced; these renderers only
let content negotiation pick those media types. Errors stay JSON (`FileExportMixin`).
"""

from __future__ import annotations

from typing import Any

from rest_framework.renderers import BaseRenderer, JSONRenderer


class PDFRenderer(BaseRenderer):
    media_type = "application/pdf"
    format = "pdf"
    charset = None
    render_style = "binary"

    def render(self, data: Any, accepted_media_type: str | None = None,
               renderer_context: dict[str, Any] | None = None) -> bytes:
        return data if isinstance(data, bytes) else b""


class PlainTextRenderer(BaseRenderer):
    media_type = "text/plain"
    format = "txt"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: str | None = None,
               renderer_context: dict[str, Any] | None = None) -> bytes:
        return data.encode("utf-8") if isinstance(data, str) else b""


class PNGRenderer(BaseRenderer):
    media_type = "image/png"
    format = "png"
    charset = None
    render_style = "binary"

    def render(self, data: Any, accepted_media_type: str | None = None,
               renderer_context: dict[str, Any] | None = None) -> bytes:
        return data if isinstance(data, bytes) else b""


class FileExportMixin:
    """Views that answer with a file: any media type above may be asked for; errors are JSON."""

    renderer_classes = [JSONRenderer, PDFRenderer, PlainTextRenderer, PNGRenderer]

    def handle_exception(self, exc: Exception) -> Any:
        response = super().handle_exception(exc)  # type: ignore[misc]
        self.request.accepted_renderer = JSONRenderer()  # type: ignore[attr-defined]
        self.request.accepted_media_type = JSONRenderer.media_type  # type: ignore[attr-defined]
        return response
