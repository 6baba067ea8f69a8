"""Request body parsing that turns every kind of bad JSON into a 400 or 413, never a 500.

DRF's own `JSONParser` reads the whole stream whatever its size (Django's
`DATA_UPLOAD_MAX_MEMORY_SIZE` only guards `request.body`), lets a deeply nested document
raise `RecursionError`, and accepts strings PostgreSQL cannot store (NUL characters, lone
surrogates). This parser bounds the size, catches the recursion, and rejects such strings
with the path of the offending field, so nothing after it has to care.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework import exceptions
from rest_framework.parsers import JSONParser

from armybuilder.api.exceptions import PayloadTooLarge
from armybuilder.untrusted_json import MAX_DEPTH, JsonTooDeep, loads_bounded, storage_problems

__all__ = ["MAX_DEPTH", "BoundedJSONParser"]



class BoundedJSONParser(JSONParser):
    """`application/json` bodies of at most `DATA_UPLOAD_MAX_MEMORY_SIZE` bytes and `MAX_DEPTH` levels."""

    def parse(self, stream: Any, media_type: str | None = None,
              parser_context: Mapping[str, Any] | None = None) -> Any:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        request = (parser_context or {}).get("request")
        declared = request.META.get("CONTENT_LENGTH") if request is not None else None
        if declared and declared.isdigit() and int(declared) > limit:
            raise PayloadTooLarge(limit)
        raw = stream.read(limit + 1) if stream is not None else b""
        if len(raw) > limit:
            raise PayloadTooLarge(limit)
        try:
            text = raw.decode("utf-8")
            data = loads_bounded(text)
            problems = storage_problems(data)
        except UnicodeDecodeError as exc:
            raise exceptions.ParseError(
                _("The body is not UTF-8: %(reason)s.") % {"reason": exc.reason}) from None
        except JsonTooDeep as exc:
            raise exceptions.ParseError(str(exc)) from None
        except ValueError as exc:
            raise exceptions.ParseError(_("Malformed JSON: %(error)s") % {"error": exc}) from None
        if problems:
            raise exceptions.ValidationError(problems)
        return data
