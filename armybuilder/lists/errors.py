"""What the list services raise when they refuse a change.

Both carry plain data (field paths and messages, version numbers) and nothing about HTTP,
so that the htmx views and the REST API translate them the same way: `ArmyListError` to
400 with every message, `StaleListError` to 409 with a way to reload. `NotApplicable` (a
feature that does not apply to a list) is a 404 by nature, with a message the API shows.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.http import Http404


class ArmyListError(Exception):
    """A change or an import the list cannot accept.

    `errors` lists every problem found, each as `(field path, message)` — for example
    `("name", "Ensure this value has at most 100 characters.")` or
    `("units[3].unit.models[0].quality", "must be between 2 and 6")` — so a form or an API
    client can show all of them at once, next to the field they name.
    """

    def __init__(self, errors: Iterable[tuple[str, str]]) -> None:
        self.errors: list[tuple[str, str]] = [(str(path), str(message)) for path, message in errors]
        super().__init__(
            "; ".join(f"{path}: {message}" if path else message for path, message in self.errors)
        )

    def as_dict(self) -> dict[str, list[str]]:
        """`{field path: [messages]}`, the shape Django forms and DRF use for errors."""
        result: dict[str, list[str]] = {}
        for path, message in self.errors:
            result.setdefault(path, []).append(message)
        return result


class StaleListError(Exception):
    """The list changed after the caller read it: its version is no longer `expected_version`.

    Raised instead of applying a change on top of one the caller has not seen (two tabs,
    two devices). The caller should reload the list and try again.
    """

    def __init__(self, *, expected_version: int, current_version: int) -> None:
        self.expected_version = expected_version
        self.current_version = current_version
        super().__init__(f"the list is at version {current_version}, not {expected_version}")


class NotApplicable(Http404):
    """A feature that does not apply to this list (the points audit of a list whose system has
    no formula, an Army Forge export of a system Army Forge lacks): 404 on a page, and in the
    API a 404 whose message says why (a bare `Http404` answers "Not found." there, as its
    message may name a model)."""
