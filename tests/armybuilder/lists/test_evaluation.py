"""What a list is worth and what is wrong with it (`armybuilder.lists.evaluation`)."""

from __future__ import annotations

import pytest

from armybuilder.lists import services
from armybuilder.lists.evaluation import evaluate_units
from armybuilder.models import ListUnit
from rules.models import GameSystem, UnitTemplate
from tests.factories.army_lists import make_faction, make_user
from tests.factories.wh40k_units import wh40k_model, wh40k_unit

pytestmark = pytest.mark.django_db


@pytest.fixture
def army_list():
    system, _ = GameSystem.objects.get_or_create(key="wh40k9", defaults={"name": "40k"})
    faction = make_faction(system=system)
    data = wh40k_unit(wh40k_model("Trooper", count=5, points=2), name="Squad")
    template = UnitTemplate.objects.create(faction=faction, slug="squad", name="Squad", data=data, points=10)
    army_list = services.army_list_create(
        owner=make_user(), system=system, faction=faction, name="Patrol", points_limit=15,
        structure_options={"battle_size": False, "unit_size": False, "warlord": False, "detachments": False},
    )
    services.army_list_add_unit(army_list=army_list, unit=template, expected_version=army_list.version)
    return army_list


def points_limit(evaluation) -> list[tuple[str, str]]:
    return [(v["value"], v["limit"]) for v in evaluation.violations if v["rule"] == "points_limit"]


def test_the_points_limit_is_checked_against_the_points_the_list_keeps(army_list):
    units = list(army_list.units.order_by("position"))
    assert points_limit(evaluate_units(army_list=army_list, units=units, reprice=False)) == []
    ListUnit.objects.filter(army_list=army_list).update(points=20)  # kept from an older price
    units = list(army_list.units.order_by("position"))
    kept = evaluate_units(army_list=army_list, units=units, reprice=False)
    assert kept.total_points == 20
    assert points_limit(kept) == [("20", "15")]  # the total the list shows, not a second price


def test_a_fresh_evaluation_prices_every_unit_again(army_list):
    ListUnit.objects.filter(army_list=army_list).update(points=20)
    units = list(army_list.units.order_by("position"))
    fresh = evaluate_units(army_list=army_list, units=units, reprice=True)
    assert fresh.total_points == 10
    assert points_limit(fresh) == []
