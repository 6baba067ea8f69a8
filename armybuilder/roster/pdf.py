"""The roster as a PDF: the print page's HTML, rendered by WeasyPrint.

WeasyPrint fetches the page's stylesheets through `StaticFilesFetcher`, which reads them
from the static files on disk: no request goes back to this server (a single-threaded
development server would wait for itself) and no other URL is fetched at all, so a list
cannot make the server load arbitrary addresses.

Two things keep a long roster's render within 5 s (a 200-unit list, 30 pages: `bench/bench_pdf.py`):

- WeasyPrint's user-agent stylesheet styles six pseudo-elements of *every* element
  (`::marker`, `::footnote-call`, `::note-call`...), which multiplies the computed styles by
  seven; the PDF's user-agent sheet is WeasyPrint's own with those rules narrowed to what a
  roster has (`li::marker`; it has no footnotes or notes): `roster_user_agent_css`.
- A render allocates millions of objects that live until it ends, and Python's cyclic
  collector scanned them again and again (over a third of the render); the PDF job pauses it
  for the whole render, roster and HTML included, and runs it once at the end
  (`collector_paused` around `pdf_jobs.roster_pdf_bytes`).
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
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


#: WeasyPrint's user-agent rules on a pseudo-element of every element, and what the roster
#: PDF keeps of each: markers of list items only, no footnote or note areas (never used).
UNIVERSAL_PSEUDO_RULES = {
    "::marker": "li::marker",
    "::footnote-call": None,
    "::footnote-marker": None,
    "::note-call": None,
    "::note-marker": None,
    "::note-callback": None,
}


@cache
def roster_user_agent_css() -> str:
    """WeasyPrint's user-agent stylesheet with its universal pseudo-element rules narrowed
    (`UNIVERSAL_PSEUDO_RULES`); every other rule is kept as it is."""
    import tinycss2
    from weasyprint.html import UA

    kept = []
    for rule in tinycss2.parse_stylesheet(UA, skip_comments=True, skip_whitespace=True):
        if rule.type == "qualified-rule":
            selector = tinycss2.serialize(rule.prelude).strip()
            if selector in UNIVERSAL_PSEUDO_RULES:
                narrowed = UNIVERSAL_PSEUDO_RULES[selector]
                if narrowed is None:
                    continue
                kept.append(f"{narrowed} {{{tinycss2.serialize(rule.content)}}}")
                continue
        kept.append(rule.serialize())
    return "\n".join(kept)


@cache
def _user_agent_stylesheet() -> Any:
    from weasyprint import CSS
    from weasyprint.css.counters import CounterStyle

    # Its @counter-style rules are WeasyPrint's own, already known to every document.
    return CSS(string=roster_user_agent_css(), counter_style=CounterStyle())


_collector_lock = threading.Lock()
_collector_pauses = 0
_collector_was_enabled = False


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off for the block, then one young collection.

    WeasyPrint's boxes, styles and layout objects all live until the render ends, so the
    collector's passes during a render find nothing to free and only grow with the
    document. Nested or concurrent blocks (threads) count: the collector resumes, and
    collects, when the last one ends, and only if it was on before the first.
    """
    global _collector_pauses, _collector_was_enabled
    with _collector_lock:
        if _collector_pauses == 0:
            _collector_was_enabled = gc.isenabled()
            gc.disable()
        _collector_pauses += 1
    try:
        yield
    finally:
        with _collector_lock:
            _collector_pauses -= 1
            resume = _collector_pauses == 0 and _collector_was_enabled
            if resume:
                gc.enable()
        if resume:
            # The young generation holds everything allocated during the pause: its cyclic
            # garbage goes now (as the collector's next pass would), not the whole heap.
            gc.collect(0)


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

    class RosterHTML(HTML):
        """A document styled by the roster's user-agent sheet (`roster_user_agent_css`)."""

        def _ua_stylesheets(self, forms: bool = False) -> list[Any]:
            return [_user_agent_stylesheet()]

    document = RosterHTML(string=html, base_url=base_url, url_fetcher=StaticFilesFetcher())
    if on_stage:
        on_stage("laying_out")
    rendered = document.render()
    if on_stage:
        on_stage("writing")
    return rendered.write_pdf()
