"""The exact fantasy engine against an independent Monte-Carlo simulation, rule by rule and
end to end: strike order, return blows, combat result and break tests (`docs/rules/whfb6.md` §5,
§6, §7, §8, §9; RU switches of `docs/rules/ru_whfb.md`)."""

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
    assert outcomes["attacker_fighting"]["value"] == trials[0].attacker_fighting
    assert outcomes["defender_fighting"]["value"] == trials[0].defender_fighting
    if "defender_swarm_wounds" in outcomes:
        for k, p in enumerate(outcomes["defender_swarm_wounds"]["value"]):
            close(p, [t.defender_swarm_wounds == k for t in trials], f"P({k} Swarm wounds)")
    return result


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


@pytest.mark.parametrize("facing", ["front", "flank", "rear"])
def test_who_fights_follows_the_formations_front_flank_and_rear(facing):
    """§6.2 who fights: only models whose bases touch (a corner is enough), by default from the
    two units' widths, ranks and bases; §12.3 the defender's spears add their second rank only
    against an enemy to its front; the return blows follow the same rule."""
    swordsmen = unit("Swordsmen", 15, i=4, save=5)
    spearmen = unit("Spearmen", 19, save=5, weapons=[{"name": "Spear", "range": 0, "kind": "spear"}])
    situation = {"mode": "melee", "round": 2, "flank": facing, "attacker_width": 6, "defender_width": 4}
    result = check_melee(swordsmen, spearmen, situation)
    fighting = {o["key"]: o["value"] for o in result["outcomes"] if o["kind"] == "number"}
    # 6 × 20 mm against 4 × 20 mm (front), 4 full ranks' side (flank), a rear rank of 3 (rear):
    # lined up on a base edge for the most contact, 3 face to face and 2 at the corners (rear)
    assert (fighting["attacker_fighting"], fighting["defender_fighting"]) == {
        "front": (6, 4),
        "flank": (6, 4),
        "rear": (5, 3),
    }[facing]


def test_skirmishers_charging_a_flank_do_not_cancel_the_rank_bonus():
    """§3.5: skirmishers "do not cancel the enemy's rank bonus when they charge its flank or
    rear" (they still get the flank +1 with US ≥ 5, §9.1)."""
    skirmishers = unit("Skirmishers", 8, i=4, save=6, ld=7, rules=["Skirmishers"])
    # 6 ranks: +3 whatever the 8 blows kill; no blows back, so the chargers keep US 8
    regiment = unit("Regiment", 30, a=0, save=5, ld=7)
    situation = {"mode": "melee", "charging": True, "flank": "flank", "attacker_width": 8}
    result = check_melee(skirmishers, regiment, situation)
    cr = next(o for o in result["outcomes"] if o["key"] == "combat_result")
    # the regiment keeps +3 ranks; a flank charger of US ≥ 5 that is not skirmishing cancels them
    plain = attack(unit("Skirmishers", 8, i=4, save=6, ld=7), regiment, situation, variants=WHFB6)
    plain_cr = next(o for o in plain["outcomes"] if o["key"] == "combat_result")
    assert plain_cr["expected"] - cr["expected"] == pytest.approx(3, abs=1e-9)


def test_russian_swarm_takes_wounds_instead_of_a_break_test():
    """RU §2.6, #39: a Swarm "takes no break test; instead it suffers extra wounds equal to the
    combat result difference" (WHFB 6th: it tests like any unit)."""
    ru = dict(variants=RU_WHFB, ru=True)
    warriors = unit("Warriors", 12, ws=4, s=4, i=4, save=5, ld=8)
    rats = unit("Rats", 10, ws=2, s=2, t=2, i=4, save=None, ld=4, rules=["Swarm"])
    situation = {"mode": "melee", "charging": True, "attacker_standard": True}
    result = check_melee(warriors, rats, situation, **ru)
    outcomes = {o["key"]: o for o in result["outcomes"]}
    # "breaks or is destroyed": a Swarm only ever leaves destroyed, by blows or by the extra wounds
    assert result["p_destroyed"] <= outcomes["p_defender_breaks"]["value"] < 0.5
    assert outcomes["defender_swarm_wounds"]["expected"] > 1
    whfb = attack(warriors, rats, situation, variants=WHFB6)
    assert next(o for o in whfb["outcomes"] if o["key"] == "p_defender_breaks")["value"] > 0.9


def test_russian_fear_does_not_break_automatically_and_army_standards_stack():
    """RU #8: Fear only sets WS 1 (no auto-break when beaten by a bigger fear-causer, WHFB
    §10.3); RU §2.6, #44: the Army Battle Standard +1 stacks with a unit standard (+2), WHFB
    §9.1, §11.5: one standard bonus per side."""
    ogres = unit("Ogres", 4, s=4, t=4, w=3, i=2, a=3, save=6, troop_type="monstrous", rules=["Fear"])
    elves = unit("Elves", 10, ws=4, i=5, save=5, ld=8)
    situation = {"mode": "melee", "round": 2, "attacker_standard": True, "attacker_army_standard": True}
    check_melee(ogres, elves, situation, variants=RU_WHFB, ru=True)
    check_melee(ogres, elves, situation)


@pytest.mark.parametrize("ru", [False, True], ids=["whfb6", "ru_whfb"])
def test_the_unit_carrying_the_battle_standard_re_rolls_its_break_test(ru):
    """§9.2 "units within 12" may re-roll a failed break test" (RU #44 the same): the bearer's
    unit is within 12" of him, so a beaten unit with the army battle standard re-rolls, with no
    "near the battle standard" switch; the simulation rolls the blows, the result and the test."""
    swords = unit("Swords", 15, ws=4, s=4, i=4, save=5, ld=8)
    bearers = unit("Bearers", 10, save=5, ld=7)
    situation = {"mode": "melee", "charging": True, "defender_army_standard": True}
    result = check_melee(swords, bearers, situation, **({"variants": RU_WHFB, "ru": True} if ru else {}))
    plain = attack(swords, bearers, {**situation, "defender_army_standard": False},
                   variants=RU_WHFB if ru else WHFB6)
    breaks = {o["key"]: o["value"] for o in result["outcomes"]}["p_defender_breaks"]
    assert breaks < {o["key"]: o["value"] for o in plain["outcomes"]}["p_defender_breaks"]


@pytest.mark.parametrize("charging", [True, False], ids=["charging", "charged"])
def test_cavalry_spears_strike_harder_on_the_charge_and_never_from_the_second_rank(charging):
    """§12.1: a cavalry model's "Spear" is the cavalry spear: +1 S in the first round when
    charging, no second rank. Ten knights five wide against twenty spearmen five wide."""
    knights = unit("Knights", 10, ws=4, s=3, i=3, save=3, troop_type="cavalry",
                   weapons=[{"name": "Spear", "range": 0}])
    men = unit("Men", 20, save=6, ld=7)
    situation = {"mode": "melee", "round": 1, "charging": charging}
    result = check_melee(knights, men, situation)
    assert result["weapons"][0]["expected"]["attacks"] == pytest.approx(5, abs=1e-12)


def test_russian_tables_may_play_the_fear_auto_break():
    """RU #8 has no auto-break; the RU-only situation option `fear_auto_break` plays WHFB §10.3
    (beaten by a fear-causing unit with greater US: broken, no test)."""
    ogres = unit("Ogres", 4, s=4, t=4, w=3, i=2, a=3, save=6, troop_type="monstrous", rules=["Fear"])
    elves = unit("Elves", 10, ws=4, i=5, save=5, ld=8)
    situation = {"mode": "melee", "round": 2, "fear_auto_break": True}

    def p_breaks(result):
        return next(o["value"] for o in result["outcomes"] if o["key"] == "p_defender_breaks")

    with_option = p_breaks(attack(ogres, elves, situation, variants=RU_WHFB))
    without = p_breaks(attack(ogres, elves, {"mode": "melee", "round": 2}, variants=RU_WHFB))
    assert with_option > without
    # no other RU switch matters here, so the WHFB simulation is the oracle of the option
    trials = sim.run(TRIALS, lambda rng: sim.melee_round(ogres, elves, {"mode": "melee", "round": 2}, rng))
    close(with_option, [t.defender_breaks for t in trials], "RU with the option: WHFB's auto-break")
    with pytest.raises(ValueError, match="fear_auto_break: unknown field"):
        attack(ogres, elves, situation, variants=WHFB6)  # WHFB always plays it: no option
