"""Rendered fragments of the list pages kept by what they show (issue 42).

The editor's unit rows and the roster's unit cards are most of those pages' CPU (a 50-unit
editor renders 10,000 template nodes). A fragment here is rendered once and reused for as
long as everything it shows is the same: its key is a digest of that content (the unit's
stored fields, the list's fields the row reads, the reader's language, the catalogue's
`updated` stamp and the templates' own text), so an edit, a language switch or a catalogue
reload is a new key, never a stale page, and nothing has to be invalidated by hand. An
unchanged unit's row is reused across list versions, so the page after an edit renders only
the rows that changed.

What differs per request inside a fragment is left as a placeholder and filled in on the
way out: the CSRF token (`{% csrf_token %}`), the list's version in the rows' forms, and a
roster card's number (so identical units of a list, numbered apart, share one rendered
card). The placeholders carry a random nonce kept beside the fragment, so a player's own
text can never be taken for one.

Fragments live in Django's default cache (per process unless configured otherwise);
with `DEBUG` on nothing is kept, so a template edited under the development server shows
at once.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import secrets
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.cache import cache as default_cache
from django.template import Context

#: How long an unused fragment is kept (seconds); a hit does not extend it.
FRAGMENT_SECONDS = 6 * 3600
#: Bumped when what a key covers changes shape, so old entries of a shared cache are not read.
KEY_SHAPE = 1


@cache
def templates_digest(names: tuple[str, ...]) -> str:
    """A digest of the source of `names` (templates under the project's `templates/`): a
    deploy that changes a fragment's template gives it new keys even in a shared cache."""
    root = Path(settings.BASE_DIR) / "templates"
    digest = hashlib.sha1(str(KEY_SHAPE).encode())
    for name in names:
        path = root / name
        digest.update(path.read_bytes() if path.exists() else name.encode())
    return digest.hexdigest()[:16]


def _plain(value: Any) -> Any:
    """A dataclass by its fields (no deep copy, unlike `dataclasses.asdict`), anything else
    JSON cannot write by its `str` (a lazy translation, a date)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {field.name: getattr(value, field.name) for field in dataclasses.fields(value)}
    return str(value)


def content_digest(*parts: Any) -> str:
    """A digest of `parts`: JSON-able data and dataclasses (by their fields, nested)."""
    text = json.dumps(parts, sort_keys=True, separators=(",", ":"), default=_plain)
    return hashlib.sha1(text.encode()).hexdigest()


def csrf_value(context: Context) -> str | None:
    """The request's CSRF token as `{% csrf_token %}` prints it; None when it prints nothing
    (no request, or the token is not provided), then a fragment is not cached."""
    token = context.get("csrf_token")
    if not token or token == "NOTPROVIDED":
        return None
    return str(token)


def cached_fragment(
    *,
    kind: str,
    key: str,
    context: Context,
    render: Callable[[Context], str],
    per_request: Iterable[tuple[str, str]] = (),
    uses_csrf: bool = False,
    slots: Mapping[str, str] | None = None,
) -> str:
    """The fragment `kind`/`key`, rendered by `render(context)` when it is not kept yet.

    `per_request` are `(name, value)` pairs of text that differs per request and stays out
    of the kept fragment: after rendering, each `value` in the output is swapped for a
    placeholder, and on the way out each placeholder for this request's `value`. A fragment
    that `uses_csrf` gets the CSRF token the same way (rendered as its placeholder directly);
    without a token to give it, it is rendered and not kept.

    `slots` are `{name: value}` of text the key leaves out (a roster card's number): the
    fragment is rendered with `fragment_slots` in its context, each name's placeholder, which
    `render` prints where the value goes; on the way out each placeholder becomes its value.
    Rendered whole (`DEBUG`, or no token for a fragment that needs one), the context has no
    `fragment_slots` and `render` prints the values themselves.
    """
    token = csrf_value(context) if uses_csrf else None
    if settings.DEBUG or (uses_csrf and token is None):
        return render(context)
    per_request = list(per_request)
    cache_key = f"fragment:{kind}:{key}"
    found = default_cache.get(cache_key)
    if found is None:
        nonce = secrets.token_hex(8)
        pushed: dict[str, Any] = {}
        if uses_csrf:
            pushed["csrf_token"] = f"{nonce}csrf"
        if slots:
            pushed["fragment_slots"] = {name: f"{nonce}{name}" for name in slots}
        if pushed:
            with context.push(**pushed):
                html = str(render(context))
        else:
            html = str(render(context))
        for name, value in per_request:
            html = html.replace(value, f"{nonce}{name}")
        found = (nonce, html)
        default_cache.set(cache_key, found, FRAGMENT_SECONDS)
    nonce, html = found
    if token is not None:
        html = html.replace(f"{nonce}csrf", token)
    for name, value in per_request:
        html = html.replace(f"{nonce}{name}", value)
    for name, value in (slots or {}).items():
        html = html.replace(f"{nonce}{name}", value)
    return html
