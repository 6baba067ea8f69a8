"""The editor page, the read-only page and the roster cost a fixed number of queries,
whatever the number of units (no N+1)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from armybuilder.lists import services
from armybuilder.lists.sharing import army_list_share
from armybuilder.models import ListUnit
from tests.factories.army_lists import BRUTES, make_faction, make_list, make_unit, make_user

pytestmark = pytest.mark.django_db


def list_with(units: int, *, owner, faction, templates):
    army_list = make_list(owner=owner, faction=faction, name=f"{units} units", points_limit=10000)
    first = services.army_list_add_unit(
        army_list=army_list, unit=templates[0], options={"plasma": 1}, expected_version=army_list.version
    )
    services.army_list_add_unit(
        army_list=army_list, unit=templates[1], options={}, expected_version=army_list.version
    )
    ListUnit.objects.bulk_create(
        services.copy_list_unit(first, army_list=army_list, position=position) for position in range(2, units)
    )
    services.army_list_update(army_list=army_list, expected_version=army_list.version, name=army_list.name)
    return army_list


def queries_for(client, url: str) -> int:
    with CaptureQueriesContext(connection) as context:
        response = client.get(url)
    assert response.status_code == 200
    return len(context.captured_queries)


def test_editor_page_queries_do_not_grow_with_units(client):
    owner = make_user()
    faction = make_faction()
    templates = [make_unit(faction=faction), make_unit(faction=faction, data=BRUTES, with_options=False)]
    make_faction(owner=owner)  # a homebrew faction of the owner: its units are offered too
    small = list_with(5, owner=owner, faction=faction, templates=templates)
    large = list_with(30, owner=owner, faction=faction, templates=templates)
    client.force_login(owner)
    small_count = queries_for(client, reverse("lists:detail", args=[small.pk]))
    large_count = queries_for(client, reverse("lists:detail", args=[large.pk]))
    assert large.unit_count == 30
    assert small_count == large_count
    assert large_count <= 8


def test_read_only_pages_and_rosters_do_not_grow_with_units(client):
    owner = make_user()
    faction = make_faction()
    templates = [make_unit(faction=faction), make_unit(faction=faction, data=BRUTES, with_options=False)]
    small = list_with(5, owner=owner, faction=faction, templates=templates)
    large = list_with(30, owner=owner, faction=faction, templates=templates)
    tokens = {
        pk: army_list_share(army_list=army_list, expected_version=None)
        for pk, army_list in ((small.pk, small), (large.pk, large))
    }
    for name in (
        "lists:shared",
        "lists:shared_roster",
        "lists:shared_roster_text",
        "lists:shared_export_json",
    ):
        counts = [queries_for(client, reverse(name, args=[tokens[pk]])) for pk in (small.pk, large.pk)]
        assert counts[0] == counts[1], name


def _edit_queries(client, url: str, data: dict, version: int) -> int:
    with CaptureQueriesContext(connection) as context:
        response = client.post(url, data, HTTP_HX_REQUEST="true", HTTP_X_LIST_VERSION=str(version))
    assert response.status_code == 200, response.content[:300]
    return len(context.captured_queries)


#: Session, user, the list, the template with its options (one query), BEGIN, the row lock
#: with the units (one query), the insert, the list's update, COMMIT (issue 15's benchmark:
#: each query is a round trip).
ADD_UNIT_QUERIES = 9
#: Session, user, the unit with its list (one query), BEGIN, the row lock with the units, the
#: unit's update, the list's update, COMMIT.
CHANGE_OPTION_QUERIES = 8


def test_an_edit_costs_a_fixed_number_of_queries_whatever_the_list_size(client):
    """Adding a unit and changing an option re-validate the whole list, but read it in one query:
    the count is the same for 5 and 30 units, and bounded (a query count is deterministic, unlike
    the timing `bench/bench_builder.py` reports)."""
    owner = make_user()
    faction = make_faction()
    templates = [make_unit(faction=faction), make_unit(faction=faction, data=BRUTES, with_options=False)]
    client.force_login(owner)
    counts = []
    for size in (5, 30):
        army_list = list_with(size, owner=owner, faction=faction, templates=templates)
        army_list.refresh_from_db()
        add = _edit_queries(client, reverse("lists:unit_add", args=[army_list.pk]),
                            {"unit": templates[0].pk}, army_list.version)
        army_list.refresh_from_db()
        unit = ListUnit.objects.filter(army_list=army_list).order_by("position").first()
        option = _edit_queries(client, reverse("lists:unit_options", args=[army_list.pk, unit.pk]),
                               {}, army_list.version)
        army_list.refresh_from_db()
        assert army_list.unit_count == size + 1
        # the change was saved
        assert unit.chosen_options and not ListUnit.objects.get(pk=unit.pk).chosen_options
        counts.append((add, option))
    assert counts[0] == counts[1]
    assert counts[1][0] <= ADD_UNIT_QUERIES
    assert counts[1][1] <= CHANGE_OPTION_QUERIES


def test_an_edit_reads_no_profile_schema_of_the_system(client):
    """The system's profile schema (tens of kilobytes of JSON for 40k) is never read by a
    click of the editor: the list or unit it changes is read without it (the rules read the
    registry's), on an add as on a change of options, and the answer is whole all the same."""
    owner = make_user()
    faction = make_faction()
    template = make_unit(faction=faction)
    client.force_login(owner)
    army_list = list_with(3, owner=owner, faction=faction, templates=[template, template])
    army_list.refresh_from_db()
    sqls = []
    for url, data in (
        (reverse("lists:unit_add", args=[army_list.pk]), {"unit": template.pk}),
        (reverse("lists:unit_options", args=[army_list.pk, army_list.units.order_by("position")[0].pk]), {}),
    ):
        army_list.refresh_from_db()
        version = str(army_list.version)
        with CaptureQueriesContext(connection) as context:
            response = client.post(url, data, HTTP_HX_REQUEST="true", HTTP_X_LIST_VERSION=version)
        assert response.status_code == 200, response.content[:300]
        assert b'id="list-totals"' in response.content
        sqls += [query["sql"] for query in context.captured_queries]
    assert any('"rules_gamesystem"' in sql for sql in sqls)  # the system's row is read (its key, name)
    assert not [sql for sql in sqls if "profile_schema" in sql]


def test_the_text_export_reads_no_unit_before_options(client):
    """The roster text needs each unit as it is, not as it was before its options: the
    documents it never reads are left in the database (`selectors.ROSTER_UNREAD`)."""
    owner = make_user()
    faction = make_faction()
    templates = [make_unit(faction=faction), make_unit(faction=faction, data=BRUTES, with_options=False)]
    army_list = list_with(5, owner=owner, faction=faction, templates=templates)
    token = army_list_share(army_list=army_list, expected_version=None)
    with CaptureQueriesContext(connection) as context:
        response = client.get(reverse("lists:shared_roster_text", args=[token]))
    assert response.status_code == 200
    [units_query] = [q["sql"] for q in context.captured_queries if 'FROM "armybuilder_listunit"' in q["sql"]]
    assert '"armybuilder_listunit"."base_data"' not in units_query
    assert '"armybuilder_listunit"."data"' in units_query
