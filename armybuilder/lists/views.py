"""The list pages. Each view translates a request into one service or selector call and back.

The editor is one page. A change made with htmx answers with only what changed — the unit
row, or the rows — plus the list summary (total, points left, violations) swapped
out-of-band; the same forms without JavaScript post and redirect back to the page. Every
change carries the list version the page was rendered from (a hidden `version` field, or
the `X-List-Version` header that `static/js/list_editor.js` keeps current), so a change
made from a stale tab is refused with 409 and a link to reload, instead of overwriting.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import NoReverseMatch, reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import reswap, retarget

from armybuilder import offline
from armybuilder.accounts.guests import guest_start, is_guest
from armybuilder.lists import backends, import_jobs, locks, selectors, services, sharing
from armybuilder.lists.errors import ArmyListError, NotApplicable, StaleListError
from armybuilder.lists.forms import (
    SETTING_PREFIX,
    ArmyListCreateForm,
    ArmyListSettingsForm,
    ImportForm,
    RosterForceForm,
    parse_int,
    parse_option_counts,
    parse_version,
    registered_systems,
)
from armybuilder.lists.imports import import_input_of
from armybuilder.lists.share_card import headline
from armybuilder.models import POINTS_LIMIT_MAX, ArmyList, ListUnit
from armybuilder.roster.battlescribe import roster_form

LISTS_PER_PAGE = 50
VERSION_HEADER = "X-List-Version"


# ----------------------------------------------------------------------------- lookups


def _list_for_edit(request: HttpRequest, list_id: int) -> ArmyList:
    """The user's own list, or 404 — also for other players' lists, private or not."""
    army_list = selectors.army_list_get_for_user(user=request.user, list_id=list_id, for_edit=True)
    if army_list is None:
        raise Http404
    return army_list


def _unit_for_edit(request: HttpRequest, list_id: int, unit_id: int) -> tuple[ArmyList, ListUnit]:
    """The user's own list and one of its units (read together), or 404 as `_list_for_edit`."""
    list_unit = selectors.army_list_unit_get_for_edit(user=request.user, list_id=list_id, unit_id=unit_id)
    if list_unit is None:
        raise Http404
    return list_unit.army_list, list_unit


def _version(request: HttpRequest) -> int:
    return parse_version(request.headers.get(VERSION_HEADER) or request.POST.get("version"))


def _editor_url(army_list: ArmyList, anchor: str = "") -> str:
    return reverse("lists:detail", args=[army_list.pk]) + (f"#{anchor}" if anchor else "")


# ----------------------------------------------------------------------------- rendering


def _page_context(
    request: HttpRequest,
    army_list: ArmyList,
    *,
    can_edit: bool,
    settings_form: ArmyListSettingsForm | None = None,
    force_form: RosterForceForm | None = None,
) -> dict[str, Any]:
    units = selectors.army_list_units(army_list=army_list)
    context: dict[str, Any] = {
        "army_list": army_list,
        "units": units,
        "unit_groups": sorted({unit.group for unit in units if unit.group}, key=str.casefold),
        "can_edit": can_edit,
        "share_url": None,
        "text_styles": [
            ("plain", _("Plain text")),
            ("compact", _("Compact (one line)")),
            ("markdown", _("Markdown / Discord")),
            ("secret", _("Secret list")),
        ],
    }
    if can_edit:
        context["unit_choices"] = backends.backend_for(army_list, units).unit_choices(
            list(selectors.army_list_unit_choices(army_list=army_list))
        )
        context["settings_form"] = settings_form or ArmyListSettingsForm(army_list=army_list)
        context["force_form"] = force_form or _force_form(army_list)
        if army_list.share_token:
            context["share_url"] = request.build_absolute_uri(
                reverse("lists:shared", args=[army_list.share_token])
            )
        context["locks"] = locks.army_list_locks(army_list=army_list)
        # Just locked ("Lock and share"): the link to send, first in the sharing panel.
        just_locked = request.GET.get("locked", "")[:100]
        if any(locked.share_token == just_locked for locked in context["locks"]):
            context["locked_url"] = request.build_absolute_uri(reverse("lists:shared", args=[just_locked]))
    if army_list.is_public or army_list.share_token:
        # Link previews (OpenGraph, Twitter cards): a pasted link unfurls with the share card.
        card = (reverse("lists:shared_card", args=[army_list.share_token]) if army_list.share_token
                else reverse("lists:card", args=[army_list.pk]))
        context["preview_image_url"] = request.build_absolute_uri(card)
        context["preview_description"] = headline(army_list, units)
    return context


def _render_editor(
    request: HttpRequest,
    army_list: ArmyList,
    *,
    status: int = 200,
    alert: dict[str, Any] | None = None,
    settings_form: ArmyListSettingsForm | None = None,
    force_form: RosterForceForm | None = None,
) -> HttpResponse:
    context = _page_context(
        request, army_list, can_edit=True, settings_form=settings_form, force_form=force_form
    )
    context["alert"] = alert
    return render(request, "armybuilder/list_detail.html", context, status=status)


def _alert_for(army_list: ArmyList, error: Exception) -> tuple[int, dict[str, Any]]:
    if isinstance(error, StaleListError):
        return 409, {
            "stale": True,
            "reload_url": _editor_url(army_list),
            "message": _(
                "This list was changed in another tab or window, so your last change was not saved."
            ),
        }
    assert isinstance(error, ArmyListError)
    return 400, {"stale": False, "errors": error.errors, "message": _("That change was not saved.")}


def _error_response(request: HttpRequest, army_list: ArmyList, error: Exception) -> HttpResponse:
    """409 for a stale version, 400 naming each bad field; a fragment for htmx, else the page."""
    status, alert = _alert_for(army_list, error)
    if request.htmx:
        response = render(request, "armybuilder/_editor_alert.html", {"alert": alert}, status=status)
        return reswap(retarget(response, "#editor-alert"), "innerHTML")
    if isinstance(error, StaleListError):
        army_list.refresh_from_db()
    return _render_editor(request, army_list, status=status, alert=alert)


def _fragments(
    request: HttpRequest, army_list: ArmyList, *parts: tuple[str, dict[str, Any]], focus_undo: bool = False
) -> HttpResponse:
    """The main fragments of an htmx answer, then the totals, summary, alert and Undo out-of-band.

    `focus_undo`: the change removed what had the focus (a unit), so the Undo button takes it.
    """
    html = [
        render_to_string(name, {"army_list": army_list, "can_edit": True, **context}, request)
        for name, context in parts
    ]
    html.append(
        render_to_string(
            "armybuilder/_editor_oob.html", {"army_list": army_list, "focus_undo": focus_undo}, request
        )
    )
    return HttpResponse("".join(html))


def _change(request: HttpRequest, army_list: ArmyList, action: Callable[[int], HttpResponse]) -> HttpResponse:
    """Run `action(expected_version)`, answering service errors as 409/400 and lost units as 404."""
    try:
        return action(_version(request))
    except (StaleListError, ArmyListError) as error:
        return _error_response(request, army_list, error)
    except ListUnit.DoesNotExist:
        raise Http404 from None


def _unit_row_changed(
    request: HttpRequest, army_list: ArmyList, list_unit: ListUnit, **row: Any
) -> HttpResponse:
    """After a change of one unit: its row (opened as `row` says) with the out-of-band totals for
    htmx, or back to the editor at that unit without JavaScript."""
    if not request.htmx:
        return HttpResponseRedirect(_editor_url(army_list, f"unit-{list_unit.pk}"))
    parts = [("armybuilder/_unit_row.html", {"unit": list_unit, **row})]
    if list_unit.group:  # a group's kind is shared: every other unit of the group shows it in its badge
        others = army_list.units.filter(group=list_unit.group).exclude(pk=list_unit.pk)
        for other in others.order_by("position"):
            other.army_list = army_list
            parts.append(("armybuilder/_unit_group_badge.html", {"unit": other, "badge_oob": True}))
    return _fragments(request, army_list, *parts)


def _refused_row(request: HttpRequest, army_list: ArmyList, list_unit: ListUnit, **row: Any) -> HttpResponse:
    """A refused change of one unit, for htmx: its row again as saved, opened and showing what
    the player sent with each message beside its field or group (`row`), as a 400; the rest
    of the page is left as it was."""
    list_unit.refresh_from_db()
    list_unit.army_list = army_list
    context = {"army_list": army_list, "can_edit": True, "unit": list_unit, **row}
    return render(request, "armybuilder/_unit_row.html", context, status=400)


# ----------------------------------------------------------------------------- lists pages


@login_required
@require_GET
def my_lists(request: HttpRequest) -> HttpResponse:
    """The player's own lists. The plain index (no search, first page) is the installed app's
    start page (`offline.manifest`), so the service worker keeps it like the lists it links
    to: launched without a connection, the app opens on it instead of the browser's error."""
    search = request.GET.get("q", "")[:100]
    page = Paginator(selectors.army_lists_owned_by(user=request.user, search=search), LISTS_PER_PAGE)
    response = render(
        request,
        "armybuilder/lists_mine.html",
        {"page": page.get_page(request.GET.get("page")), "search": search},
    )
    return offline.mark_offline_copy(response) if not request.GET else response


def _optional_int(request: HttpRequest, field: str, errors: list[tuple[str, str]]) -> int | None:
    raw = request.GET.get(field, "").strip()
    if not raw:
        return None
    try:
        return parse_int(raw, field=field, maximum=10**6)
    except ArmyListError as error:
        errors += error.errors
        return None


@require_GET
def gallery(request: HttpRequest) -> HttpResponse:
    """Public lists, filtered by name, game system, faction and points (GET, so links keep them)."""
    search = request.GET.get("q", "")[:100]
    systems, factions = selectors.gallery_filter_choices()
    errors: list[tuple[str, str]] = []
    system_key = request.GET.get("system", "")[:32]
    if system_key and system_key not in {key for key, _name in systems}:
        system_key = ""
    faction_id = _optional_int(request, "faction", errors)
    points_min = _optional_int(request, "points_min", errors)
    points_max = _optional_int(request, "points_max", errors)
    lists = selectors.public_army_lists(
        search=search,
        system_key=system_key,
        faction_id=faction_id,
        points_min=points_min,
        points_max=points_max,
    )
    filters = {
        "q": search,
        "system": system_key,
        "faction": "" if faction_id is None else str(faction_id),
        "points_min": "" if points_min is None else str(points_min),
        "points_max": "" if points_max is None else str(points_max),
    }
    page = Paginator(lists, LISTS_PER_PAGE)
    return render(
        request,
        "armybuilder/lists_gallery.html",
        {
            "page": page.get_page(request.GET.get("page")),
            "search": search,
            "systems": systems,
            "factions": factions,
            "filters": filters,
            "filter_query": urlencode({k: v for k, v in filters.items() if v}),
            "filter_errors": errors,
        },
        status=400 if errors else 200,
    )


@require_GET
def compare(request: HttpRequest) -> HttpResponse:
    """Two lists side by side: totals, points by unit category, and their units.

    `?a=<id>&b=<id>`, each a list the visitor may read; the form on the page picks them.
    """
    visible = list(
        selectors.army_lists_visible_to(user=request.user).select_related("system", "faction")[:200]
    )
    errors: list[tuple[str, str]] = []
    chosen = []
    for field in ("a", "b"):
        raw = request.GET.get(field, "").strip()
        if not raw:
            chosen.append(None)
            continue
        try:
            list_id = parse_int(raw, field=field, minimum=1, maximum=2**63 - 1)
        except ArmyListError as error:
            errors += error.errors
            chosen.append(None)
            continue
        army_list = selectors.army_list_get_for_user(user=request.user, list_id=list_id)
        if army_list is None:
            errors.append((field, _("No such list, or not one you may read.")))
        chosen.append(army_list)
    sides, rows = selectors.army_lists_compared(army_lists=[a for a in chosen if a is not None])
    context = {
        "visible": visible,
        "chosen": [a.pk if a else None for a in chosen],
        "sides": sides,
        "rows": rows,
        "compare_errors": errors,
    }
    return render(request, "armybuilder/lists_compare.html", context, status=400 if errors else 200)


@require_http_methods(["GET", "POST"])
def create(request: HttpRequest) -> HttpResponse:
    """The new-list form. A visitor without an account may build too: creating the list starts
    a guest session (`accounts.guests`), whose lists follow them when they sign up or log in."""
    systems = registered_systems()
    if not systems:
        return render(request, "armybuilder/list_create.html", {"systems": [], "form": None})
    by_key = {system.key: system for system in systems}
    system = by_key.get(request.POST.get("system") or request.GET.get("system") or "", systems[0])
    form = ArmyListCreateForm(request.POST or None, user=request.user, system=system)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            if not request.user.is_authenticated:
                guest_start(request)
            try:
                army_list = services.army_list_create(
                    owner=request.user,
                    system=system,
                    faction=form.cleaned_data["faction"],
                    name=form.cleaned_data["name"],
                    # A system sized without points (AoS) asks for none: the stored limit is unused.
                    points_limit=form.cleaned_data.get("points_limit", POINTS_LIMIT_MAX),
                    structure_options=form.structure_options(),
                    is_public=form.cleaned_data["is_public"],
                    settings=form.list_settings(),
                )
            except ArmyListError as error:
                for path, message in error.errors:
                    name = path.replace("settings.", SETTING_PREFIX, 1)  # a list setting's own input
                    form.add_error(name if name in form.fields else None, message)
            else:
                return HttpResponseRedirect(_editor_url(army_list))
        status = 400
    template = (
        "armybuilder/_list_create_form.html"
        if request.htmx and request.method == "GET"
        else "armybuilder/list_create.html"
    )
    context = {
        "systems": systems,
        "system": system,
        "form": form,
        "has_factions": form.fields["faction"].queryset.exists(),
        "building_as_visitor": not request.user.is_authenticated or is_guest(request.user),
        "battlescribe_url": _battlescribe_upload_url(),
    }
    return render(request, template, context, status=status)


def _battlescribe_upload_url() -> str | None:
    """The BattleScribe import page, when this install has one (it is an optional feature)."""
    for name in ("battlescribe_upload", "rules:battlescribe_upload", "lists:battlescribe_upload"):
        try:
            return reverse(name)
        except NoReverseMatch:
            continue
    return None


@require_GET
def detail(request: HttpRequest, list_id: int) -> HttpResponse:
    """The editor for the owner; a read-only page for anyone else who may read the list."""
    army_list = selectors.army_list_get_for_user(user=request.user, list_id=list_id)
    if army_list is None:
        # Still a 404, but a page that says why a list may not open here (a guest's list lives
        # only in the browser that built it) and what to do, not a bare "Not found".
        return render(request, "armybuilder/list_missing.html", status=404)
    can_edit = request.user.is_authenticated and army_list.owner_id == request.user.pk
    response = render(
        request, "armybuilder/list_detail.html", _page_context(request, army_list, can_edit=can_edit)
    )
    # The player's own list is kept for reading offline (`armybuilder.offline`).
    return offline.mark_offline_copy(response) if can_edit else response


@require_GET
def shared(request: HttpRequest, token: str) -> HttpResponse:
    """A list opened through its share link: read-only, for anyone, while the link is not revoked."""
    army_list = selectors.army_list_by_share_token(token=token)
    if army_list is None:
        raise Http404
    context = _page_context(request, army_list, can_edit=False)
    context["via_token"] = token
    return render(request, "armybuilder/list_detail.html", context)


@login_required
@require_POST
def update(request: HttpRequest, list_id: int) -> HttpResponse:
    army_list = _list_for_edit(request, list_id)
    form = ArmyListSettingsForm(request.POST, army_list=army_list)
    if not form.is_valid():
        error = ArmyListError((name, message) for name, errors in form.errors.items() for message in errors)
        if request.htmx:
            return _error_response(request, army_list, error)
        status, alert = _alert_for(army_list, error)
        return _render_editor(request, army_list, status=status, alert=alert, settings_form=form)

    def action(version: int) -> HttpResponse:
        services.army_list_update(
            army_list=army_list,
            expected_version=version,
            name=form.cleaned_data["name"],
            points_limit=form.cleaned_data.get("points_limit", army_list.points_limit),
            structure_options=form.structure_options(),
            is_public=form.cleaned_data["is_public"],
            settings=form.list_settings(),
        )
        if not request.htmx:
            messages.success(request, _("List settings saved."))
            return HttpResponseRedirect(_editor_url(army_list))
        return _fragments(
            request,
            army_list,
            (
                "armybuilder/_list_settings.html",
                {"settings_form": ArmyListSettingsForm(army_list=army_list), "saved": True},
            ),
            ("armybuilder/_list_title.html", {"oob": True}),
        )

    return _change(request, army_list, action)


def _force_form(army_list: ArmyList, data: Any = None) -> RosterForceForm | None:
    """The force picker of a list whose faction has forces to choose from, else None."""
    choices = backends.force_choices(army_list)
    if not choices:
        return None
    return RosterForceForm(data, choices=choices, current=backends.current_force(army_list))


@login_required
@require_POST
def roster_force(request: HttpRequest, list_id: int) -> HttpResponse:
    """Build the list in another force (detachment) of its catalogue: every unit is rebuilt by
    the roster engine in it. A refused choice is shown inside the picker (400)."""
    army_list = _list_for_edit(request, list_id)
    form = _force_form(army_list, request.POST)
    if form is None:
        raise NotApplicable(_("This list is not built in a BattleScribe force, so it has no other force to "
                              "move to: forces come with factions imported from BattleScribe data."))
    if not form.is_valid():
        if request.htmx:
            return render(request, "armybuilder/_list_force.html",
                          {"army_list": army_list, "force_form": form, "can_edit": True}, status=400)
        return _render_editor(request, army_list, status=400, force_form=form)

    def action(version: int) -> HttpResponse:
        try:
            services.army_list_update(
                army_list=army_list, expected_version=version, roster_force=form.cleaned_data["roster_force"]
            )
        except ArmyListError as error:
            for field, message in error.errors:
                form.add_error("roster_force" if field == "roster_force" else None, message)
            if request.htmx:
                return render(request, "armybuilder/_list_force.html",
                              {"army_list": army_list, "force_form": form, "can_edit": True}, status=400)
            return _render_editor(request, army_list, status=400, force_form=form)
        if not request.htmx:
            messages.success(request, _("The list is now built in this force."))
            return HttpResponseRedirect(_editor_url(army_list))
        units = selectors.army_list_units(army_list=army_list)
        return _fragments(
            request,
            army_list,
            ("armybuilder/_list_force.html", {"force_form": _force_form(army_list), "saved": True}),
            ("armybuilder/_unit_rows_oob.html", {"units": units}),
        )

    return _change(request, army_list, action)


@login_required
@require_http_methods(["GET", "POST"])
def delete(request: HttpRequest, list_id: int) -> HttpResponse:
    """A confirmation page (GET), then the deletion (POST)."""
    army_list = _list_for_edit(request, list_id)
    if request.method == "GET":
        return render(request, "armybuilder/list_delete.html", {"army_list": army_list})
    try:
        services.army_list_delete(army_list=army_list, expected_version=_version(request))
    except (StaleListError, ArmyListError):
        army_list.refresh_from_db()
        messages.error(request, _("The list changed since you opened this page; check it before deleting."))
        return render(request, "armybuilder/list_delete.html", {"army_list": army_list}, status=409)
    messages.success(request, _("List “%(name)s” deleted.") % {"name": army_list.name})
    return HttpResponseRedirect(reverse("lists:mine"))


@require_POST
def fork(request: HttpRequest, list_id: int | None = None, token: str | None = None) -> HttpResponse:
    """Copy a list the user can read (by id, or through its share link) into their account."""
    source = (
        selectors.army_list_by_share_token(token=token)
        if token is not None
        else selectors.army_list_get_for_user(user=request.user, list_id=list_id or 0)
    )
    if source is None:
        raise Http404
    if not request.user.is_authenticated:
        # Back to the list after logging in (the fork URL itself only takes POST).
        page = reverse("lists:shared", args=[token]) if token is not None else _editor_url(source)
        return HttpResponseRedirect(f"{reverse('login')}?{urlencode({'next': page})}")
    copy = services.army_list_fork(army_list=source, user=request.user)
    messages.success(
        request, _("This is your copy of “%(name)s”. Change it as you like.") % {"name": source.name}
    )
    return HttpResponseRedirect(_editor_url(copy))


@login_required
@require_POST
def share(request: HttpRequest, list_id: int) -> HttpResponse:
    army_list = _list_for_edit(request, list_id)

    def action(version: int) -> HttpResponse:
        sharing.army_list_share(army_list=army_list, expected_version=version)
        messages.success(request, _("Anyone with the link can now read this list."))
        return HttpResponseRedirect(_editor_url(army_list, "sharing"))

    return _change(request, army_list, action)


@login_required
@require_POST
def lock(request: HttpRequest, list_id: int) -> HttpResponse:
    """"Lock and share": a frozen copy of the list as it is now, with its own link."""
    army_list = _list_for_edit(request, list_id)

    def action(version: int) -> HttpResponse:
        locked = locks.army_list_lock(army_list=army_list, expected_version=version)
        message = _("Locked: this version will never change. Its fingerprint is %(fingerprint)s.")
        messages.success(request, message % {"fingerprint": locked.fingerprint})
        # Back to the editor's sharing panel with the new version's link ready to send.
        url = reverse("lists:detail", args=[army_list.pk])
        return HttpResponseRedirect(f"{url}?{urlencode({'locked': locked.share_token})}#sharing")

    return _change(request, army_list, action)


@login_required
@require_POST
def unshare(request: HttpRequest, list_id: int) -> HttpResponse:
    army_list = _list_for_edit(request, list_id)

    def action(version: int) -> HttpResponse:
        sharing.army_list_unshare(army_list=army_list, expected_version=version)
        messages.success(request, _("The share link no longer works."))
        return HttpResponseRedirect(_editor_url(army_list, "sharing"))

    return _change(request, army_list, action)


@login_required
@require_http_methods(["GET", "POST"])
def import_list(request: HttpRequest) -> HttpResponse:
    """Import a list from a file, pasted text or an Army Forge link; "Check" reports without saving.

    The request checks the form (sizes, fields) and queues the import on the worker
    (`import_jobs`); it redirects to the job's page, which polls until the list is saved (then
    the editor), the report is ready, or the problems are known."""
    form = ImportForm(request.POST or None, request.FILES or None, user=request.user)
    errors: list[tuple[str, str]] = []
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            cleaned = form.cleaned_data
            faction = cleaned["faction"]
            try:
                if cleaned["data"] is not None:
                    name, data, text = cleaned["name"], cleaned["data"], ""
                else:
                    name, data, text = import_input_of(text=cleaned["text"])
                job = import_jobs.queue_list_import(
                    owner_id=request.user.pk, language=get_language(), mode="page", name=name, data=data,
                    text=text, format=cleaned.get("format") or "auto",
                    system_key=cleaned.get("system") or None,
                    faction_id=faction.pk if faction is not None else None,
                    dry_run=request.POST.get("action") == "check")
            except ArmyListError as error:
                errors = error.errors
            except import_jobs.ImportThrottled as exc:
                errors = [("", _("You have started many imports lately; try again in %(minutes)d min.")
                           % {"minutes": max(1, round(exc.wait / 60))})]
                response = render(request, "armybuilder/list_import.html",
                                  {"form": form, "import_errors": errors}, status=429)
                response["Retry-After"] = str(int(exc.wait))
                return response
            except import_jobs.ImportUnavailable:
                errors = [("", _("Imports cannot be queued right now; nothing was stored. "
                                 "Try again in a minute."))]
                status = 503
            else:
                return HttpResponseRedirect(reverse("lists:import_job", args=[job.id]))
    return render(
        request, "armybuilder/list_import.html", {"form": form, "import_errors": errors}, status=status
    )


#: How many finished imports a session remembers having announced (`_first_sight`).
ANNOUNCED_IMPORTS_KEPT = 20


def _first_sight(request: HttpRequest, job_id: str) -> bool:
    """Whether this is the first request to see the finished import `job_id`: its "imported"
    message is shown once. Two polls in flight when the worker finishes (a loaded server
    answers the second before the browser follows the first's redirect) both see the end, and
    a reload of the job's address sees it again; each added the message, and the editor showed
    it twice. The session keeps the last few announced jobs."""
    announced = request.session.get("announced_imports", [])
    if job_id in announced:
        return False
    request.session["announced_imports"] = [*announced, job_id][-ANNOUNCED_IMPORTS_KEPT:]
    return True


@login_required
@require_GET
def import_job(request: HttpRequest, job_id: str) -> HttpResponse:
    """A list import's page: waiting (htmx polls the fragment), then what the synchronous import
    showed: the editor of the saved list, the report, or the form again with each problem (the
    roster form for a BattleScribe roster's import)."""
    try:
        job = import_jobs.list_import_state(job_id=job_id, owner_id=request.user.pk)
    except import_jobs.ImportUnavailable:
        form = ImportForm(user=request.user)
        errors = [("", _("The import's state cannot be read right now; try again in a minute."))]
        return render(request, "armybuilder/list_import.html", {"form": form, "import_errors": errors},
                      status=503)
    if job is None:
        raise Http404(_("No such import (it is kept for an hour)."))
    here = reverse("lists:import_job", args=[job.id])
    if not job.finished:
        context = {"job": job, "retry_after": import_jobs.RETRY_AFTER}
        template = ("armybuilder/_list_import_job.html" if getattr(request, "htmx", False)
                    else "armybuilder/list_import_job.html")
        response = render(request, template, context)
        response["Retry-After"] = str(import_jobs.RETRY_AFTER)
        response["Cache-Control"] = "no-store"
        return response
    result = job.result or {}
    editor = reverse("lists:detail", args=[result["list_id"]]) if result.get("list_id") else ""
    direct = job.state == "done" and bool(result.get("direct"))
    if direct and _first_sight(request, job.id):
        if job.is_roster:
            messages.success(request, _("Roster imported as a list."))
            for difference in (result.get("roster") or {}).get("differences", []):
                messages.warning(request, difference)
        else:
            messages.success(request, _("List imported."))
    if getattr(request, "htmx", False):  # the poll sees the end: the whole page shows it
        response = HttpResponse()
        response["HX-Redirect"] = editor if direct else here
        return response
    if job.state == "failed" and job.is_roster:
        return roster_form(request, chosen=job.request.get("system", ""),
                           errors=[message for _field, message in job.errors])
    if job.state == "failed":
        asked = job.request
        form = ImportForm(initial={"text": asked.get("text", ""), "format": asked.get("format") or "auto",
                                   "system": asked.get("system", ""), "faction": asked.get("faction")},
                          user=request.user)
        return render(request, "armybuilder/list_import.html", {"form": form, "import_errors": job.errors})
    if direct:
        return HttpResponseRedirect(editor)
    outcome = {"saved": result["saved"], "list_name": result.get("list_name", ""),
               "faction": result.get("faction")}
    return render(request, "armybuilder/list_import_report.html", {
        "outcome": outcome, "report": result["rows"], "editor_url": editor})


# ----------------------------------------------------------------------------- units (htmx)


@login_required
@require_POST
def unit_add(request: HttpRequest, list_id: int) -> HttpResponse:
    army_list = _list_for_edit(request, list_id)

    def action(version: int) -> HttpResponse:
        template_id = parse_int(request.POST.get("unit"), field="unit", minimum=1, maximum=2**63 - 1)
        template = selectors.army_list_unit_choice(
            army_list=army_list, unit_id=template_id, with_menu=backends.reads_upgrade_menus(army_list)
        )
        if template is None:
            raise ArmyListError([("unit", _("No such unit for this list."))])
        before = army_list.unit_count
        added = services.army_list_add_unit(
            army_list=army_list, unit=template, options={}, expected_version=version
        )
        added.army_list = army_list
        if request.htmx and army_list.unit_count > before + 1:
            # More than the unit came in (a roster's first unit brings what its force requires,
            # before it): a row for each.
            came = list(army_list.units.filter(position__gte=before).order_by("position"))
            for unit in came:
                unit.army_list = army_list
            rows = [("armybuilder/_unit_row.html", {"unit": unit, "is_new": True}) for unit in came]
            return _fragments(request, army_list, *rows)
        if not request.htmx:
            return HttpResponseRedirect(_editor_url(army_list, f"unit-{added.pk}"))
        return _fragments(request, army_list, ("armybuilder/_unit_row.html", {"unit": added, "is_new": True}))

    return _change(request, army_list, action)


@login_required
@require_POST
def unit_options(request: HttpRequest, list_id: int, unit_id: int) -> HttpResponse:
    army_list, list_unit = _unit_for_edit(request, list_id, unit_id)

    def action(version: int) -> HttpResponse:
        counts: dict[str, int] | None = None
        try:
            counts = parse_option_counts(request.POST, menu=list_unit.available_options)
            services.army_list_unit_set_options(list_unit=list_unit, options=counts, expected_version=version)
        except ArmyListError as error:
            if not request.htmx:
                raise
            return _refused_row(
                request, army_list, list_unit, open=True, option_errors=error.errors, submitted=counts or {}
            )
        return _unit_row_changed(request, army_list, list_unit, open=True)

    return _change(request, army_list, action)


@login_required
@require_POST
def unit_duplicate(request: HttpRequest, list_id: int, unit_id: int) -> HttpResponse:
    army_list, list_unit = _unit_for_edit(request, list_id, unit_id)

    def action(version: int) -> HttpResponse:
        copy = services.army_list_unit_duplicate(list_unit=list_unit, expected_version=version)
        copy.army_list = army_list
        if not request.htmx:
            return HttpResponseRedirect(_editor_url(army_list, f"unit-{copy.pk}"))
        return _fragments(request, army_list, ("armybuilder/_unit_row.html", {"unit": copy, "is_new": True}))

    return _change(request, army_list, action)


@login_required
@require_POST
def unit_move(request: HttpRequest, list_id: int, unit_id: int) -> HttpResponse:
    """Move a unit one place up or down (`direction`), or to a `position` (0 is first)."""
    army_list, list_unit = _unit_for_edit(request, list_id, unit_id)

    def action(version: int) -> HttpResponse:
        direction = request.POST.get("direction")
        if direction in ("up", "down"):
            position = list_unit.position + (-1 if direction == "up" else 1)
        elif "position" in request.POST:
            position = parse_int(request.POST.get("position"), field="position", maximum=10**4)
        else:
            raise ArmyListError([("direction", _("Say “up”, “down” or a position."))])
        units = services.army_list_unit_move(list_unit=list_unit, position=position, expected_version=version)
        for unit in units:
            unit.army_list = army_list
        if not request.htmx:
            return HttpResponseRedirect(_editor_url(army_list, f"unit-{list_unit.pk}"))
        return _fragments(request, army_list, ("armybuilder/_unit_rows.html", {"units": units}))

    return _change(request, army_list, action)


@login_required
@require_POST
def unit_remove(request: HttpRequest, list_id: int, unit_id: int) -> HttpResponse:
    army_list, list_unit = _unit_for_edit(request, list_id, unit_id)

    def action(version: int) -> HttpResponse:
        services.army_list_unit_remove(list_unit=list_unit, expected_version=version)
        if not request.htmx:
            messages.success(request, _("“%(name)s” removed.") % {"name": list_unit.display_name})
            return HttpResponseRedirect(_editor_url(army_list, "units"))
        return _fragments(request, army_list, focus_undo=True)

    return _change(request, army_list, action)


@login_required
@require_POST
def unit_details(request: HttpRequest, list_id: int, unit_id: int) -> HttpResponse:
    """The player's name, notes and group for a unit; a refused value comes back beside its field."""
    army_list, list_unit = _unit_for_edit(request, list_id, unit_id)

    def action(version: int) -> HttpResponse:
        try:
            services.army_list_unit_set_details(
                list_unit=list_unit,
                custom_name=request.POST.get("custom_name", ""),
                notes=request.POST.get("notes", ""),
                group=request.POST.get("group", ""),
                group_kind=request.POST.get("group_kind"),  # only sent where groups have kinds
                expected_version=version,
            )
        except ArmyListError as error:
            if not request.htmx:
                raise
            return _refused_row(
                request,
                army_list,
                list_unit,
                details_open=True,
                detail_errors=dict(error.errors),
                detail_values=request.POST,
            )
        return _unit_row_changed(request, army_list, list_unit, details_open=True)

    return _change(request, army_list, action)


@login_required
@require_POST
def unit_clear_options(request: HttpRequest, list_id: int, unit_id: int) -> HttpResponse:
    """Every option back to how the unit comes; the page then offers Undo."""
    army_list, list_unit = _unit_for_edit(request, list_id, unit_id)

    def action(version: int) -> HttpResponse:
        services.army_list_unit_clear_options(list_unit=list_unit, expected_version=version)
        if not request.htmx:
            messages.success(request, _("Upgrades of “%(name)s” cleared.") % {"name": list_unit.display_name})
            return HttpResponseRedirect(_editor_url(army_list, f"unit-{list_unit.pk}"))
        return _fragments(
            request, army_list, ("armybuilder/_unit_row.html", {"unit": list_unit, "open": True})
        )

    return _change(request, army_list, action)


@login_required
@require_POST
def undo(request: HttpRequest, list_id: int) -> HttpResponse:
    """Undo the last removal or clearing of options; the rows come back with the unit highlighted."""
    army_list = _list_for_edit(request, list_id)

    def action(version: int) -> HttpResponse:
        restored = services.army_list_undo(army_list=army_list, expected_version=version)
        if not request.htmx:
            messages.success(request, _("“%(name)s” is back.") % {"name": restored.display_name})
            return HttpResponseRedirect(_editor_url(army_list, f"unit-{restored.pk}"))
        units = selectors.army_list_units(army_list=army_list)
        return _fragments(
            request, army_list, ("armybuilder/_unit_rows.html", {"units": units, "new_pk": restored.pk})
        )

    return _change(request, army_list, action)
