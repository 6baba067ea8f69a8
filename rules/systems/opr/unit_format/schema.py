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
from typing import TYPE_CHECKING, Any

import jsonschema_rs

from points.catalogue.i18n import _, gettext_noop, ngettext
from points.shared_format import FieldError, join

if TYPE_CHECKING:  # the pure-Python jsonschema explains invalid documents; loaded only for them
    from jsonschema import Draft202012Validator, ValidationError
    from referencing import Registry

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
    from referencing import Registry, Resource

    unit = Resource.from_contents(unit_schema())
    return Registry().with_resource(unit_schema()["$id"], unit)


@cache
def _validator(which: str) -> Draft202012Validator:
    from jsonschema import Draft202012Validator

    schema = unit_schema() if which == "unit" else army_schema()
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema, registry=_registry())


@cache
def _fast_validator(which: str) -> jsonschema_rs.Draft202012Validator:
    """The same schema compiled by jsonschema-rs: about 200× faster at saying "valid".

    Its patterns (a rule's `Name(X)`, a `faction/unit` reference) need no look-around or
    back-reference, so they run on the plain `regex` engine (`RegexOptions`), a third of the
    time of a valid unit's check in `fancy-regex`, jsonschema-rs's default."""
    schema = unit_schema() if which == "unit" else army_schema()
    registry = jsonschema_rs.Registry([(unit_schema()["$id"], unit_schema())])
    return jsonschema_rs.Draft202012Validator(
        schema, registry=registry, pattern_options=jsonschema_rs.RegexOptions()
    )


_TYPE_WORDS = {
    "integer": gettext_noop("a whole number"),
    "number": gettext_noop("a number"),
    "string": gettext_noop("a string"),
    "array": gettext_noop("a list"),
    "object": gettext_noop("an object"),
    "boolean": gettext_noop("true or false"),
}


def _path_of(error: ValidationError, prefix: str) -> str:
    path = prefix
    for key in error.absolute_path:
        path = join(path, key if isinstance(key, int) else str(key))
    return path


def _bounds_message(schema: dict[str, Any]) -> str:
    low, high = schema.get("minimum"), schema.get("maximum")
    if low is not None and high is not None:
        return _("must be between %(low)s and %(high)s") % {"low": low, "high": high}
    if low is not None:
        return _("must be at least %(low)s") % {"low": low}
    return _("must be at most %(high)s") % {"high": high}


def _plain_errors(error: ValidationError, prefix: str) -> Iterator[FieldError]:
    """One jsonschema error as FieldErrors with a path and a message in plain words."""
    path = _path_of(error, prefix)
    kind, value, instance = error.validator, error.validator_value, error.instance
    if kind == "required":
        for name in value:
            if isinstance(instance, dict) and name not in instance:
                yield FieldError(join(path, name), _("is required"))
    elif kind == "additionalProperties" and isinstance(instance, dict):
        known = error.schema.get("properties", {})
        for name in instance:
            if name not in known:
                yield FieldError(join(path, str(name)),
                                 _("unknown field; expected one of: %(names)s") % {"names": ", ".join(known)})
    elif kind == "type":
        yield FieldError(path, _("must be %(kind)s") % {"kind": _(_TYPE_WORDS.get(str(value), str(value)))})
    elif kind in ("minimum", "maximum"):
        yield FieldError(path, _bounds_message(error.schema))
    elif kind == "enum":
        if len(value) == 1:
            yield FieldError(path, _("must be %(value)s") % {"value": json.dumps(value[0])})
        else:
            values = ", ".join(json.dumps(v) for v in value)
            yield FieldError(path, _("must be one of: %(values)s") % {"values": values})
    elif kind == "minItems":
        yield FieldError(path, _("must not be empty") if value == 1
                         else ngettext("must have at least %(n)d item",
                                       "must have at least %(n)d items", value)
                         % {"n": value})
    elif kind == "maxItems":
        yield FieldError(path, ngettext("must have at most %(n)d item",
                                       "must have at most %(n)d items", value)
                         % {"n": value})
    elif kind == "minLength":
        yield FieldError(path, _("must not be empty") if value == 1
                         else ngettext("must be at least %(n)d character",
                                       "must be at least %(n)d characters", value)
                         % {"n": value})
    elif kind == "maxLength":
        yield FieldError(path, ngettext("must be at most %(n)d character",
                                       "must be at most %(n)d characters", value)
                         % {"n": value})
    elif kind == "pattern":
        yield FieldError(path, _pattern_message(path))
    else:  # a keyword this translation does not know yet: keep jsonschema's own words
        yield FieldError(path, error.message)


def _pattern_message(path: str) -> str:
    if path.endswith("catalogue_unit"):
        return _("must look like faction-slug/unit-slug")
    return _("must look like Name or Name(X)")


def schema_is_valid(document: Any, which: str) -> bool:
    """True when the document follows the published schema (`which` is "unit" or "army")."""
    return bool(_fast_validator(which).is_valid(document))


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



def sample_unit() -> dict[str, Any]:
    """A valid unit of the usual shape (two profiles, rules with and without a value, weapons with
    rules): what `_compile_at_import` validates once so that jsonschema-rs has been through every
    part of the schema before the first real document."""
    weapons = [{"name": "Rifle", "range": 24, "attacks": 1, "ap": 1, "rules": ["Blast(3)", "Limited"]},
               {"name": "Sword", "range": 0, "attacks": 2, "rules": ["Rending"]}]
    model = {"name": "Trooper", "count": 9, "quality": 4, "defence": 4, "toughness": 1,
             "rules": ["Fearless", "Fear(1)"], "weapons": weapons}
    return {"format": 1, "system": "opr", "name": "Squad", "models": [model, {**model, "name": "Sergeant"}]}


def _compile_at_import() -> None:
    """Compile both validators and run each once on a valid sample, when the module is imported.

    About 2 ms once per process (jsonschema-rs compiles the schema, and its first validation of
    a document of the usual shape costs several times a later one: its code and structures
    are touched the first time). Done on first use instead, the first unit or list a server
    reads after starting paid it (`bench/bench_points.py`, cold). Nothing about an input is kept.
    """
    unit = sample_unit()
    _fast_validator("unit").is_valid(unit)
    _fast_validator("army").is_valid({"format": 1, "system": "opr", "name": "List", "points_limit": 2000,
                                      "units": [{"unit": unit, "count": 1}]})


_compile_at_import()
