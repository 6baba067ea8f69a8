"""BattleScribe catalogues mapped onto units: prices at minimum size, options, Power, warnings.

The expected numbers are worked out by hand from the hand-written files, the way BattleScribe
totals a selection (cost × selections, modifiers applied), e.g. the Tactical Squad: 4 Marines
× 15 + Sergeant 15 + Frag grenades 2 (required once per unit) = 77 pts.
"""

from __future__ import annotations

import pytest

from rules.battlescribe_import import parse_import
from tests.rules.battlescribe.files import GRIMDARK, OLDWORLD, sources


@pytest.fixture(scope="module")
def grim():
    result = parse_import(system_key="wh40k9", files=sources(*GRIMDARK))
    return result, {u.slug: u for plan in result.plans for u in plan.units}


def test_units_priced_at_minimum_size_like_battlescribe(grim):
    result, _units = grim
    assert result.summary()["factions"] == [
        {
            "id": None,  # not written: a dry run
            "name": "Test Marines",
            "slug": "bs-cat-marines",
            "units": [
                # 80 + Relic blade 10 − 5 (no Jump pack: conditional decrement)
                {"name": "Captain", "points": 85, "power": 5, "models": 1},
                # 10 × 6.5; Power 1 + 3 per 10 Scouts (repeat)
                {"name": "Scout Horde", "points": 65, "power": 4, "models": 10},
                {"name": "Tactical Squad", "points": 77, "power": 5, "models": 5},
            ],
        }
    ]


def test_profiles_mapped_by_characteristic_name(grim):
    _result, units = grim
    captain = units["bs-se-captain"].values["data"]["models"][0]
    assert {k: captain[k] for k in ("m", "ws", "bs", "s", "t", "w", "a", "ld", "sv")} == {
        "m": 6,
        "ws": 2,
        "bs": 2,
        "s": 4,
        "t": 4,
        "w": 5,
        "a": 4,
        "ld": 9,
        "sv": 3,
    }
    assert captain["weapons"] == [
        {"name": "Relic blade", "range": 0, "type": "Melee", "s": "+2", "ap": -3, "d": 2}
    ]


def test_rules_info_links_categories_and_role(grim):
    _result, units = grim
    captain = units["bs-se-captain"]
    data = captain.values["data"]
    assert captain.values["role"] == "hero"
    assert data["keywords"] == ["HQ", "Infantry"]
    assert data["models"][0]["rules"] == ["Angels of Death"]  # a rule of the system
    assert {
        "name": "Steady Aim",
        "text": "Test text: re-roll hit rolls of 1 when the unit did not move.",
    } in data["abilities"]
    assert units["bs-se-tactical"].values["role"] == "infantry"  # primary category from the entry link


def test_group_default_and_alternatives_become_options(grim):
    _result, units = grim
    tactical = units["bs-se-tactical"]
    marine = tactical.values["data"]["models"][0]
    assert [w["name"] for w in marine["weapons"]] == ["Boltgun"]  # the group's default
    options = {o.key: o.values for o in tactical.options}
    plasma = options["opt-se-plasma"]
    assert (plasma["kind"], plasma["group"], plasma["cost"], plasma["max_count"]) == (
        "replace_weapon",
        "Gun",
        15,
        9,
    )
    # one per model: 4 at the minimum, up to 9 as the squad grows to 9 Marines
    assert plasma["payload"]["max_per_model"] == 1
    assert plasma["payload"]["replace"] == "Boltgun"
    assert options["more-marine"]["max_count"] == 5  # 4..9 Marines
    sword = options["opt-se-sword"]
    assert (sword["kind"], sword["applies_to"], sword["cost"]) == ("add_weapon", "Sergeant", 5)


def test_weapon_with_two_profiles_becomes_one_weapon_with_profiles(grim):
    _result, units = grim
    options = {o.key: o.values for o in units["bs-se-tactical"].options}
    pistol = options["opt-se-ppistol"]
    assert (pistol["kind"], pistol["applies_to"], pistol["cost"]) == ("add_weapon", "Sergeant", 5)
    weapon = pistol["payload"]["weapon"]
    assert weapon["name"] == "Plasma pistol"
    assert [(p["name"], p["s"], p["d"]) for p in weapon["profiles"]] == [
        ("Plasma pistol, standard", 7, 1),
        ("Plasma pistol, supercharge", 8, 2),
    ]


def test_option_cost_includes_modifiers_it_switches(grim):
    """Taking the Jump pack (20) also ends the Relic blade's 5 pts discount: +25."""
    _result, units = grim
    options = {o.key: o.values for o in units["bs-se-captain"].options}
    assert options["opt-se-jump"]["cost"] == 25


def test_power_steps_from_conditions_and_repeats(grim):
    _result, units = grim
    assert units["bs-se-tactical"].values["data"]["power_rating_rules"] == [{"min_models": 7, "power": 9}]
    horde = units["bs-se-horde"].values["data"]
    assert horde["power_rating_rules"] == [{"min_models": 20, "power": 7}, {"min_models": 30, "power": 10}]
    # the max-size constraint modifier (set 20 -> 30) applied
    assert horde["models"][0]["max_count"] == 30


def test_unmappable_things_are_warned_and_kept(grim):
    result, units = grim
    assert any("limit max 1 per roster is kept as text" in w for w in result.warnings)
    assert any("'Steady Aim' is not a rule of this system" in w for w in result.warnings)
    assert "Captain: max 1 per roster" in units["bs-se-captain"].values["data"]["notes"]


def test_fantasy_system_per_model_costs_and_upgrade_options():
    result = parse_import(system_key="whfb6", files=sources(*OLDWORLD))
    assert result.summary()["factions"][0]["units"] == [
        {"name": "Spearmen", "points": 65, "models": 11}
    ]
    unit = result.plans[0].units[0]
    spearman = unit.values["data"]["models"][0]
    assert {k: spearman[k] for k in ("m", "ws", "bs", "s", "t", "w", "i", "a", "ld")} == {
        "m": 4,
        "ws": 3,
        "bs": 3,
        "s": 3,
        "t": 3,
        "w": 1,
        "i": 3,
        "a": 1,
        "ld": 7,
    }
    options = {o.key: o.values for o in unit.options}
    assert options["opt-ow-shield"]["cost"] == 1 and options["opt-ow-shield"]["kind"] == "add_item"
    assert options["more-spearman"]["max_count"] == 30
    assert any("'append' modifier of 'name'" in w for w in result.warnings)
    assert "Spearmen: modifier append name ' (veteran)'" in unit.values["data"]["notes"]


def test_zipped_files_and_several_catalogues_at_once():
    from tests.rules.battlescribe.files import FILES, zipped

    files = [
        zipped("grimdark.gstz", "grimdark.gst", (FILES / "grimdark.gst").read_bytes()),
        zipped("armoury.catz", "armoury.cat", (FILES / "armoury.cat").read_bytes()),
        zipped("marines.catz", "marines.cat", (FILES / "marines.cat").read_bytes()),
    ]
    result = parse_import(system_key="wh40k9", files=files)
    assert [u["points"] for u in result.summary()["factions"][0]["units"]] == [85, 65, 77]
