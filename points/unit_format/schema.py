"""The published JSON Schemas of the unit format, and their errors in plain words.

`unit.schema.json` and `army.schema.json` sit next to this module; they are the contract
other tools validate against, and the parser validates against the same files so that the
published schema and the accepted input cannot drift apart. jsonschema's own messages
("6 is greater than the maximum of 5") are rewritten as `must be between -1 and 5`, with the
path of the field.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema_rs
from jsonschema import Draft202012Validator, ValidationError
from referencing import Registry, Resource

from points.unit_format.errors import FieldError, join

SCHEMA_DIR = Path(__file__).resolve().parent
UNIT_SCHEMA_FILE = SCHEMA_DIR / "unit.schema.json"
ARMY_SCHEMA_FILE = SCHEMA_DIR / "army.schema.json"


@cache
def unit_schema() -> dict[str, Any]:
    """The unit schema, as published."""
    return json.loads(UNIT_SCHEMA_FILE.read_text(encoding="utf-8"))


@cache
def army_schema() -> dict[str, Any]:
    """The army-list schema, as published (it refers to the unit schema)."""
    return json.loads(ARMY_SCHEMA_FILE.read_text(encoding="utf-8"))


@cache
def _registry() -> Registry:
    unit = Resource.from_contents(unit_schema())
    return Registry().with_resource(unit_schema()["$id"], unit)


@cache
def _validator(which: str) -> Draft202012Validator:
    schema = unit_schema() if which == "unit" else army_schema()
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema, registry=_registry())


@cache
def _fast_validator(which: str) -> jsonschema_rs.Draft202012Validator:
    """The same schema compiled by jsonschema-rs: about 200× faster at saying "valid"."""
    schema = unit_schema() if which == "unit" else army_schema()
    registry = jsonschema_rs.Registry([(unit_schema()["$id"], unit_schema())])
    return jsonschema_rs.Draft202012Validator(schema, registry=registry)


_TYPE_WORDS = {
    "integer": "a whole number",
    "number": "a number",
    "string": "a string",
    "array": "a list",
    "object": "an object",
    "boolean": "true or false",
}


def _path_of(error: ValidationError, prefix: str) -> str:
    path = prefix
    for key in error.absolute_path:
        path = join(path, key if isinstance(key, int) else str(key))
    return path


def _bounds_message(schema: dict[str, Any]) -> str:
    low, high = schema.get("minimum"), schema.get("maximum")
    if low is not None and high is not None:
        return f"must be between {low} and {high}"
    if low is not None:
        return f"must be at least {low}"
    return f"must be at most {high}"


def _plain_errors(error: ValidationError, prefix: str) -> Iterator[FieldError]:
    """One jsonschema error as FieldErrors with a path and a message in plain words."""
    path = _path_of(error, prefix)
    kind, value, instance = error.validator, error.validator_value, error.instance
    if kind == "required":
        for name in value:
            if isinstance(instance, dict) and name not in instance:
                yield FieldError(join(path, name), "is required")
    elif kind == "additionalProperties" and isinstance(instance, dict):
        known = error.schema.get("properties", {})
        for name in instance:
            if name not in known:
                yield FieldError(join(path, str(name)), f"unknown field; expected one of: {', '.join(known)}")
    elif kind == "type":
        yield FieldError(path, f"must be {_TYPE_WORDS.get(str(value), value)}")
    elif kind in ("minimum", "maximum"):
        yield FieldError(path, _bounds_message(error.schema))
    elif kind == "enum":
        if len(value) == 1:
            yield FieldError(path, f"must be {json.dumps(value[0])}")
        else:
            yield FieldError(path, "must be one of: " + ", ".join(json.dumps(v) for v in value))
    elif kind == "minItems":
        yield FieldError(path, "must not be empty" if value == 1 else f"must have at least {value} items")
    elif kind == "maxItems":
        yield FieldError(path, f"must have at most {value} items")
    elif kind == "minLength":
        yield FieldError(path, "must not be empty" if value == 1 else f"must be at least {value} characters")
    elif kind == "maxLength":
        yield FieldError(path, f"must be at most {value} characters")
    elif kind == "pattern":
        yield FieldError(path, _pattern_message(path))
    else:  # a keyword this translation does not know yet: keep jsonschema's own words
        yield FieldError(path, error.message)


def _pattern_message(path: str) -> str:
    if path.endswith("catalogue_unit"):
        return "must look like faction-slug/unit-slug"
    return "must look like Name or Name(X)"


def schema_errors(document: Any, which: str, prefix: str = "") -> list[FieldError]:
    """Every violation of the published schema (`which` is "unit" or "army") as FieldErrors."""
    if _fast_validator(which).is_valid(document):
        # Valid documents are the common case (every edit in the list builder re-validates
        # the list); only invalid ones need jsonschema's detailed errors to explain them.
        return []
    found: list[FieldError] = []
    for error in _validator(which).iter_errors(document):
        found.extend(_plain_errors(error, prefix))
    return found
