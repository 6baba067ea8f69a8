"""Every operation on every kind of list (issue 36; DESIGN "A matrix, not a list of features").

The test is parametrised over both axes — `kinds.KINDS` (a bundled faction of each system,
factions imported from BattleScribe files of each real shape, lists imported from Army Forge,
a roster and text, a guest's list, a locked snapshot) and `operations.OPERATIONS` (every page,
htmx action and API route that reads or changes a list) — so a new kind of list or a new route
cannot skip the other axis.

Each cell answers:
- never a 5xx;
- 2xx or a redirect where the operation applies and the list may change;
- a 4xx where it does not apply (the points audit of a list not priced by a formula, a force
  for a list with no BattleScribe source), saying why;
- a 4xx for every change to a locked snapshot, which then is exactly as it was.

The lists are built once per module inside a transaction rolled back at the end; each cell runs
in a savepoint of its own (pytest-django's `db`), so a cell's change never reaches the next.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse

from armybuilder.lists.backends import engine_units as roster_units
from armybuilder.lists.interchange import army_list_to_dict
from armybuilder.models import ArmyList
from tests.armybuilder.every_list.kinds import KINDS, Built, World
from tests.armybuilder.every_list.operations import (
    OPERATIONS,
    Cell,
    Operation,
    formula_priced,
    writes_army_forge,
)
from tests.factories.army_lists import token_client


@pytest.fixture(scope="module")
def built(django_db_setup: None, django_db_blocker: Any) -> Iterator[dict[str, Built]]:
    """Every kind of list, built once for the module and rolled back after it."""
    with django_db_blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
        try:
            world = World.make()
            yield {name: build(world) for name, build in KINDS.items()}
        finally:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)


@pytest.fixture(autouse=True)
def throttle_free(settings: Any) -> None:
    """A private counter store: the matrix makes hundreds of requests as one player."""
    settings.CACHES = {
        **settings.CACHES,
        settings.API_THROTTLE_CACHE: {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "every-list",
        },
    }
    rest = dict(settings.REST_FRAMEWORK)
    rest["DEFAULT_THROTTLE_RATES"] = {key: "100000/hour" for key in rest["DEFAULT_THROTTLE_RATES"]}
    settings.REST_FRAMEWORK = rest


def _cell(made: Built) -> Cell:
    made.army_list = ArmyList.objects.select_related("system", "faction").get(pk=made.army_list.pk)
    page = Client()
    page.force_login(made.owner)
    return Cell(built=made, page=page, api=token_client(made.owner))


def _snapshot(army_list: ArmyList) -> dict[str, Any]:
    army_list = ArmyList.objects.get(pk=army_list.pk)
    units = list(army_list.units.order_by("position"))
    return {
        "version": army_list.version,
        "file": army_list_to_dict(army_list=army_list, units=units),
        "rows": [(u.name, u.points, u.chosen_options) for u in units],
    }


@pytest.mark.parametrize("operation", OPERATIONS, ids=[o.name for o in OPERATIONS])
@pytest.mark.parametrize("kind", list(KINDS))
def test_every_operation_on_every_kind_of_list(
    db: None, built: dict[str, Built], kind: str, operation: Operation
) -> None:
    cell = _cell(built[kind])
    refused = cell.built.locked and operation.changes
    applies = operation.applies_to(cell)
    before = _snapshot(cell.army_list) if refused else None
    response = operation.call(cell)
    status = response.status_code
    body = response.content[:600]
    assert status < 500, (kind, operation.name, status, body)
    if refused:
        assert 400 <= status < 500, (kind, operation.name, "a locked list must refuse it", status)
        assert _snapshot(cell.army_list) == before
    elif not applies:
        assert 400 <= status < 500, (kind, operation.name, "does not apply here: must answer 4xx", status)
    else:
        assert status < 400, (kind, operation.name, status, body)


@pytest.mark.parametrize("kind", list(KINDS))
def test_configuration_rows_are_the_rosters_not_units(db: None, built: dict[str, Built], kind: str) -> None:
    """One source of truth for what a unit is: the count every page shows, the export's units
    and the API's list agree, and a roster's configuration (battle size, allegiance) is none of them."""
    cell = _cell(built[kind])
    units = cell.units
    fielded = roster_units.fielded(units)
    exported = cell.api_call("get", f"shared/{cell.token}/export/json").json()
    assert [entry["unit"]["name"] for entry in exported["units"]] == [u.name for u in fielded]
    assert cell.army_list.unit_count == len(fielded)
    answer = cell.api_call("get", f"shared/{cell.token}").json()
    assert answer["unit_count"] == len(fielded)
    assert sum(u.points for u in units) == cell.army_list.total_points


#: Features that apply to some lists only: (the predicate, the link the editor offers them by).
PARTIAL_FEATURES = {
    "points audit": (formula_priced, "lists:audit"),
    "Army Forge export": (writes_army_forge, "lists:export_army_forge"),
}


@pytest.mark.parametrize("feature", list(PARTIAL_FEATURES))
@pytest.mark.parametrize("kind", [name for name in KINDS if name != "locked_snapshot"])
def test_a_feature_is_offered_where_it_applies_and_refused_with_a_reason_elsewhere(
    db: None, built: dict[str, Built], kind: str, feature: str
) -> None:
    cell = _cell(built[kind])
    applies, route = PARTIAL_FEATURES[feature]
    editor = cell.get("lists:detail", cell.list_id).content.decode()
    link = reverse(route, args=[cell.list_id])
    assert (f'href="{link}"' in editor) == applies(cell), (kind, feature)
    if not applies(cell) and route == "lists:export_army_forge":
        answer = cell.api_call("get", f"lists/{cell.list_id}/export/army-forge")
        assert answer.status_code == 404
        assert answer.json()["message"] == "Army Forge has no lists of this game system."
    if not applies(cell) and route == "lists:audit":
        answer = cell.api_call("get", f"lists/{cell.list_id}/audit")
        assert answer.status_code == 404
        assert answer.json()["message"] == (
            "This game system prices units from its book: there is no formula to audit them against."
        )


@pytest.mark.parametrize("kind", list(KINDS))
def test_the_api_read_from_a_stored_document_is_the_serializers_on_every_kind(
    db: None, built: dict[str, Built], kind: str, settings: Any
) -> None:
    """`armybuilder/api/list_documents.py`: the bytes and headers a read takes from the list's
    stored document are the serializer's, in English and in Polish (a locked snapshot is read
    through its link only, never by id: not stored)."""
    from tests.armybuilder.api.test_api_list_documents import assert_read_from_document

    cell = _cell(built[kind])
    if cell.built.locked:
        assert cell.api.get(f"/api/v1/lists/{cell.army_list.pk}").status_code == 404
        return
    for language in ("en", "pl"):
        assert_read_from_document(cell.api, cell.army_list.pk, settings, language)
