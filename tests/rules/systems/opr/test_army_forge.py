"""Army Forge units read as Army Forge means them (issue 41): its names for our rules, rules
where Army Forge writes them (a model rule on a weapon, Tough from a mount), and the rules the
formula does not price kept as text instead of refusing the unit. No database."""

from __future__ import annotations

import pytest

from points.opr import price
from rules.systems.opr.army_forge import ReadRule, read_rule, read_unit
from rules.systems.opr.unit_format import parse_unit


@pytest.mark.parametrize(
    ("written", "read"),
    [
        ({"name": "Strider"}, ReadRule("model", "Agile")),  # points/opr/OLD_OPR.md
        ({"name": "Psychic", "rating": 2}, ReadRule("model", "Caster(2)", 2)),
        ({"name": "Counter"}, ReadRule("model", "Counter")),
        ({"name": "Blast", "rating": "3"}, ReadRule("weapon", "Blast(3)", 3)),
        ({"name": "Tough", "rating": "+12"}, ReadRule("tough", "Tough(12)", 12)),
        ({"name": "AP", "rating": 2}, ReadRule("ap", "AP(2)", 2)),
        ({"name": "Impact", "rating": 3}, ReadRule("text", "Impact(3)")),
        ({"name": "Melee Evasion"}, ReadRule("text", "Melee Evasion")),
        ({"name": "Fearless", "rating": 1}, ReadRule("text", "Fearless(1)")),  # takes no value
        ({"name": "Caster", "rating": 9}, ReadRule("text", "Caster(9)")),  # beyond the table
        ({"name": "AP", "rating": 7}, ReadRule("text", "AP(7)")),
        ({"name": ""}, None),
    ],
)
def test_each_rule_reads_as_army_forge_means_it(written, read):
    assert read_rule(written) == read


MOUNTED_HERO = {
    "id": "lord",
    "name": "Vampire Lord",
    "size": 1,
    "quality": 3,
    "defense": 4,
    "cost": 95,
    "rules": [{"name": "Hero"}, {"name": "Tough", "rating": 3}, {"name": "Fear", "rating": 1}],
    "selectedUpgrades": [{"option": {"label": "War Sphinx", "costs": [{"unitId": "lord", "cost": 185}]}}],
    "loadout": [
        {"type": "ArmyBookWeapon", "name": "Lance Spear", "count": 1, "range": 0, "attacks": 3,
         "specialRules": [{"name": "Counter"}, {"name": "AP", "rating": 1}]},
        {"type": "ArmyBookItem", "name": "War Sphinx", "count": 1, "content": [
            {"type": "ArmyBookWeapon", "name": "Stomp", "attacks": 4, "range": 0,
             "specialRules": [{"name": "AP", "rating": 1}]},
            {"type": "ArmyBookRule", "name": "Armor", "rating": 2},
            {"type": "ArmyBookRule", "name": "Fear", "rating": 2},
            {"type": "ArmyBookRule", "name": "Tough", "rating": 12},
        ]},
    ],
}


def test_a_hero_on_a_mount_adds_its_tough_and_brings_its_weapons_and_rules():
    """Army Forge stores the hero's Tough(3) and the mount's Tough(12): the hero has 15; Counter
    written on the spear is the model's; the mount's Fear(2) beats the hero's Fear(1)."""
    read = read_unit(MOUNTED_HERO, "units[0]")
    assert read.errors == []
    assert read.unit["models"] == [
        {
            "name": "Vampire Lord", "count": 1, "quality": 3, "defence": 4, "toughness": 15,
            "rules": ["Hero", "Fear(2)", "Counter"],
            "weapons": [
                {"name": "Lance Spear", "range": 0, "attacks": 3, "ap": 1},
                {"name": "Stomp", "range": 0, "attacks": 4, "ap": 1},
            ],
        }
    ]
    assert read.unpriced == ["Armor(2)"] and read.unit["extra"]["text_rules"] == ["Armor(2)"]
    assert read.source_points == 280
    # base 5 × 1.1 × 1.33 × T15 23 = 168.245; spear 3×2×0.6×4×1.5 = 21.6, stomp 28.8;
    # Fear(2) 1.5 and Counter 2 × 15 = 30 (docs/rules/opr-points.md §6): 250.145
    assert price(parse_unit(read.unit)).points == 250


def test_a_unit_without_tough_gets_its_mounts_toughness_and_no_more():
    rider = {**MOUNTED_HERO, "rules": [{"name": "Hero"}]}
    assert read_unit(rider, "units[0]").unit["models"][0]["toughness"] == 12


def test_contradicting_and_unknown_rules_stay_as_text_never_refuse_the_unit():
    unit = {
        "name": "Zombies", "size": 5, "quality": 6, "defense": 6, "cost": 60,
        "rules": [{"name": "Slow"}, {"name": "Undead"}, {"name": "Rending"}],
        "loadout": [
            {"type": "ArmyBookWeapon", "name": "Claws", "count": 5, "range": 0, "attacks": 1,
             "specialRules": [{"name": "Poison"}, {"name": "Counter"}]},
            {"type": "ArmyBookItem", "name": "Drums", "count": 5,
             "content": [{"type": "ArmyBookRule", "name": "Fast"}]},
        ],
    }
    read = read_unit(unit, "units[0]")
    assert read.errors == []
    # Slow is the unit's own; Fast from the drums contradicts it and is kept as text, as is a
    # weapon rule written on the unit (Rending names no weapon) and the rules we do not price
    assert read.unit["models"] == [
        {"name": "Zombies", "count": 5, "quality": 6, "defence": 6, "rules": ["Slow", "Counter"],
         "weapons": [{"name": "Claws", "range": 0, "attacks": 1}]},
    ]
    assert read.unpriced == ["Undead", "Rending", "Poison", "Fast"]
    assert parse_unit(read.unit).models[0].toughness == 1


def test_an_army_book_unit_reads_its_weapons_and_items():
    """Army books (v3.5) list a unit's gear as `weapons` and `items`, not `loadout`."""
    book_unit = {
        "id": "u1", "name": "Grove Guardian", "size": 1, "quality": 3, "defense": 3, "cost": 260,
        "rules": [{"name": "Hero", "label": "Hero"}, {"name": "Strider", "label": "Strider"},
                  {"name": "Tough", "rating": 9, "label": "Tough(9)"}],
        "weapons": [{"type": "ArmyBookWeapon", "name": "Great Hammer", "count": 1, "range": 0, "attacks": 3,
                     "specialRules": [{"name": "AP", "rating": 2}, {"name": "Blast", "rating": 3}]}],
        "items": [{"type": "ArmyBookItem", "name": "Bark Skin", "count": 1,
                   "content": [{"type": "ArmyBookRule", "name": "Resistant"}]}],
    }
    read = read_unit(book_unit, "units[0]")
    assert read.unit["models"] == [
        {"name": "Grove Guardian", "count": 1, "quality": 3, "defence": 3, "toughness": 9,
         "rules": ["Hero", "Agile", "Resistant"],
         "weapons": [{"name": "Great Hammer", "range": 0, "attacks": 3, "ap": 2, "rules": ["Blast(3)"]}]},
    ]
    assert read.unpriced == []


def test_an_option_for_more_models_than_the_unit_has_is_left_out():
    """A shared upgrade package may offer "Replace 2x Heavy Club" to a one-model hero (Army
    Forge's Orc Marauders): there is no second club to replace, so it is not offered here."""
    from rules.systems.opr.army_forge import read_options

    hero = {"name": "Leader", "models": [{"name": "Leader", "count": 1, "weapons": [{"name": "Heavy Club"}]}]}
    section = {"label": "Replace 2x Heavy Club", "variant": "replace", "targets": ["Heavy Club"],
               "affects": {"type": "exactly", "value": 2},
               "options": [{"label": "Heavy Great Weapon (A6, AP(2))", "gains": [
                   {"type": "ArmyBookWeapon", "name": "Heavy Great Weapon", "attacks": 6, "range": 0,
                    "specialRules": [{"name": "AP", "rating": 2}]}]}]}
    options, left_out = read_options({"upgrades": ["p"]}, {"p": {"sections": [section]}}, hero, "units[0]")
    assert (options, left_out) == ([], ["Leader: Replace 2x Heavy Club: Heavy Great Weapon (A6, AP(2))"])


def test_an_item_whose_rule_contradicts_the_units_keeps_that_rule_as_text():
    """Army Forge's Halflings: a Slow unit may take an item giving Fast; which of the two wins
    is not written down, so Fast is kept as text (the book is not refused), the rest priced."""
    from rules.systems.opr.army_forge import read_options

    unit = {"name": "Riders", "models": [{"name": "Riders", "count": 3, "quality": 4, "defence": 5,
                                          "rules": ["Slow"]}]}
    section = {"label": "Upgrade with", "variant": "upgrade",
               "options": [{"label": "Ponies (Fast, Tough(+3))", "gains": [
                   {"type": "ArmyBookItem", "name": "Ponies", "count": 1, "content": [
                       {"type": "ArmyBookRule", "name": "Fast"},
                       {"type": "ArmyBookRule", "name": "Tough", "rating": 3}]}]}]}
    options, left_out = read_options({"upgrades": ["p"]}, {"p": {"sections": [section]}}, unit, "units[0]")
    assert left_out == []
    gives = {"toughness": 3, "text_rules": ["Fast"]}
    assert [(o["kind"], o["payload"]) for o in options] == [
        ("add_item", {"item": {"name": "Ponies (Fast, Tough(+3))", "gives": gives}}),
    ]


def test_rules_kept_as_text_go_out_in_the_export_and_come_back():
    """Our Army Forge export writes the rules we keep as text, so reading it back keeps them."""
    from rules.systems.opr.army_forge import write_unit

    read = read_unit(MOUNTED_HERO, "units[0]")
    written = write_unit(read.unit, points=250, selection_id="s1")
    assert [r["label"] for r in written["rules"]] == ["Hero", "Fear(2)", "Counter", "Tough(15)", "Armor(2)"]
    again = read_unit(written, "units[0]")
    assert again.unit["models"] == read.unit["models"]
    assert again.unpriced == ["Armor(2)"]
