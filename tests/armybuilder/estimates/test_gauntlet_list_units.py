"""A list's gauntlet units kept per process by the list's version
(`armybuilder.estimates.gauntlet_live.list_gauntlet_units`, issue 42): the opponents are read
once across clicks, an edit is seen at once, and units read after a change the caller does not
know of are never kept under its older version."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from armybuilder.estimates import gauntlet_live
from armybuilder.estimates.gauntlet_live import gauntlet_inputs, list_gauntlet_units
from armybuilder.lists import services
from armybuilder.models import ArmyList
from rules.systems.registry import get_system
from tests.factories.army_lists import BRUTES, make_faction, make_list, make_unit, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def nothing_kept():
    gauntlet_live._LIST_UNITS.clear()
    yield
    gauntlet_live._LIST_UNITS.clear()


@pytest.fixture
def army():
    faction = make_faction()
    return make_list(owner=make_user(), faction=faction, name="Kept", units=[make_unit(faction=faction)])


def test_a_list_is_read_once_per_version_and_an_edit_is_seen(army):
    system = get_system(army.system.key)
    units, ids = list_gauntlet_units(system, army)
    assert ids == [unit.pk for unit in army.units.order_by("position")] and len(units) == 1
    with CaptureQueriesContext(connection) as queries:
        again = list_gauntlet_units(system, army)
    assert again == (units, ids) and len(queries) == 0
    brutes = make_unit(faction=army.faction, data=BRUTES, with_options=False)
    services.army_list_add_unit(army_list=army, unit=brutes, options={}, expected_version=army.version)
    army.refresh_from_db()
    units, ids = list_gauntlet_units(system, army)
    assert [unit.name for unit in units][-1] == "Brutes" and len(ids) == 2


def test_units_read_after_an_unknown_change_are_not_kept_under_the_older_version(army):
    system = get_system(army.system.key)
    stale = ArmyList.objects.select_related("system").get(pk=army.pk)
    brutes = make_unit(faction=army.faction, data=BRUTES, with_options=False)
    services.army_list_add_unit(army_list=army, unit=brutes, options={}, expected_version=army.version)
    units, _ids = list_gauntlet_units(system, stale)  # what is there now, as every read shows it
    assert [unit.name for unit in units][-1] == "Brutes"
    assert not any(key[:2] == (stale.pk, stale.version) for key in gauntlet_live._LIST_UNITS)


def test_the_inputs_read_the_opponents_from_what_is_kept(army):
    rival_faction = make_faction()
    rival = make_list(owner=army.owner, faction=rival_faction, name="Rival",
                      units=[make_unit(faction=rival_faction, data=BRUTES, with_options=False)])
    ArmyList.objects.filter(pk=army.pk).update(gauntlet={"reference": False, "lists": [rival.pk]})
    army.refresh_from_db()
    first = gauntlet_inputs(army)
    assert [unit.name for unit in first.opponents[0].units] == ["Brutes"]
    with CaptureQueriesContext(connection) as queries:
        second = gauntlet_inputs(army)
    assert second.opponents == first.opponents and second.units == first.units
    # Only which opponents the owner may read (their ids and versions) is asked again.
    assert len(queries) == 1, [query["sql"] for query in queries]
