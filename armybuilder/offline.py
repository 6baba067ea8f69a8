"""Installable and readable offline: the web app manifest and the service worker.

At the table the connection is often bad. The service worker keeps the pages of the
player's own saved lists — the editor page, the printable roster and the PDF — and the index
of them the installed app starts on (`/lists/`), for reading offline, and nothing else: a
response is kept only when the server marks it with `X-Offline-Copy` (`mark_offline_copy`),
which the list views do for the owner's own lists.
Every request still goes to the network first, so a player online always sees the list as
it is; the copy is used only when the network fails, with a banner saying how old it is.

The worker's cache is named after the release (`release_id`): a new release's worker
deletes every older cache when it activates, so no stale page or app shell outlives an
upgrade. `SERVICE_WORKER_ENABLED=false` is the kill switch: pages stop registering it, and
`/sw.js` becomes a worker that deletes its caches and unregisters itself.
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.templatetags.static import PrefixNode, static
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

#: The header that allows the service worker to keep a response for offline reading.
OFFLINE_COPY_HEADER = "X-Offline-Copy"
#: Light and dark theme colours of the site (static/css/site.css), for the browser's chrome.
THEME_LIGHT = "#f6f7f9"
THEME_DARK = "#181c24"
ICON_SIZES = (192, 512)


def mark_offline_copy(response: HttpResponse) -> HttpResponse:
    """Let the service worker keep `response` (a page of the player's own list, or the index of
    their lists) for offline use."""
    if response.status_code == 200:
        response[OFFLINE_COPY_HEADER] = "own-list"
    return response


def release_id() -> str:
    """An id of this release: `RELEASE` when the deployment sets it, else a hash of the worker's
    own code and of the static files the pages load (a new release changes one of them)."""
    if settings.RELEASE:
        return str(settings.RELEASE)[:40]
    return _code_hash()


@functools.cache
def _code_hash() -> str:
    digest = hashlib.sha256()
    root = Path(settings.BASE_DIR)
    for path in sorted([root / "templates" / "offline" / "sw.js", *(root / "static").rglob("*")]):
        if path.is_file():
            digest.update(path.relative_to(root).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


@require_GET
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest: name, icons, colours; the app opens on the player's lists."""
    icons = [{"src": static(f"icons/icon-{size}.png"), "sizes": f"{size}x{size}", "type": "image/png",
              "purpose": "any"} for size in ICON_SIZES]
    icons.append({"src": static("icons/icon-maskable-512.png"), "sizes": "512x512", "type": "image/png",
                  "purpose": "maskable"})
    data = {
        "name": _("Army Builder"),
        "short_name": _("Army Builder"),
        "description": _("Build army lists, see every rule they break, print them and read them offline."),
        "lang": request.LANGUAGE_CODE,
        "start_url": "/lists/",
        "scope": "/",
        "display": "standalone",
        "background_color": THEME_DARK,
        "theme_color": THEME_DARK,
        "icons": icons,
    }
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    return response


def static_prefix() -> str:
    """Where the static files are served from (`/static/`), as the worker compares paths.

    Not `static("")`: with the manifest storage every production deployment uses, `static()`
    looks the name up in `staticfiles.json`, where "" has no entry, and `/sw.js` answered 500."""
    return PrefixNode.handle_simple("STATIC_URL")


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """`/sw.js` (at the root, so its scope is the whole site); checked for updates on every load."""
    context = {"release": release_id(), "enabled": settings.SERVICE_WORKER_ENABLED,
               "static_prefix": static_prefix(), "header": OFFLINE_COPY_HEADER}
    response = HttpResponse(render_to_string("offline/sw.js", context),
                            content_type="application/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response


def service_worker_context(request: HttpRequest) -> dict[str, bool]:
    """Whether pages register the service worker (off: the kill switch)."""
    return {"service_worker_enabled": settings.SERVICE_WORKER_ENABLED}
