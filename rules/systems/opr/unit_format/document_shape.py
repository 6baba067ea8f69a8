"""What the published unit schema asks of a document, as plain values the one pass checks itself.

Issue 42: `document_price.fast_price` asked jsonschema-rs whether a document was valid, then walked
it again to price it; on a new unit the check was a fifth to a quarter of the whole path (more on
a cold cache). The walk already visits every field the schema constrains, so it checks them as it
goes: which keys an object may have, which it must have, each integer's bounds, each string's
length, each list's length, each enum. `Shape` reads all of these from `unit.schema.json` at import
(nothing is copied by hand), and a rule's text, the one string with a pattern, is checked by
jsonschema-rs itself on that one definition (`rule_text_valid`) unless it is one of the
vocabulary's texts, which are checked once at import.

The walk only ever answers "not taken" (None) where the schema would refuse: then
`price_document` reads the document with `parse_unit`, which validates it against the schema and
raises the schema's own messages, as before. `Shape.complete` guards the rest: it is true only for
the schema this walk was written for (its validating keywords, annotations left out, hash to
`KNOWN_SCHEMA`); for any other, `fast_price` asks jsonschema-rs first, as it did before.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import jsonschema_rs

from rules.systems.opr.unit_format.schema import unit_schema

#: sha256 of the unit schema's validating keywords (`_fingerprint`); change the one pass's checks
#: with the schema, then this (`tests/rules/systems/opr/unit_format/test_document_shape.py` says
#: which value it has now).
KNOWN_SCHEMA = "b8296116825180d4de06e839f7049b7b7da821d3a405b251899e1bdb4c480509"
_ANNOTATIONS = frozenset({"description", "title", "$schema", "$id"})


def _without_annotations(node: Any) -> Any:
    if isinstance(node, dict):
        return {k: _without_annotations(v) for k, v in node.items() if k not in _ANNOTATIONS}
    if isinstance(node, list):
        return [_without_annotations(v) for v in node]
    return node


def _fingerprint(schema: dict[str, Any]) -> str:
    """A hash of what the schema validates (descriptions and titles do not count)."""
    text = json.dumps(_without_annotations(schema), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _enum(definition: dict[str, Any]) -> frozenset[tuple[type, Any]]:
    """An enum's values with their types: `True` is not 1, nor 1.0 the same as 1 to `type() is`
    (a float the schema would take as 1 is left to the careful path, which is exact)."""
    return frozenset((type(value), value) for value in definition["enum"])


class Shape:
    """The unit schema's constraints, read from the schema: key sets, required keys, bounds."""

    def __init__(self, schema: dict[str, Any]) -> None:
        self.complete = _fingerprint(schema) == KNOWN_SCHEMA
        defs = schema["$defs"]
        unit, model, weapon = schema["properties"], defs["model"]["properties"], defs["weapon"]["properties"]
        self.unit_keys = frozenset(unit)
        self.unit_required = tuple(schema["required"])
        self.format = _enum(unit["format"])
        self.system = _enum(unit["system"])
        self.models = (unit["models"]["minItems"], unit["models"]["maxItems"])
        self.name = (defs["name"]["minLength"], defs["name"]["maxLength"])
        self.model_keys = frozenset(model)
        self.model_required = tuple(defs["model"]["required"])
        self.count = (model["count"]["minimum"], model["count"]["maximum"])
        self.quality = (model["quality"]["minimum"], model["quality"]["maximum"])
        self.defence = (model["defence"]["minimum"], model["defence"]["maximum"])
        self.toughness = (model["toughness"]["minimum"], model["toughness"]["maximum"])
        self.rules_max = defs["rules"]["maxItems"]
        self.weapons_max = model["weapons"]["maxItems"]
        self.weapon_keys = frozenset(weapon)
        self.weapon_required = tuple(defs["weapon"]["required"])
        self.range = (weapon["range"]["minimum"], weapon["range"]["maximum"])
        self.attacks = (weapon["attacks"]["minimum"], weapon["attacks"]["maximum"])
        self.ap = (weapon["ap"]["minimum"], weapon["ap"]["maximum"])
        #: "auras" and "orders": (most items, keys, required keys, {key: enum})
        self.grants: dict[str, tuple[int, frozenset[str], tuple[str, ...], dict[str, frozenset]]] = {}
        for field, definition in (("auras", "aura"), ("orders", "order")):
            item = defs[definition]
            enums = {key: _enum(value) for key, value in item["properties"].items() if "enum" in value}
            self.grants[field] = (model[field]["maxItems"], frozenset(item["properties"]),
                                  tuple(item["required"]), enums)
        self._rule = jsonschema_rs.Draft202012Validator(
            defs["rule"], pattern_options=jsonschema_rs.RegexOptions())

    def rule_text_valid(self, text: Any) -> bool:
        """Whether the schema takes `text` as a rule (type, length and pattern), by jsonschema-rs
        on the schema's own definition, with the unit validator's regex engine."""
        try:
            return bool(self._rule.is_valid(text))
        except (RecursionError, TypeError, ValueError, OverflowError):
            return False

    def name_valid(self, name: Any) -> bool:
        """A `name` of the schema: a string of the allowed length."""
        low, high = self.name
        return type(name) is str and low <= len(name) <= high

    def grants_valid(self, items: Any, field: str) -> bool:
        """An `auras` or `orders` list as the schema takes it (what each grants is the reader's)."""
        most, keys, required, enums = self.grants[field]
        if type(items) is not list or len(items) > most:
            return False
        for item in items:
            if type(item) is not dict or not item.keys() <= keys:
                return False
            for key in required:
                if key not in item:
                    return False
            if not self.name_valid(item["grants"]):
                return False
            for key, allowed in enums.items():
                if key in item:
                    value = item[key]
                    if type(value) not in (str, int) or (type(value), value) not in allowed:
                        return False
        return True


SHAPE = Shape(unit_schema())
