"""The fantasy engine against icepool, exactly (1e-12), one rule at a time.

Each oracle rolls the real dice of the rule in icepool (hit die, re-roll, wound die, save,
ward, D3 wounds, one regeneration die per wound) and walks the defender's models die by die;
the engine's `attack` must give the same kills distribution. Defenders have no attacks, so a
close-combat round is the attacker's dice alone (and combat resolution is checked on it).
"""

from __future__ import annotations

from fractions import Fraction

import icepool
import pytest

from rules.systems.fantasy_combat.estimate import attack
from rules.systems.fantasy_combat.variants import RU_WHFB, WHFB6
from tests.factories.fantasy_units import unit
from tests.rules.dice.icepool_oracle import as_pmf, assert_pmf_equal

SLAY = -1
d6 = icepool.d6
d3 = icepool.d6.map(lambda x: (x + 1) // 2)


def walk(outcome: icepool.Die, dice: int, models: int, wounds: int, regen_fails_on=None) -> icepool.Die:
    """Models slain after `dice` attack dice with outcome SLAY, 0, or x unsaved wounds (excess
    on one model lost); with `regen_fails_on`, one d6 per wound lost, regenerated unless it fails."""

    def step(state, result, *regen):
        dead, damage = divmod(state, wounds)
        if dead >= models or result == 0:
            return state
        left = wounds - damage
        if result == SLAY:
            return (dead + 1) * wounds
        lost = min(result, left)
        if regen_fails_on is not None:
            lost = sum(1 for r in regen[:lost] if r in regen_fails_on)
        return state + lost

    state = icepool.Die([0])
    extra = [d6] * 3 if regen_fails_on is not None else []
    for _ in range(dice):
        state = icepool.map(step, state, outcome, *extra)
    return state.map(lambda s: min(models, s // wounds))


def engine_kills(attacker, defender, situation, variants=WHFB6):
    return attack(attacker, defender, situation, variants=variants)["kills_distribution"]


def test_shooting_eight_plus_is_a_six_then_five_plus():
    """§5.3, §5.4: BS3, long range, moved, hard cover (−4): need 8 = a 6, then 5+; S4 vs T3
    wounds on 3+; light armour and shield 5+, worsened by S4 to 6+."""
    outcome = icepool.map(
        lambda h1, h2, wnd, sv: int(h1 == 6 and h2 >= 5 and wnd >= 3 and sv < 6), d6, d6, d6, d6
    )
    shooter = unit("Crossbowmen", 4, weapons=[{"name": "Crossbow", "range": 30, "strength": 4}])
    target = unit("Spearmen", 5, armour="light", shield=True)
    situation = {"mode": "shooting", "range_inches": 20, "moved": True, "cover": "hard"}
    assert_pmf_equal(engine_kills(shooter, target, situation), as_pmf(walk(outcome, 4, 5, 1)))


def test_poisoned_killing_blow_hatred_ward_against_two_wound_models():
    """§6.3, §8.2, §8.3, §10.7, §7.2: WS4 vs WS3 hits on 3+, Hatred re-rolls misses in round 1,
    a natural 6 to hit wounds automatically (poison), a 6 to wound slays outright (man-sized,
    no save of any kind), others: S3 vs T3 4+, heavy armour 5+, ward 5+."""

    def blow(h1, h2, wnd, sv, ward):
        hit = h1 if h1 >= 3 else h2
        if hit < 3:
            return 0
        if hit == 6:
            return 0 if sv >= 5 or ward >= 5 else 1
        if wnd == 6:
            return SLAY
        return 0 if wnd < 4 or sv >= 5 or ward >= 5 else 1

    outcome = icepool.map(blow, d6, d6, d6, d6, d6)
    attacker = unit("Assassins", 2, ws=4, a=2, rules=["Hatred", "Poisoned Attacks", "Killing Blow"])
    defender = unit("Guards", 3, w=2, a=0, armour="heavy", ward=5)
    assert_pmf_equal(engine_kills(attacker, defender, {"mode": "melee"}), as_pmf(walk(outcome, 4, 3, 2)))


def test_multiple_wounds_d3_excess_lost_and_regeneration_per_wound():
    """§8.1, §7.4: D3 wounds per unsaved hit, the excess on one model lost; §7.3: one 4+
    regeneration roll per wound lost. Bolt-thrower style: BS3 (4+), S6 vs T4 (2+), no save."""
    outcome = icepool.map(lambda h, wnd, dmg: dmg if h >= 4 and wnd >= 2 else 0, d6, d6, d3)
    shooter = unit(
        "Bolt throwers",
        3,
        weapons=[
            {"name": "Bolt", "range": 48, "strength": 6, "multiple_wounds": "D3", "no_armour_save": True}
        ],
    )
    target = unit("Trolls", 2, t=4, w=3, regeneration=4, troop_type="monstrous")
    got = engine_kills(shooter, target, {"mode": "shooting", "range_inches": 10})
    assert_pmf_equal(got, as_pmf(walk(outcome, 3, 2, 3, regen_fails_on={1, 2, 3})))


def test_ru_regeneration_is_one_roll_per_unsaved_attack_and_flaming_doubles_on_flammable():
    """docs/rules/ru_whfb.md §1.2: regeneration is a third save (one roll per attack, whatever its wounds);
    RU #11, #12: flaming attacks allow no armour save and no regeneration, and double wounds
    against Flammable (here: the regenerating trolls are not flammable, the mummies are)."""
    regen_outcome = icepool.map(
        lambda h, wnd, dmg, rg: dmg if h >= 4 and wnd >= 2 and rg < 4 else 0, d6, d6, d3, d6
    )
    shooter = unit(
        "Bolt throwers",
        3,
        weapons=[
            {"name": "Bolt", "range": 48, "strength": 6, "multiple_wounds": "D3", "no_armour_save": True}
        ],
    )
    trolls = unit("Trolls", 2, t=4, w=3, regeneration=4, troop_type="monstrous")
    got = engine_kills(shooter, trolls, {"mode": "shooting", "range_inches": 10}, RU_WHFB)
    assert_pmf_equal(got, as_pmf(walk(regen_outcome, 3, 2, 3)))

    fire = icepool.map(lambda h, wnd: 2 if h >= 4 and wnd >= 4 else 0, d6, d6)
    archers = unit(
        "Fire archers", 3, weapons=[{"name": "Fire bow", "range": 24, "strength": 3, "flaming": True}]
    )
    mummies = unit("Mummies", 3, w=2, armour="heavy", regeneration=4, rules=["Flammable"])
    got = engine_kills(archers, mummies, {"mode": "shooting", "range_inches": 10}, RU_WHFB)
    assert_pmf_equal(got, as_pmf(walk(fire, 3, 3, 2)))


def test_combat_result_and_break_test_against_a_unit_that_cannot_strike_back():
    """§9.1, §9.2: wounds caused + ranks + standard; the loser breaks on 2D6 > Ld − difference.
    10 swordsmen charge 10 zombies (a 0) in a 5-wide unit: attacker's ranks +1, standard +1;
    defender's ranks +1. Exact against icepool: P(defender breaks) and the result."""
    outcome = icepool.map(lambda h, wnd, sv: int(h >= 4 and wnd >= 4 and sv < 6), d6, d6, d6)
    attacker = unit("Swordsmen", 10, a=1, ld=7)
    defender = unit("Zombies", 10, a=0, ld=7, armour="light")
    # every swordsman strikes (an explicit count overrides the formation, §6.2)
    situation = {"mode": "melee", "charging": True, "attacker_standard": True, "fighting_models": 10}
    result = attack(attacker, defender, situation, variants=WHFB6)
    kills = walk(outcome, 10, 10, 1)

    def difference(k):
        left = 10 - k
        ranks_d = max(0, min(3, left // 5 + (1 if left % 5 >= 4 else 0) - 1))
        outnumber = 1 if left < 10 else 0
        return k + 1 + 1 + outnumber - ranks_d - (1 if left > 10 else 0)

    diff = kills.map(difference)
    breaks = icepool.map(
        lambda k, roll: int(k == 10 or (difference(k) > 0 and roll > 7 - difference(k))), kills, 2 @ d6
    )
    outcomes = {o["key"]: o for o in result["outcomes"]}
    assert outcomes["p_defender_breaks"]["value"] == pytest.approx(float(breaks.probability(1)), abs=1e-12)
    cr = outcomes["combat_result"]
    assert_pmf_equal(cr["value"], as_pmf(diff, len(cr["value"]), cr["offset"]))
    assert outcomes["p_win_combat"]["value"] == pytest.approx(float(diff.probability(">", 0)), abs=1e-12)


def test_worked_examples_of_the_spec():
    """§18.4: 20 archers at long range vs light armour + shield: 2.22 wounds; poison 5/18."""
    archers = unit("Archers", 20, weapons=[{"name": "Bow", "range": 24, "strength": 3}])
    target = unit("Men", 30, armour="light", shield=True)
    result = attack(archers, target, {"mode": "shooting", "range_inches": 20}, variants=WHFB6)
    assert result["expected"]["wounds"] == pytest.approx(20 * 1 / 3 * 1 / 2 * 2 / 3, abs=1e-12)
    knight = unit(
        "Knight", 1, ws=4, troop_type="cavalry", weapons=[{"name": "Lance", "range": 0, "kind": "lance"}]
    )
    foot = unit("Foot", 10, armour="light", a=0)
    result = attack(knight, foot, {"mode": "melee", "charging": True}, variants=WHFB6)
    assert result["weapons"][0]["expected"]["wounds"] == pytest.approx(
        float(Fraction(2, 3) * Fraction(5, 6)), abs=1e-12
    )


def test_impact_hits_are_a_random_number_of_automatic_hits():
    """§8.7: a charging chariot makes D6 (+1 with scythed wheels) automatic hits at its S5:
    S5 vs T3 wounds on 2+; light armour, shield and hand weapon in close combat 4+, worsened
    by 2 to 6+."""
    per_hit = icepool.map(lambda wnd, sv: int(wnd >= 2 and sv < 6), d6, d6)
    chariot = {
        "format": 1,
        "system": "whfb6",
        "name": "Chariot",
        "models": [
            {
                "name": "Chariot",
                "count": 1,
                "troop_type": "chariot",
                "s": 5,
                "t": 4,
                "w": 3,
                "rules": ["Impact Hits(D6)", "Scythed Wheels"],
            }
        ],
    }
    target = unit("Spearmen", 6, a=0, armour="light", shield=True)
    kills = ((d6 + 1) @ per_hit).map(lambda k: min(6, k))
    got = engine_kills(chariot, target, {"mode": "melee", "charging": True})
    assert_pmf_equal(got, as_pmf(kills, 7))


def test_ru_breath_weapon_in_combat_is_two_d6_automatic_hits():
    """docs/rules/ru_whfb.md #1: 2D6 automatic hits at the breath's S4: wounds T3 on 3+, no save here."""
    per_hit = icepool.map(lambda wnd: int(wnd >= 3), d6)
    dragon = unit("Dragon", 1, ws=6, s=6, t=6, w=6, a=0, troop_type="monster", rules=["Breath Weapon(4)"])
    target = unit("Men", 15, a=0)
    kills = ((2 @ d6) @ per_hit).map(lambda k: min(15, k))
    got = engine_kills(dragon, target, {"mode": "melee", "breath_weapon": True}, RU_WHFB)
    assert_pmf_equal(got, as_pmf(kills, 16))
