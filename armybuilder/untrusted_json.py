"""Checks on decoded JSON that both the API parser and the HTML import form need.

`json.loads` accepts strings PostgreSQL cannot store (NUL characters, lone surrogates
such as `"\\ud800"`), and refuses integers longer than Python's digit limit with a bare
`ValueError` rather than a `JSONDecodeError`. Both used to be 500s on the import page; one
implementation keeps the page and the API in agreement.

`loads_bounded` parses with orjson (a dependency already: results are written with it) when that
gives exactly what `json.loads` would, about 3× faster on a unit's text (issue 42: the parse was
a third of pricing a unit from its JSON); every other text goes through `json.loads` as before.
"""

from __future__ import annotations

import json
from typing import Any

import orjson
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

#: Deeper documents are refused; the deepest legitimate one (a list of units) is about 8.
MAX_DEPTH = 32
#: Longer integers are refused with a message of ours, not Python's digit-limit
#: error; no figure of a list or a unit comes near it.
MAX_INTEGER_DIGITS = 30

#: Messages in the request's language when shown (lazy: they are built at import time).
UNSTORABLE_STRING = gettext_lazy("Strings may not contain NUL characters or unpaired surrogates.")
UNSTORABLE_KEY = gettext_lazy("Keys may not contain NUL characters or unpaired surrogates.")


class JsonTooDeep(ValueError):
    """The document nests deeper than `MAX_DEPTH`."""


def _reject_constant(name: str) -> None:
    raise ValueError(f"{name} is not valid JSON")


def _bounded_int(digits: str) -> int:
    count = len(digits.lstrip("-"))
    if count > MAX_INTEGER_DIGITS:
        raise ValueError(_("A number has %(digits)d digits; numbers may have at most %(max)d.")
                         % {"digits": count, "max": MAX_INTEGER_DIGITS})
    return int(digits)


#: orjson reads an integer past 64 bits as a float, where `json.loads` keeps it exact (or
#: `_bounded_int` refuses it): a text with a run of this many digits anywhere is not given to it.
_LONG_DIGIT_RUN = b"0" * 19
#: Every digit written 0 and every `{` written `[`: one pass over the text, then one search
#: for a run of digits and one count of brackets.
_DIGITS_AS_ZERO = bytes.maketrans(b"123456789{", b"000000000[")
#: orjson nests up to 1024 levels, `json.loads` up to the recursion limit (less the stack in
#: use): a text with this many brackets might be nested deeper than `json.loads` goes.
_MANY_BRACKETS = 500
#: `_by_orjson`'s answer for a text it leaves to `json.loads`.
_NOT_TAKEN = object()


def _by_orjson(text: str) -> Any:
    """`json.loads(text)`'s value read by orjson, or `_NOT_TAKEN` when orjson's could differ:
    a text that is not a `str` (json.loads also detects UTF-16 and UTF-32 bytes), a `str` with
    surrogates (not UTF-8) or a byte order mark, a run of 19 digits (an integer orjson would
    turn into a float), many brackets (possibly nested past json.loads's recursion), or a text orjson refuses
    (NaN, Infinity, 1e400, escaped lone surrogates, errors: json.loads says what it says)."""
    if type(text) is not str or text[:1] == "\ufeff":  # json.loads refuses a BOM, orjson skips it
        return _NOT_TAKEN
    try:
        encoded = text.encode()
    except UnicodeEncodeError:
        return _NOT_TAKEN
    plain = encoded.translate(_DIGITS_AS_ZERO)
    if _LONG_DIGIT_RUN in plain or plain.count(b"[") >= _MANY_BRACKETS:
        return _NOT_TAKEN
    try:
        return orjson.loads(encoded)
    except orjson.JSONDecodeError:
        return _NOT_TAKEN


def loads_bounded(text: str) -> Any:
    """`json.loads` without NaN/Infinity; every failure is a `ValueError` (or `JsonTooDeep`).

    `JSONDecodeError` is a `ValueError`; so is an integer of more than `MAX_INTEGER_DIGITS`
    digits, with a message of ours; a `RecursionError` is turned into `JsonTooDeep`. The value
    is orjson's when it is `json.loads`'s (`_by_orjson`), else `json.loads`'s.
    """
    value = _by_orjson(text)
    if value is not _NOT_TAKEN:
        return value
    try:
        return json.loads(text, parse_constant=_reject_constant, parse_int=_bounded_int)
    except RecursionError:
        raise JsonTooDeep(_("JSON nested deeper than %(depth)d levels.") % {"depth": MAX_DEPTH}) from None


def storable(text: str) -> bool:
    """Whether PostgreSQL can store the string (no NUL, valid UTF-8 once encoded)."""
    if "\x00" in text:
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def storage_problems(value: Any) -> dict[str, list[str]]:
    """`{field path: [message]}` for every string or key PostgreSQL cannot store.

    Raises `JsonTooDeep` past `MAX_DEPTH` levels.
    """
    problems: dict[str, list[str]] = {}
    _check(value, "", 0, problems)
    return problems


def _check(value: Any, path: str, depth: int, problems: dict[str, list[str]]) -> None:
    if depth > MAX_DEPTH:
        raise JsonTooDeep(_("JSON nested deeper than %(depth)d levels.") % {"depth": MAX_DEPTH})
    if isinstance(value, str):
        if not storable(value):
            problems.setdefault(path or "non_field_errors", []).append(UNSTORABLE_STRING)
    elif isinstance(value, dict):
        for key, item in value.items():
            child = f"{path}.{key}" if path else str(key)
            if not storable(key):
                problems.setdefault(path or "non_field_errors", []).append(UNSTORABLE_KEY)
                continue
            _check(item, child, depth + 1, problems)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _check(item, f"{path}[{index}]", depth + 1, problems)
