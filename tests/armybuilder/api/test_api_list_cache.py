"""Reading a list reuses the representation of its version (`armybuilder/api/list_cache.py`);
nothing a client can see may be stale because of it."""

from __future__ import annotations

from typing import Any

import pytest

from armybuilder.api import list_cache
from armybuilder.models import ArmyList
from rules.models import UnitTemplate


def test_a_second_read_of_the_same_version_builds_nothing(owner_client: Any, private_list: ArmyList,
                                                          django_assert_max_num_queries: Any) -> None:
    url = f"/api/v1/lists/{private_list.pk}"
    first = owner_client.get(url).json()
    with django_assert_max_num_queries(2):  # the token, the list row: no units query
        second = owner_client.get(url).json()
    assert first == second


def test_a_renamed_faction_or_owner_shows_at_once(owner_client: Any, private_list: ArmyList) -> None:
    url = f"/api/v1/lists/{private_list.pk}"
    owner_client.get(url)
    private_list.faction.name = "Renamed Guard"
    private_list.faction.save()
    private_list.owner.username = "new-name"
    private_list.owner.save()

    body = owner_client.get(url).json()
    assert (body["faction_name"], body["owner"]) == ("Renamed Guard", "new-name")


def test_changes_outside_the_list_services_show_within_the_maximum_age(
        owner_client: Any, private_list: ArmyList, units: dict[str, UnitTemplate],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(list_cache, "MAX_AGE_SECONDS", 0.0)  # every entry is already too old
    url = f"/api/v1/lists/{private_list.pk}"
    assert owner_client.get(url).json()["units"][1]["template"] == units["recruits"].pk

    units["recruits"].delete()  # the list unit keeps its snapshot; only `template` becomes null

    assert owner_client.get(url).json()["units"][1]["template"] is None


def test_the_owner_alone_sees_the_share_token_of_a_cached_version(owner_client: Any, other: Any,
                                                                  shared_list: ArmyList) -> None:
    from tests.factories.army_lists import token_client

    shared_list.is_public = True
    shared_list.save()
    url = f"/api/v1/lists/{shared_list.pk}"
    assert owner_client.get(url).json()["share_token"] == shared_list.share_token
    assert token_client(other).get(url).json()["share_token"] is None
    assert owner_client.get(url).json()["share_token"] == shared_list.share_token


def test_with_no_entries_every_read_builds_the_list(owner_client: Any, private_list: ArmyList,
                                                    monkeypatch: pytest.MonkeyPatch, settings: Any,
                                                    django_assert_max_num_queries: Any) -> None:
    """`API_LIST_CACHE_ENTRIES=0` (the cold baseline of bench/bench_api.py) keeps nothing
    (without stored documents, `test_api_list_documents`, which would answer the second read)."""
    settings.API_LIST_DOCUMENTS = False
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    monkeypatch.setattr(list_cache, "MAX_ENTRIES", 0)
    url = f"/api/v1/lists/{private_list.pk}"
    first = owner_client.get(url).json()
    with CaptureQueriesContext(connection) as context:
        second = owner_client.get(url).json()
    assert first == second
    units_queries = [q for q in context.captured_queries if 'FROM "armybuilder_listunit"' in q["sql"]]
    assert len(units_queries) == 1  # the units were read again, once (not again for the summary)


def test_an_uncached_read_of_a_list_without_a_battlescribe_source_is_three_queries(
        owner_client: Any, private_list: ArmyList, monkeypatch: pytest.MonkeyPatch, settings: Any) -> None:
    """The token, the list row (which says whether its faction has a BattleScribe source) and its
    units: no query to learn that a faction imported otherwise offers no forces (the serializing
    path: with stored documents a first read adds the document's statement and its store)."""
    settings.API_LIST_DOCUMENTS = False
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    monkeypatch.setattr(list_cache, "MAX_ENTRIES", 0)
    url = f"/api/v1/lists/{private_list.pk}"
    with CaptureQueriesContext(connection) as context:
        shown = owner_client.get(url).json()
    assert (shown["roster_force"], shown["roster_forces"]) == ("", [])
    sources = 'SELECT "rules_battlescribesource"'
    assert not [q for q in context.captured_queries if q["sql"].startswith(sources)]
    assert len(context.captured_queries) == 3


def test_an_uncached_read_shows_each_units_figures_and_forces_as_computed_in_full(
        example_lists: list[ArmyList], imported_list: ArmyList, monkeypatch: pytest.MonkeyPatch) -> None:
    """On lists of every system and on a list of a faction imported with its BattleScribe source,
    an uncached read shows each unit's figures and the list's forces exactly as the full
    computation gives them (the army written out per unit for the system's `unit_summary`; the
    source looked up by its own query), now that neither is done where nothing can come of it."""
    from rest_framework.test import APIClient

    from armybuilder.lists.backends import backend_for
    from armybuilder.lists.evaluation import army_dict
    from rules.battlescribe_lists import force_choices
    from rules.systems.registry import get_system

    monkeypatch.setattr(list_cache, "MAX_ENTRIES", 0)
    lists = [*example_lists, imported_list]
    for army_list in lists:
        api = APIClient()
        api.force_authenticate(army_list.owner)
        shown = api.get(f"/api/v1/lists/{army_list.pk}").json()
        summarise = get_system(army_list.system.key).unit_summary
        units = {unit.pk: unit for unit in army_list.units.all()}
        assert shown["units"] and len(shown["units"]) == len(units)
        for unit in shown["units"]:
            row = units[unit["id"]]
            row.army_list = army_list
            army = army_dict(army_list=army_list, units=(), backend=backend_for(army_list, (row,)))
            expected = [{**r, "label": str(r.get("label", ""))} for r in summarise(army, row.data)]
            assert unit["summary"] == expected
        forces = [{"id": entry_id, "name": name} for entry_id, name in force_choices(army_list.faction_id)]
        assert shown["roster_forces"] == forces
        assert bool(forces) == (army_list == imported_list)
