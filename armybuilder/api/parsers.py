"""Request body parsing that turns every kind of bad JSON into a 400 or 413, never a 500.

DRF's own `JSONParser` reads the whole stream whatever its size (Django's
`DATA_UPLOAD_MAX_MEMORY_SIZE` only guards `request.body`), lets a deeply nested document
raise `RecursionError`, and accepts strings PostgreSQL cannot store (NUL characters, lone
surrogates). This parser bounds the size, catches the recursion, and rejects such strings
with the path of the offending field, so nothing after it has to care.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from rest_framework import exceptions
from rest_framework.parsers import JSONParser

from armybuilder.api.exceptions import PayloadTooLarge

#: Deeper documents are refused; the deepest legitimate one (a list of units) is about 8.
MAX_DEPTH = 32


def _reject_constant(name: str) -> None:
    raise ValueError(f"{name} is not valid JSON")


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
            data = json.loads(text, parse_constant=_reject_constant)
        except UnicodeDecodeError as exc:
            raise exceptions.ParseError(f"The body is not UTF-8: {exc.reason}.") from None
        except RecursionError:
            raise exceptions.ParseError(f"JSON nested deeper than {MAX_DEPTH} levels.") from None
        except ValueError as exc:
            raise exceptions.ParseError(f"Malformed JSON: {exc}") from None
        problems: dict[str, list[str]] = {}
        _check(data, "", 0, problems)
        if problems:
            raise exceptions.ValidationError(problems)
        return data


def _check(value: Any, path: str, depth: int, problems: dict[str, list[str]]) -> None:
    """Collect paths of strings PostgreSQL cannot store, and refuse excessive nesting."""
    if depth > MAX_DEPTH:
        raise exceptions.ParseError(f"JSON nested deeper than {MAX_DEPTH} levels.")
    if isinstance(value, str):
        if not _storable(value):
            problems.setdefault(path or "non_field_errors", []).append(
                "Strings may not contain NUL characters or unpaired surrogates.")
    elif isinstance(value, dict):
        for key, item in value.items():
            child = f"{path}.{key}" if path else str(key)
            if not _storable(key):
                problems.setdefault(path or "non_field_errors", []).append(
                    "Keys may not contain NUL characters or unpaired surrogates.")
                continue
            _check(item, child, depth + 1, problems)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _check(item, f"{path}[{index}]", depth + 1, problems)


def _storable(text: str) -> bool:
    if "\x00" in text:
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
