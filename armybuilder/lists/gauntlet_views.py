"""The gauntlet panel of the list editor (`armybuilder.estimates.gauntlet_live`): how each unit
and the whole list trade against the opponents the player picked, live while they build.

`GET` renders the panel (htmx fragment): the table when every matchup is cached, else the
progress of the job that computes the rest, polling until it is done. `POST` changes the
list's opponents. Owner only, like every editor view.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.cache import cache as fragments
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from armybuilder.estimates.gauntlet import content_digest
from armybuilder.estimates.gauntlet_live import (
    MAX_OPPONENT_LISTS,
    gauntlet_settings,
    job_cache,
    opponent_choices,
)
from armybuilder.estimates.gauntlet_panel import REPORT_SECONDS, GauntletState, gauntlet_state_landed
from armybuilder.estimates.gauntlet_text import figure_rows, shown_pairing
from armybuilder.estimates.sources import REFERENCE_SET_NAME
from armybuilder.fragment_cache import templates_digest
from armybuilder.lists import selectors
from armybuilder.models import ArmyList
from rules.systems.registry import GameSystem, get_system

#: Share links of locked versions accepted in the opponents form: their last path segment.
TOKEN_MAX = 64


def _token_of(link: str) -> str:
    """The share token of a pasted link (`…/lists/shared/<token>/`) or of a bare token."""
    parts = [part for part in link.strip().split("/") if part]
    return parts[-1][:TOKEN_MAX] if parts else ""


#: The delays of the panel's polls while it computes, in milliseconds: the n-th poll after an
#: edit waits `POLL_DELAYS_MS[n]` (the last one from then on). The edited unit's matchups take
#: about a second of one worker's CPU, split over the free worker processes, so the polls stay
#: within 250 ms of each other for the first 1.7 s (a result is seen at most that long after it
#: landed, where a fixed 1 s poll added up to a second to every wait, issue 42); a long
#: computation soon falls back to one request a second. A poll while computing reads the
#: units' measures and the edited unit's matchups only (`gauntlet_panel`, about 35 ms of CPU
#: for 20 units against three lists of 20). Each request while computing first waits on the
#: server for the worker's word that the missing matchups landed (`gauntlet_signal`, at most
#: `GAUNTLET_PANEL_WAIT_MS`), so the answer is current as soon as the results are; the polls
#: are what is left when a wait runs out, or when no waiting slot is free.
POLL_DELAYS_MS = (150, 150, 200, 200, 250, 250, 250, 300, 400, 500, 650, 800, 1000)


def poll_number(request: HttpRequest) -> int:
    """Which poll of the panel this request is (`?poll=n`, bounded; 0 when absent or bad)."""
    value = request.GET.get("poll", "")
    return min(int(value), len(POLL_DELAYS_MS) - 1) if value.isdigit() and len(value) < 4 else 0


def panel_context(army_list: ArmyList, *, poll: int = 0) -> dict[str, Any]:
    """The panel's context, and each unit row's gauntlet figures (`unit_rows`, swapped into the
    editor's rows out of band by the same response: one request for the panel and every row).
    `poll` is the number of this request among the polls of one computation: the next poll
    (`next_poll`) waits `poll_delay_ms`."""
    state = gauntlet_state_landed(army_list, seconds=settings.GAUNTLET_PANEL_WAIT_MS / 1000)
    chosen = gauntlet_settings(army_list)
    system = get_system(army_list.system.key)
    worth_unit = state.report.worth_unit if state.report else None
    if worth_unit is None:  # still computing: the rows count as the whole list will
        worth_unit = "points" if system.points_sized else "models"
    per_model = worth_unit == "models"
    context: dict[str, Any] = {"army_list": army_list, "state": state, "chosen": chosen,
                               "choices": opponent_choices(army_list), "max_lists": MAX_OPPONENT_LISTS,
                               "per_model": per_model, "next_poll": min(poll + 1, len(POLL_DELAYS_MS) - 1),
                               "poll_delay_ms": POLL_DELAYS_MS[poll]}
    shown = shown_rows(state, system=system, per_model=per_model)
    context["unit_rows"] = [{"id": unit_id, "figures": shown.get(unit_id),
                             "state": "ready" if unit_id in shown else state.state,
                             "digest": row_digest(shown.get(unit_id), state.state)}
                            for unit_id in state.unit_ids]
    for row in context["unit_rows"]:
        row["html"] = rendered_row(UNIT_FIGURES, row["digest"], per_model=per_model, unit_id=row["id"],
                                   state=row["state"], figures=row["figures"], digest=row["digest"], oob=True)
    if state.report is None:
        return context
    # Each unit's rows of the table carry the digest of what they show in their id: htmx keeps
    # the element already in the page for an id it meets again (`hx-preserve`), so an answer
    # swaps in only the rows whose figures changed.
    rows = [{**shown[unit_id], "unit_id": unit_id, "digest": row_digest(shown[unit_id], "ready")}
            for unit_id in state.unit_ids]
    for row in rows:
        row["html"] = rendered_row(PANEL_ROW, row["digest"], per_model=per_model, row=row)
    trades = [{**row, "name": row["name"] or _(REFERENCE_SET_NAME)}
              for row in sorted(state.report.opponents, key=lambda row: row["ahead_by"], reverse=True)]
    # The enemies by name as a player reads them: a reference target's translated and marked.
    context.update(rows=rows, trades=trades,
                   best_pairings=[shown_pairing(pair) for pair in state.report.best_pairings()],
                   worst_pairings=[shown_pairing(pair) for pair in state.report.worst_pairings()])
    return context


def shown_rows(state: GauntletState, *, system: GameSystem, per_model: bool) -> dict[int, dict[str, Any]]:
    """Each unit's figures as the editor shows them (`gauntlet_text.figure_rows`), by `ListUnit`
    id; a finished report's are kept with it, per language, so a poll of an unchanged gauntlet
    renders only the template."""
    key = f"{state.key}:rows:{get_language()}" if state.key else ""
    rows = job_cache().get(key) if key else None
    if rows is None:
        figures = figure_rows(list(state.unit_figures.values()), system=system, per_model=per_model)
        rows = dict(zip(state.unit_figures, figures, strict=True))
        if key:
            job_cache().set(key, rows, timeout=REPORT_SECONDS)
    return rows


#: A unit's rows in the panel's table, and its figures swapped into its editor row.
PANEL_ROW = "armybuilder/_gauntlet_row.html"
UNIT_FIGURES = "armybuilder/_unit_gauntlet.html"
#: How long a rendered row is kept unused (its key names what it shows: it never goes stale).
ROW_SECONDS = 6 * 3600


def rendered_row(template: str, shows: str, *, per_model: bool, **context: Any) -> str:
    """One unit's row of the panel (`template` with `context`), rendered once per what it
    shows and kept in this process's cache (the default one): by what it `shows` (the row's
    digest of its state and figures), its unit, whether it counts per model, the language and the
    template's own text. After an edit the panel's answer renders only the edited unit's rows,
    not the twenty of a 20-unit list (issue 42)."""
    unit = context.get("unit_id", context.get("row", {}).get("unit_id"))
    key = (f"gauntlet-row:{templates_digest((template,))}:{get_language()}:{int(per_model)}:"
           f"{int(bool(context.get('oob')))}:{unit}:{shows}")
    html = None if settings.DEBUG else fragments.get(key)
    if html is None:
        html = render_to_string(template, {**context, "per_model": per_model})
        if not settings.DEBUG:
            fragments.set(key, html, ROW_SECONDS)
    return mark_safe(html)


def row_digest(figures: dict[str, Any] | None, state: str) -> str:
    """A digest of what a unit row shows: the page swaps in only the rows whose digest changed
    (`static/js/gauntlet.js`), so a poll leaves the rows it did not change as they are."""
    return content_digest([state if figures is None else "ready", figures])[:16]


@login_required
@require_http_methods(["GET", "POST"])
def gauntlet_panel(request: HttpRequest, list_id: int) -> HttpResponse:
    army_list = selectors.army_list_get_for_user(user=request.user, list_id=list_id, for_edit=True)
    if army_list is None:
        raise Http404
    if request.method == "POST":
        choices = {choice.pk for choice in opponent_choices(army_list)}
        lists = [int(value) for value in request.POST.getlist("lists")
                 if value.isdigit() and int(value) in choices]
        tokens = [_token_of(link) for link in request.POST.get("locks", "").split()][:MAX_OPPONENT_LISTS]
        army_list.gauntlet = {"reference": bool(request.POST.get("reference")) or not (lists or tokens),
                              "lists": lists[:MAX_OPPONENT_LISTS], "locks": [t for t in tokens if t]}
        # Not a change of the list itself: its version (and so every open tab) stays as it is.
        ArmyList.objects.filter(pk=army_list.pk).update(gauntlet=army_list.gauntlet)
        if not request.htmx:
            return HttpResponseRedirect(reverse("lists:detail", args=[army_list.pk]) + "#gauntlet")
    context = panel_context(army_list, poll=poll_number(request))
    response = render(request, "armybuilder/_gauntlet_panel.html", context)
    response["Cache-Control"] = "no-store"
    return response
