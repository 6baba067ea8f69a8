"""Fetching an Army Forge share link on the server, with a bounded client.

A player pastes `https://army-forge.onepagerules.com/share?id=…` (or the `/api/tts?id=…`
link, or an army book's `/api/army-books/<id>`); we ask that one site (`ARMY_FORGE_URL`) for
the JSON behind it. Nothing else is fetched: the link's scheme, host and port must be the
configured site's, redirects are refused (a redirect elsewhere would be a way around the host
check), the answer must come within `ARMY_FORGE_TIMEOUT` seconds and be at most
`ARMY_FORGE_MAX_BYTES` bytes.
"""

from __future__ import annotations

import re
import urllib.error
import urllib.request
from urllib.parse import parse_qs, quote, urlsplit

from django.conf import settings
from django.utils.translation import gettext as _

from armybuilder.lists.importers.base import ImportProblem, Source

_ID = re.compile(r"^[A-Za-z0-9_~-]{1,80}$")
_BOOK = re.compile(r"/army-books?/(?:view/)?(?P<id>[A-Za-z0-9_-]{1,80})")


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):
        raise ImportProblem([("url", _("Army Forge answered with a redirect; only its own answer is read."))])


def looks_like_link(text: str) -> bool:
    """Whether pasted text is a single web link (rather than a list)."""
    stripped = text.strip()
    return bool(re.match(r"^https?://\S+$", stripped))


def payload_url(link: str) -> str:
    """The URL of the JSON behind an Army Forge link; `ImportProblem` for any other link."""
    base = urlsplit(settings.ARMY_FORGE_URL)
    parts = urlsplit(link.strip())
    if (parts.scheme, parts.netloc.lower()) != (base.scheme, base.netloc.lower()):
        raise ImportProblem(
            [
                (
                    "url",
                    _("Only Army Forge links (%(site)s) can be fetched.") % {"site": settings.ARMY_FORGE_URL},
                )
            ]
        )
    root = settings.ARMY_FORGE_URL.rstrip("/")
    book = _BOOK.search(parts.path)
    if book:
        return f"{root}/api/army-books/{quote(book['id'])}"
    ident = (parse_qs(parts.query).get("id") or [""])[0]
    if not _ID.match(ident):
        raise ImportProblem([("url", _("This Army Forge link has no list id (…/share?id=…)."))])
    return f"{root}/api/tts?id={quote(ident)}"


def fetch_army_forge(link: str) -> Source:
    """The JSON behind an Army Forge share link, read within the time and size bounds."""
    url = payload_url(link)
    opener = urllib.request.build_opener(_NoRedirects())
    limit = settings.ARMY_FORGE_MAX_BYTES
    request = urllib.request.Request(
        url, headers={"Accept": "application/json", "User-Agent": "army-builder"}
    )
    try:
        with opener.open(request, timeout=settings.ARMY_FORGE_TIMEOUT) as response:
            declared = response.headers.get("Content-Length", "")
            if declared.isdigit() and int(declared) > limit:
                raise ImportProblem(
                    [("url", _("Army Forge's answer is larger than %(max)d bytes.") % {"max": limit})]
                )
            data = response.read(limit + 1)
    except ImportProblem:
        raise
    except urllib.error.HTTPError as exc:
        raise ImportProblem(
            [
                (
                    "url",
                    _("Army Forge answered %(status)d: no such list, or not shared.") % {"status": exc.code},
                )
            ]
        ) from None
    except (urllib.error.URLError, TimeoutError, OSError):
        raise ImportProblem([("url", _("Army Forge could not be reached; try again later."))]) from None
    if len(data) > limit:
        raise ImportProblem(
            [("url", _("Army Forge's answer is larger than %(max)d bytes.") % {"max": limit})]
        )
    return Source(name="army-forge.json", data=data)
