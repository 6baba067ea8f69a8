"""Roster PDFs rendered by a Celery worker as durable jobs (`armybuilder.jobs`), found by the
list's version.

Rendering a long roster takes seconds of CPU; done in the web process it let three
anonymous requests through a share link block every gunicorn worker.
Now a page never waits on a PDF:

- `pdf_request` answers at once: the bytes when this version of the list is already
  rendered (in that paper size and language), otherwise it queues one render and says
  "pending" (the page polls, the API answers 202 with `Retry-After`);
- a render is a job row (kind `roster_pdf`, `key`: list, version, paper, language and print
  options) and its PDF a `JobOutput` row in Postgres, kept `PDF_CACHE_SECONDS`; the broker's
  message holds only the job's id. So a Redis restart loses no PDF and no queued render (the
  reconciliation sends a lost message again), and a worker killed mid-render has its job sent
  again within a minute;
- only one render per list is in flight at a time, whatever its version, paper, language or
  print options (the job's `lock`, a Postgres constraint); a request for another variant
  meanwhile is told "pending" and queues when it polls after the render ended. The render
  takes the list as it is when it runs, so a list edited while its PDF is asked for costs one
  render at a time, not one per edit;
- a version of a list is rendered in at most `PDF_RENDERS_PER_VERSION` variants (its job rows
  counted): past that a request is refused like a rate (`PdfThrottled`) until the list changes;
- starting a render counts against the `pdf` rate, per account or per client address
  (share links are anonymous), in the same shared counters as the API's throttles;
- the worker renders under a CPU-time limit (`PDF_CPU_SECONDS`, the estimates' `cpu_limit`: a loaded server
  slows a render without killing it), a wall-clock backstop, and refuses PDFs larger than
  `PDF_MAX_BYTES`; renders run on their own queue (`pdf`) so they never delay estimates; a
  failure is the job's `reason`, shown for `FAILURE_TTL` seconds (then asking again renders again);
- the render's progress is written to the job cache (Redis: progress only, never the state):
  its stage (`STAGES`: queued, building the roster's HTML, laying out pages, writing the PDF)
  and the pages laid out so far (counted from WeasyPrint's own per-page announcements). The
  waiting page and the API's 202 show it with the seconds since the job was queued; nothing is
  estimated, since a render's length is not known ahead.

When the database or the broker is down the caller gets `PdfUnavailable` (a 503), never a
hung request.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.core.cache import BaseCache, caches
from django.db import DatabaseError, InterfaceError, OperationalError
from django.utils import timezone, translation
from django.utils.translation import gettext_noop

from armybuilder import jobs
from armybuilder.estimates.cpu_limit import CpuTimeExceeded, cpu_time_limit
from armybuilder.models import ArmyList, BackgroundJob

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


#: The kind of durable job (`armybuilder.jobs`) a render is, and the name of its PDF (`JobOutput`).
KIND = "roster_pdf"
PDF_NAME = "roster.pdf"
_UNFINISHED = (BackgroundJob.State.QUEUED, BackgroundJob.State.RUNNING)


def _pending_state(job: BackgroundJob) -> PdfState:
    """The state a request reports of an unfinished render: queued, or the stage and pages its
    worker wrote to the job cache (`RenderProgress`), with the seconds since it was queued."""
    elapsed = max(0.0, (timezone.now() - job.created).total_seconds())
    stage, pages = "queued", 0
    if job.state == BackgroundJob.State.RUNNING:
        try:
            marker = cache().get(progress_key(job.pk))
        except Exception:  # the cache is down: the progress is lost, not the render
            marker = None
        if isinstance(marker, dict):
            stage = marker.get("stage") if marker.get("stage") in STAGES else "queued"
            pages = marker.get("pages") if isinstance(marker.get("pages"), int) else 0
    return PdfState("pending", stage=stage, pages=pages, elapsed=round(elapsed, 1))


def cache() -> BaseCache:
    """The job cache the render's progress is written to."""
    return caches[settings.PDF_CACHE]


def progress_key(job_id: str) -> str:
    """The job cache's entry of a render's progress (stage, pages)."""
    return f"pdf-progress:{job_id}"


def _printed(options: Mapping[str, str] | None) -> str:
    return ",".join(f"{name}={value}" for name, value in sorted((options or {}).items()))


def version_prefix(*, army_list: ArmyList) -> str:
    """What the keys of every rendering of this version of the list start with, in this
    release (`offline.release_id`): a PDF rendered before a deploy changed the printed roster
    was served for a day (`PDF_CACHE_SECONDS`) to a list not edited since."""
    from armybuilder.offline import release_id

    return f"pdf:{release_id()}:{army_list.pk}:{army_list.version}:{army_list.created.timestamp():.6f}:"


def pdf_key(*, army_list: ArmyList, paper: str, language: str,
            options: Mapping[str, str] | None = None) -> str:
    """The key of one rendering (its job's `key`): list, version (and creation time, so that a
    reused id can never serve another list's PDF), paper size, language and print options."""
    return f"{version_prefix(army_list=army_list)}{paper}:{language}:{_printed(options)}"


def list_lock_key(*, army_list: ArmyList) -> str:
    """The lock the render of this list holds (one at a time per list: the job's `lock`)."""
    return f"pdf-list:{army_list.pk}:{army_list.created.timestamp():.6f}"


def _allow_render(ident: str) -> float | None:
    """None when this caller may start a render now, else the seconds to wait (`pdf` rate)."""
    from armybuilder.api.throttling import PdfRenderThrottle

    throttle = PdfRenderThrottle()
    return None if throttle.allow_ident(ident) else throttle.wait()


def _latest(key: str) -> BackgroundJob | None:
    return BackgroundJob.objects.filter(kind=KIND, key=key).order_by("-created").first()


def _finished_state(job: BackgroundJob) -> PdfState | None:
    """A finished render's state: ready (its PDF read from its row), or failed while the failure
    is recent (`FAILURE_TTL`); None when it is to be rendered again."""
    if job.state == BackgroundJob.State.DONE:
        pdf = jobs.job_output(job.pk, PDF_NAME)
        return PdfState("ready", pdf=pdf) if pdf is not None else None
    if job.finished is not None and job.finished > timezone.now() - timedelta(seconds=FAILURE_TTL):
        return PdfState("failed", error=job.reason or RENDER_FAILED)
    return None


def pdf_request(*, army_list: ArmyList, paper: str, language: str, requester: str,
                options: Mapping[str, str] | None = None) -> PdfState:
    """The PDF of this version of the list, or the state of its render (queued if needed).

    `requester` identifies the caller for the rate limit (`user:7` or `ip:1.2.3.4`).
    Raises `PdfUnavailable` (database or queue down) or `PdfThrottled`.
    """
    options = dict(options or {})
    key = pdf_key(army_list=army_list, paper=paper, language=language, options=options)
    lock = list_lock_key(army_list=army_list)
    try:
        job = _latest(key)
        if job is not None:
            if job.state in _UNFINISHED:
                return _pending_state(job)
            finished = _finished_state(job)
            if finished is not None:
                return finished
        if BackgroundJob.objects.filter(lock=lock, state__in=_UNFINISHED).exists():
            return PdfState("pending")  # another render of this list runs: this one waits its turn
        this_version = version_prefix(army_list=army_list)
        renders = BackgroundJob.objects.filter(kind=KIND, key__startswith=this_version).count()
        if renders >= settings.PDF_RENDERS_PER_VERSION:
            raise PdfThrottled(float(settings.PDF_CACHE_SECONDS))
    except DatabaseError as exc:
        raise PdfUnavailable(str(exc)) from exc
    try:
        wait = _allow_render(requester)
    except Exception as exc:  # the counter store is down: no render is queued uncounted
        raise PdfUnavailable(str(exc)) from exc
    if wait is not None:
        raise PdfThrottled(wait)
    try:
        job = jobs.job_create(
            kind=KIND, owner_id=army_list.owner_id, language=language, key=key, lock=lock,
            request={"list": army_list.pk, "version": army_list.version, "paper": paper,
                     "options": options, "requester": requester})
    except jobs.JobBusy:
        return PdfState("pending")  # another request queued a render of this list meanwhile
    except jobs.JobsUnavailable as exc:
        raise PdfUnavailable(str(exc)) from exc
    if job.finished_state:  # rendered inline (tests, or a deployment without a worker)
        return _finished_state(job) or PdfState("failed", error=job.reason or RENDER_FAILED)
    return _pending_state(job)


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


def run_render(job: BackgroundJob, inputs: list[Any]) -> jobs.Made:
    """The worker's part of a render job: the list as it is now, rendered in the job's paper,
    language and print options; the PDF as the job's output. Raises `JobRefused` with the
    reason (too long, too large, the render failed, the list is gone)."""
    asked = job.request
    army_list = (ArmyList.objects.select_related("system", "faction", "owner")
                 .filter(pk=asked.get("list")).first())
    if army_list is None:
        raise jobs.JobRefused(RENDER_FAILED)
    paper, language, options = asked.get("paper", "a4"), job.language or "en", asked.get("options") or {}
    started = time.perf_counter()
    progress = RenderProgress(progress_key(job.pk), since=time.time(), bound=settings.PDF_TIME_LIMIT + 5)
    try:
        with translation.override(language), cpu_time_limit(settings.PDF_CPU_SECONDS):
            pdf = roster_pdf_bytes(army_list=army_list, paper=paper, options=options, progress=progress)
    except (SoftTimeLimitExceeded, CpuTimeExceeded):
        raise jobs.JobRefused(TOO_LONG) from None
    except (OperationalError, InterfaceError):
        raise  # the database went away: retried by the job task, not called a failed render
    except Exception:
        logger.exception("PDF of list %s failed", army_list.pk)
        raise jobs.JobRefused(RENDER_FAILED) from None
    # The progress is left to expire (`RenderProgress`'s bound): cleared before the job's row
    # is finished, a poll in between would see the render go back to "queued".
    if len(pdf) > settings.PDF_MAX_BYTES:
        raise jobs.JobRefused(TOO_LARGE)
    logger.info("PDF of list %s v%s (%s units) in %.2f s", army_list.pk, army_list.version,
                army_list.units.count(), time.perf_counter() - started)
    return jobs.Made(result={"bytes": len(pdf), "version": army_list.version},
                     outputs=[jobs.Upload(name=PDF_NAME, data=pdf)])


jobs.register(KIND, run_render, soft_time_limit=settings.PDF_TIME_LIMIT,
              keep_seconds=settings.PDF_CACHE_SECONDS)


def requester_of(request: Any) -> str:
    """`user:<id>` for a signed-in caller, else `ip:<address>` (as the API throttles count)."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return f"user:{user.pk}"
    from armybuilder.api.throttling import client_address

    return f"ip:{client_address(request)}"
