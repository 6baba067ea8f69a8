"""Translation of user-facing messages in the pure core, without importing Django.

The pure modules (`points.catalogue`, the composition rules of each catalogue-priced
system, `rules.options`) mark their messages with `_()` so that `makemessages` finds them,
and call the translator installed here. Outside Django it is the identity (tests of the
core, command-line use); `rules.apps.RulesConfig.ready` installs Django's `gettext`, so a
page or an API answer gets the message in the request's language.
"""

from __future__ import annotations

from collections.abc import Callable


def _identity(message: str) -> str:
    return message


_translator: Callable[[str], str] = _identity


def install_translator(translator: Callable[[str], str]) -> None:
    """Use `translator` (Django's `gettext`) for every message of the pure core from now on."""
    global _translator
    _translator = translator


def _(message: str) -> str:
    """The message in the active language (the identity until a translator is installed)."""
    return _translator(message)
