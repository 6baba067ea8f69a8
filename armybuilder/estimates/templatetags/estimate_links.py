"""The "Estimate" links other pages show: on a unit card, on each unit of a list, for a list.

One tag per place, so that the catalogue and the builder add one line to their templates
and the estimate URLs (`?unit=`, `?list=&list_unit=`, `?share=` for a list opened by its
share link) are written here only.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django import template
from django.urls import reverse
from django.utils.translation import gettext as _

from armybuilder.estimates.inputs import estimable_in_list

register = template.Library()


def _link(query: dict[str, Any], label: str, name: str) -> dict[str, str]:
    return {"url": f"{reverse('estimates:new')}?{urlencode(query)}", "label": label, "name": name}


def _list_query(army_list: Any, via_token: str) -> dict[str, Any]:
    """A list opened through its share link is named by the link's token (its id alone would
    be a 404 for a visitor who only has the link)."""
    return {"share": via_token} if via_token else {"list": army_list.pk}


@register.inclusion_tag("estimates/_link.html")
def estimate_unit_link(unit: Any) -> dict[str, str]:
    """"Estimate damage" for a catalogue unit (a `rules.models.UnitTemplate`)."""
    return _link({"unit": unit.pk}, _("Estimate damage"), unit.name)


@register.filter
def list_unit_estimable(unit: Any) -> bool:
    """Whether a list unit (a `ListUnit`) can be estimated, so its row offers "Estimate" and
    its gauntlet figures (`inputs.estimable_in_list`): a roster's points-only selections (a
    battle size, a game type: no models) and units imported without a profile are listed and
    priced, never estimated."""
    return estimable_in_list(getattr(unit, "data", None) or {})


@register.inclusion_tag("estimates/_link.html")
def estimate_list_unit_link(army_list: Any, unit: Any, via_token: str = "") -> dict[str, str]:
    """"Estimate" for one unit of a list (a `ListUnit`)."""
    return _link({**_list_query(army_list, via_token), "list_unit": unit.pk}, _("Estimate"), unit.name)


@register.inclusion_tag("estimates/_link.html")
def estimate_list_link(army_list: Any, via_token: str = "") -> dict[str, str]:
    """"Estimate against a list" for a whole list."""
    return _link(_list_query(army_list, via_token), _("Estimate against another list"), army_list.name)
