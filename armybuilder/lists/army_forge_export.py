"""A list as Army Forge's share JSON: what Tabletop Simulator tools read.

Offered for a list whose system writes Army Forge units (`GameSystem.foreign_units`); the
shape is the system's (`write_list`). Our importer reads it back (`importers.army_forge`).
"""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from armybuilder.lists import selectors
from armybuilder.lists.backends import rows as list_rows
from armybuilder.lists.errors import NotApplicable
from armybuilder.models import ArmyList, ListUnit
from armybuilder.roster.views import readable_list
from rules.systems.registry import get_system

FORMAT = "army_forge"


def army_forge_document(*, army_list: ArmyList, units: list[ListUnit]) -> dict[str, Any]:
    """The list in Army Forge's share-JSON shape; `LookupError` if its system has no such writer."""
    writer = get_system(army_list.system.key).foreign_units.get(FORMAT)
    if writer is None:
        raise LookupError(army_list.system.key)
    return writer.write_list(
        list_id=f"army-builder-{army_list.pk}",
        name=army_list.name,
        points_limit=army_list.points_limit if army_list.points_sized else None,
        units=[(u.data or {}, u.points, u.custom_name, f"unit-{u.pk}") for u in list_rows.fielded(units)],
    )


@require_GET
def list_army_forge(
    request: HttpRequest, list_id: int | None = None, token: str | None = None
) -> HttpResponse:
    """The list as an Army Forge JSON download (404 for a system Army Forge does not have)."""
    army_list = readable_list(request, list_id, token)
    try:
        document = army_forge_document(
            army_list=army_list, units=selectors.army_list_units(army_list=army_list)
        )
    except LookupError:
        raise NotApplicable(_("Army Forge has no lists of this game system.")) from None
    response = HttpResponse(
        json.dumps(document, ensure_ascii=False, indent=2), content_type="application/json"
    )
    name = slugify(army_list.name) or "army-list"
    response["Content-Disposition"] = f'attachment; filename="{name}.army-forge.json"'
    return response
