"""Checking a unit of a catalogue-priced system against that system's profile schema.

The systems priced from their books (WHFB 6th, 40k 9th, AoS 1st, the Russian WHFB house
rules) share the unit format's envelope (`format`, `system`, `name`, `models[]` with
`count`, `weapons[]`, `rules[]`) and differ only in a model's profile fields, which each
system declares as a JSON Schema (`rules/systems/<key>/profile.py`). This module wraps a
profile schema into the schema of a whole unit and reports every problem at once, with the
path of each field (`models[1].weapons[0].s: ...`), exactly like the OPR parser does.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from points.catalogue.i18n import _
from points.shared_format import FORMAT_VERSION

#: The largest unit a catalogue unit may describe (a horde of 200 models is already absurd).
MAX_MODELS_PER_PROFILE = 1000


def unit_schema(profile_schema: Mapping[str, Any], system_key: str) -> dict[str, Any]:
    """The JSON Schema of a whole unit of `system_key` whose models follow `profile_schema`."""
    model = {key: value for key, value in profile_schema.items() if key not in ("$defs", "x-unit-fields")}
    # A unit whose source gives no (complete) profile (`profile_in_source: false`): its models
    # need only a name and a count; every field they do have is still checked.
    unprofiled = {**model, "required": [k for k in model.get("required", []) if k in ("name", "count")]}
    unit_fields = {
        key: {k: v for k, v in prop.items() if k != "default"}
        for key, prop in (profile_schema.get("x-unit-fields") or {}).items()
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "required": ["name", "models"],
        "properties": {
            **unit_fields,
            "format": {"const": FORMAT_VERSION},
            "system": {"const": system_key},
            "name": {"type": "string", "minLength": 1, "maxLength": 120},
            "models": {"type": "array", "minItems": 1},
            "points_in_source": {
                "description": "false when the source prints no points for this unit (its 0 is not 'free')",
                "type": "boolean",
            },
            "profile_in_source": {
                "description": "false when the source gives this unit no complete profile (imported "
                "data without one): it is listed and priced but cannot be estimated",
                "type": "boolean",
            },
            "upgrades": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["key", "count", "cost"],
                    "properties": {
                        "key": {"type": "string"},
                        "label": {"type": "string"},
                        "count": {"type": "integer", "minimum": 0},
                        "cost": {"type": "integer"},
                    },
                },
            },
        },
        "if": {"required": ["profile_in_source"], "properties": {"profile_in_source": {"const": False}}},
        "then": {"properties": {"models": {"items": {"$ref": "#/$defs/unprofiled_model"}}}},
        "else": {"properties": {"models": {"items": {"$ref": "#/$defs/model"}}}},
        "$defs": {**dict(profile_schema.get("$defs", {})), "model": model, "unprofiled_model": unprofiled},
    }


@lru_cache(maxsize=16)
def _validator(schema_key: str, profile_schema_json: str) -> Draft202012Validator:
    import json

    return Draft202012Validator(unit_schema(json.loads(profile_schema_json), schema_key))


def field_path(error: ValidationError) -> str:
    """`models[1].weapons[0].ap` from a jsonschema error's absolute path."""
    path = ""
    for part in error.absolute_path:
        path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else str(part))
    missing = _missing_property(error)
    if missing:
        path = f"{path}.{missing}" if path else missing
    return path


def _missing_property(error: ValidationError) -> str | None:
    if error.validator == "required" and isinstance(error.message, str) and error.message.startswith("'"):
        return error.message.split("'")[1]
    return None


def _message(error: ValidationError) -> str:
    """A short English sentence for one schema error (the schema's own wording otherwise)."""
    value = error.validator_value
    match error.validator:
        case "minimum":
            return _("must be at least %(min)s") % {"min": value}
        case "maximum":
            return _("must be at most %(max)s") % {"max": value}
        case "required":
            return _("is required")
        case "type":
            return _("must be %(type)s") % {"type": " or ".join(value) if isinstance(value, list) else value}
        case "minItems":
            return _("needs at least %(n)s entries") % {"n": value}
        case "minLength":
            return _("must not be empty")
        case "const":
            return _("must be %(value)s") % {"value": value}
        case "enum":
            return _("must be one of: %(values)s") % {"values": ", ".join(str(v) for v in value)}
        case "oneOf" | "anyOf":
            return _("is not a valid value")
        case "pattern":
            return _("is not written the expected way")
        case "additionalProperties":
            return _("unknown field: %(message)s") % {"message": error.message}
    return str(error.message)


@lru_cache(maxsize=16)
def _fast_validator(schema_key: str, profile_schema_json: str) -> Any:
    """The same schema compiled by jsonschema-rs: a fast yes for the common valid unit."""
    import json

    import jsonschema_rs

    return jsonschema_rs.Draft202012Validator(unit_schema(json.loads(profile_schema_json), schema_key))


_SCHEMA_JSON: dict[int, tuple[Mapping[str, Any], str]] = {}


def _schema_json(profile_schema: Mapping[str, Any]) -> str:
    """`profile_schema` as canonical JSON, remembered per schema object (they are module constants)."""
    import json

    known = _SCHEMA_JSON.get(id(profile_schema))
    if known is None or known[0] is not profile_schema:
        known = (profile_schema, json.dumps(profile_schema, sort_keys=True))
        _SCHEMA_JSON[id(profile_schema)] = known
    return known[1]


def unit_errors(unit: Any, *, profile_schema: Mapping[str, Any], system_key: str) -> list[tuple[str, str]]:
    """Every problem of `unit` as (field path, message), sorted by path; empty when it is valid.

    Valid units (nearly all: catalogue loads and imports price every unit and option) are
    answered by jsonschema-rs; only an invalid one is walked by `jsonschema` for its messages.
    """
    if not isinstance(unit, Mapping):
        return [("", _("a unit must be a JSON object"))]
    schema_json = _schema_json(profile_schema)
    try:
        if _fast_validator(system_key, schema_json).is_valid(unit):
            return []
    except (ValueError, TypeError):  # a value jsonschema-rs cannot take: let jsonschema judge it
        pass
    validator = _validator(system_key, schema_json)
    errors = sorted(validator.iter_errors(unit), key=lambda e: [str(p) for p in e.absolute_path])
    return [(field_path(e), _message(e)) for e in errors]
