"""Marking English labels of a system for translation without importing Django.

Systems' situation schemas and `outcomes` carry English labels; the product layer
translates them on display. Calls of a function named `gettext_noop` are what
`makemessages` collects by default, so this one is named so and does nothing else.
"""

from __future__ import annotations


def gettext_noop(message: str) -> str:
    """`message` unchanged, marked for `makemessages`."""
    return message
