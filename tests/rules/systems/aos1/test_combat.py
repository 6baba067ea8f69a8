"""Age of Sigmar 1st edition attacks (`docs/rules/aos1.md` §2): exact against icepool, Monte-Carlo,
and the spec's worked numbers."""

from __future__ import annotations

import icepool
import numpy as np
import pytest

from rules.systems.aos1.combat import Situation, attack, battleshock_fled, situation_errors
from tests.factories.aos_units import aos_unit as unit
from tests.factories.aos_units import aos_weapon as weapon
from tests.rules.dice.icepool_oracle import as_pmf, assert_pmf_equal

d6 = icepool.d6
d3 = icepool.d6.map(lambda x: (x + 1) // 2)


def test_hit_wound_save_rend_damage_spill_over_and_cover():
    """§2.3: hit, wound, save + Rend (+1 in cover, §2.6), Damage D3 pooled and spilling over
    (§2.4): slain = ⌊pool / W⌋."""
    per_attack = icepool.map(
        lambda h, w, s, d: d if h >= 4 and w >= 3 and s - 1 + 1 < 4 else 0, d6, d6, d6, d3
    )
    pool = 6 @ per_attack
    slain = pool.map(lambda p: min(4, p // 2))
    attacker = unit("Blades", 3, weapons=[weapon(attacks=2, to_wound=3, rend=-1, damage="D3")])
    defender = unit("Guard", 4, wounds=2, save=4)
    result = attack(attacker, defender, {"mode": "melee", "cover": True})
    assert_pmf_equal(result["kills_distribution"], as_pmf(slain, 5))


def test_random_attacks_and_mortal_wounds():
    """§1.2 dice attacks, §2.5 mortal wounds (no rolls) join the pool."""
    per_attack = icepool.map(lambda h, w, s: int(h >= 3 and w >= 4 and s < 5), d6, d6, d6)
    pool = (d6 @ per_attack) + d3
    slain = pool.map(lambda p: min(5, p // 3))
    attacker = unit("Monster", 1, weapons=[weapon(attacks="D6", to_hit=3, kind="missile", range_=18)])
    defender = unit("Brutes", 5, wounds=3, save=5)
    result = attack(attacker, defender, {"mode": "shooting", "range_inches": 12, "mortal_wounds": "D3"})
    assert_pmf_equal(result["kills_distribution"], as_pmf(slain, 6))


def test_battleshock_is_d6_plus_slain_over_bravery_plus_tens():
    """§2.10: fled = clamp(D6 + slain − (Bravery + ⌊left/10⌋), 0, left); the spec's example:
    Bravery 6, 5 slain, 15 left: E[fled] = 10/6."""
    slain = np.zeros(21)
    slain[5] = 1.0
    fled = battleshock_fled(slain, 20, 6, Situation())
    assert float(np.arange(21) @ fled) == pytest.approx(10 / 6, abs=1e-15)
    per_attack = icepool.map(lambda h, w, s: int(h >= 4 and w >= 4 and s < 6), d6, d6, d6)
    killed = (12 @ per_attack).map(lambda p: min(12, p))
    flee = icepool.map(
        lambda k, r: 0 if k == 0 or k == 12 else max(0, min(12 - k, r + k - (5 + (12 - k) // 10))), killed, d6
    )
    attacker = unit("Blades", 6, weapons=[weapon(attacks=2)])
    defender = unit("Rabble", 12, save=6, bravery=5)
    outcome = attack(attacker, defender, {"mode": "melee"})["outcomes"]
    assert_pmf_equal(outcome[0]["value"], as_pmf(flee, 13))
    inspired = attack(attacker, defender, {"mode": "melee", "inspiring_presence": True})
    assert inspired["outcomes"][0]["value"][0] == pytest.approx(1, abs=1e-12)


def test_against_monte_carlo():
    """An independent simulation of the whole attack and battleshock."""
    rng = np.random.default_rng(7)
    attacker = unit("Blades", 5, weapons=[weapon(attacks=3, to_hit=3, to_wound=4, rend=-1, damage=2)])
    defender = unit("Guard", 10, wounds=2, save=4, bravery=6)
    result = attack(attacker, defender, {"mode": "melee"})
    n = 40_000
    hits = rng.integers(1, 7, (n, 15)) >= 3
    wounds = rng.integers(1, 7, (n, 15)) >= 4
    saved = rng.integers(1, 7, (n, 15)) - 1 >= 4
    pool = 2 * (hits & wounds & ~saved).sum(axis=1)
    slain = np.minimum(10, pool // 2)
    left = 10 - slain
    fled = np.where(slain > 0, np.clip(rng.integers(1, 7, n) + slain - (6 + left // 10), 0, left), 0)
    for k, p in enumerate(result["kills_distribution"]):
        assert p == pytest.approx(np.mean(slain == k), abs=0.01)
    assert result["outcomes"][0]["expected"] == pytest.approx(fled.mean(), abs=0.03)
    assert result["expected"]["kills"] == pytest.approx(slain.mean(), abs=0.03)


def test_situation_checks():
    assert situation_errors({"mode": "shooting", "defender_charged": True}) == {
        "defender_charged": ["a charge leads to the combat phase"]
    }
    with pytest.raises(ValueError, match="range_inches"):
        Situation.from_dict({"range_inches": 500})


def holds_by_simulation(attacker, defender, situation, *, rng, n):
    """"Holds" simulated from the spec alone (§2.3 hit/wound/save with Rend, §2.4 spill-over,
    §2.10 battleshock): models are left after the attacks and none flees. One melee weapon
    profile of fixed Attacks and Damage, one defender model group."""
    (weapon_,) = attacker["models"][0]["weapons"]
    model = defender["models"][0]
    attacks = attacker["models"][0]["count"] * weapon_["attacks"]
    hit = rng.integers(1, 7, (n, attacks)) >= weapon_["to_hit"]
    wound = rng.integers(1, 7, (n, attacks)) >= weapon_["to_wound"]
    saved = rng.integers(1, 7, (n, attacks)) + weapon_["rend"] >= model["save"]
    pool = weapon_["damage"] * (hit & wound & ~saved).sum(axis=1)
    slain = np.minimum(model["count"], pool // model["wounds"])
    left = model["count"] - slain
    lost = slain + situation.get("slain_earlier", 0)
    threshold = model["bravery"] + left // 10 + situation.get("bravery_modifier", 0)
    fled = np.where(lost > 0, np.clip(rng.integers(1, 7, n) + lost - threshold, 0, left), 0)
    if situation.get("inspiring_presence"):
        fled = np.zeros(n, dtype=int)
    return float(np.mean((left > 0) & (fled == 0)))


def test_holding_is_left_standing_with_none_fled_exactly():
    """§2.10, the Decision in `battleshock_holds`: P(holds) = P(models left and none flees),
    which is P(no model flees) less P(every model slain); a unit that lost nobody holds."""
    attacker = unit("Blades", 6, weapons=[weapon(attacks=2)])
    defender = unit("Rabble", 12, save=6, bravery=5)
    result = attack(attacker, defender, {"mode": "melee"})
    chances = {o["key"]: o for o in result["outcomes"]}
    assert chances["p_holds"]["kind"] == "probability"
    fled = chances["models_fled"]["value"]
    assert chances["p_holds"]["value"] == pytest.approx(fled[0] - result["kills_distribution"][-1], abs=1e-12)
    # By hand from the kills distribution: k slain (0 < k < 12) hold when d + k ≤ 5 + ⌊(12 − k)/10⌋.
    by_hand = sum(p * (1 if k == 0 else max(0, min(6, 5 + (12 - k) // 10 - k)) / 6)
                  for k, p in enumerate(result["kills_distribution"][:12]))
    assert chances["p_holds"]["value"] == pytest.approx(by_hand, abs=1e-12)
    untouched = attack(unit("Nobody", 1, weapons=[weapon(to_hit=7)]), defender, {"mode": "melee"})
    assert {o["key"]: o["value"] for o in untouched["outcomes"]}["p_holds"] == 1.0
    wiped = attack(unit("Giant", 1, weapons=[weapon(attacks=1, to_hit=1, to_wound=1, damage=5)]),
                   unit("Lone", 1, wounds=2, save=None), {"mode": "melee"})
    assert {o["key"]: o["value"] for o in wiped["outcomes"]}["p_holds"] == 0.0


@pytest.mark.parametrize("situation", [
    {"mode": "melee"},
    {"mode": "melee", "slain_earlier": 2, "bravery_modifier": -1},
    {"mode": "melee", "inspiring_presence": True},
])
def test_holding_against_monte_carlo(situation):
    """The exact chance to hold against an independent simulation written from the spec."""
    attacker = unit("Blades", 5, weapons=[weapon(attacks=3, to_hit=3, to_wound=4, rend=-1, damage=2)])
    defender = unit("Guard", 12, wounds=2, save=4, bravery=6)
    exact = {o["key"]: o["value"] for o in attack(attacker, defender, situation)["outcomes"]}["p_holds"]
    simulated = holds_by_simulation(attacker, defender, situation, rng=np.random.default_rng(29), n=60_000)
    # 60,000 draws: the standard error is at most 0.002; 0.01 is five of them.
    assert exact == pytest.approx(simulated, abs=0.01)
    assert 0.05 < exact < 0.95 or situation.get("inspiring_presence")
# ------------------------------------------------------------------ abilities read from warscrolls


def with_abilities(data, *abilities):
    data["models"][0]["abilities"] = list(abilities)
    return data


def test_rerolling_hit_rolls_of_1_and_adding_1_to_wound_rolls_against_icepool():
    """Re-rolls come before modifiers: a natural 1 to hit is rolled again; +1 to wound makes a
    4+ a 3+. Exact against icepool."""
    hit = d6.map(lambda r: r).reroll([1], depth=1)
    per_attack = icepool.map(lambda h, w, s: 1 if h >= 4 and w + 1 >= 4 and s < 4 else 0, hit, d6, d6)
    attacker = with_abilities(
        unit("Blades", 2, weapons=[weapon(attacks=3)]),
        {"type": "reroll", "roll": "hit", "which": "ones", "name": "Frenzy"},
        {"type": "modifier", "roll": "wound", "value": 1, "name": "Sharp", "weapon": "W"},
        {"type": "modifier", "roll": "hit", "value": 1, "name": "Volley", "when": "shooting"},
    )
    result = attack(attacker, unit("Guard", 10, save=4), {"mode": "melee"})
    assert_pmf_equal(result["kills_distribution"], as_pmf(6 @ per_attack, 11))
    # the shooting one is not used in combat
    assert result["abilities_used"] == {"attacker": ["Frenzy", "Sharp"], "defender": []}


def test_an_ability_on_another_weapon_does_not_apply():
    attacker = with_abilities(
        unit("Blades", 2, weapons=[weapon(attacks=3)]),
        {"type": "modifier", "roll": "wound", "value": 1, "name": "Sharp", "weapon": "Other"},
    )
    plain = attack(unit("Blades", 2, weapons=[weapon(attacks=3)]), unit("Guard", 10), {"mode": "melee"})
    assert attack(attacker, unit("Guard", 10), {"mode": "melee"})["kills_distribution"] == pytest.approx(
        plain["kills_distribution"]
    )


def test_rerolling_failed_saves_and_a_ward_on_the_defender_against_icepool():
    """The defender re-rolls failed saves; each wound (Damage 2 is two) is negated on 5+."""
    save = d6.reroll([1, 2, 3], depth=1)
    kept = d6.map(lambda r: 0 if r >= 5 else 1)
    per_attack = icepool.map(lambda h, w, s: 1 if h >= 4 and w >= 4 and s < 4 else 0, d6, d6, save)
    damage = per_attack.map(lambda x: x * 2)
    warded = damage.map(lambda dmg: dmg @ kept if dmg else icepool.Die([0]))
    pool = 4 @ warded
    slain = pool.map(lambda p: min(1, p // 6))
    defender = with_abilities(
        unit("Warden", 1, wounds=6, save=4),
        {"type": "reroll", "roll": "save", "which": "failed", "name": "Shield"},
        {"type": "ward", "target": 5, "name": "Sigil"},
    )
    result = attack(unit("Blades", 1, weapons=[weapon(attacks=4, damage=2)]), defender, {"mode": "melee"})
    assert_pmf_equal(result["wounds_distribution"], as_pmf(pool.map(lambda p: min(p, 6)), 7))
    assert_pmf_equal(result["kills_distribution"], as_pmf(slain, 2))
    assert result["abilities_used"] == {"attacker": [], "defender": ["Sigil", "Shield"]}


def test_a_unit_without_bravery_takes_no_battleshock_test():
    """A war machine's Bravery "-" (null): no model flees, whatever it lost."""
    machine = unit("Engine", 3, wounds=1, save=None, bravery=None)
    result = attack(unit("Blades", 5, weapons=[weapon(attacks=4)]), machine, {"mode": "melee"})
    [fled] = [o for o in result["outcomes"] if o["key"] == "models_fled"]
    assert fled["value"][0] == pytest.approx(1.0) and fled["expected"] == 0


def _holds_by_fractions(slain, models, bravery, situation):
    """`battleshock_holds` as it was written before issue 42: one Fraction per term."""
    from fractions import Fraction

    total = Fraction(0)
    for k, p_k in enumerate(slain[:models]):
        if not p_k:
            continue
        lost = k + situation.slain_earlier
        if lost == 0 or situation.inspiring_presence or bravery is None:
            calm = Fraction(1)
        else:
            threshold = bravery + (models - k) // 10 + situation.bravery_modifier
            calm = Fraction(sum(1 for roll in range(1, 7) if roll + lost <= threshold), 6)
        total += Fraction(float(p_k)) * calm
    return total


@pytest.mark.parametrize("seed", range(6))
def test_holding_in_integers_is_the_same_rational_and_float_as_by_fractions(seed):
    """`holds_chance` sums in integers over a power of two: the same rational as Fractions
    term by term, and so the same float, on random distributions (tiny terms included)."""
    import numpy as np

    from rules.systems.aos1.combat import Situation, battleshock_holds, holds_chance

    rng = np.random.default_rng(seed)
    for _ in range(50):
        models = int(rng.integers(1, 60))
        slain = rng.random(models + 1) ** rng.integers(1, 40)
        slain[rng.random(models + 1) < 0.2] = 0.0
        slain /= slain.sum() or 1.0
        bravery = None if rng.random() < 0.1 else int(rng.integers(1, 11))
        situation = Situation.from_dict({
            "slain_earlier": int(rng.integers(0, 4)),
            "inspiring_presence": bool(rng.random() < 0.1),
            "bravery_modifier": int(rng.integers(-2, 3)),
        })
        exact = _holds_by_fractions(slain, models, bravery, situation)
        assert battleshock_holds(slain, models, bravery, situation) == exact
        assert holds_chance(slain, models, bravery, situation) == float(exact)
