"""Roster PDFs rendered by a Celery worker into a cache keyed by the list's version.

Rendering a long roster takes seconds of CPU; done in the web process it let three
anonymous requests through a share link block every gunicorn worker.
Now a page never waits on a PDF:

- `pdf_request` answers at once: the bytes when this version of the list is already
  rendered (in that paper size and language), otherwise it queues one render and says
  "pending" (the page polls, the API answers 202 with `Retry-After`);
- only one render per list is in flight at a time, whatever its version, paper, language or
  print options (a lock per list, with a time bound, `PDF_TIME_LIMIT`; a worker
  lost mid-render lets it expire and the next request queues again: nothing strands); a
  request for another variant meanwhile is told "pending" and queues when it polls after
  the lock is free. The render takes the list as it is when it runs, so a list edited while
  its PDF is asked for costs one render at a time, not one per edit;
- a version of a list is rendered in at most `PDF_RENDERS_PER_VERSION` variants: past that a
  request is refused like a rate (`PdfThrottled`) until the list changes;
- starting a render counts against the `pdf` rate, per account or per client address
  (share links are anonymous), in the same shared counters as the API's throttles;
- the worker renders under a CPU-time limit (`PDF_CPU_SECONDS`, the estimates' `cpu_limit`: a loaded server
  slows a render without killing it), a wall-clock backstop, and refuses PDFs larger than
  `PDF_MAX_BYTES`; renders run on their own queue (`pdf`) so they never delay estimates;
- the in-flight marker carries the render's progress: its stage (`STAGES`: queued, building
  the roster's HTML, laying out pages, writing the PDF), the pages laid out so far (counted
  from WeasyPrint's own per-page announcements) and when it was queued. The waiting page and
  the API's 202 show it; nothing is estimated, since a render's length is not known ahead.

The cache is Redis (`PDF_CACHE`); when it or the broker is down the caller gets
`QueueUnavailable` (a 503), never a hung request.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.core.cache import BaseCache, caches
from django.utils import translation
from django.utils.translation import gettext_noop

from armybuilder.estimates.cpu_limit import CpuTimeExceeded, cpu_time_limit
from armybuilder.models import ArmyList

logger = logging.getLogger(__name__)

#: Stored in English, translated when shown.
TOO_LONG = gettext_noop("The PDF took too long to render.")
TOO_LARGE = gettext_noop("The PDF is too large.")
RENDER_FAILED = gettext_noop("The PDF could not be rendered.")
#: How long a failure is remembered (then asking again queues a new render).
FAILURE_TTL = 60
#: The stages of a render, in order, with what the waiting page says (translated when shown).
STAGES = {
    "queued": gettext_noop("Waiting for a worker"),
    "building": gettext_noop("Building the roster"),
    "laying_out": gettext_noop("Laying out the pages"),
    "writing": gettext_noop("Writing the PDF"),
}


class PdfUnavailable(Exception):
    """The job queue or its cache is down; nothing was queued."""


class PdfThrottled(Exception):
    """Too many renders started by this account or address; `wait` seconds until the next."""

    def __init__(self, wait: float) -> None:
        super().__init__(wait)
        self.wait = wait


@dataclass(frozen=True)
class PdfState:
    """`ready` (with `pdf`), `pending` (poll again after `retry_after` s) or `failed` (`error`).

    A pending render has its `stage` (a key of `STAGES`), the `pages` laid out so far and the
    seconds `elapsed` since it was queued.
    """

    state: str
    pdf: bytes | None = None
    retry_after: int = 2
    error: str = ""
    stage: str = "queued"
    pages: int = 0
    elapsed: float = 0.0

    @property
    def stage_number(self) -> int:
        """The stage's place, from 1 (queued) to `stage_count` (writing)."""
        return list(STAGES).index(self.stage) + 1 if self.stage in STAGES else 1

    @property
    def stage_count(self) -> int:
        return len(STAGES)

    @property
    def stage_label(self) -> str:
        """What the stage is, in English (`gettext` it to show it)."""
        return STAGES.get(self.stage, STAGES["queued"])


def _pending_state(marker: Any) -> PdfState:
    """The state a request reports from a render's in-flight marker."""
    if not isinstance(marker, dict):
        return PdfState("pending")
    stage = marker.get("stage") if marker.get("stage") in STAGES else "queued"
    since = marker.get("since")
    elapsed = max(0.0, time.time() - since) if isinstance(since, int | float) else 0.0
    pages = marker.get("pages") if isinstance(marker.get("pages"), int) else 0
    return PdfState("pending", stage=stage, pages=pages, elapsed=round(elapsed, 1))


def cache() -> BaseCache:
    return caches[settings.PDF_CACHE]


def _printed(options: Mapping[str, str] | None) -> str:
    return ",".join(f"{name}={value}" for name, value in sorted((options or {}).items()))


def pdf_key(*, army_list: ArmyList, paper: str, language: str,
            options: Mapping[str, str] | None = None) -> str:
    """The cache key of one rendering: list, version (and creation time, so that a reused
    id can never serve another list's PDF), paper size, language and print options."""
    return (f"pdf:{army_list.pk}:{army_list.version}:{army_list.created.timestamp():.6f}:{paper}:{language}"
            f":{_printed(options)}")


def pending_key(*, army_list: ArmyList, paper: str, language: str,
                options: Mapping[str, str] | None = None) -> str:
    """The in-flight marker of a list's render: one per list, paper, language and print
    options (at most 8 of those), whatever its version."""
    return (f"pdf-pending:{army_list.pk}:{army_list.created.timestamp():.6f}:{paper}:{language}"
            f":{_printed(options)}")


def list_lock_key(*, army_list: ArmyList) -> str:
    """The lock held while any render of this list runs (one at a time per list)."""
    return f"pdf-list:{army_list.pk}:{army_list.created.timestamp():.6f}"


def version_count_key(*, army_list: ArmyList) -> str:
    """The count of renders queued for this version of the list."""
    return f"pdf-version-renders:{army_list.pk}:{army_list.version}:{army_list.created.timestamp():.6f}"


def _allow_render(ident: str) -> float | None:
    """None when this caller may start a render now, else the seconds to wait (`pdf` rate)."""
    from armybuilder.api.throttling import PdfRenderThrottle

    throttle = PdfRenderThrottle()
    return None if throttle.allow_ident(ident) else throttle.wait()


def pdf_request(*, army_list: ArmyList, paper: str, language: str, requester: str,
                options: Mapping[str, str] | None = None) -> PdfState:
    """The PDF of this version of the list, or the state of its render (queued if needed).

    `requester` identifies the caller for the rate limit (`user:7` or `ip:1.2.3.4`).
    Raises `PdfUnavailable` (queue/cache down) or `PdfThrottled`.
    """
    options = dict(options or {})
    key = pdf_key(army_list=army_list, paper=paper, language=language, options=options)
    pending = pending_key(army_list=army_list, paper=paper, language=language, options=options)
    store = cache()
    try:
        found = store.get_many([key, key + ":state", pending])
    except Exception as exc:
        raise PdfUnavailable(str(exc)) from exc
    if found.get(key) is not None:
        return PdfState("ready", pdf=found[key])
    state = found.get(key + ":state")
    if isinstance(state, dict) and state.get("state") == "failed":
        return PdfState("failed", error=state.get("error", RENDER_FAILED))
    if found.get(pending) is not None:
        return _pending_state(found[pending])
    bound = settings.PDF_TIME_LIMIT + 5
    lock = list_lock_key(army_list=army_list)
    try:
        if not store.add(lock, pending, timeout=bound):
            return PdfState("pending")  # another render of this list runs: this one waits its turn
    except Exception as exc:
        raise PdfUnavailable(str(exc)) from exc
    try:
        refusal = _refuse_render(store, army_list=army_list, requester=requester)
    except Exception as exc:  # the counter store is down: no render is queued uncounted
        _release(store, lock, pending)
        raise PdfUnavailable(str(exc)) from exc
    if refusal is not None:
        _release(store, lock, pending)
        raise PdfThrottled(refusal)
    try:
        if not store.add(pending, {"state": "pending", "stage": "queued", "since": time.time(), "pages": 0},
                         timeout=bound):
            return _pending_state(store.get(pending))  # another request queued it meanwhile
        render_pdf.apply_async((army_list.pk, army_list.version, paper, language, options), retry=False,
                               expires=bound)
    except Exception as exc:
        try:
            store.delete_many([pending, lock])
        except Exception:  # the cache is down too; the marker expires on its own
            logger.warning("could not clear the PDF marker %s", key)
        raise PdfUnavailable(str(exc)) from exc
    if render_pdf.app.conf.task_always_eager:  # rendered inline (tests, or a deployment without a worker)
        rendered = store.get(key)
        if rendered is not None:
            return PdfState("ready", pdf=rendered)
    return PdfState("pending")


def _refuse_render(store: BaseCache, *, army_list: ArmyList, requester: str) -> float | None:
    """None when a render may be queued now (counting it), else the seconds to wait: past the
    renders this version may have (`PDF_RENDERS_PER_VERSION`), or the caller's `pdf` rate."""
    counter = version_count_key(army_list=army_list)
    store.add(counter, 0, timeout=settings.PDF_CACHE_SECONDS)
    if store.get(counter, 0) >= settings.PDF_RENDERS_PER_VERSION:
        return float(settings.PDF_CACHE_SECONDS)
    wait = _allow_render(requester)
    if wait is None:
        store.incr(counter)
    return wait


def _release(store: BaseCache, lock: str, pending: str) -> None:
    """Free the list's render lock if this render (its marker key) holds it."""
    try:
        if store.get(lock) == pending:
            store.delete(lock)
    except Exception:  # the cache is down; the lock expires on its own
        logger.warning("could not free the PDF lock %s", lock)


class RenderProgress(logging.Handler):
    """The progress of one render, written into its in-flight marker.

    Stages are set by the render as it goes; while WeasyPrint lays out, its progress logger
    announces each page ("Step 5 - Creating layout - Page 7"), which this handler counts
    (only from the thread it was made on: another render in the process is not this one).
    Writes are at most every `interval` seconds, and never extend the marker past the
    render's time bound. A cache that fails here costs the progress, not the render.
    """

    def __init__(self, key: str, *, since: float, bound: float, interval: float = 0.25) -> None:
        super().__init__(level=logging.INFO)
        self.key, self.since, self.deadline, self.interval = key, since, since + bound, interval
        self.stage, self.pages, self.written = "queued", 0, 0.0
        self.thread = threading.get_ident()

    def set_stage(self, stage: str) -> None:
        self.stage = stage
        self.write(force=True)

    def emit(self, record: logging.LogRecord) -> None:
        if record.thread != self.thread or not str(record.msg).startswith("Step 5 - Creating layout - Page"):
            return
        if record.args and isinstance(record.args, tuple) and isinstance(record.args[0], int):
            self.pages = record.args[0]
            self.write()

    def write(self, *, force: bool = False) -> None:
        now = time.time()
        if not force and now - self.written < self.interval:
            return
        remaining = int(self.deadline - now)
        if remaining < 1:
            return
        self.written = now
        try:
            cache().set(self.key, {"state": "pending", "stage": self.stage, "since": self.since,
                                   "pages": self.pages}, timeout=remaining)
        except Exception:
            logger.warning("could not write the progress of %s", self.key)


def roster_pdf_html(*, army_list: ArmyList, paper: str, options: Mapping[str, str] | None = None) -> str:
    """The HTML the PDF is rendered from, in the active language (`roster_pdf.html`: the print
    page's article with its print options, without the site's chrome, which needs no request)."""
    from django.template.loader import render_to_string

    from armybuilder.lists import selectors
    from armybuilder.roster.cards import build_roster
    from armybuilder.roster.print_options import PAPER_LABELS, PAPER_SIZES, print_options

    units = selectors.army_list_units(army_list=army_list)
    return render_to_string("armybuilder/roster/roster_pdf.html", {
        "roster": build_roster(army_list=army_list, units=units), "army_list": army_list,
        "paper": paper, "paper_size": PAPER_SIZES[paper], "paper_sizes": PAPER_LABELS,
        "print": print_options(options or {}), "for_pdf": True, "via_token": None,
        # The origin the request saw, for the sheet's QR code back to the list (`list_qr`).
        "site_url": (options or {}).get("site")})


def roster_pdf_bytes(*, army_list: ArmyList, paper: str, options: Mapping[str, str] | None = None,
                     progress: RenderProgress | None = None) -> bytes:
    """Render the roster to PDF, in the active language (`roster_pdf_html`). `progress`, when
    given, is told each stage and counts the pages laid out."""
    from armybuilder.roster.pdf import collector_paused, html_to_pdf

    if progress:
        progress.set_stage("building")
    # One pause of the garbage collector for the whole render: the roster and its HTML, like
    # WeasyPrint's boxes, live until it ends (`collector_paused`).
    with collector_paused():
        html = roster_pdf_html(army_list=army_list, paper=paper, options=options)
        if progress is None:
            return html_to_pdf(html=html, base_url="http://localhost/")
        announcer = logging.getLogger("weasyprint.progress")
        announcer.addHandler(progress)
        try:
            return html_to_pdf(html=html, base_url="http://localhost/", on_stage=progress.set_stage)
        finally:
            announcer.removeHandler(progress)


@shared_task(name="roster.render_pdf", acks_late=True, reject_on_worker_lost=True, ignore_result=True,
             time_limit=settings.PDF_TIME_LIMIT + 5, soft_time_limit=settings.PDF_TIME_LIMIT)
def render_pdf(list_id: int, version: int, paper: str, language: str,
               options: Mapping[str, str] | None = None) -> str:
    """Render the list as it is now into the cache (`version` is the one asked for, for the
    log); "done", "failed" or "skipped" (the list is gone)."""
    army_list = ArmyList.objects.select_related("system", "faction", "owner").filter(pk=list_id).first()
    if army_list is None:
        return "skipped"  # the in-flight marker expires on its own
    key = pdf_key(army_list=army_list, paper=paper, language=language, options=options)
    pending = pending_key(army_list=army_list, paper=paper, language=language, options=options)
    try:
        return _render_into(army_list, key, pending, paper, language, options)
    finally:
        cache().delete(pending)
        _release(cache(), list_lock_key(army_list=army_list), pending)


def _render_into(army_list: ArmyList, key: str, pending: str, paper: str, language: str,
                 options: Mapping[str, str] | None) -> str:
    list_id, version = army_list.pk, army_list.version
    started = time.perf_counter()
    try:
        marker = cache().get(pending)
    except Exception:
        marker = None
    since = marker.get("since") if isinstance(marker, dict) else None
    progress = RenderProgress(pending, since=since if isinstance(since, int | float) else time.time(),
                              bound=settings.PDF_TIME_LIMIT + 5)
    try:
        with translation.override(language), cpu_time_limit(settings.PDF_CPU_SECONDS):
            pdf = roster_pdf_bytes(army_list=army_list, paper=paper, options=options, progress=progress)
    except (SoftTimeLimitExceeded, CpuTimeExceeded):
        cache().set(key + ":state", {"state": "failed", "error": TOO_LONG}, timeout=FAILURE_TTL)
        return "failed"
    except Exception:
        logger.exception("PDF of list %s failed", list_id)
        cache().set(key + ":state", {"state": "failed", "error": RENDER_FAILED}, timeout=FAILURE_TTL)
        return "failed"
    if len(pdf) > settings.PDF_MAX_BYTES:
        cache().set(key + ":state", {"state": "failed", "error": TOO_LARGE}, timeout=FAILURE_TTL)
        return "failed"
    cache().set(key, pdf, timeout=settings.PDF_CACHE_SECONDS)
    logger.info("PDF of list %s v%s (%s units) in %.2f s", list_id, version, army_list.units.count(),
                time.perf_counter() - started)
    return "done"


def requester_of(request: Any) -> str:
    """`user:<id>` for a signed-in caller, else `ip:<address>` (as the API throttles count)."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return f"user:{user.pk}"
    from armybuilder.api.throttling import client_address

    return f"ip:{client_address(request)}"
