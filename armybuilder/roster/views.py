"""Roster and export pages of a list, reachable by id (when the user may read the list) or
through its share link: the print page, its PDF, the forum text and the JSON file."""

from __future__ import annotations

import json
from collections.abc import Mapping
from urllib.parse import urlencode

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET

from armybuilder import offline
from armybuilder.lists import selectors
from armybuilder.lists.interchange import army_list_to_dict
from armybuilder.lists.share_card import share_card_png
from armybuilder.lists.share_links import site_root
from armybuilder.models import ArmyList
from armybuilder.roster import pdf_jobs
from armybuilder.roster.cards import build_roster
from armybuilder.roster.pdf import collector_paused
from armybuilder.roster.text import TEXT_STYLES, army_list_text

#: Paper sizes the roster offers, by the `paper` query parameter: the CSS `@page` size.
PAPER_SIZES = {"a4": "A4", "letter": "letter"}
PAPER_LABELS = {"a4": "A4", "letter": gettext_lazy("Letter")}


def readable_list(request: HttpRequest, list_id: int | None, token: str | None) -> ArmyList:
    """The list by share token or by id (if the user may read it); 404 otherwise."""
    if token is not None:
        army_list = selectors.army_list_by_share_token(token=token)
    else:
        army_list = selectors.army_list_get_for_user(user=request.user, list_id=list_id or 0)
    if army_list is None:
        raise Http404
    return army_list


def own_list(request: HttpRequest, army_list: ArmyList, token: str | None) -> bool:
    """Whether the reader opened their own list by id (kept for reading offline, `armybuilder.offline`)."""
    return token is None and request.user.is_authenticated and army_list.owner_id == request.user.pk


def _filename(army_list: ArmyList, extension: str) -> str:
    return f"{slugify(army_list.name) or 'army-list'}.{extension}"


#: Print options of the roster (query parameters), each with its choices; the first is the default.
#: Two columns and the rules printed once at the end fit an 11-unit OPR list on two A4 pages.
PRINT_OPTIONS = {
    "columns": {"2": gettext_lazy("Two columns"), "1": gettext_lazy("One column")},
    "rules": {"reference": gettext_lazy("With the rules reference"),
              "none": gettext_lazy("Without rule texts")},
    "layout": {"cards": gettext_lazy("Unit cards"), "table": gettext_lazy("One table")},
    "glossary": {"none": gettext_lazy("Without a glossary page"),
                 "page": gettext_lazy("With a glossary page")},
}


def print_options(query: Mapping[str, str]) -> dict[str, str]:
    """The roster's print options from the query string; an unknown value falls back to the default."""
    return {
        name: value if (value := str(query.get(name, ""))) in choices else next(iter(choices))
        for name, choices in PRINT_OPTIONS.items()
    }


def _roster_html(request: HttpRequest, army_list: ArmyList, *, token: str | None, for_pdf: bool) -> str:
    units = selectors.army_list_units(army_list=army_list)
    paper = request.GET.get("paper", "a4").lower()
    paper = paper if paper in PAPER_SIZES else "a4"
    options = print_options(request.GET)
    context = {
        "roster": build_roster(army_list=army_list, units=units),
        "army_list": army_list,
        "paper": paper,
        "paper_size": PAPER_SIZES[paper],
        "paper_sizes": PAPER_LABELS,
        "print": options,
        "print_choices": [(name, PRINT_OPTIONS[name]) for name in PRINT_OPTIONS],
        "print_query": urlencode({"paper": paper, **options}),
        "via_token": token,
        "for_pdf": for_pdf,
        "site_url": site_root(request),
    }
    return render_to_string("armybuilder/roster/roster.html", context, request)


@require_GET
def roster_page(request: HttpRequest, list_id: int | None = None, token: str | None = None) -> HttpResponse:
    """The printable roster (`?paper=a4` or `letter` sets the printed page size)."""
    army_list = readable_list(request, list_id, token)
    response = HttpResponse(_roster_html(request, army_list, token=token, for_pdf=False))
    return offline.mark_offline_copy(response) if own_list(request, army_list, token) else response


def pdf_state(request: HttpRequest, army_list: ArmyList) -> pdf_jobs.PdfState:
    """The roster PDF of the list as `?paper=` asks, from the cache or queued for the worker.

    Raises `PdfUnavailable`, `PdfThrottled`, or `Http404` for an unknown paper size.
    """
    paper = request.GET.get("paper", "a4")
    if paper not in PAPER_SIZES:
        raise Http404
    # The origin travels with the job (and into its cache key): the sheet's QR code links back here.
    options = {**print_options(request.GET), "site": site_root(request)}
    return pdf_jobs.pdf_request(army_list=army_list, paper=paper, language=translation.get_language() or "en",
                                requester=pdf_jobs.requester_of(request), options=options)


def pdf_response(army_list: ArmyList, pdf: bytes) -> HttpResponse:
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{_filename(army_list, "pdf")}"'
    return response


@require_GET
def roster_pdf(request: HttpRequest, list_id: int | None = None, token: str | None = None) -> HttpResponse:
    """The PDF when rendered; otherwise a page that shows the render's progress and polls
    (htmx; without script, it reloads) until the PDF is there.

    The render runs on the worker (`pdf_jobs`): this view never waits for it.
    """
    army_list = readable_list(request, list_id, token)
    status, retry_after, message = 202, 2, ""
    try:
        state = pdf_state(request, army_list)
    except pdf_jobs.PdfUnavailable:
        status, retry_after = 503, 30
        message = _("PDFs cannot be made right now (the job queue is unreachable). Try again in a minute.")
    except pdf_jobs.PdfThrottled as exc:
        status, retry_after = 429, int(exc.wait)
        message = _("Too many PDFs were asked for from here; try again in %(seconds)d seconds.") % {
            "seconds": retry_after}
    else:
        if state.state == "ready" and state.pdf is not None:
            if request.htmx:  # the waiting page's poll: send the browser to the PDF itself
                response = HttpResponse(status=200)
                response["HX-Redirect"] = request.get_full_path()
                return response
            response = pdf_response(army_list, state.pdf)
            return offline.mark_offline_copy(response) if own_list(request, army_list, token) else response
        if state.state == "failed":
            status, retry_after, message = 503, pdf_jobs.FAILURE_TTL, _(state.error)
    context = {"army_list": army_list, "retry_after": retry_after, "message": message, "status": status,
               "via_token": token, "job": state if status == 202 else None,
               "poll_url": request.get_full_path()}
    if request.htmx:
        # The fragment the waiting page polls; answered 200 so htmx swaps it in, even when it
        # says the render failed (then it stops polling).
        response = render(request, "armybuilder/roster/_pdf_progress.html", context)
    else:
        response = render(request, "armybuilder/roster/pdf_pending.html", context, status=status)
    response["Retry-After"] = str(retry_after)
    response["Cache-Control"] = "no-store"
    return response


@require_GET
def roster_text(request: HttpRequest, list_id: int | None = None, token: str | None = None) -> HttpResponse:
    """The list as text; `?format=` plain (default), compact, markdown or secret (spoilers)."""
    army_list = readable_list(request, list_id, token)
    style = request.GET.get("format", "plain")
    if style in ("txt", "json", "pdf", "png"):  # the API's own `?format=` (a media type), not a style
        style = "plain"
    if style not in TEXT_STYLES:
        message = _("format: say one of %(styles)s.") % {"styles": ", ".join(TEXT_STYLES)}
        return HttpResponse(message + "\n", status=400, content_type="text/plain; charset=utf-8")
    # A long list's JSON makes many objects that live until the text is written: the cyclic
    # collector's passes meanwhile find nothing and grow with the list (the export was
    # super-linear in units when cold); `collector_paused` runs one young pass after.
    with collector_paused():
        units = selectors.army_list_units(army_list=army_list, unread=selectors.ROSTER_UNREAD)
        text = army_list_text(army_list=army_list, units=units, style=style)
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    if request.GET.get("download"):
        response["Content-Disposition"] = f'attachment; filename="{_filename(army_list, "txt")}"'
    return response


@require_GET
def list_json(request: HttpRequest, list_id: int | None = None, token: str | None = None) -> HttpResponse:
    """The list in the interchange format, every unit written out in full."""
    army_list = readable_list(request, list_id, token)
    data = army_list_to_dict(army_list=army_list, units=selectors.army_list_units(army_list=army_list))
    response = HttpResponse(
        json.dumps(data, indent=2, ensure_ascii=False) + "\n", content_type="application/json; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{_filename(army_list, "json")}"'
    return response


@require_GET
def share_card(request: HttpRequest, list_id: int | None = None, token: str | None = None) -> HttpResponse:
    """The list's share card (PNG, `armybuilder.lists.share_card`): the picture of a link
    preview, and the editor's "Download image" (`?download=1`)."""
    army_list = readable_list(request, list_id, token)
    png = share_card_png(army_list, selectors.army_list_units(army_list=army_list))
    response = HttpResponse(png, content_type="image/png")
    if request.GET.get("download"):
        response["Content-Disposition"] = f'attachment; filename="{_filename(army_list, "png")}"'
    # Private to the reader unless the list is readable by anyone with the link.
    readable_by_anyone = bool(token) or army_list.is_public
    response["Cache-Control"] = "public, max-age=300" if readable_by_anyone else "private, max-age=300"
    return response
