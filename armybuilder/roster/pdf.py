"""The roster as a PDF: the print page's HTML, rendered by WeasyPrint.

WeasyPrint fetches the page's stylesheets through `StaticFilesFetcher`, which reads them
from the static files on disk: no request goes back to this server (a single-threaded
development server would wait for itself) and no other URL is fetched at all, so a list
cannot make the server load arbitrary addresses.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from django.conf import settings
from django.contrib.staticfiles import finders


def static_file_for(url: str) -> Path | None:
    """The file on disk behind one of our static URLs, or None for any other URL."""
    path = unquote(urlsplit(url).path)
    prefix = "/" + settings.STATIC_URL.lstrip("/")
    if not path.startswith(prefix):
        return None
    name = path[len(prefix) :]
    if not name or ".." in Path(name).parts:
        return None
    found = finders.find(name)
    if found:
        return Path(found)
    collected = Path(settings.STATIC_ROOT) / name
    return collected if collected.is_file() else None


def html_to_pdf(*, html: str, base_url: str, on_stage: Callable[[str], None] | None = None) -> bytes:
    """PDF bytes of `html`, its relative URLs resolved against `base_url`.

    `on_stage("laying_out")` is called before the pages are laid out and
    `on_stage("writing")` before they are written out (the PDF job's progress).
    """
    # Imported here: loading Pango takes a moment and only PDF requests need it.
    from weasyprint import HTML
    from weasyprint.urls import URLFetcher, URLFetcherResponse

    class StaticFilesFetcher(URLFetcher):
        """Serves our static files to WeasyPrint and refuses every other URL."""

        def fetch(self, url: str, headers: Any = None) -> URLFetcherResponse:
            path = static_file_for(url)
            if path is None:
                raise ValueError(f"refused to fetch {url}")
            content_type = "text/css; charset=utf-8" if path.suffix == ".css" else "application/octet-stream"
            return URLFetcherResponse(url, body=path.read_bytes(), headers={"Content-Type": content_type})

    document = HTML(string=html, base_url=base_url, url_fetcher=StaticFilesFetcher())
    if on_stage:
        on_stage("laying_out")
    rendered = document.render()
    if on_stage:
        on_stage("writing")
    return rendered.write_pdf()
