"""The list pages' per-unit fragments, rendered once per content (`armybuilder.fragment_cache`).

    {% unit_row unit %}            the editor's row of a unit (`armybuilder/_unit_row.html`)
    {% roster_card card variant %} a roster's card (`rules/_unit_card.html`)

Each renders exactly what `{% include %}` of the same template would, and keeps it under a
digest of what the fragment shows; a row carrying the state of one request (a new row, an
open editor, a refused change's errors) is rendered and never kept.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from django import template
from django.template import Context
from django.urls import get_script_prefix, reverse
from django.utils.formats import localize
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from armybuilder.fragment_cache import cached_fragment, content_digest, templates_digest
from armybuilder.models import ArmyList, ListUnit
from armybuilder.roster.cards import card_content

register = template.Library()

UNIT_ROW = "armybuilder/_unit_row.html"
#: The row and every template it includes: a change to any of them is a new key.
UNIT_ROW_TEMPLATES = (UNIT_ROW, "armybuilder/_unit_group_badge.html", "armybuilder/_unit_gauntlet.html",
                      "armybuilder/_option_consequence.html", "estimates/_link.html")
UNIT_CARD = "rules/_unit_card.html"
UNIT_CARD_TEMPLATES = (UNIT_CARD, "rules/_column_heading.html",
                       "rules/_rule.html")
#: Context of a row that belongs to one request only (`lists.views`' fragments): never kept.
ONE_REQUEST_STATE = ("is_new", "open", "details_open", "option_errors", "submitted", "detail_values",
                     "detail_errors", "badge_oob")
#: A row's form field carrying the list's version (each of its forms has one, `_unit_row.html`).
VERSION_INPUT = '<input type="hidden" name="version" value="{}">'


def _render(name: str, **values: Any) -> Any:
    def render(context: Context) -> str:
        included = context.template.engine.get_template(name)
        with context.push(**values):
            return included.render(context)
    return render


def list_row_content(army_list: ArmyList, *, can_edit: bool, via_token: Any) -> list[Any]:
    """What a row reads of its list besides the version: the list's fields the row's tags
    pass on (option consequences validate the unit with the list's name, limit, options and
    settings; the group kinds; the estimate link), the faction's translations (by its
    `updated` stamp), who reads it and in which language."""
    faction = army_list.faction
    return [army_list.pk, army_list.system_id, army_list.faction_id, faction.updated if faction else None,
            army_list.name, army_list.points_limit, army_list.structure_options, army_list.settings,
            army_list.group_kinds, army_list.roster_force, army_list.locked_at, army_list.share_token,
            bool(can_edit), via_token or "", get_language()]


def unit_content(unit: ListUnit) -> list[Any]:
    """Every stored field of a list unit a row or its tags read."""
    return [unit.pk, unit.template_id, unit.catalogue_ref, unit.name, unit.custom_name, unit.notes,
            unit.group, unit.points, unit.data, unit.base_data, unit.available_options, unit.chosen_options,
            unit.option_points, unit.selection]


@register.simple_tag(takes_context=True)
def unit_row(context: Context, unit: ListUnit) -> SafeString:
    """The editor's row of `unit`, as `{% include "armybuilder/_unit_row.html" %}` renders it."""
    render = _render(UNIT_ROW, unit=unit)
    army_list = context.get("army_list")
    if army_list is None or any(context.get(name) for name in ONE_REQUEST_STATE):
        return mark_safe(render(context))
    key = content_digest(templates_digest(UNIT_ROW_TEMPLATES),
                         list_row_content(army_list, can_edit=context.get("can_edit"),
                                          via_token=context.get("via_token")),
                         unit_content(unit))
    version = VERSION_INPUT.format(army_list.version)
    # Only an editable row has forms: a read-only one never asks for the token (asking sets
    # the CSRF cookie, which a shared list's page does not send).
    editable = bool(context.get("can_edit"))
    return mark_safe(cached_fragment(kind="unit-row", key=key, context=context, render=render,
                                     per_request=[("version", version)], uses_csrf=editable))


@register.simple_tag(takes_context=True)
def roster_card(context: Context, card: Any, variant: str) -> SafeString:
    """A roster's card (`armybuilder.roster.cards.Card`), as `{% include "rules/_unit_card.html"
    with variant=... %}` renders it; kept by the card's content (its rules' texts included)
    but its number, whether the roster shows points, and the language. The number is a slot
    (`cached_fragment`): a list's identical units (three squads of the same loadout) share
    one rendered card, each printed with its own number."""

    def render(context: Context) -> str:
        slots = context.get("fragment_slots")
        shown = card if slots is None else dataclasses.replace(card, number=slots["number"])
        return _render(UNIT_CARD, card=shown, variant=variant)(context)

    roster = context.get("roster")
    points_sized = roster.points_sized if roster is not None else None
    key = content_digest(templates_digest(UNIT_CARD_TEMPLATES), variant, points_sized, get_language(),
                         card_content(card, numbered=False))
    return mark_safe(cached_fragment(kind="roster-card", key=key, context=context, render=render,
                                     slots={"number": str(localize(card.number))}))


#: The editor's per-unit actions (`armybuilder.lists.urls`), by the name a row reads them.
UNIT_ACTIONS = {"options": "lists:unit_options", "clear": "lists:unit_clear_options",
                "details": "lists:unit_details", "reorder": "lists:unit_move",
                "duplicate": "lists:unit_duplicate", "remove": "lists:unit_remove"}
#: Stand-ins for the ids in a reversed action: no real id is this long.
_LIST_ID, _UNIT_ID = 9_876_543_210_123, 9_876_543_210_456
#: The actions' URLs with the stand-in ids, per script prefix (`_action_patterns`).
_PATTERNS: dict[str, dict[str, str]] = {}


@register.simple_tag
def unit_refs(army_list: ArmyList, unit: ListUnit) -> dict[str, str]:
    """What a row names its unit by, as text: `id` (the unit's id, in a dozen element ids), the
    list's `version` (in each form), its `name` and `catalogue_name` (`ListUnit.display_name`
    and `catalogue_name`, each a look-up in the reader's language, asked ten times per row) and
    the URL of each of its actions (`UNIT_ACTIONS`: `options`, ..., `remove`).

    Each action is reversed once per process with stand-in ids, which are then replaced, instead
    of six `{% url %}` tags per row (a 50-unit editor reversed 380 URLs); the id is text, so
    the template does not localize a number thirty times per row."""
    patterns = _action_patterns()
    list_id, unit_id = str(army_list.pk), str(unit.pk)
    refs = {name: pattern.replace(str(_LIST_ID), list_id).replace(str(_UNIT_ID), unit_id)
            for name, pattern in patterns.items()}
    refs["id"], refs["version"] = unit_id, str(army_list.version)
    refs["catalogue_name"] = unit.catalogue_name
    refs["name"] = unit.custom_name or refs["catalogue_name"]
    return refs


def _action_patterns() -> dict[str, str]:
    """Each action's URL with the stand-in ids, reversed once per script prefix."""
    prefix = get_script_prefix()
    found = _PATTERNS.get(prefix)
    if found is None:
        found = {name: reverse(view, args=[_LIST_ID, _UNIT_ID]) for name, view in UNIT_ACTIONS.items()}
        _PATTERNS[prefix] = found
    return found

