"""The catalogue-priced systems in the registry: schemas, catalogue points, composition rules.

Pure tests (no database): units and armies in the unit format, through `get_system(key)`.
"""

from __future__ import annotations

import copy

import pytest

from points.shared_format import UnitFormatError
from rules.systems.registry import all_systems, get_system


def test_every_seed_system_is_registered_in_order_with_its_attack_sequence():
    assert [s.key for s in all_systems()] == ["opr", "whfb6", "wh40k9", "aos1", "ru_whfb"]
    for key in ("whfb6", "wh40k9", "aos1", "ru_whfb"):
        system = get_system(key)
        assert system.can_attack  # issue 10 (40k), issue 11 (WHFB, RU, AoS)
        assert system.profile_schema["type"] == "object" and "points" in system.profile_schema["properties"]


def test_profile_schemas_list_each_books_characteristics():
    assert get_system("whfb6").profile_schema["x-profile"] == [
        "m",
        "ws",
        "bs",
        "s",
        "t",
        "w",
        "i",
        "a",
        "ld",
        "save",
        "ward",
    ]
    assert (
        get_system("ru_whfb").profile_schema["x-profile"] == get_system("whfb6").profile_schema["x-profile"]
    )
    assert get_system("wh40k9").profile_schema["x-profile"] == [
        "m",
        "ws",
        "bs",
        "s",
        "t",
        "w",
        "a",
        "ld",
        "sv",
        "invuln",
    ]
    assert get_system("aos1").profile_schema["x-profile"] == ["move", "wounds", "save", "bravery"]


def ogres(count: int = 3, points: float = 35) -> dict:
    return {
        "format": 1,
        "system": "whfb6",
        "name": "Ogres",
        "models": [
            {
                "name": "Ogre",
                "count": count,
                "points": points,
                "m": 6,
                "ws": 3,
                "bs": 2,
                "s": 4,
                "t": 4,
                "w": 3,
                "i": 2,
                "a": 3,
                "ld": 7,
                "save": 6,
                "weapons": [{"name": "Hand weapon", "range": 0, "strength": "user"}],
            }
        ],
    }


def test_catalogue_points_are_model_points_times_count_plus_upgrades_rounded_once():
    unit = ogres(points=35.5)
    unit["upgrades"] = [{"key": "banner", "label": "War Banner", "count": 1, "cost": 25}]
    breakdown = get_system("whfb6").price(unit)
    assert breakdown["points"] == 132  # 3 × 35.5 + 25 = 131.5 → 132 (half-up)
    assert breakdown["exact"] == "131.5"
    assert breakdown["models"] == [{"name": "Ogre", "count": 3, "points_each": "35.5", "total": "106.5"}]
    assert breakdown["priced_from"] == "catalogue"


def test_invalid_profiles_raise_the_unit_format_error_with_field_paths():
    unit = ogres()
    unit["models"][0]["ws"] = 11
    unit["models"][0]["weapons"][0]["strength"] = "strong"
    unit["models"][0]["toughnes"] = 4
    with pytest.raises(UnitFormatError) as caught:
        get_system("whfb6").price(unit)
    paths = {error.path for error in caught.value.errors}
    assert {"models[0].ws", "models[0].weapons[0].strength", "models[0]"} <= paths
    assert any("toughnes" in error.message for error in caught.value.errors)


def intercessors(count: int = 4, *, warlord: bool = False) -> dict:
    """The booklet's Assault Intercessor Squad (docs/rules/wh40k9.md §1.2): 5 Power, 10 with 6+ models."""
    sergeant_rules = ["Warlord"] if warlord else []
    return {
        "format": 1,
        "system": "wh40k9",
        "name": "Assault Intercessor Squad",
        "power_rating": 5,
        "power_rating_rules": [{"min_models": 6, "power": 10}],
        "models": [
            {
                "name": "Assault Intercessor",
                "count": count,
                "min_count": 4,
                "max_count": 9,
                "points": 0,
                "m": 6,
                "ws": 3,
                "bs": 3,
                "s": 4,
                "t": 4,
                "w": 2,
                "a": 2,
                "ld": 7,
                "sv": 3,
            },
            {
                "name": "Assault Intercessor Sergeant",
                "count": 1,
                "min_count": 1,
                "max_count": 1,
                "points": 0,
                "m": 6,
                "ws": 3,
                "bs": 3,
                "s": 4,
                "t": 4,
                "w": 2,
                "a": 3,
                "ld": 8,
                "sv": 3,
                "rules": sergeant_rules,
            },
        ],
    }


def test_a_40k_price_reports_the_power_rating_for_the_units_size():
    """docs/rules/wh40k9.md §1.2: "If this unit contains 6 or more models, its Power Rating is increased
    to 10"."""
    assert get_system("wh40k9").price(intercessors(4))["power"] == 5
    assert get_system("wh40k9").price(intercessors(5))["power"] == 10


def army(system: str, *units: dict, limit: int = 2000, **extra) -> dict:
    return {
        "format": 1,
        "system": system,
        "name": "Test",
        "points_limit": limit,
        "options": {},
        "units": [{"unit": u, "count": 1} for u in units],
        **extra,
    }


def rules_broken(violations) -> list[str]:
    return [v["rule"] for v in violations]


def test_40k_power_level_must_fit_half_the_combined_battle_size():
    """docs/rules/wh40k9.md §7.2: Combat Patrol is 50 Power Level for BOTH armies, so 25 for one list."""
    validate = get_system("wh40k9").validate
    squads = [intercessors(9, warlord=i == 0) for i in range(3)]  # 3 × 10 Power
    assert rules_broken(validate(army("wh40k9", *squads, battle_size="combat_patrol"))) == ["battle_size"]
    assert validate(army("wh40k9", *squads, battle_size="incursion")) == []
    switched_off = army("wh40k9", *squads, battle_size="combat_patrol")
    switched_off["options"] = {"battle_size": False}
    assert validate(switched_off) == []


def test_40k_warlord_and_unit_sizes():
    validate = get_system("wh40k9").validate
    assert rules_broken(validate(army("wh40k9", intercessors()))) == ["warlord"]
    assert rules_broken(validate(army("wh40k9", intercessors(warlord=True), intercessors(warlord=True)))) == [
        "warlord"
    ]
    too_many = intercessors(10, warlord=True)
    assert [v["check"] for v in validate(army("wh40k9", too_many))] == ["max_models"]
    short = [intercessors(2, warlord=True), intercessors(2)]  # one understrength unit per datasheet
    assert [v["check"] for v in validate(army("wh40k9", *short))] == ["understrength"]


def test_whfb_general_battle_standard_and_magic_items():
    """docs/rules/whfb6.md §11.5, §13, §14.1."""
    validate = get_system("whfb6").validate
    hero = {
        "name": "Captain",
        "count": 1,
        "points": 50,
        "character": True,
        "ld": 8,
        "rules": ["General"],
        "items": [{"name": "Sword of Might", "kind": "weapon"}, {"name": "Biting Blade", "kind": "weapon"}],
    }
    lord = {
        "name": "Lord",
        "count": 1,
        "points": 100,
        "character": True,
        "ld": 9,
        "wizard_level": 0,
        "rules": ["Battle Standard"],
        "items": [{"name": "Staff of Sorcery", "kind": "arcane"}],
    }
    bearer = {
        "name": "Bearer",
        "count": 1,
        "points": 60,
        "character": True,
        "ld": 7,
        "rules": ["Battle Standard"],
        "items": [{"name": "Sword of Might", "kind": "weapon"}],
    }
    unit = {"format": 1, "system": "whfb6", "name": "Command", "models": [hero, lord, bearer]}
    digest_only = {"slot_chart": False, "magic_item_points": False}  # the [EXTERNAL] rules are tested apart
    violations = validate(army("whfb6", unit, limit=200, options=digest_only))
    checks = sorted(v["check"] for v in violations)
    assert checks == sorted(
        [
            "points_limit",
            "general_highest_ld",
            "battle_standard",
            "one_item_per_type",
            "arcane_wizards_only",
            "unique_items",
        ]
    )
    no_general = {"format": 1, "system": "whfb6", "name": "Ogres", "models": ogres()["models"]}
    assert rules_broken(validate(army("whfb6", no_general, options=digest_only))) == ["general"]


def test_ru_and_aos_check_what_their_sources_give():
    ru_unit = {
        "format": 1,
        "system": "ru_whfb",
        "name": "Heroes",
        "models": [{"name": "Hero", "count": 2, "points": 0, "rules": ["General"]}],
    }
    ru_rules_only = {"percentages": False}  # the [EXTERNAL] chart is tested apart
    assert rules_broken(get_system("ru_whfb").validate(army("ru_whfb", ru_unit, options=ru_rules_only))) == [
        "general"
    ]
    aos_unit = {
        "format": 1,
        "system": "aos1",
        "name": "Warriors",
        "models": [{"name": "Warrior", "count": 10, "points": 10, "move": 5, "wounds": 1, "bravery": 6}],
    }
    assert get_system("aos1").validate(army("aos1", aos_unit, limit=100)) == []
    # The sheet has no points (§3): a points limit is never checked, whatever the warscrolls carry.
    assert get_system("aos1").validate(army("aos1", aos_unit, limit=99)) == []


def test_a_magic_items_inline_points_are_added_to_the_units_price():
    """A unit written out in full prices what it carries: the models' points plus each item's
    own `points` per model carrying it (docs/rules/whfb6.md §14: the Sword of Might costs 20 pts in
    the item list). 2 Ogres at 35 and a Boss row at 0 carrying a 20-pt sword: 70 + 20 = 90; a
    1-pt item on a row of 3 costs 3. An item an option added (`priced_by`, its cost in
    `upgrades`) is not counted twice, nor an item of data written before items named their
    option when an upgrade costs exactly its points."""
    unit = ogres(points=35)
    unit["models"].append({**unit["models"][0], "name": "Boss", "count": 1, "points": 0,
                           "items": [{"name": "Sword of Might", "kind": "weapon", "points": 20}]})
    unit["models"][0]["count"] = 2
    breakdown = get_system("whfb6").price(unit)
    assert (breakdown["points"], breakdown["exact"]) == (90, "90")
    assert breakdown["items"] == [
        {"model": "Boss", "name": "Sword of Might", "count": 1, "points_each": "20", "total": "20"}
    ]
    optioned = copy.deepcopy(unit)
    optioned["models"][1]["items"][0]["priced_by"] = "sword-of-might"
    optioned["upgrades"] = [{"key": "sword-of-might", "label": "Sword of Might", "count": 1, "cost": 20}]
    assert get_system("whfb6").price(optioned)["points"] == 90
    assert "items" not in get_system("whfb6").price(optioned)
    legacy = copy.deepcopy(optioned)
    del legacy["models"][1]["items"][0]["priced_by"]
    assert get_system("whfb6").price(legacy)["points"] == 90
    three = ogres(points=35)
    three["models"][0]["items"] = [{"name": "Shield", "kind": "mundane", "points": 1}]
    assert get_system("whfb6").price(three)["points"] == 3 * 35 + 3 * 1
