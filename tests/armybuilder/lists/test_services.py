"""The list services: creating, adding, options, duplicating, moving, removing, forking.

Points are the worked examples of `docs/rules/opr-points.md` §9 (Infantry 143, Brutes 200).
"""

from __future__ import annotations

import pytest

from armybuilder.lists import services
from armybuilder.lists.errors import ArmyListError, StaleListError
from armybuilder.lists.evaluation import army_list_evaluate
from armybuilder.models import ArmyList, ListUnit
from rules.systems.registry import get_system
from tests.factories.army_lists import (
    BRUTES,
    BRUTES_POINTS,
    INFANTRY_POINTS,
    make_faction,
    make_list,
    make_unit,
    make_user,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner():
    return make_user()


@pytest.fixture
def faction():
    return make_faction()


@pytest.fixture
def infantry(faction):
    return make_unit(faction=faction)


def unit_at(army_list: ArmyList, position: int) -> ListUnit:
    """The unit at `position`, attached to the caller's list object (as the views do)."""
    unit = ListUnit.objects.get(army_list=army_list, position=position)
    unit.army_list = army_list
    return unit


def names(army_list: ArmyList) -> list[str]:
    return [u.name for u in ListUnit.objects.filter(army_list=army_list).order_by("position")]


def test_adding_a_unit_prices_it_and_updates_the_cached_total(owner, faction, infantry):
    army_list = make_list(owner=owner, faction=faction)
    assert army_list.version == 1
    added = services.army_list_add_unit(army_list=army_list, unit=infantry, options={}, expected_version=1)
    assert added.points == INFANTRY_POINTS
    assert added.catalogue_ref == f"{faction.slug}/{infantry.slug}"
    assert army_list.version == 2
    assert army_list.total_points == INFANTRY_POINTS
    assert army_list.points_left == 1000 - INFANTRY_POINTS
    stored = ArmyList.objects.get(pk=army_list.pk)
    assert (stored.total_points, stored.unit_count, stored.version) == (INFANTRY_POINTS, 1, 2)


def test_options_change_the_unit_and_its_points(owner, faction, infantry):
    army_list = make_list(owner=owner, faction=faction, units=[infantry])
    unit = unit_at(army_list, 0)
    services.army_list_unit_set_options(
        list_unit=unit, options={"plasma": 1, "extra": 2}, expected_version=army_list.version
    )
    unit.refresh_from_db()
    assert unit.chosen_options == {"plasma": 1, "extra": 2}
    assert sum(m["count"] for m in unit.data["models"]) == 12
    assert any(w["name"] == "Plasma Gun" for m in unit.data["models"] for w in m["weapons"])
    assert unit.points > INFANTRY_POINTS
    army_list.refresh_from_db()
    assert army_list.total_points == unit.points
    # What the picker shows: each option's price, computed once when the unit was added.
    assert set(unit.option_points) == {"plasma", "extra"}
    assert unit.option_points["extra"] == round(INFANTRY_POINTS / 10)


def test_option_counts_outside_their_limits_are_refused_naming_the_option(owner, faction, infantry):
    army_list = make_list(owner=owner, faction=faction, units=[infantry])
    unit = unit_at(army_list, 0)
    with pytest.raises(ArmyListError) as caught:
        services.army_list_unit_set_options(
            list_unit=unit, options={"extra": 6, "nope": 1}, expected_version=army_list.version
        )
    assert [path for path, _message in caught.value.errors] == ["options.nope"]
    with pytest.raises(ArmyListError) as caught:
        services.army_list_unit_set_options(
            list_unit=unit, options={"extra": 6}, expected_version=army_list.version
        )
    assert caught.value.errors[0][0] == "options.extra"
    assert ArmyList.objects.get(pk=army_list.pk).version == army_list.version  # nothing saved


def test_duplicate_move_and_remove_keep_positions_contiguous(owner, faction, infantry):
    brutes = make_unit(faction=faction, data=BRUTES, with_options=False)
    army_list = make_list(owner=owner, faction=faction, units=[infantry, brutes])
    copy = services.army_list_unit_duplicate(
        list_unit=unit_at(army_list, 0), expected_version=army_list.version
    )
    assert names(army_list) == ["Infantry", "Infantry", "Brutes"]
    assert copy.position == 1
    services.army_list_unit_move(
        list_unit=unit_at(army_list, 1), position=2, expected_version=army_list.version
    )
    assert names(army_list) == ["Infantry", "Brutes", "Infantry"]
    services.army_list_unit_remove(list_unit=unit_at(army_list, 0), expected_version=army_list.version)
    assert names(army_list) == ["Brutes", "Infantry"]
    assert list(
        ListUnit.objects.filter(army_list=army_list).order_by("position").values_list("position", flat=True)
    ) == [0, 1]
    army_list.refresh_from_db()
    assert army_list.total_points == BRUTES_POINTS + INFANTRY_POINTS
    assert army_list.unit_count == 2


def test_going_over_the_limit_is_a_violation_and_coming_back_clears_it(owner, faction, infantry):
    """docs/rules/opr-points.md §7, rule 6: the army total must not exceed the points limit (always on)."""
    all_off = dict.fromkeys(get_system("opr").structure_options, False)
    army_list = make_list(
        owner=owner, faction=faction, points_limit=300, units=[infantry, infantry], structure_options=all_off
    )
    assert army_list.is_valid
    services.army_list_add_unit(
        army_list=army_list, unit=infantry, options={}, expected_version=army_list.version
    )
    assert not army_list.is_valid
    assert [v["rule"] for v in army_list.violations] == ["points_limit"]
    assert army_list.violation_count == 1
    services.army_list_unit_remove(list_unit=unit_at(army_list, 2), expected_version=army_list.version)
    assert army_list.is_valid and army_list.violations == []


def test_a_stale_version_is_refused_and_changes_nothing(owner, faction, infantry):
    army_list = make_list(owner=owner, faction=faction, units=[infantry])
    seen = army_list.version
    services.army_list_update(army_list=army_list, expected_version=seen, name="Renamed")
    with pytest.raises(StaleListError) as caught:
        services.army_list_add_unit(army_list=army_list, unit=infantry, options={}, expected_version=seen)
    assert caught.value.current_version == seen + 1
    assert ListUnit.objects.filter(army_list=army_list).count() == 1


def test_update_checks_every_field_and_reports_all_problems(owner, faction):
    army_list = make_list(owner=owner, faction=faction)
    with pytest.raises(ArmyListError) as caught:
        services.army_list_update(
            army_list=army_list,
            expected_version=army_list.version,
            name="x" * 101,
            points_limit=0,
            structure_options={"bogus": True, "unit_balance": "yes"},
        )
    assert {path for path, _m in caught.value.errors} == {
        "name",
        "points_limit",
        "options.bogus",
        "options.unit_balance",
    }


def test_structure_switches_change_the_violations(owner, faction, infantry):
    """§7.1: at most 1 unit per full 200 points — switchable per list."""
    army_list = make_list(
        owner=owner, faction=faction, points_limit=400, structure_options={"max_units_per_200": False}
    )
    for _ in range(3):
        services.army_list_add_unit(
            army_list=army_list,
            unit=make_unit(faction=faction, data=BRUTES, with_options=False),
            options={},
            expected_version=army_list.version,
        )
    assert "max_units_per_200" not in {v["rule"] for v in army_list.violations}
    services.army_list_update(army_list=army_list, expected_version=army_list.version, structure_options={})
    assert "max_units_per_200" in {v["rule"] for v in army_list.violations}


def test_fork_copies_units_privately_and_remembers_the_source(owner, faction, infantry):
    source = make_list(owner=owner, faction=faction, units=[infantry], is_public=True)
    unit = unit_at(source, 0)
    services.army_list_unit_set_options(
        list_unit=unit, options={"plasma": 1}, expected_version=source.version
    )
    other = make_user()
    copy = services.army_list_fork(army_list=source, user=other)
    assert copy.owner == other and copy.forked_from == source
    assert not copy.is_public and copy.share_token is None
    copied = ListUnit.objects.get(army_list=copy)
    assert copied.chosen_options == {"plasma": 1}
    assert copied.data == ListUnit.objects.get(army_list=source).data
    assert copy.total_points == ArmyList.objects.get(pk=source.pk).total_points


def test_evaluate_reprices_from_the_engine_and_agrees_with_the_cache(owner, faction, infantry):
    army_list = make_list(owner=owner, faction=faction, units=[infantry, infantry])
    evaluation = army_list_evaluate(army_list=army_list)
    assert evaluation.total_points == army_list.total_points == 2 * INFANTRY_POINTS
    assert evaluation.points_left == 1000 - 2 * INFANTRY_POINTS
    assert sorted(evaluation.unit_points.values()) == [INFANTRY_POINTS, INFANTRY_POINTS]
    assert evaluation.violations == army_list.violations


def test_a_unit_of_another_system_cannot_be_added(owner, faction):
    from rules.models import GameSystem

    other_system = GameSystem.objects.create(key="other-system", name="Other")
    other_faction = make_faction(system=other_system)
    stranger = make_unit(faction=other_faction, with_options=False)
    army_list = make_list(owner=owner, faction=faction)
    with pytest.raises(ArmyListError) as caught:
        services.army_list_add_unit(army_list=army_list, unit=stranger, options={}, expected_version=None)
    assert caught.value.errors[0][0] == "unit"


def test_another_players_homebrew_faction_cannot_start_a_list(owner):
    secret = make_faction(owner=make_user())
    with pytest.raises(ArmyListError) as caught:
        make_list(owner=owner, faction=secret)
    assert caught.value.errors == [("faction", "No such faction.")]


def test_a_unit_read_with_its_menu_offers_exactly_the_options_of_its_rows(owner, faction, infantry):
    """Adding a unit reads its upgrade options in the unit's own query (`army_list_unit_choice`):
    the menu kept with the list unit is the options' rows, in catalogue order, field for field."""
    from armybuilder.lists.selectors import army_list_unit_choice
    from armybuilder.lists.unit_options import option_menu
    from rules.models import UnitTemplate

    army_list = make_list(owner=owner, faction=faction)
    rows = option_menu(UnitTemplate.objects.prefetch_related("options").get(pk=infantry.pk))
    read = option_menu(army_list_unit_choice(army_list=army_list, unit_id=infantry.pk))
    assert [option["key"] for option in read] == ["plasma", "extra"]
    assert read == rows and [list(option) for option in read] == [list(option) for option in rows]
    assert read[1] == {
        "key": "extra",
        "group": "Models",
        "label": "Extra trooper",
        "kind": "add_models",
        "applies_to": infantry.data["models"][0]["name"],
        "payload": {"count": 1},
        "min_count": 0,
        "max_count": 5,
        "cost": None,
    }
    assert army_list_unit_choice(army_list=army_list, unit_id=infantry.pk + 10_000) is None


def test_every_bundled_unit_read_with_its_menu_offers_the_options_of_its_rows(owner):
    """The menu read in the unit's own query (a row of `rules_upgradeoption` as JSON) is the
    options' rows field for field, for every unit of every bundled faction."""
    import io

    from django.core.management import call_command

    from armybuilder.lists.selectors import army_list_unit_choice
    from armybuilder.lists.unit_options import option_menu
    from rules.models import Faction, UnitTemplate

    call_command("load_catalogue", stdout=io.StringIO())
    checked = 0
    for faction in Faction.objects.filter(owner__isnull=True):
        army_list = make_list(owner=owner, faction=faction)
        for unit in UnitTemplate.objects.filter(faction=faction).prefetch_related("options"):
            read = option_menu(army_list_unit_choice(army_list=army_list, unit_id=unit.pk))
            rows = option_menu(unit)
            assert read == rows, unit.slug
            assert [list(option) for option in read] == [list(option) for option in rows]
            checked += bool(rows)
    assert checked > 50
