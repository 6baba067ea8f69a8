"""Translation of user-facing messages in the pure core, without importing Django.

The pure modules (`points.catalogue`, the composition rules of each catalogue-priced
system, `points.opr.army_structure`, `rules.systems.opr.unit_format`, `rules.options`) mark their
messages with `_()` (and `ngettext`) so that `makemessages` finds them, and call the
translator installed here. Outside Django it is the identity (tests of the core,
command-line use); `rules.apps.RulesConfig.ready` installs Django's `gettext`, so a page or
an API answer gets the message in the request's language.

A message is also a `Message`: a `str` in the active language that remembers its English
original and its arguments. A violation is stored with the list (in the language of
whoever made the last change), so `message_record` keeps the original beside it and
`translated_again` writes it in the reader's language when it is shown.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any


def _identity(message: str) -> str:
    return message


def _plural_identity(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


def _no_language() -> str:
    return ""


_translator: Callable[[str], str] = _identity
_plural_translator: Callable[[str, str, int], str] = _plural_identity
_language: Callable[[], str | None] = _no_language


def install_translator(
    translator: Callable[[str], str],
    plural_translator: Callable[[str, str, int], str] | None = None,
    language: Callable[[], str | None] | None = None,
) -> None:
    """Use `translator` (Django's `gettext`), `plural_translator` (its `ngettext`) and
    `language` (its `get_language`) from now on."""
    global _translator, _plural_translator, _language
    _translator = translator
    if plural_translator is not None:
        _plural_translator = plural_translator
    if language is not None:
        _language = language


def language_key() -> str:
    """The active language, for caches of translated messages ("" outside Django)."""
    return _language() or ""


class Message(str):
    """A translated message that remembers how to translate itself again.

    `msgid` is the English original (`plural` and `n` for a counted one); `args` are what
    it was formatted with, `%`-style (a mapping) or `str.format`-style (`style` "{}").
    """

    msgid: str
    plural: str | None
    n: int | None
    args: Mapping[str, Any] | None
    style: str
    titled: bool

    def __new__(cls, text: str, msgid: str, *, plural: str | None = None, n: int | None = None,
                args: Mapping[str, Any] | None = None, style: str = "%", titled: bool = False) -> Message:
        message = super().__new__(cls, text)
        message.msgid, message.plural, message.n, message.args, message.style = msgid, plural, n, args, style
        message.titled = titled
        return message

    def __mod__(self, args: Any) -> Message:  # type: ignore[override]
        mapping = args if isinstance(args, Mapping) else None
        return Message(str.__mod__(self, args), self.msgid, plural=self.plural, n=self.n, args=mapping)

    def format(self, *args: Any, **kwargs: Any) -> Message:  # type: ignore[override]
        return Message(str.format(self, *args, **kwargs), self.msgid, plural=self.plural, n=self.n,
                       args=kwargs or None, style="{}")

    def title(self) -> Message:  # type: ignore[override]
        """Title case that is applied again when the message is translated again (a slot
        name "core" shown as "Core", "Основные")."""
        return Message(str.title(self), self.msgid, plural=self.plural, n=self.n, args=self.args,
                       style=self.style, titled=True)


def _(message: str) -> str:
    """The message in the active language (the identity until a translator is installed)."""
    return Message(_translator(message), message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a counted message for `n` in the active language (Polish, Czech and
    Russian have three or four forms where English has two)."""
    return Message(_plural_translator(singular, plural, n), singular, plural=plural, n=n)


def message_record(message: str) -> dict[str, Any]:
    """What a stored violation keeps to show `message` in another language later: its
    English original and arguments (`{}` for a plain string, which is shown as it is)."""
    if not isinstance(message, Message):
        return {}
    record: dict[str, Any] = {"message_id": message.msgid}
    if message.plural is not None:
        record["message_plural"], record["message_n"] = message.plural, message.n
    if message.titled:
        record["message_titled"] = True
    if message.args is not None:
        record["message_args"] = {key: _stored_argument(value) for key, value in message.args.items()}
        record["message_style"] = message.style
    return record


def _stored_argument(value: Any) -> Any:
    """An argument as stored: a translated argument (a slot name, a rule's name) keeps its own
    record, so it is translated again with the message instead of staying in the language of
    whoever saved the list ("Основные choices cost …" shown to an English reader)."""
    if isinstance(value, Message):
        return {"message": str(value), **message_record(value)}
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    return str(value)


def translated_again(record: Mapping[str, Any], *, number: Callable[[str], str] | None = None) -> str:
    """A stored message (`message` plus `message_record`'s keys) in the active language;
    the stored text when it carries no original or the translation cannot be formatted.
    `number` rewrites each text argument (the display edge passes one that writes decimals
    with the locale's separator)."""
    msgid = record.get("message_id")
    if not isinstance(msgid, str):
        return str(record.get("message", ""))
    plural, n = record.get("message_plural"), record.get("message_n")
    text = (_plural_translator(msgid, plural, n) if isinstance(plural, str) and isinstance(n, int)
            else _translator(msgid))
    args = record.get("message_args")
    if isinstance(args, Mapping):
        args = {
            key: translated_again(value)
            if isinstance(value, Mapping)
            else number(value) if isinstance(value, str) and number is not None else value
            for key, value in args.items()
        }
    try:
        if isinstance(args, Mapping):
            text = text.format(**args) if record.get("message_style") == "{}" else text % args
        return text.title() if record.get("message_titled") else text
    except (KeyError, ValueError, TypeError, IndexError):
        return str(record.get("message", ""))


def gettext_noop(message: str) -> str:
    """Marks `message` for makemessages without translating it now (it is stored or
    compared in English and translated where it is shown)."""
    return message
