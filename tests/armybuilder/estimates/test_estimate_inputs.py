"""The canonical inputs of a job and their checks, shared by the pages and the API."""

from __future__ import annotations

import pytest

from armybuilder.estimates.inputs import (
    MAX_MATCHUPS,
    EstimateRequestError,
    army_inputs,
    default_situation,
    list_vs_list_inputs,
    situation_clean,
    unit_vs_unit_inputs,
)
from rules.systems.registry import get_system
from tests.factories.aos_units import imported_warscroll
from tests.factories.opr_documents import opr_unit

OPR = get_system("opr")


def errors_of(call, **kwargs) -> dict[str, list[str]]:
    with pytest.raises(EstimateRequestError) as caught:
        call(**kwargs)
    return caught.value.errors


def test_a_missing_situation_is_shooting_at_12_inches_with_every_flag_off_but_the_second_stage():
    assert situation_clean(None, system=OPR) == default_situation(system=OPR) == {
        "mode": "shooting", "charging": False, "attacker_moved": False, "defender_in_cover": False,
        "defender_activated": False, "enemies_within_12": False, "range_inches": 12.0,
        "second_stage": True, "defender_exhausted": False}


def test_the_range_is_always_a_float_so_12_and_12_0_are_one_question():
    assert situation_clean({"range_inches": 12}, system=OPR) == \
        situation_clean({"range_inches": 12.0}, system=OPR)
    assert isinstance(situation_clean({"range_inches": 7}, system=OPR)["range_inches"], float)


def test_every_bad_situation_field_is_reported_with_its_path():
    errors = errors_of(situation_clean, system=OPR,
                       data={"mode": "flying", "charging": "yes", "range_inches": -1, "wind": True})
    assert set(errors) == {"situation.mode", "situation.charging", "situation.range_inches", "situation.wind"}


@pytest.mark.parametrize("value", [float("nan"), float("inf"), 121, True, "12"])
def test_a_range_must_be_a_finite_number_of_inches_on_a_table(value):
    assert "situation.range_inches" in errors_of(situation_clean, system=OPR, data={"range_inches": value})


def test_a_charge_is_a_melee_attack():
    assert "situation.charging" in errors_of(situation_clean, system=OPR, data={"charging": True})
    assert situation_clean({"mode": "melee", "charging": True}, system=OPR)["charging"] is True


def test_units_are_checked_by_their_system_with_the_path_of_each_bad_field():
    bad = opr_unit("Bad", quality=9)
    bad["models"][0]["weapons"][0]["ap"] = 7
    errors = errors_of(unit_vs_unit_inputs, attacker=opr_unit("Good"), defender=bad, situation={})
    assert set(errors) == {"defender.models[0].quality", "defender.models[0].weapons[0].ap"}


def test_both_units_and_the_situation_are_reported_at_once():
    errors = errors_of(unit_vs_unit_inputs, attacker={"system": "opr"}, defender=[], situation={"mode": "x"})
    assert any(path.startswith("attacker") for path in errors)
    assert errors["defender"] == ["A unit must be a JSON object."]
    assert "situation.mode" in errors


def test_an_unknown_system_is_refused_on_the_units_system_field():
    errors = errors_of(unit_vs_unit_inputs, attacker={**opr_unit("A"), "system": "chess"},
                       defender=opr_unit("B"), situation={})
    assert "attacker.system" in errors


def test_a_system_without_an_attack_sequence_says_there_are_no_estimates_yet():
    """A registered system with no `attack` (every bundled one has one now): a toy without."""
    from dataclasses import replace

    from rules.systems.registry import get_system, register, unregister

    without = replace(get_system("opr"), key="no-estimates", name="No estimates", attack=None)
    register(without)
    try:
        errors = errors_of(list_vs_list_inputs, system_key=without.key, situation={},
                           list_a=army_inputs(name="A", units=[("u", {})]),
                           list_b=army_inputs(name="B", units=[("u", {})]))
    finally:
        unregister(without.key)
    assert "no damage estimates" in errors["system"][0]


def test_list_inputs_keep_names_and_units_and_refuse_empty_or_huge_lists():
    unit = opr_unit("Guards")
    system, inputs = list_vs_list_inputs(system_key="opr", situation=None,
                                         list_a=army_inputs(name="A", units=[("Guards", unit)]),
                                         list_b=army_inputs(name="B", units=[("Guards 2", unit)]))
    assert system == "opr"
    assert inputs["list_b"] == {"name": "B", "units": [{"name": "Guards 2", "unit": unit}]}
    assert "list_a" in errors_of(list_vs_list_inputs, system_key="opr", situation=None,
                                 list_a=army_inputs(name="A", units=[]), list_b=inputs["list_b"])
    many = army_inputs(name="Horde", units=[("Guards", unit)] * 101)
    assert MAX_MATCHUPS < 2 * 101 * 101
    assert "list_b" in errors_of(list_vs_list_inputs, system_key="opr", situation=None,
                                 list_a=many, list_b=many)


def test_the_two_units_of_an_attack_must_share_a_game_system(monkeypatch):
    from rules.systems import registry

    opr = registry.get_system("opr")
    other = registry.GameSystem(key="other", name="Other", source_language="en", profile_schema={},
                                price=lambda unit: {"points": 1}, validate=lambda army: [], attack=opr.attack)
    monkeypatch.setitem(registry._REGISTRY, "other", other)
    errors = errors_of(unit_vs_unit_inputs, attacker=opr_unit("A"),
                       defender={**opr_unit("B"), "system": "other"}, situation={})
    assert list(errors) == ["defender.system"]


@pytest.mark.parametrize("key", ["wh40k9", "whfb6", "aos1", "ru_whfb"])
def test_a_catalogue_systems_unit_check_refuses_exactly_what_its_price_refuses(key):
    """The estimate request checks units with `check_unit` (no price): the same errors."""
    from points.shared_format import UnitFormatError

    system = get_system(key)
    assert system.check_unit is not None
    unit = {"format": 1, "system": key, "name": "Bad", "models": [{"name": "M", "count": "two"}]}
    with pytest.raises(UnitFormatError) as priced:
        system.price(unit)
    with pytest.raises(UnitFormatError) as checked:
        system.check_unit(unit)
    assert checked.value.errors == priced.value.errors
    for target in system.reference_targets.values():
        system.price(target)  # a unit the price takes passes the check
        assert system.check_unit(target) is None


def test_a_unit_without_a_profile_is_refused_by_name_and_left_out_of_list_matchups():
    errors = errors_of(unit_vs_unit_inputs, attacker=imported_warscroll("Raiders"),
                       defender=imported_warscroll("Skulkers", profile=False), situation={})
    assert errors == {"defender": ["“Skulkers” cannot be estimated: its catalogue gives it no profile "
                                   "(no characteristics to roll with)."]}
    side = army_inputs(name="Host", units=[("Raiders", imported_warscroll("Raiders")),
                                           ("Skulkers", imported_warscroll("Skulkers", profile=False))])
    assert [u["name"] for u in side["units"]] == ["Raiders"]
    get_system("aos1").price(imported_warscroll("Skulkers", profile=False))  # still a valid unit
