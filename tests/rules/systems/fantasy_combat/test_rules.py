"""One WHFB 6th rule at a time through the engine's `attack`, with the exact value the spec
gives by hand (`docs/rules/whfb6.md` §5.4, §6, §7.1, §8.6, §8.7, §12). Defenders have no attacks
unless the rule is about strike order."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from rules.systems.fantasy_combat.estimate import attack
from rules.systems.fantasy_combat.variants import WHFB6
from tests.factories.fantasy_units import unit


def first_weapon(attacker, defender, situation):
    return attack(attacker, defender, situation, variants=WHFB6)["weapons"][0]["expected"]


def wounds_each(attacker, defender, situation):
    expected = first_weapon(attacker, defender, situation)
    return expected["wounds"] / expected["attacks"]


MELEE = {"mode": "melee"}
TARGET = {"a": 0}


def test_hand_weapon_and_shield_saves_one_better_on_foot_in_close_combat_only():
    """§7.1: light armour + shield + hand weapon on foot in close combat is 4+; with a spear 5+;
    against shooting 5+."""
    hand = unit("Men", 10, armour="light", shield=True, weapons=[{"name": "Sword", "range": 0}], **TARGET)
    spear = unit("Men", 10, armour="light", shield=True, weapons=[{"name": "Spear", "range": 0}], **TARGET)
    sword = unit("Sword", 1)
    assert wounds_each(sword, hand, MELEE) == pytest.approx(float(F(1, 2) * F(1, 2) * F(1, 2)), abs=1e-15)
    assert wounds_each(sword, spear, MELEE) == pytest.approx(float(F(1, 2) * F(1, 2) * F(2, 3)), abs=1e-15)
    bow = unit("Bow", 1, weapons=[{"name": "Bow", "range": 24, "strength": 3}])
    shot = {"mode": "shooting", "range_inches": 10}
    assert wounds_each(bow, hand, shot) == pytest.approx(float(F(1, 2) * F(1, 2) * F(2, 3)), abs=1e-15)


@pytest.mark.parametrize(
    ("kind", "situation", "strength"),
    [
        ("lance", {"mode": "melee", "charging": True}, 5),
        ("lance", {"mode": "melee"}, 3),
        ("cavalry_spear", {"mode": "melee", "charging": True}, 4),
        ("flail", {"mode": "melee"}, 5),
        ("flail", {"mode": "melee", "round": 2}, 3),
        ("morning_star", {"mode": "melee"}, 4),
        ("halberd", {"mode": "melee", "round": 3}, 4),
        ("great_weapon", {"mode": "melee", "round": 2}, 5),
        ("pistol", {"mode": "melee"}, 4),
    ],
)
def test_weapon_strength_bonuses_and_when_they_apply(kind, situation, strength):
    """§12.1: great weapon +2, halberd +1, flail +2 / morning star +1 in the first round, lance
    +2 / cavalry spear +1 in the first round when charging, pistol S4 in the first round. Read
    off the to-wound chance against T3 (no save)."""
    attacker = unit("Striker", 1, troop_type="cavalry", weapons=[{"name": "W", "range": 0, "kind": kind}])
    expected = first_weapon(attacker, unit("Target", 10, **TARGET), situation)
    wound = {3: F(1, 2), 4: F(2, 3), 5: F(5, 6)}[strength]
    assert expected["wounds"] == pytest.approx(float(F(1, 2) * wound), abs=1e-15)


def test_great_weapons_strike_last_except_on_the_charge():
    """§6.2: the I2 enemy strikes before a great weapon (its 10 blows all land), but a charging
    great weapon strikes first (so fewer enemies strike back)."""
    axes = unit("Axes", 10, i=4, weapons=[{"name": "Great axe", "range": 0, "kind": "great_weapon"}])
    enemy = unit("Enemy", 10, i=2)
    line = {"attacker_width": 10, "defender_width": 10}  # one rank each: all ten in contact (§6.2)
    back = attack(axes, enemy, {"mode": "melee", "round": 2, **line}, variants=WHFB6)["defender_weapons"][0][
        "expected"
    ]
    assert back["attacks"] == pytest.approx(10, abs=1e-12)
    charged = attack(axes, enemy, {"mode": "melee", "charging": True, **line}, variants=WHFB6)[
        "defender_weapons"
    ][0]
    assert charged["expected"]["attacks"] == pytest.approx(10 - 10 * float(F(1, 2) * F(5, 6)), abs=1e-12)


def test_spears_fight_in_two_ranks_but_not_on_the_turn_they_charge():
    """§12.3: with 5 models in contact, spearmen attack with 10; charging, with 5. §6.2: by
    default the five of a 5-wide front are in contact with a 5-wide enemy, so again 10."""
    spears = unit("Spears", 20, weapons=[{"name": "Spear", "range": 0, "kind": "spear"}])
    target = unit("Target", 20, **TARGET)
    assert first_weapon(spears, target, {"mode": "melee", "fighting_models": 5})["attacks"] == 10
    assert (
        first_weapon(spears, target, {"mode": "melee", "fighting_models": 5, "charging": True})["attacks"]
        == 5
    )
    assert first_weapon(spears, target, {"mode": "melee"})["attacks"] == 10


def test_two_hand_weapons_give_an_extra_attack_on_foot():
    """§12.4: +1 A for foot models with two hand weapons."""
    twin = unit("Twin", 1, weapons=[{"name": "Axe", "range": 0}, {"name": "Axe", "range": 0}])
    assert first_weapon(twin, unit("T", 5, **TARGET), MELEE)["attacks"] == 2


def test_chariots_are_hit_on_their_crews_ws_and_war_machines_automatically():
    """§8.7: the chariot's WS is its crew's highest; §8.6: the machine is hit automatically."""
    chariot = {
        "format": 1,
        "system": "whfb6",
        "name": "Chariot",
        "models": [
            {"name": "Chariot", "count": 1, "troop_type": "chariot", "s": 5, "t": 4, "w": 3},
            {"name": "Crew", "count": 2, "ws": 5, "s": 3, "i": 3, "a": 0},
        ],
    }
    machine = {
        "format": 1,
        "system": "whfb6",
        "name": "Cannon",
        "models": [{"name": "Cannon", "count": 1, "troop_type": "war_machine", "t": 7, "w": 3}],
    }
    knight = unit("Knight", 1, ws=4)
    assert first_weapon(knight, chariot, MELEE)["hits"] == pytest.approx(0.5, abs=1e-15)
    assert first_weapon(knight, machine, MELEE)["hits"] == pytest.approx(1.0, abs=1e-15)


@pytest.mark.parametrize(
    ("situation", "target_rules", "weapon", "hit"),
    [
        ({"range_inches": 10}, [], {}, F(1, 2)),
        ({"range_inches": 20}, [], {}, F(1, 3)),  # long range
        ({"range_inches": 10, "moved": True}, [], {}, F(1, 3)),
        ({"range_inches": 10, "stand_and_shoot": True}, [], {}, F(1, 3)),
        ({"range_inches": 10, "cover": "soft"}, [], {}, F(1, 3)),
        ({"range_inches": 10, "cover": "hard"}, [], {}, F(1, 6)),
        ({"range_inches": 10}, ["Large Target"], {}, F(2, 3)),
        ({"range_inches": 10}, ["Skirmishers"], {}, F(1, 3)),
        ({"range_inches": 10}, [], {"shots": 2}, F(1, 3)),  # multiple shots −1
        ({"range_inches": 20, "moved": True, "cover": "hard"}, [], {}, F(1, 18)),  # 8+: 6 then 5+
        ({"range_inches": 20, "cover": "hard"}, [], {}, F(1, 12)),  # 7+: 6 then 4+
        ({"range_inches": 20, "moved": True}, [], {"kind": "thrown"}, F(1, 2)),  # thrown: no move/long range
        (
            {"range_inches": 20, "moved": True, "cover": "hard", "stand_and_shoot": True},
            [],
            {},
            F(1, 36),
        ),  # 9+: a 6 then a 6
        ({"range_inches": 10, "moved": True}, [], {"kind": "move_or_fire"}, F(0)),
    ],
)
def test_shooting_modifiers(situation, target_rules, weapon, hit):
    """§5.4, §12.3: every modifier of the table, cumulative, through the BS table of §5.3."""
    shooter = unit("Shooter", 1, weapons=[{"name": "Bow", "range": 24, "strength": 3, **weapon}])
    target = unit("Target", 10, rules=target_rules)
    result = attack(shooter, target, {"mode": "shooting", **situation}, variants=WHFB6)
    shots = weapon.get("shots", 1)
    assert result["expected"]["hits"] == pytest.approx(float(shots * hit), abs=1e-15)


def test_a_spear_is_a_cavalry_spear_on_a_mounted_model_whatever_its_name():
    """§12.1 (seed: "Kopí (pěchota)" fights in 2 ranks; "Kopí (jízda, válečné vozy, jezdci na
    monstrech)" +1 S in the first round, only when charging): the kind comes from the carrier's
    troop type, not from the weapon's name. Five S3 knights with a weapon named "Spear", all
    five in contact, against T3 with no save: charging, 5 attacks wounding on S4 (2/3 after the
    1/2 to hit); not charging, 5 attacks on S3 (1/2) — never a second rank. Chariot crews
    carry spears the same way; infantry still fight in two ranks (10 attacks)."""
    spear = [{"name": "Spear", "range": 0}]
    knights = unit("Knights", 10, troop_type="cavalry", weapons=spear)
    target = unit("Target", 20, **TARGET)
    charge = first_weapon(knights, target, {"mode": "melee", "fighting_models": 5, "charging": True})
    assert charge["attacks"] == 5
    assert charge["wounds"] == pytest.approx(float(5 * F(1, 2) * F(2, 3)), abs=1e-12)
    standing = first_weapon(knights, target, {"mode": "melee", "fighting_models": 5})
    assert standing["attacks"] == 5
    assert standing["wounds"] == pytest.approx(float(5 * F(1, 2) * F(1, 2)), abs=1e-12)
    chariot = {
        "format": 1,
        "system": "whfb6",
        "name": "Chariot",
        "models": [
            {"name": "Crew", "count": 2, "ws": 3, "s": 3, "i": 3, "a": 1, "weapons": spear},
            {"name": "Chariot", "count": 1, "troop_type": "chariot", "s": 5, "t": 4, "w": 3, "ws": None},
        ],
    }
    crew = first_weapon(chariot, target, {"mode": "melee", "charging": True})
    assert crew["wounds"] / crew["attacks"] == pytest.approx(float(F(1, 2) * F(2, 3)), abs=1e-12)
    foot = unit("Spearmen", 20, weapons=spear)
    assert first_weapon(foot, target, {"mode": "melee", "fighting_models": 5})["attacks"] == 10
