"""`loads_bounded` reads with orjson only what orjson reads as `json.loads` does (issue 42)."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from armybuilder.untrusted_json import (
    _NOT_TAKEN,
    JsonTooDeep,
    _bounded_int,
    _by_orjson,
    _reject_constant,
    loads_bounded,
)

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**30) + 1, 10**30 - 1)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda children: st.lists(children, max_size=5)
    | st.dictionaries(st.text(max_size=8), children, max_size=5),
    max_leaves=30,
)


def _same(a: object, b: object) -> bool:
    """Equal with the same types all the way down (1 and 1.0 differ; -0.0 and 0.0 differ)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return a == b and math.copysign(1, a) == math.copysign(1, b)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    return a == b


def _by_json(text: str) -> object:
    """`loads_bounded` before orjson: the value and the errors it must keep."""
    return json.loads(text, parse_constant=_reject_constant, parse_int=_bounded_int)


@given(JSON_VALUES, st.booleans())
def test_every_value_reads_as_json_loads_reads_it(value, ascii_only):
    text = json.dumps(value, ensure_ascii=ascii_only)
    assert _same(loads_bounded(text), _by_json(text))


@given(st.floats(allow_nan=False, allow_infinity=False).map(repr) | st.from_regex(
    r"\A-?(0|[1-9][0-9]{0,25})(\.[0-9]{1,20})?([eE][+-]?[0-9]{1,3})?\Z"))
def test_numbers_as_written_read_as_json_loads_reads_them(number):
    text = f"[{number}]"
    try:
        expected = json.loads(text)
    except ValueError:
        return
    if any(isinstance(v, int) and len(str(abs(v))) > 30 for v in expected):
        return  # refused by loads_bounded's own rule (tested below)
    assert _same(loads_bounded(text), expected)


@pytest.mark.parametrize("text", [
    "1e400", "-1e400", "18446744073709551616", "123456789012345678901234", "-9223372036854775809",
    '"\\ud800"', '{"a": 1, "a": 2}', "-0", "-0.0", "2.4e-324", "5e-324", '"\\u0000"', " [1] ",
    '{"name": "1234567890123456789012"}', "[" * 300 + "]" * 300,
])
def test_edge_texts_read_as_json_loads_reads_them(text):
    assert _same(loads_bounded(text), _by_json(text))


@pytest.mark.parametrize("text", [
    "\ufeff[1]", "NaN", "[Infinity]", "[-Infinity]", '"\t"', "[1,]", "{'a': 1}", "", "[1] x",
])
def test_what_json_loads_refuses_is_refused_with_its_message(text):
    with pytest.raises(ValueError) as ours:
        loads_bounded(text)
    with pytest.raises(ValueError) as theirs:
        _by_json(text)
    assert str(ours.value) == str(theirs.value)


def test_a_number_of_too_many_digits_is_refused_with_our_message():
    with pytest.raises(ValueError, match="digits"):
        loads_bounded("[" + "9" * 31 + "]")


def test_a_document_nested_too_deep_is_refused():
    with pytest.raises(JsonTooDeep):
        loads_bounded("[" * 5000 + "]" * 5000)


def test_a_unit_text_is_read_by_orjson():
    from rules.systems.opr.unit_format.writer import unit_to_dict
    from tests.factories.opr_combat_units import model, unit, weapon

    text = json.dumps(unit_to_dict(unit(model(count=10, weapons=[weapon(attacks=2, rules_=["Blast(3)"])]))))
    assert _by_orjson(text) is not _NOT_TAKEN
    assert _same(loads_bounded(text), json.loads(text))


@given(st.text(alphabet='[]{}",:0123456789.eE+- \t\n\rtrufalsnNIy\\/\ufeffx\x00\u00e9', max_size=40))
def test_any_text_reads_or_fails_as_json_loads(text):
    try:
        expected = _by_json(text)
    except ValueError as theirs:
        with pytest.raises(ValueError) as ours:
            loads_bounded(text)
        assert str(ours.value) == str(theirs)
        return
    assert _same(loads_bounded(text), expected)


def test_a_text_orjson_could_misread_is_left_to_json_loads():
    assert _by_orjson("[" * 600 + "]" * 600) is _NOT_TAKEN
    assert _by_orjson('{"a": ' * 250 + "[" * 250 + "]" * 250 + "}" * 250) is _NOT_TAKEN  # both kinds counted
    assert _by_orjson("[" * 200 + "]" * 200) == json.loads("[" * 200 + "]" * 200)
    assert _by_orjson("\ufeff[1]") is _NOT_TAKEN
    assert _by_orjson("[18446744073709551616]") is _NOT_TAKEN
    assert _by_orjson('"\\ud800"') is _NOT_TAKEN
    assert _by_orjson(b"[1]") is _NOT_TAKEN  # type: ignore[arg-type]
    assert _by_orjson("[\ud800]") is _NOT_TAKEN
