"""The one pass checks what the published unit schema checks (`document_shape`, issue 42): no
document the schema refuses is priced by it, so every such document still gets the schema's
own messages from `parse_unit`; and the checks are read from the schema the walk was written for."""

from __future__ import annotations

import copy
from itertools import chain

import pytest

from rules.systems.opr.unit_format.document_price import fast_price
from rules.systems.opr.unit_format.document_shape import KNOWN_SCHEMA, SHAPE, Shape, _fingerprint
from rules.systems.opr.unit_format.schema import schema_is_valid, unit_schema
from tests.rules.systems.opr.unit_format.documents import by_document, by_reading, valid_document


def _document() -> dict:
    """A valid document the one pass takes, with every field of the schema written somewhere:
    auras and orders with all their keys, weapons with and without ap and rules, extra."""
    doc = valid_document()
    doc["models"][1]["rules"] = ["Order(Fast)", "Hero", "Transport(3)"]
    del doc["models"][1]["parts"]
    doc["models"][1]["auras"] = [{"grants": "Stealth", "to": "friends", "effect": "grant", "range": 12}]
    doc["models"][1]["orders"] = [{"grants": "Shield", "to": "friends", "effect": "grant", "range": 12}]
    doc["models"][0]["weapons"][1]["rules"] = ["Rending", "Deadly(2)"]
    return doc


#: Values put in place of every field in turn: other types, `null`, the bounds of the schema's
#: integers and strings, one past them, lists and objects.
REPLACEMENTS = (None, True, False, 1.0, 4.0, 0, 1, 2, 5, 6, 7, -1, -2, 12, 13, 100, 101, 120, 121, 1000,
                1001, "", "x", "x" * 200, "x" * 201, "Fearless", "Fear(1)", "Fear(1", "Fear((1))",
                "Fearless\n", "Blast(3)\n", " " * 101, [], [1], ["Fearless"], {}, {"grants": "Fast"})


def _paths(node, path=()):
    """Every field of the document, and every list item, as a path of keys and indexes."""
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, value in items:
        yield (*path, key)
        yield from _paths(value, (*path, key))


def _containers(node, path=()):
    """Every object of the document (where a key can be added or removed), as a path."""
    if isinstance(node, dict):
        yield path
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, value in items:
        yield from _containers(value, (*path, key))


def _at(doc, path):
    for key in path:
        doc = doc[key]
    return doc


def _changed_documents():
    base = _document()
    for path in _paths(base):
        for value in REPLACEMENTS:
            doc = copy.deepcopy(base)
            _at(doc, path[:-1])[path[-1]] = value
            yield f"{path}={value!r}", doc
    for path in _containers(base):
        for key in chain(_at(base, path), ("colour", "parts", "format", "toughness")):
            doc = copy.deepcopy(base)
            target = _at(doc, path)
            if key in target:
                del target[key]
                yield f"{path} without {key}", doc
            else:
                target[key] = 1
                yield f"{path} with {key}", doc
    for path, most in ((("models",), 50), (("models", 0, "rules"), 50), (("models", 0, "weapons"), 50),
                       (("models", 1, "auras"), 20), (("models", 1, "orders"), 20)):
        for extra in (0, 1):
            doc = copy.deepcopy(base)
            items = _at(doc, path)
            if path[-1] == "rules":  # distinct texts, so that only the length is in question
                items[:] = [f"Blast({x})" for x in range(1, most + 1 + extra)]
            else:
                items[:] = [copy.deepcopy(items[0]) for _ in range(most + extra)]
            yield f"{path} with {most + extra} items", doc


def test_the_walk_was_written_for_the_published_schema():
    """A schema whose validating keywords changed makes `complete` false (the one pass then asks
    jsonschema-rs first, as before): change the walk's checks with it, then `KNOWN_SCHEMA`."""
    assert _fingerprint(unit_schema()) == KNOWN_SCHEMA
    assert SHAPE.complete
    changed = copy.deepcopy(unit_schema())
    changed["$defs"]["weapon"]["properties"]["attacks"]["maximum"] = 99
    assert not Shape(changed).complete
    described = copy.deepcopy(unit_schema())
    described["description"] = "other words"
    assert Shape(described).complete


def test_the_keys_the_walk_counts_are_the_schemas():
    """The walk counts a model's and a weapon's known keys instead of comparing sets."""
    assert SHAPE.model_keys == {"name", "count", "quality", "defence", "toughness", "rules", "weapons",
                                "auras", "orders", "parts"}
    assert SHAPE.model_required == ("name", "count", "quality", "defence")
    assert SHAPE.weapon_keys == {"name", "range", "attacks", "ap", "rules"}
    assert SHAPE.weapon_required == ("name", "range", "attacks")


def test_the_base_document_is_valid_and_taken():
    doc = _document()
    assert schema_is_valid(doc, "unit")
    assert fast_price(copy.deepcopy(doc)) is not None


def test_no_document_the_schema_refuses_is_priced_by_the_one_pass():
    """Every field replaced by every kind of value, every key removed or one added, every list
    at its most items and one past: the one pass prices only what the schema takes, and
    `price_document` answers what reading the document answers (the schema's messages included)."""
    refused = taken = 0
    for label, doc in _changed_documents():
        found = fast_price(copy.deepcopy(doc))
        valid = schema_is_valid(doc, "unit")
        if found is not None:
            assert valid, label
            taken += 1
        refused += not valid
        expected = by_reading(doc)
        if found is not None:
            assert expected == ("value", found), label
        assert by_document(doc) == expected, label
    assert refused > 500 and taken > 50  # the changes reach both sides of the schema


@pytest.mark.parametrize("text", ["Fear(1)\n", "Fearless\n", "Fear(1) ", "Blast(3)\t", "x" * 101, "Fear(1",
                                  "Fear)1(", "(1)", "", "Fear((1))"])
def test_rule_texts_are_checked_by_the_schemas_own_pattern(text):
    """`rule_text_valid` is the schema's rule definition compiled by jsonschema-rs, and a text
    out of the vocabulary is priced only if the schema takes it."""
    doc = _document()
    doc["models"][0]["rules"] = ["Fearless", text]
    assert SHAPE.rule_text_valid(text) == schema_is_valid(doc, "unit")
    found = fast_price(copy.deepcopy(doc))
    if found is not None:
        assert schema_is_valid(doc, "unit")
        assert by_reading(doc) == ("value", found)
