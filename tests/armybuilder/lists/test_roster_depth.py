"""A click the roster engine cannot work out within Python's stack is refused in words (a 400
naming the reason), never a server error, and leaves the list as it was.

The engine's depth no longer grows with the roster for the data sets we know (a count of a
category evaluates only the selections that may hold it), but a category that reads itself
still reaches through every unit that may take it: the Oathsworn of `slots_oath.cat` become
Infantry while their force holds Infantry."""

from __future__ import annotations

import sys

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from armybuilder.lists import services
from armybuilder.lists.errors import ArmyListError
from rules.battlescribe_import import import_files
from rules.models import UnitTemplate
from tests.factories.army_lists import make_list, make_user
from tests.rules.battlescribe.files import sources

pytestmark = pytest.mark.django_db

TOO_DEEP = "depend on each other too deeply"


def _depth() -> int:
    frame, depth = sys._getframe(1), 0
    while frame is not None:
        depth += 1
        frame = frame.f_back
    return depth


def test_a_click_too_deep_for_the_stack_is_a_400_and_changes_nothing():
    call_command("load_catalogue", verbosity=0)
    owner = make_user()
    faction = import_files(system_key="wh40k9", files=sources("slots.gst", "slots_oath.cat"),
                           owner=owner).factions[0]
    army_list = make_list(owner=owner, faction=faction)
    oath = UnitTemplate.objects.get(faction=faction, slug="bs-se-oath")
    limit = sys.getrecursionlimit()
    # A few hundred frames above the test's own: the database and Django's request handling
    # fit well within it, the engine's working out of 40 Oathsworn does not.
    sys.setrecursionlimit(_depth() + 450)
    try:
        refused = None
        for _added in range(40):
            army_list.refresh_from_db()
            try:
                services.army_list_add_unit(army_list=army_list, unit=oath, options={},
                                            expected_version=army_list.version)
            except ArmyListError as exc:
                refused = exc
                break
        assert refused is not None, "40 Oathsworn fitted: the fixture no longer reaches deep"
        assert [field for field, _message in refused.errors] == ["unit"]
        assert TOO_DEEP in refused.errors[0][1]

        army_list.refresh_from_db()
        version, count = army_list.version, army_list.units.count()
        client = APIClient()
        client.force_authenticate(owner)
        answer = client.post(f"/api/v1/lists/{army_list.pk}/units", {"unit": oath.pk}, format="json",
                             HTTP_IF_MATCH=f'"{version}"')
    finally:
        sys.setrecursionlimit(limit)
    assert answer.status_code == 400, answer.content
    assert TOO_DEEP in answer.content.decode()
    army_list.refresh_from_db()
    assert (army_list.version, army_list.units.count()) == (version, count)
    # With the stack back to its size the same click is made, on a roster rebuilt from the rows.
    services.army_list_add_unit(army_list=army_list, unit=oath, options={}, expected_version=version)
    army_list.refresh_from_db()
    assert army_list.units.count() == count + 1
