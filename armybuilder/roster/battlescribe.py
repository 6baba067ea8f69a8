"""BattleScribe rosters: any list exported as a .rosz (beside the PDF, text and JSON exports),
and the page that imports a .ros/.rosz as a new list (`armybuilder.lists.battlescribe_rosters`).

The list's units are described for `rules.battlescribe.unit_roster`, which makes them a roster
file for the one roster writer: their names, the player's names and notes for them, model
counts, options taken with their costs, points and (where the system reports it) its second
cost, as the list stores them. Units imported from BattleScribe carry their entry ids, so the file
opens in BattleScribe against the same catalogue; the system is never named here.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.text import slugify
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from armybuilder.lists import import_jobs, selectors
from armybuilder.lists.backends import backend_for
from armybuilder.models import ArmyList, ListUnit
from armybuilder.roster.views import readable_list
from rules.battlescribe.engine.roster_xml import rosz_of, stable_id
from rules.battlescribe.unit_roster import RosterDocument, RosterUnit
from rules.battlescribe.xml_reader import BattleScribeError
from rules.battlescribe_import import read_uploads
from rules.models import GameSystem
from rules.systems.registry import get_system

IMPORTED_PREFIX = "bs-"
OPTION_PREFIX = "opt-"


def _upgrades(unit: ListUnit) -> list[dict]:
    menu = {str(o["key"]): o for o in unit.available_options or []}
    recorded = {str(u.get("key")): u for u in (unit.data or {}).get("upgrades", []) if isinstance(u, dict)}
    upgrades = []
    for key, count in (unit.chosen_options or {}).items():
        option = menu.get(key)
        if not option or not count:
            continue
        new_model = (option.get("payload") or {}).get("model") if option.get("kind") == "add_models" else None
        if option.get("kind") == "add_models" and not isinstance(new_model, dict):
            continue  # more models of a profile the unit has: counted in its model selection (`_models`)
        cost = option.get("cost")
        if cost is None:
            cost = (unit.option_points or {}).get(key, 0)
        elif (option.get("payload") or {}).get("per_model") and key in recorded:
            # a per-model option: one take costs its cost for every model it covers
            cost = int(recorded[key]["cost"]) * int(recorded[key]["count"]) // int(count)
        entry_id = key.removeprefix(OPTION_PREFIX) if key.startswith(OPTION_PREFIX) else stable_id(key)
        upgrade = {"name": str(option.get("label") or key), "entry_id": entry_id, "count": int(count),
                   "points": cost}
        if new_model is not None:
            # a model of a profile of its own (a champion, a standard bearer): a model selection of
            # the option's entry, one model per model it adds, as BattleScribe counts them
            upgrade.update(name=str(new_model.get("name") or upgrade["name"]), type="model",
                           number=int(count) * int(new_model.get("count", 1) or 1))
        upgrades.append(upgrade)
    return upgrades


def _models(unit: ListUnit) -> list[dict]:
    """Model selections as BattleScribe counts them: each base profile with the models added to it.

    (The list's `data` splits models that took a per-model option into profiles of their own;
    in BattleScribe they stay models of the same entry, with the option nested under them.)
    """
    base = (unit.base_data or unit.data or {}).get("models", [])
    counts = {str(m.get("name", "")): int(m.get("count", 1)) for m in base}
    for option in unit.available_options or []:
        taken = int((unit.chosen_options or {}).get(str(option["key"]), 0))
        payload = option.get("payload") or {}
        if not taken or option.get("kind") != "add_models" or payload.get("model"):
            continue
        # an option naming no profile adds to the first (`rules.options._targets`)
        target = str(option.get("applies_to") or next(iter(counts), ""))
        if target in counts:
            counts[target] += taken * int(payload.get("count", 1))
    return [{"name": name, "count": count} for name, count in counts.items()]


def roster_document(*, army_list: ArmyList, units: list[ListUnit]) -> RosterDocument:
    """The list as a roster description (pure data for the writer)."""
    system = get_system(army_list.system.key)
    faction = army_list.faction
    imported = faction is not None and faction.slug.startswith(IMPORTED_PREFIX)
    described = []
    # The system's second cost (40k's Power) is in its price, which the list does not store:
    # only a system that declares one is priced again.
    figure = system.roster_cost_figure
    second_costs = []
    for unit in units:
        data = unit.data or {}
        second_cost = system.price(data).get(figure) if figure and data.get("models") else None
        second_costs.append(second_cost)
        described.append(
            RosterUnit(
                name=unit.name,
                entry_id=str(data.get("battlescribe_id") or stable_id(unit.catalogue_ref or unit.name)),
                points=int(unit.points),
                power=second_cost,
                models=_models(unit),
                upgrades=_upgrades(unit),
                categories=[str(k) for k in data.get("keywords", [])],
                model_ids={str(k): str(v) for k, v in (data.get("battlescribe_models") or {}).items()},
                category_ids={str(k): str(v) for k, v in (data.get("battlescribe_categories") or {}).items()},
                per_selection={
                    str(k): int(v)
                    for k, v in (data.get("battlescribe_per_selection") or {}).items()
                    if int(v) >= 1
                },
                custom_name=unit.custom_name,
                notes=unit.notes,
            )
        )
    # A list of an imported faction names the BattleScribe game system, catalogue and cost types
    # it came from, so BattleScribe opens it with that data; other lists get stable made-up ids.
    imported_data = next(
        (u.data for u in units if imported and (u.data or {}).get("battlescribe_system_id")), {}
    )
    cost_types = imported_data.get("battlescribe_cost_types") or {}
    version = str(getattr(faction, "version", "") or "")
    force = imported_data.get("battlescribe_force") or {}
    return RosterDocument(
        name=army_list.name,
        system_id=str(
            imported_data.get("battlescribe_system_id") or stable_id("system", army_list.system.key)
        ),
        force_entry=(str(force["id"]), str(force.get("name") or "")) if force.get("id") else None,
        points_type=str(cost_types.get("points") or "points"),
        points_name=system.battlescribe.cost_type_name("points"),
        **(
            {"power_type": str(cost_types.get(figure) or figure),
             "power_name": system.battlescribe.cost_type_name(figure)}
            if figure
            else {}
        ),
        catalogue_revision=version.removeprefix("rev ") if version.removeprefix("rev ").isdigit() else "1",
        system_name=army_list.system.name,
        catalogue_id=faction.slug.removeprefix(IMPORTED_PREFIX)
        if imported
        else stable_id("faction", str(faction)),
        catalogue_name=faction.name if faction else army_list.system.name,
        points_limit=army_list.points_limit if army_list.points_sized else None,
        units=described,
        with_power=any(cost is not None for cost in second_costs),
    )


@require_GET
def list_rosz(request: HttpRequest, list_id: int | None = None, token: str | None = None) -> HttpResponse:
    """The list as a BattleScribe .rosz download."""
    army_list = readable_list(request, list_id, token)
    units = list(selectors.army_list_units(army_list=army_list))
    name = slugify(army_list.name) or "army-list"
    # A roster of the engine is written as itself, selection for selection (the backend's).
    body = rosz_of(backend_for(army_list, units).roster_xml(units), f"{name}.ros")
    response = HttpResponse(body, content_type="application/octet-stream")
    response["Content-Disposition"] = f'attachment; filename="{name}.rosz"'
    return response


def roster_form(request: HttpRequest, *, chosen: str = "", errors: Sequence[str] = (),
                status: int = 200) -> HttpResponse:
    """The roster import form, with the problems that stopped an import (each naming its file)."""
    context = {"systems": list(GameSystem.objects.all()), "chosen": chosen, "errors": list(errors)}
    return render(request, "armybuilder/battlescribe_roster_import.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def roster_upload(request: HttpRequest) -> HttpResponse:
    """Import a .ros/.rosz as a new list; differences from our points are shown on the list.

    The request checks the fields and the file's size, and queues the import on the worker
    (`armybuilder.lists.import_jobs`, the Import page's job); it redirects to the job's page,
    which polls until the list is saved (then the editor) or the problems are known (then this
    form again)."""
    chosen = request.POST.get("system", "")
    if request.method == "GET":
        return roster_form(request, chosen=chosen)
    system = GameSystem.objects.filter(key=chosen).first() if chosen else None
    upload = request.FILES.get("file")
    errors = []
    if system is None:
        errors.append(_("system: choose a game system."))
    if upload is None:
        errors.append(_("file: choose a .ros or .rosz file."))
    if not errors:
        try:
            (source,) = read_uploads([upload])
            job = import_jobs.queue_roster_import(owner_id=request.user.pk, language=get_language(),
                                                  source=source, system_key=system.key)
        except BattleScribeError as exc:
            errors = exc.errors
        except import_jobs.ImportThrottled as exc:
            response = roster_form(request, chosen=chosen, status=429, errors=[
                _("You have started many imports lately; try again in %(minutes)d min.")
                % {"minutes": max(1, round(exc.wait / 60))}])
            response["Retry-After"] = str(int(exc.wait))
            return response
        except import_jobs.ImportUnavailable:
            return roster_form(request, chosen=chosen, status=503, errors=[
                _("Imports cannot be queued right now; nothing was stored. Try again in a minute.")])
        else:
            return redirect("lists:import_job", job_id=job.id)
    return roster_form(request, chosen=chosen, errors=errors, status=400)
