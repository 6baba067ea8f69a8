"""Fetching an Army Forge share link on the server, with a bounded client.

A player pastes `https://army-forge.onepagerules.com/share?id=…` (or the `/api/tts?id=…`
link, or an army book's `/api/army-books/<id>`); we ask that one site (`ARMY_FORGE_URL`) for
the JSON behind it. Nothing else is fetched: the link's scheme, host and port must be the
configured site's, redirects are refused (a redirect elsewhere would be a way around the host
check), the whole answer must come within `ARMY_FORGE_TIMEOUT` seconds and be at most
`ARMY_FORGE_MAX_BYTES` bytes.

The time is one deadline for the whole fetch (connecting, the TLS handshake, the headers and
every read of the body), not a timeout per read: a server trickling a byte every few seconds
never let a per-read timeout expire, and held the only `pdf` worker for the import's whole
time limit (120 s) while PDFs waited behind it. At the deadline a timer shuts the socket down,
which ends whatever read is waiting (`_Deadline`).
"""

from __future__ import annotations

import contextlib
import functools
import http.client
import re
import socket
import threading
import time
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


class _Deadline:
    """Shuts down every socket of one fetch when its time is up, ending any read that waits."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.expired = False
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self._timer = threading.Timer(seconds, self._expire)
        self._timer.daemon = True

    def __enter__(self) -> _Deadline:
        self._timer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._timer.cancel()

    def watch(self, sock: socket.socket) -> socket.socket:
        with self._lock:
            self._sockets.append(sock)
            if self.expired:
                _shut(sock)
        return sock

    def _expire(self) -> None:
        with self._lock:
            self.expired = True
            for sock in self._sockets:
                _shut(sock)


def _shut(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):  # already closed
        sock.shutdown(socket.SHUT_RDWR)


def _watched(connection_class: type[http.client.HTTPConnection], deadline: _Deadline,
             *args: object, **kwargs: object) -> http.client.HTTPConnection:
    """A connection whose socket, as soon as it is connected (before any TLS handshake), the
    deadline watches."""
    connection = connection_class(*args, **kwargs)
    create = connection._create_connection
    connection._create_connection = lambda *a, **k: deadline.watch(create(*a, **k))
    return connection


class _HttpHandler(urllib.request.HTTPHandler):
    def __init__(self, deadline: _Deadline) -> None:
        super().__init__()
        self.deadline = deadline

    def http_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        return self.do_open(functools.partial(_watched, http.client.HTTPConnection, self.deadline), req)


class _HttpsHandler(urllib.request.HTTPSHandler):
    def __init__(self, deadline: _Deadline) -> None:
        super().__init__()
        self.deadline = deadline

    def https_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        return self.do_open(functools.partial(_watched, http.client.HTTPSConnection, self.deadline), req,
                            context=self._context)


def _too_slow(seconds: float) -> ImportProblem:
    return ImportProblem([("url", _("Army Forge took longer than %(seconds)s s to send the list; try again "
                                    "later.") % {"seconds": f"{seconds:g}"})])


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
        # the book of one game system (`?gameSystem=3`: Firefight's units are single models)
        number = (parse_qs(parts.query).get("gameSystem") or [""])[0]
        system = f"?gameSystem={number}" if number.isdigit() and len(number) <= 3 else ""
        return f"{root}/api/army-books/{quote(book['id'])}{system}"
    ident = (parse_qs(parts.query).get("id") or [""])[0]
    if not _ID.match(ident):
        raise ImportProblem([("url", _("This Army Forge link has no list id (…/share?id=…)."))])
    return f"{root}/api/tts?id={quote(ident)}"


def fetch_army_forge(link: str) -> Source:
    """The JSON behind an Army Forge share link, read within the time and size bounds (one
    deadline for the whole fetch, `ARMY_FORGE_TIMEOUT`)."""
    url = payload_url(link)
    limit = settings.ARMY_FORGE_MAX_BYTES
    seconds = float(settings.ARMY_FORGE_TIMEOUT)
    request = urllib.request.Request(
        url, headers={"Accept": "application/json", "User-Agent": "army-builder"}
    )
    with _Deadline(seconds) as deadline:
        opener = urllib.request.build_opener(_NoRedirects(), _HttpHandler(deadline), _HttpsHandler(deadline))
        ends = time.monotonic() + seconds
        try:
            # The per-operation timeout is a backstop only: the deadline's timer ends the fetch first.
            with opener.open(request, timeout=seconds + 1) as response:
                declared = response.headers.get("Content-Length", "")
                if declared.isdigit() and int(declared) > limit:
                    raise ImportProblem(
                        [("url", _("Army Forge's answer is larger than %(max)d bytes.") % {"max": limit})]
                    )
                data = bytearray()
                while len(data) <= limit:
                    chunk = response.read1(64 * 1024)
                    if not chunk:
                        break
                    data += chunk
                    if time.monotonic() > ends:
                        raise _too_slow(seconds)
        except ImportProblem:
            raise
        except urllib.error.HTTPError as exc:
            raise ImportProblem([("url", _("Army Forge answered %(status)d: no such list, or not shared.")
                                  % {"status": exc.code})]) from None
        except (urllib.error.URLError, http.client.HTTPException, TimeoutError, OSError):
            if deadline.expired or time.monotonic() >= ends:
                raise _too_slow(seconds) from None
            raise ImportProblem([("url", _("Army Forge could not be reached; try again later."))]) from None
        if deadline.expired:  # the shut-down socket read as the end of the answer
            raise _too_slow(seconds)
    if len(data) > limit:
        raise ImportProblem(
            [("url", _("Army Forge's answer is larger than %(max)d bytes.") % {"max": limit})]
        )
    return Source(name="army-forge.json", data=bytes(data))
