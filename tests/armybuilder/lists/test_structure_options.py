"""Structure-rule switches: one per rule in the UI, group keys of the unit format accepted on import."""

from __future__ import annotations

import pytest

from armybuilder.lists.errors import ArmyListError
from armybuilder.lists.services import clean_structure_options
from rules.systems.registry import get_system


def test_opr_offers_one_switch_per_rule_and_no_group_switch():
    switches = get_system("opr").structure_options
    assert "army_structure" not in switches
    expected = {"max_units_per_200", "unit_cost_bounds", "hero_limits", "unit_balance", "ability_markers"}
    assert expected <= set(switches)


def test_group_key_from_the_unit_format_expands_to_its_rules():
    """docs/unit-format.md's `"army_structure": true` switches rules 1 and 2 of docs/rules/opr-points.md
    §7."""
    assert clean_structure_options({"army_structure": False}, system_key="opr") == {
        "max_units_per_200": False, "unit_cost_bounds": False}


def test_a_rule_named_beside_its_group_wins():
    cleaned = clean_structure_options({"army_structure": False, "unit_cost_bounds": True}, system_key="opr")
    assert cleaned == {"max_units_per_200": False, "unit_cost_bounds": True}


def test_unknown_switch_is_an_error_naming_it():
    with pytest.raises(ArmyListError) as info:
        clean_structure_options({"no_such_rule": True}, system_key="opr")
    assert info.value.as_dict() == {"options.no_such_rule": ["Not a structure rule of this game system."]}
