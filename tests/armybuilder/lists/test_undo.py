"""Undo of the last removal or clearing of options, and a unit's own words (issue 15)."""

from __future__ import annotations

import pytest

from armybuilder.lists import services
from armybuilder.lists.errors import ArmyListError, StaleListError
from armybuilder.models import ArmyList, ListUnit
from tests.factories.army_lists import make_faction, make_list, make_unit, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def three_units() -> ArmyList:
    faction = make_faction(slug="undo-faction")
    template = make_unit(faction=faction, slug="infantry")
    army_list = make_list(owner=make_user("undoer"), faction=faction)
    for _ in range(3):
        services.army_list_add_unit(army_list=army_list, unit=template, expected_version=army_list.version)
    return army_list


def test_undo_puts_a_removed_unit_back_in_its_place_with_its_words(three_units: ArmyList) -> None:
    army_list = three_units
    middle = ListUnit.objects.get(army_list=army_list, position=1)
    services.army_list_unit_set_details(
        list_unit=middle, custom_name="Red", notes="n", group="G", expected_version=army_list.version
    )
    army_list.refresh_from_db()
    total = army_list.total_points
    services.army_list_unit_remove(list_unit=middle, expected_version=army_list.version)
    army_list.refresh_from_db()
    assert army_list.unit_count == 2 and army_list.undo["name"] == "Red"

    restored = services.army_list_undo(army_list=army_list, expected_version=army_list.version)

    army_list.refresh_from_db()
    units = list(ListUnit.objects.filter(army_list=army_list).order_by("position"))
    assert [u.pk for u in units].index(restored.pk) == 1
    assert (restored.custom_name, restored.notes, restored.group) == ("Red", "n", "G")
    assert (army_list.unit_count, army_list.total_points, army_list.undo) == (3, total, {})
    with pytest.raises(ArmyListError):
        services.army_list_undo(army_list=army_list, expected_version=army_list.version)


def test_any_other_change_forgets_the_undo(three_units: ArmyList) -> None:
    army_list = three_units
    services.army_list_unit_remove(
        list_unit=ListUnit.objects.get(army_list=army_list, position=0), expected_version=army_list.version
    )
    army_list.refresh_from_db()
    services.army_list_update(army_list=army_list, expected_version=army_list.version, name="Renamed")
    army_list.refresh_from_db()
    assert army_list.undo == {}


def test_undo_from_a_stale_tab_is_refused(three_units: ArmyList) -> None:
    army_list = three_units
    services.army_list_unit_remove(
        list_unit=ListUnit.objects.get(army_list=army_list, position=0), expected_version=army_list.version
    )
    with pytest.raises(StaleListError):
        services.army_list_undo(army_list=army_list, expected_version=army_list.version - 1)


def test_too_long_words_are_refused_naming_each_field(three_units: ArmyList) -> None:
    unit = ListUnit.objects.get(army_list=three_units, position=0)
    with pytest.raises(ArmyListError) as refused:
        services.army_list_unit_set_details(
            list_unit=unit, custom_name="x" * 121, notes="y" * 1001, group="g" * 61, expected_version=None
        )
    assert [path for path, _ in refused.value.errors] == ["custom_name", "notes", "group"]
