"""Checks on decoded JSON that both the API parser and the HTML import form need.

`json.loads` accepts strings PostgreSQL cannot store (NUL characters, lone surrogates
such as `"\\ud800"`), and refuses integers longer than Python's digit limit with a bare
`ValueError` rather than a `JSONDecodeError`. Both used to be 500s on the import page; one
implementation keeps the page and the API in agreement.
"""

from __future__ import annotations

import json
from typing import Any

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


def loads_bounded(text: str) -> Any:
    """`json.loads` without NaN/Infinity; every failure is a `ValueError` (or `JsonTooDeep`).

    `JSONDecodeError` is a `ValueError`; so is an integer of more than `MAX_INTEGER_DIGITS`
    digits, with a message of ours; a `RecursionError` is turned into `JsonTooDeep`.
    """
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
