"""Roster and export pages of a list, reachable by id (when the user may read the list) or
through its share link: the print page, its PDF, the forum text and the JSON file."""

from __future__ import annotations

import json

from django.http import Http404, HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET

from armybuilder import selectors
from armybuilder.interchange import army_list_to_dict
from armybuilder.models import ArmyList
from armybuilder.roster.cards import build_roster
from armybuilder.roster.pdf import html_to_pdf
from armybuilder.roster.text import army_list_text

#: Paper sizes the roster offers, by the `paper` query parameter: the CSS `@page` size.
PAPER_SIZES = {"a4": "A4", "letter": "letter"}
PAPER_LABELS = {"a4": "A4", "letter": _("Letter")}


def readable_list(request: HttpRequest, list_id: int | None, token: str | None) -> ArmyList:
    """The list by share token or by id (if the user may read it); 404 otherwise."""
    if token is not None:
        army_list = selectors.army_list_by_share_token(token=token)
    else:
        army_list = selectors.army_list_get_for_user(user=request.user, list_id=list_id or 0)
    if army_list is None:
        raise Http404
    return army_list


def _filename(army_list: ArmyList, extension: str) -> str:
    return f"{slugify(army_list.name) or 'army-list'}.{extension}"


def _roster_html(request: HttpRequest, army_list: ArmyList, *, token: str | None, for_pdf: bool) -> str:
    units = selectors.army_list_units(army_list=army_list)
    paper = request.GET.get("paper", "a4").lower()
    context = {
        "roster": build_roster(army_list=army_list, units=units),
        "army_list": army_list,
        "paper": paper if paper in PAPER_SIZES else "a4",
        "paper_size": PAPER_SIZES.get(paper, "A4"),
        "paper_sizes": PAPER_LABELS,
        "via_token": token,
        "for_pdf": for_pdf,
    }
    return render_to_string("armybuilder/roster/roster.html", context, request)


@require_GET
def roster_page(request: HttpRequest, list_id: int | None = None, token: str | None = None) -> HttpResponse:
    """The printable roster (`?paper=a4` or `letter` sets the printed page size)."""
    army_list = readable_list(request, list_id, token)
    return HttpResponse(_roster_html(request, army_list, token=token, for_pdf=False))


@require_GET
def roster_pdf(request: HttpRequest, list_id: int | None = None, token: str | None = None) -> HttpResponse:
    army_list = readable_list(request, list_id, token)
    html = _roster_html(request, army_list, token=token, for_pdf=True)
    pdf = html_to_pdf(html=html, base_url=request.build_absolute_uri("/"))
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{_filename(army_list, "pdf")}"'
    return response


@require_GET
def roster_text(request: HttpRequest, list_id: int | None = None, token: str | None = None) -> HttpResponse:
    army_list = readable_list(request, list_id, token)
    text = army_list_text(army_list=army_list, units=selectors.army_list_units(army_list=army_list))
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
