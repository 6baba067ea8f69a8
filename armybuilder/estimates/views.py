"""Estimate pages: ask (from a unit card, a unit of a list or a whole list), watch, read.

Views only translate HTTP: the source comes from the URL (`?unit=`, `?list=&list_unit=`,
`?list=`, or `?share=<token>` instead of `?list=`) through `sources`, the target and the
situation from the form, the inputs from `inputs`, the job from `services.estimate_request`
— the same calls the API makes. A source the visitor may not see is a 404; bad input
re-renders the form with its errors. The detail page polls its status fragment with htmx
while the job runs; without JavaScript it shows a reload link.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from armybuilder.estimates import sources
from armybuilder.estimates.describe import (
    estimate_subtitle,
    estimate_title,
    listing_titles,
    reader_factions,
    situation_text,
    system_name,
)
from armybuilder.estimates.forms import EstimateForm
from armybuilder.estimates.inputs import (
    EstimateRequestError,
    army_inputs,
    estimable,
    list_vs_list_inputs,
    unit_vs_unit_inputs,
    with_references,
)
from armybuilder.estimates.models import Estimate
from armybuilder.estimates.selectors import estimate_get, estimate_is_waiting_long, estimates_of
from armybuilder.estimates.services import QueueUnavailable, estimate_request, estimate_retry
from rules.systems.registry import get_system

#: The session key under which a visitor's recent estimate ids are kept (for "Your estimates").
SESSION_KEY = "estimates"
SESSION_MAX = 50
ESTIMATES_PER_PAGE = 25


def _remember(request: HttpRequest, estimate: Estimate) -> None:
    """Keep the id in the session, so that a visitor without an account (or one handed a
    stored answer somebody else asked first) finds it again in "Your estimates"."""
    ids = [i for i in request.session.get(SESSION_KEY, []) if i != str(estimate.pk)]
    request.session[SESSION_KEY] = [str(estimate.pk), *ids][:SESSION_MAX]


def _source(request: HttpRequest) -> sources.UnitSource | sources.ListSource | None:
    """What attacks, from the query string; 404 for anything the visitor may not see."""
    query = request.GET
    share = str(query.get("share", ""))
    if "unit" in query:
        found: Any = sources.catalogue_unit_source(user=request.user, unit_id=query["unit"])
    elif "list_unit" in query:
        found = sources.list_unit_source(user=request.user, unit_id=query["list_unit"],
                                         list_id=query.get("list"), share_token=share)
    elif "list" in query or share:
        found = sources.list_source(user=request.user, list_id=query.get("list"), share_token=share)
    else:
        return None
    if found is None:
        raise Http404(_("No such unit or list, or it is not yours to see."))
    return found


def _supports_estimates(system_key: str) -> bool:
    try:
        return get_system(system_key).can_attack
    except KeyError:
        return False


def _form(request: HttpRequest, source: sources.UnitSource | sources.ListSource) -> EstimateForm:
    """The form with the targets this source may be estimated against (its own list left out)."""
    if isinstance(source, sources.ListSource):
        choices = sources.list_target_choices(user=request.user, system_key=source.system_key,
                                              exclude_list_id=source.list_id)
        label = _("Opponent list")
    else:
        choices = sources.unit_target_choices(user=request.user, system_key=source.system_key,
                                              exclude_list_id=source.list_id)
        label = _("Target unit")
    data = request.POST if request.method == "POST" else None
    return EstimateForm(data, target_choices=choices, target_label=label,
                        system=get_system(source.system_key))


def _ask(request: HttpRequest, source: sources.UnitSource | sources.ListSource,
         form: EstimateForm) -> Estimate | None:
    """The job for a valid form, or None with the refusal's errors put on the form."""
    key, situation = form.cleaned_data["target"], form.cleaned_data["situation"]
    try:
        if isinstance(source, sources.ListSource):
            target = sources.list_target(user=request.user, system_key=source.system_key, key=key)
            if target is None:
                form.add_error("target", _("Choose one of the lists offered."))
                return None
            system_key, inputs = list_vs_list_inputs(
                system_key=source.system_key, situation=situation,
                list_a=army_inputs(name=source.name, units=source.units),
                list_b=army_inputs(name=target.name, units=target.units))
            inputs = with_references(inputs, ["list_b"] if target.reference else [])
            kind = Estimate.Kind.LIST_VS_LIST
        else:
            unit = sources.unit_target(user=request.user, system_key=source.system_key, key=key)
            if unit is None:
                form.add_error("target", _("Choose one of the units offered."))
                return None
            system_key, inputs = unit_vs_unit_inputs(attacker=source.unit, defender=unit.unit,
                                                     situation=situation)
            inputs = with_references(inputs, ["defender"] if unit.reference else [])
            kind = Estimate.Kind.UNIT_VS_UNIT
    except EstimateRequestError as exc:
        form.add_request_errors(exc)
        return None
    return estimate_request(kind=kind, system=system_key, inputs=inputs, user=request.user)


@require_http_methods(["GET", "POST"])
def new(request: HttpRequest) -> HttpResponse:
    """The form: what attacks is in the URL; choose the target and the situation."""
    source = _source(request)
    if source is None:
        return render(request, "estimates/start.html")
    context: dict[str, Any] = {"source": source, "system_name": system_name(source.system_key),
                               "is_list": isinstance(source, sources.ListSource)}
    if not _supports_estimates(source.system_key):
        return render(request, "estimates/new.html", {**context, "unsupported": True})
    if isinstance(source, sources.UnitSource) and not estimable(source.unit):
        return render(request, "estimates/new.html", {**context, "unprofiled": True},
                      status=200 if request.method == "GET" else 400)
    form = _form(request, source)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                estimate = _ask(request, source, form)
            except QueueUnavailable:
                form.add_error(None, _("The job queue is unreachable right now; nothing was stored. "
                                       "Try again in a minute."))
                estimate, status = None, 503
            if estimate is not None:
                _remember(request, estimate)
                return redirect("estimates:detail", estimate_id=estimate.pk)
    return render(request, "estimates/new.html", {**context, "form": form}, status=status)


def _estimate_or_404(request: HttpRequest, estimate_id: Any) -> Estimate:
    estimate = estimate_get(estimate_id=estimate_id, user=request.user,
                            remembered=request.session.get(SESSION_KEY, []))
    if estimate is None:
        raise Http404(_("No such estimate."))
    return estimate


def _status_context(estimate: Estimate, factions: dict[str, Any] | None = None) -> dict[str, Any]:
    """The status fragment's context; a finished answer also has each side's bundled faction
    (`factions`, `describe.reader_factions`), whose names the reader reads its weapons in."""
    if factions is None and estimate.is_finished:
        factions = reader_factions(estimate=estimate)
    return {"estimate": estimate, "waiting_long": estimate_is_waiting_long(estimate=estimate),
            "factions": factions or {}}


def _title(estimate: Estimate, factions: dict[str, Any] | None) -> str:
    """The page's title, each unit named in the reader's language where its faction has it."""
    if not factions or estimate.kind != Estimate.Kind.UNIT_VS_UNIT:
        return estimate_title(kind=estimate.kind, inputs=estimate.inputs)
    inputs = estimate.inputs or {}
    names = tuple(
        faction.in_reader_language(str(inputs[role]["name"])) if (faction := factions.get(role)) else None
        for role in ("attacker", "defender")
    )
    return estimate_title(kind=estimate.kind, inputs=inputs, names=names)


@require_GET
def detail(request: HttpRequest, estimate_id: Any) -> HttpResponse:
    """The question, then the progress bar (polled) or the answer: charts, numbers, matrix."""
    estimate = _estimate_or_404(request, estimate_id)
    factions = reader_factions(estimate=estimate)
    return render(request, "estimates/detail.html", {
        **_status_context(estimate, factions),
        "title": _title(estimate, factions),
        "subtitle": estimate_subtitle(estimate=estimate),
        "situation_text": situation_text(estimate.inputs.get("situation"), system_key=estimate.system),
    })


@require_GET
def status(request: HttpRequest, estimate_id: Any) -> HttpResponse:
    """The fragment htmx polls: the progress bar while the job runs, the answer once it ends.
    A plain request (no htmx) goes to the whole page."""
    estimate = _estimate_or_404(request, estimate_id)
    if not request.htmx:
        return redirect("estimates:detail", estimate_id=estimate.pk)
    return render(request, "estimates/_status.html", _status_context(estimate))


@require_POST
def retry(request: HttpRequest, estimate_id: Any) -> HttpResponse:
    """Ask a failed job's question again (a new job); a finished one just shows its answer."""
    previous = _estimate_or_404(request, estimate_id)
    try:
        estimate = estimate_retry(estimate=previous, user=request.user)
    except QueueUnavailable:
        messages.error(request, _("The job queue is unreachable right now. Try again in a minute."))
        return redirect("estimates:detail", estimate_id=previous.pk)
    _remember(request, estimate)
    return redirect("estimates:detail", estimate_id=estimate.pk)


@require_GET
def estimate_list(request: HttpRequest) -> HttpResponse:
    """The visitor's estimates, newest first: their own, and those this browser asked for."""
    rows = estimates_of(user=request.user, ids=request.session.get(SESSION_KEY, []))
    page = Paginator(rows, ESTIMATES_PER_PAGE).get_page(request.GET.get("page"))
    for estimate, title in zip(page.object_list, listing_titles(page.object_list), strict=True):
        estimate.title = title
        estimate.system_name = system_name(estimate.system)
    return render(request, "estimates/list.html", {"page": page})
