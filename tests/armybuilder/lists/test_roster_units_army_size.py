"""A roster list's points limit is the engine's cost limit too: the data's `limit::<costTypeId>`
slot limits follow the army's size (issue 40), each limit is reported once (the data's figure,
not the system's slot chart as well), and going over the points limit once, in the product's
words (hand-written test catalogue `bands.gst`, shaped like Ergofarg's WHFB 6th)."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from armybuilder.lists import services
from armybuilder.lists.evaluation import army_list_evaluate
from rules.battlescribe_import import import_files
from rules.models import UnitTemplate
from tests.factories.army_lists import make_list, make_user
from tests.rules.battlescribe.files import sources

pytestmark = pytest.mark.django_db


@pytest.fixture
def tribes():
    call_command("load_catalogue", verbosity=0)
    owner = make_user()
    result = import_files(system_key="whfb6", files=sources("bands.gst", "bands_army.cat"), owner=owner)
    return owner, result.factions[0]


def build(owner, faction, points_limit: int, spears: int, giants: int):
    army_list = make_list(owner=owner, faction=faction, points_limit=points_limit)
    for slug, n in (("bs-bd-spears", spears), ("bs-bd-giant", giants)):
        template = UnitTemplate.objects.get(faction=faction, slug=slug)
        for _ in range(n):
            army_list.refresh_from_db()
            services.army_list_add_unit(
                army_list=army_list, unit=template, options={}, expected_version=army_list.version
            )
    army_list.refresh_from_db()
    return army_list


def limits_and_slots(army_list) -> list[tuple[str, str]]:
    """(rule, message) of the violations about slots and the points limit."""
    return [
        (v["rule"], v["message"])
        for v in army_list.violations
        if v["rule"] in ("catalogue", "slot_chart", "points_limit")
    ]


def test_rare_slots_follow_the_lists_points_limit(tribes):
    owner, faction = tribes
    small = build(owner, faction, 1000, spears=2, giants=2)
    assert small.total_points == 2 * 60 + 2 * 200
    assert limits_and_slots(small) == [("catalogue", "Standard: at most 1 Rare unit allowed (now 2).")]
    large = build(owner, faction, 2000, spears=2, giants=2)
    assert limits_and_slots(large) == []
    # the API's fresh evaluation agrees with what the services cached
    assert army_list_evaluate(army_list=small).violations == small.violations


def test_over_the_points_limit_is_said_once(tribes):
    owner, faction = tribes
    army_list = build(owner, faction, 2000, spears=2, giants=2)
    army_list.points_limit = 500
    army_list.save(update_fields=["points_limit"])
    found = limits_and_slots(army_list_evaluate(army_list=army_list))
    assert found == [
        ("catalogue", "Standard: at most 1 Rare unit allowed (now 2)."),
        ("points_limit", "The army costs 520 pts, over its limit of 500 pts."),
    ]
