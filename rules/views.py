"""Catalogue pages: systems → factions → unit cards, and the custom-unit designer.

Views only translate HTTP to selector and service calls and back: reads go through
`rules.selectors`, writes through `rules.services`, pricing through the system registry
(`unit_cards`, `unit_validation`), never through a branch on a system's name. The designer
answers an htmx request with just the changed fragment (the breakdown, plus out-of-band
error slots; or the whole form after adding or removing a model or weapon) and a plain
POST with the full page, so it works without JavaScript.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from points.shared_format import UnitFormatError
from rules import selectors, services
from rules.designer_form import DesignerForm
from rules.models import GameSystem, SpecialRule, UnitTemplate
from rules.points_audit import audit_row, book_points, by_gap
from rules.source_language import localized_breakdown
from rules.systems.registry import get_system
from rules.unit_cards import unit_card
from rules.unit_validation import unit_evaluate


def _system(key: str) -> GameSystem:
    system = GameSystem.objects.filter(key=key).first()
    if system is None:
        raise Http404(_("No such game system."))
    return system


def systems_index(request: HttpRequest) -> HttpResponse:
    systems = selectors.game_systems_with_faction_counts(user=request.user)
    return render(request, "rules/systems.html", {"systems": systems})


def points_formula(request: HttpRequest, system_key: str) -> HttpResponse:
    """The system's points formula explained factor by factor (the page the designer's and the
    breakdown's labels link to); 404 for a system priced from its catalogue."""
    system = _system(system_key)
    engine = get_system(system.key)
    if not engine.formula_template:
        raise Http404(_("This game system is priced from its catalogue, not by a formula."))
    context = {"system": system, "formula_template": engine.formula_template}
    return render(request, "rules/points_formula.html", context)


def system_detail(request: HttpRequest, system_key: str) -> HttpResponse:
    system = _system(system_key)
    return render(
        request,
        "rules/system.html",
        {
            "system": system,
            "factions": selectors.factions_of_system(user=request.user, system=system),
            "special_rules": selectors.special_rules_of(system=system),
        },
    )


def cards_cache_key(system_key: str, faction: Any, units: list[Any], known_rules: Mapping[str, Any]) -> str:
    """The key of the rendered card grid: everything the cards are built from, so it is
    never stale.

    Rendering 30-odd cards was most of a faction page's server time under load; the grid's
    HTML is the same for every visitor, so it is cached per process (`{% cache %}` in
    `rules/faction.html`). The key digests the rows the cards are made of (every field of the
    faction's units and their options, and of the system's special rules), not the cards
    themselves: pricing the units for the cards was, after the rendering, the page's largest
    cost, and now happens only when the grid is rendered.
    """
    import hashlib

    def fields(row: Any) -> tuple:
        return tuple((field.attname, getattr(row, field.attname)) for field in row._meta.concrete_fields)

    rules = sorted({rule.pk: rule for rule in known_rules.values()}.items())
    content = repr([system_key, fields(faction),
                    [(fields(unit), [fields(option) for option in unit.options.all()]) for unit in units],
                    [fields(rule) for _, rule in rules]])
    return hashlib.sha256(content.encode()).hexdigest()


def faction_detail(request: HttpRequest, system_key: str, faction_slug: str) -> HttpResponse:
    system = _system(system_key)
    faction = get_object_or_404(
        selectors.faction_for_page(user=request.user, system=system, slug=faction_slug)
    )
    known = selectors.special_rules_by_name(system=system)
    units = list(selectors.faction_units(faction=faction))

    def cards() -> list[Any]:
        """Built only when the grid is rendered (a cache miss): the template calls it."""
        return [unit_card(unit, system_key=system.key, known_rules=known, faction=faction) for unit in units]

    audit = None
    engine = get_system(system.key)
    # the points audit: each unit's book price beside the formula's (priced only when a unit has one)
    if engine.formula_priced and any(book_points(unit.data or {}) is not None for unit in units):
        rows = [
            audit_row(
                engine, name=unit.name, unit=unit.data or {}, ref=unit,
                link=reverse("rules:unit", args=[system.key, faction.slug, unit.slug])
                + "?breakdown=1#breakdown",
            )
            for unit in units
        ]
        audit = by_gap(rows)

    return render(
        request,
        "rules/faction.html",
        {
            "system": system,
            "faction": faction,
            "cards": cards,
            "cards_key": cards_cache_key(system.key, faction, units, known),
            "is_owner": request.user.is_authenticated and faction.owner_id == request.user.pk,
            "audit": audit,
        },
    )


def unit_detail(request: HttpRequest, system_key: str, faction_slug: str, unit_slug: str) -> HttpResponse:
    system = _system(system_key)
    faction = get_object_or_404(
        selectors.faction_for_page(user=request.user, system=system, slug=faction_slug)
    )
    unit = get_object_or_404(selectors.faction_units(faction=faction), slug=unit_slug)
    card = unit_card(unit, system_key=system.key, known_rules=selectors.special_rules_by_name(system=system),
                     faction=faction)
    engine = get_system(system.key)
    breakdown = audit = None
    if engine.formula_priced:  # the formula's breakdown, and the audit against a book price
        breakdown = localized_breakdown(engine.price(unit.data or {}), system=system)
        audit = audit_row(engine, name=unit.name, unit=unit.data or {}, formula=int(breakdown["points"]))
    return render(
        request,
        "rules/unit.html",
        {
            "system": system,
            "faction": faction,
            "card": card,
            "is_owner": request.user.is_authenticated and faction.owner_id == request.user.pk,
            "breakdown": breakdown,
            "breakdown_template": engine.breakdown_template or "rules/_breakdown_catalogue.html",
            "audit": audit,
        },
    )


# ------------------------------------------------------------------------------ designer


def _designer_form(system: GameSystem) -> DesignerForm:
    return DesignerForm(
        system_key=system.key,
        profile_schema=get_system(system.key).profile_schema,
        model_rules=list(selectors.special_rules_of(system=system, scope=SpecialRule.Scope.MODEL)),
        weapon_rules=list(selectors.special_rules_of(system=system, scope=SpecialRule.Scope.WEAPON)),
        formula_anchors=get_system(system.key).formula_anchors,
    )


def _starting_unit(request: HttpRequest) -> tuple[GameSystem, UnitTemplate | None]:
    """`?from=<unit id>` copies a unit the visitor may see; `?system=<key>` starts blank."""
    source_id = request.GET.get("from", "")
    if source_id.isdigit():
        source = get_object_or_404(
            selectors.units_visible_to(user=request.user).select_related("faction__system"), pk=int(source_id)
        )
        return source.faction.system, source
    key = request.GET.get("system", "")
    system = GameSystem.objects.filter(key=key).first() if key else selectors.game_systems().first()
    if system is None:
        raise Http404(_("No game system is loaded yet."))
    return system, None


@require_http_methods(["GET", "POST"])
def designer(request: HttpRequest, pk: int | None = None) -> HttpResponse:
    """Design a unit and watch its points; `pk` edits one of the user's own homebrew units."""
    unit = source = None
    if pk is not None:
        unit = get_object_or_404(
            selectors.units_editable_by(user=request.user).select_related("faction__system"), pk=pk
        )
        system = unit.faction.system
    elif request.method == "POST":
        system = _system(str(request.POST.get("system", "")))
    else:
        system, source = _starting_unit(request)
    form = _designer_form(system)
    action = str(request.POST.get("action", "preview")) if request.method == "POST" else ""
    if request.method == "POST":
        form.load_post(request.POST)
    elif unit is not None:
        form.load_unit(unit.data, role=unit.role)
    elif source is not None:
        form.load_unit(source.data, role=source.role)
    else:
        form.start_blank()
    restructured = form.apply_action(action) if action else False
    data = form.unit_data()
    evaluation = unit_evaluate(system=system, data=data)
    form.add_engine_errors(evaluation.errors)

    # "store", not "save": `save` is a profile field of several systems, and this module names none.
    if action == "store" and not form.errors and not form.non_field_errors and evaluation.is_valid:
        return _designer_save(request, form, data, unit)

    context = _designer_context(request, system, form, evaluation, unit)
    if request.htmx and request.method == "POST":
        template = "rules/_designer_form.html" if restructured else "rules/_designer_breakdown.html"
        return render(request, template, {**context, "oob": not restructured})
    return render(request, "rules/designer.html", context)


def _designer_save(
    request: HttpRequest, form: DesignerForm, data: dict[str, Any], unit: UnitTemplate | None
) -> HttpResponse:
    if not request.user.is_authenticated:
        messages.info(request, _("Sign in to save your unit in your homebrew faction."))
        return redirect_to_login(reverse("rules:designer"))
    try:
        saved = services.homebrew_unit_save(user=request.user, data=data, unit=unit, role=form.role)
    except PermissionDenied:
        raise Http404(_("No such unit.")) from None
    except UnitFormatError as exc:  # validated above; only a race could get here
        messages.error(request, "; ".join(str(e) for e in exc.errors))
        return redirect(request.path)
    messages.success(
        request,
        _("“%(name)s” is saved in your homebrew faction (%(points)d pts).")
        % {"name": saved.name, "points": saved.points},
    )
    return redirect("rules:designer_edit", pk=saved.pk)


def _designer_context(
    request: HttpRequest, system: GameSystem, form: DesignerForm, evaluation: Any, unit: UnitTemplate | None
) -> dict[str, Any]:
    engine = get_system(system.key)
    breakdown = evaluation.breakdown or {}
    return {
        "system": system,
        "systems": selectors.game_systems(),
        "form": form,
        "breakdown_template": engine.breakdown_template or "rules/_breakdown_catalogue.html",
        "formula_url": reverse("rules:points_formula", args=[system.key]) if engine.formula_template else "",
        "price_figures": [
            (_(label), breakdown[key])
            for key, label in engine.price_figures.items()
            if breakdown.get(key) is not None
        ],
        "models": form.models_for_template(),
        "unit_extra_json": json.dumps(form.unit_extra) if form.unit_extra else "",
        "unit_fields": form.unit_fields_for_template(),
        "breakdown": localized_breakdown(evaluation.breakdown, system=system),
        "field_errors": [(name, form.errors.get(name, [])) for name in form.field_names()],
        "roles": UnitTemplate.Role.choices,
        "unit": unit,
        "post_url": reverse("rules:designer_edit", args=[unit.pk]) if unit else reverse("rules:designer"),
        "homebrew": selectors.homebrew_faction_of(user=request.user, system=system),
    }


@login_required
@require_POST
def homebrew_unit_delete(request: HttpRequest, pk: int) -> HttpResponse:
    unit = get_object_or_404(
        selectors.units_editable_by(user=request.user).select_related("faction__system"), pk=pk
    )
    faction = unit.faction
    services.homebrew_unit_delete(user=request.user, unit=unit)
    messages.success(request, _("The unit was deleted."))
    return redirect("rules:faction", system_key=faction.system.key, faction_slug=faction.slug)


@login_required
@require_POST
def homebrew_share(request: HttpRequest, pk: int) -> HttpResponse:
    faction = get_object_or_404(
        selectors.factions_visible_to(user=request.user).select_related("system"), pk=pk, owner=request.user
    )
    shared = request.POST.get("shared") == "1"
    services.homebrew_faction_set_shared(user=request.user, faction=faction, shared=shared)
    messages.success(
        request,
        _("Your homebrew faction is now shared with everyone.")
        if shared
        else _("Your homebrew faction is private again."),
    )
    return redirect("rules:faction", system_key=faction.system.key, faction_slug=faction.slug)
