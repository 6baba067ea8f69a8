"""The one error an estimate request is refused with, for every check that refuses one.

`inputs` (the shape and the fields) and `bounds` (the cost limits) both raise it, and the API,
the pages and the commands catch it; it sits apart so that neither check imports the other.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence


class EstimateRequestError(ValueError):
    """The request cannot become a job; `errors` maps each field path to its messages."""

    def __init__(self, errors: Mapping[str, Sequence[str]]):
        self.errors = {path: list(messages) for path, messages in errors.items()}
        super().__init__("; ".join(f"{path}: {m}" if path else m
                                   for path, messages in self.errors.items() for m in messages))
