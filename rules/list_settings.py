"""A list's system-specific parameters (`GameSystem.list_settings_schema`), checked without Django.

A system declares its per-list parameters (40k's battle size, AoS's allegiance) as a small
JSON Schema object; a list stores the values (`ArmyList.settings`), the form, the API and
the exports carry them, and `validate` reads them from the army's `settings`. This module
is the one place that fills in defaults and checks values, so a form, the API and an import
accept and refuse the same things.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from points.catalogue.i18n import _


def settings_properties(schema: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    """The schema's parameters in declaration order (empty for a system with none)."""
    return dict(schema.get("properties") or {})


def settings_defaults(schema: Mapping[str, Any]) -> dict[str, Any]:
    """Every parameter at its default: what a list that never chose anything uses."""
    return {key: prop.get("default") for key, prop in settings_properties(schema).items()}


def enum_labels(prop: Mapping[str, Any]) -> list[tuple[Any, str]]:
    """(value, label) for an enum parameter; the label is `x-enum-labels[value]` or the value."""
    labels = prop.get("x-enum-labels") or {}
    return [(value, str(labels.get(value, value))) for value in prop.get("enum") or []]


def _check_value(prop: Mapping[str, Any], value: Any) -> str | None:
    kind = prop.get("type")
    if "enum" in prop:
        if value not in prop["enum"]:
            return _("Must be one of: %(values)s.") % {"values": ", ".join(str(v) for v in prop["enum"])}
        return None
    if kind == "boolean":
        return None if isinstance(value, bool) else _("Must be true or false.")
    if kind in ("integer", "number"):
        if isinstance(value, bool) or not isinstance(value, int if kind == "integer" else (int, float)):
            return _("Must be a whole number.") if kind == "integer" else _("Must be a number.")
        low, high = prop.get("minimum"), prop.get("maximum")
        if (low is not None and value < low) or (high is not None and value > high):
            return _("Must be between %(min)s and %(max)s.") % {"min": low, "max": high}
        return None
    if kind == "string":
        return None if isinstance(value, str) and len(value) <= 200 else _("Must be a short text.")
    return None


def clean_settings(schema: Mapping[str, Any], values: Any) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """(complete settings, problems as (key, message)) for `values` against `schema`.

    Missing keys take their defaults, so the stored settings are always complete and an
    old list keeps working when a system gains a parameter. Unknown keys are refused.
    """
    if values is None:
        values = {}
    if not isinstance(values, Mapping):
        return {}, [("", _("Must be an object of list settings."))]
    properties = settings_properties(schema)
    problems = [
        (str(key), _("Not a list setting of this game system.")) for key in values if key not in properties
    ]
    cleaned = settings_defaults(schema)
    for key, prop in properties.items():
        if key not in values:
            continue
        message = _check_value(prop, values[key])
        if message:
            problems.append((key, message))
        else:
            cleaned[key] = values[key]
    return cleaned, problems
