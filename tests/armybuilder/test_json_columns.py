"""List units' JSON columns (`armybuilder.json_columns`): what is written reads back the same,
and many units go in as one multi-row insert without UNNEST's quoted text arrays."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from armybuilder.json_columns import json_bytes
from armybuilder.models import ListUnit
from tests.factories.army_lists import make_faction, make_list, make_user

pytestmark = pytest.mark.django_db

AWKWARD = {"name": 'Quote " and backslash \\ and ünïcode ✓', "n": [1, 2.5, None, True],
           "nested": {"a": {"b": ["x\ny", "\t"]}}, "big": 2**70}


def test_documents_read_back_as_written():
    army_list = make_list(owner=make_user("owner"), faction=make_faction())
    unit = ListUnit.objects.create(army_list=army_list, name="U", position=0, base_data=AWKWARD,
                                   data=AWKWARD, chosen_options={"1": 2}, option_points={},
                                   available_options=[])
    unit.refresh_from_db()
    assert unit.data == AWKWARD and unit.base_data == AWKWARD and unit.chosen_options == {"1": 2}


def test_many_units_are_one_insert_with_a_placeholder_per_document():
    army_list = make_list(owner=make_user("owner"), faction=make_faction())
    units = [ListUnit(army_list=army_list, name=f"U{i}", position=i, base_data=AWKWARD, data={"i": i})
             for i in range(20)]
    with CaptureQueriesContext(connection) as queries:
        ListUnit.objects.bulk_create(units)
    [insert] = [q["sql"] for q in queries.captured_queries if q["sql"].startswith("INSERT")]
    assert "UNNEST" not in insert
    assert [u.data for u in ListUnit.objects.filter(army_list=army_list).order_by("position")] == [
        {"i": i} for i in range(20)]


def test_json_bytes_is_what_the_standard_library_reads():
    import json

    assert json.loads(json_bytes(AWKWARD)) == AWKWARD
    assert json.loads(json_bytes({1: "int keys become strings"})) == {"1": "int keys become strings"}
