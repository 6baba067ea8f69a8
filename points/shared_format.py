"""What every system's unit format shares: the envelope's version and its errors.

`FORMAT_VERSION` is the `format` field of every unit and list document, whatever its system
(`docs/unit-format.md`). The errors say every problem of a document, each with the
path of its field. Callers show all of them at once
(`models[1].weapons[0].ap: must be between -1 and 5`), so a user fixes a file in one pass;
the command line prints `UnitFormatError.to_dict()` as JSON.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

#: The `format` field of every unit and army document in the interchange format.
FORMAT_VERSION = 1


@dataclass(frozen=True, slots=True, order=True)
class FieldError:
    """One problem: `path` like `models[1].weapons[0].ap` ("" for the document itself)."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message

    def to_dict(self) -> dict[str, str]:
        return {"path": self.path, "message": self.message}


_SEGMENT = re.compile(r"\[(\d+)\]|\.?([^.\[]+)")


def _sort_key(error: FieldError) -> tuple:
    """Document order-ish: list indexes compare as numbers, so models[2] comes before models[10]."""
    return tuple((0, int(i), "") if i else (1, 0, name) for i, name in _SEGMENT.findall(error.path))


class UnitFormatError(ValueError):
    """A unit or army document is invalid; `errors` lists every problem found."""

    def __init__(self, errors: list[FieldError]):
        self.errors = sorted(set(errors), key=_sort_key)
        super().__init__("; ".join(str(e) for e in self.errors) or "invalid document")

    def to_dict(self) -> dict[str, Any]:
        return {"errors": [e.to_dict() for e in self.errors]}


def join(path: str, key: str | int) -> str:
    """The path of `key` inside `path`: `models` + 1 → `models[1]`, `models[1]` + `ap` → `models[1].ap`."""
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else str(key)
