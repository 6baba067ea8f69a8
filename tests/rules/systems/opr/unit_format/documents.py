"""Unit documents the unit-format tests share (`test_fast_path`, `test_document_price`,
`test_document_shape`): a valid document with every kind of part, the odd documents each path
must read or refuse as the careful reader does, a random unit written as plain JSON, and what
a reading or pricing gives (its value, or the errors it refuses the document with)."""

from __future__ import annotations

import copy
import json
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from hypothesis import assume

from points.opr import price
from rules.systems.opr.unit_format import UnitFormatError, parse_unit, unit_to_dict
from rules.systems.opr.unit_format.document_price import price_document
from rules.systems.opr.unit_format.reader import careful_parse_unit


def outcome(read: Callable[[Any], Any], data: Any) -> tuple[str, Any]:
    """What `read` gives for a copy of `data`: ("value", it), or ("errors", the refusal's)."""
    try:
        return "value", read(copy.deepcopy(data))
    except UnitFormatError as exc:
        return "errors", exc.to_dict()


def by_reading(doc: Any) -> tuple[str, Any]:
    """What pricing a document must give: reading it (`parse_unit`) and pricing the unit, its
    ("value", (points, exact)), or the reading's errors."""

    def totals(data: Any) -> tuple[int, Any]:
        breakdown = price(parse_unit(data))
        return breakdown.points, breakdown.exact

    return outcome(totals, doc)


def by_document(doc: Any) -> tuple[str, Any]:
    """What the one pass over the document (`price_document`) gives, in `by_reading`'s terms."""
    return outcome(price_document, doc)


def plain_document(unit: Any) -> dict:
    """The unit as plain JSON; the strategy may draw a unit the format refuses (Fast and Slow),
    which hypothesis is told to leave out."""
    doc = json.loads(json.dumps(unit_to_dict(unit)))
    assume(outcome(careful_parse_unit, doc)[0] == "value")
    return doc


def valid_document() -> dict:
    """A valid unit: a Massive model with parts, auras and orders, rules with values, extra."""
    return {
        "format": 1, "system": "opr", "name": "Squad",
        "extra": {"note": ["kept", 1]},
        "models": [
            {"name": "Trooper", "count": 5, "quality": 4, "defence": 5, "toughness": 1,
             "rules": ["Fearless", "Fear(1)"],
             "weapons": [{"name": "Rifle", "range": 24, "attacks": 1, "ap": 0, "rules": ["Blast(3)"]},
                         {"name": "Knife", "range": 0, "attacks": 1}]},
            {"name": "Boss", "count": 1, "quality": 3, "defence": 4,
             "rules": ["Massive", "Order(Fast)"], "parts": [{"name": "a", "toughness": 2},
                                                           {"name": "b", "toughness": 3}],
             "auras": [{"grants": "Stealth", "range": 12}], "orders": [{"grants": "Shield"}],
             "weapons": []},
        ],
    }


def _set(path, value):
    def change(doc):
        target = doc
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        return doc
    return change


ODD_DOCUMENTS = {
    "valid": lambda d: d,
    "tuple of weapons": _set(("models", 0, "weapons"), ({"name": "Rifle", "range": 24, "attacks": 1},)),
    "float count": _set(("models", 0, "count"), 5.0),
    "bool count": _set(("models", 0, "count"), True),
    "Tough(X) agrees": _set(("models", 0, "rules"), ["Tough(1)"]),
    "Tough(X) contradicts": _set(("models", 0, "rules"), ["Tough(3)"]),
    "AP(X) on a weapon": _set(("models", 0, "weapons", 0, "rules"), ["AP(2)"]),
    "rule twice": _set(("models", 0, "rules"), ["Fearless", "Fearless"]),
    "weapon rule twice": _set(("models", 0, "weapons", 0, "rules"), ["Rending", "Rending"]),
    "Fast and Slow": _set(("models", 0, "rules"), ["Fast", "Slow"]),
    "Assault in melee": _set(("models", 0, "weapons", 1, "rules"), ["Assault"]),
    "Massive without parts": _set(("models", 0, "rules"), ["Massive"]),
    "parts without Massive": _set(("models", 1, "rules"), []),
    "unknown rule": _set(("models", 0, "rules"), ["Fearles"]),
    "weapon rule on a model": _set(("models", 0, "rules"), ["Rending"]),
    "Polish alias": _set(("models", 0, "rules"), ["Nieustraszony"]),
    "a long rule": _set(("models", 0, "rules"), ["Fearless" + " " * 60]),
    "Caster out of range": _set(("models", 0, "rules"), ["Caster(9)"]),
    "aura nobody prices": _set(("models", 1, "auras"), [{"grants": "Hero"}]),
    "quality out of range": _set(("models", 0, "quality"), 9),
    "missing name": lambda d: {k: v for k, v in d.items() if k != "name"},
    "unknown field": _set(("colour",), "red"),
    "ordered dict model": _set(("models", 0), OrderedDict(valid_document()["models"][0])),
    "str subclass rule": _set(("models", 0, "rules"), [type("S", (str,), {})("Fearless")]),
    "int key": _set((1,), "x"),
}
