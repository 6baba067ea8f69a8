"""The exact fantasy engine against an independent Monte-Carlo simulation, rule by rule and
end to end: strike order, return blows, combat result and break tests (`000_whfb6.md` §5,
§6, §7, §8, §9; RU switches of `004_ru.md`)."""

from __future__ import annotations

import numpy as np
import pytest

from rules.systems.fantasy_combat.estimate import attack
from rules.systems.fantasy_combat.variants import RU_WHFB, WHFB6
from tests.factories.fantasy_units import unit
from tests.rules.systems.fantasy_combat import fantasy_simulation as sim

TRIALS = 12_000
pytestmark = pytest.mark.montecarlo




def close(estimate, samples, label):
    samples = np.asarray(samples, dtype=float)
    se = samples.std() / np.sqrt(len(samples))
    assert abs(estimate - samples.mean()) <= 5 * se + 2e-3, (
        f"{label}: exact {estimate}, simulated {samples.mean()}"
    )


def check_melee(attacker, defender, situation, variants=WHFB6, ru=False):
    result = attack(attacker, defender, situation, variants=variants)
    trials = sim.run(TRIALS, lambda rng: sim.melee_round(attacker, defender, situation, rng, ru=ru))
    outcomes = {o["key"]: o for o in result["outcomes"]}
    kills = result["kills_distribution"]
    for k in range(len(kills)):
        close(kills[k], [t.defender_killed == k for t in trials], f"P({k} killed)")
    close(result["expected"]["damage"], [t.defender_lost for t in trials], "wounds caused")
    close(
        outcomes["attacker_losses"]["expected"],
        [t.attacker_lost // attacker["models"][0].get("w", 1) for t in trials],
        "attacker losses",
    )
    close(outcomes["p_win_combat"]["value"], [t.difference > 0 for t in trials], "attacker wins")
    close(outcomes["p_draw"]["value"], [t.difference == 0 for t in trials], "draw")
    close(outcomes["p_defender_breaks"]["value"], [t.defender_breaks for t in trials], "defender breaks")
    close(outcomes["p_attacker_breaks"]["value"], [t.attacker_breaks for t in trials], "attacker breaks")
    cr = outcomes["combat_result"]
    for i, p in enumerate(cr["value"]):
        close(p, [t.difference == cr["offset"] + i for t in trials], f"P(result = {cr['offset'] + i})")


def test_initiative_order_return_blows_ranks_standard_musician():
    """§6.2: I4 swordsmen strike before I2 orcs, whose casualties cannot strike back (every
    model fights); §9.1: ranks of 4-wide units, standards, outnumbering, musician tie-break."""
    swordsmen = unit("Swordsmen", 12, i=4, save=5)
    orcs = unit("Orcs", 16, t=4, i=2, save=5)
    check_melee(
        swordsmen,
        orcs,
        {
            "mode": "melee",
            "round": 2,
            "attacker_width": 4,
            "defender_width": 4,
            "attacker_standard": True,
            "defender_standard": True,
            "attacker_musician": True,
        },
    )


def test_charging_knights_lance_mount_flank_and_spears_in_two_ranks():
    """§6.2 chargers first, §12.1 lance +2 S on the charge, §6.4 mounts attack separately,
    §12.3 spears fight in two ranks, §9.1 flank +1 cancels the defender's ranks (US ≥ 5)."""
    knights = unit(
        "Knights",
        5,
        ws=4,
        i=3,
        save=2,
        ld=8,
        troop_type="cavalry",
        mount={"name": "Horse", "ws": 3, "s": 3, "i": 3, "a": 1},
        weapons=[{"name": "Lance", "range": 0, "kind": "lance"}],
    )
    spearmen = unit("Spearmen", 20, save=5, weapons=[{"name": "Spear", "range": 0, "kind": "spear"}])
    check_melee(
        knights,
        spearmen,
        {
            "mode": "melee",
            "charging": True,
            "flank": "flank",
            "fighting_models": 3,
            "defender_fighting_models": 4,
        },
    )


def test_roll_off_great_weapons_hatred_poison_killing_blow_ward_regeneration_stubborn_battle_standard():
    """§6.2 equal Initiative: a roll-off; great weapons strike last; §10.7 Hatred, §8.3
    poison, §8.2 Killing Blow, §7.2 ward, §7.3 regeneration; §10.8 Stubborn; §9.2 battle standard."""
    cultists = unit("Cultists", 10, i=3, save=6, ward=5, rules=["Hatred", "Poisoned Attacks", "Killing Blow"])
    trolls = unit(
        "Guards",
        8,
        i=3,
        a=2,
        save=4,
        regeneration=5,
        rules=["Stubborn"],
        ld=6,
        weapons=[{"name": "Great weapon", "range": 0, "kind": "great_weapon"}],
    )
    situation = {"mode": "melee", "defender_battle_standard": True, "attacker_width": 5, "defender_width": 4}
    check_melee(cultists, trolls, situation)
    check_melee(trolls, cultists, {"mode": "melee", "round": 2, "attacker_width": 4})


def test_fear_auto_break_and_always_strikes_first():
    """§10.3: beaten by a fear-causing unit with greater US breaks automatically; ASF strikes
    first in WHFB from round 1."""
    ogres = unit("Ogres", 4, s=4, t=4, w=3, i=2, a=3, save=6, troop_type="monstrous", rules=["Fear"])
    elves = unit("Elves", 10, ws=4, i=5, save=5, rules=["Always Strikes First"], ld=8)
    check_melee(ogres, elves, {"mode": "melee", "round": 2, "defender_width": 5})


def test_rear_charge_high_ground_general_and_unbreakable():
    """§9.1 rear +2 (US ≥ 5) cancels ranks, high ground +1; §9.2 the general's Ld; §10.9
    Unbreakable never breaks; a fear-causing defender with greater US auto-breaks the loser."""
    wolves = unit("Wolves", 6, ws=3, s=3, i=4, save=6, troop_type="cavalry", ld=5)
    zombies = unit("Zombies", 20, ws=2, i=1, save=None, ld=3, rules=["Unbreakable", "Fear"])
    check_melee(
        wolves,
        zombies,
        {
            "mode": "melee",
            "charging": True,
            "flank": "rear",
            "high_ground": "defender",
            "attacker_general_ld": 9,
        },
    )
    check_melee(
        zombies,
        wolves,
        {
            "mode": "melee",
            "round": 2,
            "high_ground": "attacker",
            "defender_general_ld": 8,
            "defender_width": 3,
        },
    )


def test_russian_rules_end_to_end():
    """RU: Devastating Charge +1 S, poison without armour, Killing Blow on any W, great
    weapons strike last only from round 2 (round 1: Initiative order)."""
    ru = dict(variants=RU_WHFB, ru=True)
    raiders = unit(
        "Raiders", 8, ws=4, i=4, save=5, rules=["Devastating Charge", "Poisoned Attacks", "Killing Blow"]
    )
    ogres = unit("Ogres", 4, s=4, t=4, w=3, i=2, a=3, save=5, troop_type="monstrous")
    check_melee(raiders, ogres, {"mode": "melee", "charging": True}, **ru)
    brutes = unit(
        "Brutes", 8, i=4, save=5, weapons=[{"name": "Great weapon", "range": 0, "kind": "great_weapon"}]
    )
    check_melee(brutes, unit("Militia", 10, i=2, save=6), {"mode": "melee"}, **ru)
    check_melee(brutes, unit("Militia", 10, i=2, save=6), {"mode": "melee", "round": 2}, **ru)


@pytest.mark.parametrize(
    "situation",
    [
        {"mode": "shooting", "range_inches": 10},
        {"mode": "shooting", "range_inches": 20, "moved": True, "cover": "soft"},
        {"mode": "shooting", "range_inches": 20, "moved": True, "cover": "hard", "stand_and_shoot": True},
    ],
)
def test_shooting_volley(situation):
    """§5.3, §5.4, §6.5, §7.1: BS with modifiers (down to 6-then-X), S vs T, the save."""
    archers = unit("Archers", 15, weapons=[{"name": "Bow", "range": 24, "strength": 3}])
    target = unit("Men", 12, save=5)
    result = attack(archers, target, situation, variants=WHFB6)
    slain = sim.run(TRIALS, lambda rng: sim.shooting(archers, target, situation, rng))
    for k, p in enumerate(result["kills_distribution"]):
        close(p, [s == k for s in slain], f"P({k} slain)")
