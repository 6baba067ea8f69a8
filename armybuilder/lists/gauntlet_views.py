"""The gauntlet panel of the list editor (`armybuilder.estimates.gauntlet_live`): how each unit
and the whole list trade against the opponents the player picked, live while they build.

`GET` renders the panel (htmx fragment): the table when every matchup is cached, else the
progress of the job that computes the rest, polling until it is done. `POST` changes the
list's opponents. Owner only, like every editor view.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from armybuilder.estimates.gauntlet_live import (
    MAX_OPPONENT_LISTS,
    gauntlet_settings,
    gauntlet_state,
    opponent_choices,
)
from armybuilder.lists import selectors
from armybuilder.models import ArmyList

#: Share links of locked versions accepted in the opponents form: their last path segment.
TOKEN_MAX = 64


def _token_of(link: str) -> str:
    """The share token of a pasted link (`…/lists/shared/<token>/`) or of a bare token."""
    parts = [part for part in link.strip().split("/") if part]
    return parts[-1][:TOKEN_MAX] if parts else ""


def panel_context(army_list: ArmyList) -> dict[str, Any]:
    state = gauntlet_state(army_list)
    chosen = gauntlet_settings(army_list)
    context: dict[str, Any] = {"army_list": army_list, "state": state, "chosen": chosen,
                               "choices": opponent_choices(army_list), "max_lists": MAX_OPPONENT_LISTS}
    if state.report is None:
        return context
    per_model = state.report.worth_unit == "models"
    units = state.report.units
    best_offence = max((row["offence_per_point"] for row in units), default=0) or 1
    best_durability = max((row["durability_per_point"] or 0 for row in units), default=0) or 1
    rows = []
    for row in units:
        values = {"unit": row["name"], "value": f"{row['offence_per_point']:.2f}",
                  "best": row["best_target"], "worst": row["worst_target"]}
        if per_model:
            sentence = _("Against the gauntlet, %(unit)s slays %(value)s enemy models per model a turn; "
                         "best against %(best)s, worst against %(worst)s.") % values
        else:
            sentence = _("Against the gauntlet, %(unit)s destroys %(value)s of its points a turn; "
                         "best against %(best)s, worst against %(worst)s.") % values
        chances = [{**chance, "percent": round(100 * chance["value"])} for chance in row["melee_chances"]]
        rows.append({**row, "sentence": sentence, "melee_chances": chances,
                     "offence_bar": round(100 * row["offence_per_point"] / best_offence),
                     "durability_bar": round(100 * (row["durability_per_point"] or 0) / best_durability)})
    trades = [{**row, "name": row["name"] or _("Reference targets")}
              for row in sorted(state.report.opponents, key=lambda row: row["ahead_by"], reverse=True)]
    context.update(rows=rows, trades=trades, per_model=per_model)
    return context


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
    response = render(request, "armybuilder/_gauntlet_panel.html", panel_context(army_list))
    response["Cache-Control"] = "no-store"
    return response
