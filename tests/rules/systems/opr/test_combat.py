"""The OPR attack sequence end to end: the spec's checks, and exactness against icepool.

The icepool oracles spell each case out by hand from `docs/rules/opr-combat.md` (which
faces hit, how many hits a 6 gives, which defence faces fail), then let icepool compute the
exact rational distribution; the engine must agree to 1e-12.
"""

from __future__ import annotations

from math import comb

import icepool
import numpy as np
import pytest
from hypothesis import given, settings

from rules.systems.opr import combat as combat_module
from rules.systems.opr.estimate import estimate
from rules.systems.opr.situation import Situation
from tests.factories.opr_combat_units import melee, model, priced, unit, weapon
from tests.rules.dice.icepool_oracle import as_pmf, assert_pmf_equal, die_from_faces
from tests.rules.systems.opr.test_properties import attackers, defenders, situations

SHOOT = Situation()


def run(attacker, defender, situation=SHOOT, costs=None, points=100.0):
    costs = costs if costs is not None else [10.0] * len(defender.models)
    return estimate(attacker, defender, situation, prices=priced(points, *costs))


# The spec's "checks that must hold" ---------------------------------------------------


def test_ten_q4_attacks_against_d4_t1_kill_binomial_10_quarter():
    """docs/rules/opr-combat.md: P(hit) = 1/2, P(fail defence) = 1/2 → expected wounds 2.5, kills ~ B(10,
    1/4)."""
    attacker = unit(model(q=4, weapons=[weapon(attacks=1)]))
    defender = unit(model(d=4, t=1, count=10))
    result = run(attacker, defender)
    assert result["expected"]["attacks"] == pytest.approx(10.0, abs=1e-12)
    assert result["expected"]["hits"] == pytest.approx(5.0, abs=1e-12)
    assert result["expected"]["wounds"] == pytest.approx(2.5, abs=1e-12)
    assert result["expected"]["kills"] == pytest.approx(2.5, abs=1e-12)
    binomial = [comb(10, k) * 0.25**k * 0.75 ** (10 - k) for k in range(11)]
    assert_pmf_equal(np.array(result["kills_distribution"]), np.array(binomial))
    assert_pmf_equal(np.array(result["wounds_distribution"]), np.array(binomial))
    assert result["p_destroyed"] == pytest.approx(0.25**10, abs=1e-15)


VARIED = [
    (
        unit(
            model(
                count=5, q=3, weapons=[weapon(attacks=2, rules_=["Blast(3)", "Rending"]), weapon("Las", ap=2)]
            )
        ),
        unit(model(count=6, d=4, t=2, rules_=["Regeneration"]), model("Sgt", count=1, d=3, t=3)),
        SHOOT,
    ),
    (
        unit(
            model(
                count=3,
                q=3,
                rules_=["Furious"],
                weapons=[melee(attacks=3, ap=2, rules_=["Deadly(2)", "Lance"])],
            )
        ),
        unit(model(count=4, d=5, t=3, rules_=["Resistant"]), model("Hero", count=1, t=3, rules_=["Hero"])),
        Situation(mode="melee", charging=True),
    ),
    (
        unit(model(count=10, weapons=[weapon(rules_=["Precise", "Corrosive"]), weapon("Pistol", range=12)])),
        unit(model(count=8, d=5, rules_=["Delicate"]), model("Sgt", count=2, d=4, t=2)),
        Situation(defender_in_cover=True, range_inches=8),
    ),
]


@pytest.mark.parametrize(("attacker", "defender", "situation"), VARIED)
def test_every_distribution_sums_to_one_and_its_mean_is_the_expected_value(attacker, defender, situation):
    result = run(attacker, defender, situation, costs=[10.0 * (i + 1) for i in range(len(defender.models))])
    kills, wounds = np.array(result["kills_distribution"]), np.array(result["wounds_distribution"])
    assert abs(kills.sum() - 1) < 1e-9 and abs(wounds.sum() - 1) < 1e-9
    assert len(kills) == defender.model_count + 1
    assert len(wounds) == sum(m.count * m.toughness for m in defender.models) + 1
    assert result["expected"]["kills"] == pytest.approx(float(np.arange(len(kills)) @ kills), abs=1e-12)
    assert result["expected"]["wounds"] == pytest.approx(float(np.arange(len(wounds)) @ wounds), abs=1e-12)
    assert result["expected"]["wounds"] == pytest.approx(
        sum(w["expected"]["wounds"] for w in result["weapons"])
    )
    assert result["expected"]["kills"] == pytest.approx(
        sum(w["expected"]["kills"] for w in result["weapons"])
    )
    assert result["p_destroyed"] == pytest.approx(kills[-1], abs=1e-15)
    at_least = result["kills_at_least"]
    assert at_least[0] == pytest.approx(1) and at_least[-1] == pytest.approx(kills[-1])


# Exactness against icepool --------------------------------------------------------------


def test_rending_and_blast_against_a_two_model_unit_is_exact():
    """Q4 Rending: faces 4, 5 hit once, 6 twice; Blast(3) against 2 models: ×2; D5 AP1 fails on 1–5."""
    attacker = unit(model(count=3, weapons=[weapon(rules_=["Rending", "Blast(3)"], ap=1)]))
    defender = unit(model(count=2, d=5, t=3))
    hits = 3 @ die_from_faces([0, 0, 0, 1, 1, 2]).map(lambda h: 2 * h)
    wounds = (hits @ die_from_faces([1, 1, 1, 1, 1, 0])).map(lambda w: min(w, 6))
    kills = wounds.map(lambda w: w // 3)
    result = run(attacker, defender)
    assert_pmf_equal(np.array(result["wounds_distribution"]), as_pmf(wounds, length=7))
    assert_pmf_equal(np.array(result["kills_distribution"]), as_pmf(kills, length=3))
    assert result["expected"]["hits"] == pytest.approx(float(hits.mean()), abs=1e-12)


def test_regeneration_cancels_a_wound_per_natural_six_over_the_whole_attack():
    """§7: wounds = max(0, failed tests − natural 6s) over all the weapon's defence dice."""
    attacker = unit(model(count=6, q=3, weapons=[weapon(attacks=2)]))
    defender = unit(model(count=5, d=5, t=2, rules_=["Regeneration"]))
    hits = 12 @ die_from_faces([0, 0, 1, 1, 1, 1])
    net = (hits @ die_from_faces([1, 1, 1, 1, 0, -1])).map(lambda w: min(max(w, 0), 10))
    result = run(attacker, defender)
    assert_pmf_equal(np.array(result["wounds_distribution"]), as_pmf(net, length=11))
    assert_pmf_equal(np.array(result["kills_distribution"]), as_pmf(net.map(lambda w: w // 2), length=6))


def test_brutal_ignores_regeneration_exactly():
    attacker = unit(model(count=6, q=3, weapons=[weapon(attacks=2, rules_=["Brutal"])]))
    defender = unit(model(count=5, d=5, t=2, rules_=["Regeneration"]))
    hits = 12 @ die_from_faces([0, 0, 1, 1, 1, 1])
    wounds = (hits @ die_from_faces([1, 1, 1, 1, 0, 0])).map(lambda w: min(w, 10))
    assert_pmf_equal(np.array(run(attacker, defender)["wounds_distribution"]), as_pmf(wounds, length=11))


def test_deadly_damage_does_not_carry_over_to_the_next_model():
    """§6 Deadly(3) against toughness 2: every wound kills one model, the third wound is lost."""
    attacker = unit(model(count=4, q=4, weapons=[weapon(attacks=1, ap=1, rules_=["Deadly(3)"])]))
    defender = unit(model(count=3, d=4, t=2))
    events = 4 @ die_from_faces([0, 0, 0, 1, 1, 1]) @ die_from_faces([1, 1, 1, 1, 0, 0])
    result = run(attacker, defender)
    assert_pmf_equal(
        np.array(result["kills_distribution"]), as_pmf(events.map(lambda e: min(e, 3)), length=4)
    )
    assert_pmf_equal(
        np.array(result["wounds_distribution"]), as_pmf(events.map(lambda e: 2 * min(e, 3)), length=7)
    )


def test_deadly_against_toughness_above_x_needs_several_failed_tests_per_model():
    """Deadly(2) on toughness 3: two failed tests per model (2 wounds, then 1 of 2)."""
    attacker = unit(model(count=6, q=4, weapons=[weapon(attacks=1, rules_=["Deadly(2)"])]))
    defender = unit(model(count=2, d=4, t=3))
    events = 6 @ die_from_faces([0, 0, 0, 1, 1, 1]) @ die_from_faces([1, 1, 1, 0, 0, 0])
    kills = events.map(lambda e: min(e // 2, 2))
    wounds = events.map(lambda e: min(3 * (e // 2) + 2 * (e % 2), 6))
    result = run(attacker, defender)
    assert_pmf_equal(np.array(result["kills_distribution"]), as_pmf(kills, length=3))
    assert_pmf_equal(np.array(result["wounds_distribution"]), as_pmf(wounds, length=7))


# Allocation across a mixed unit and sequential weapons, against an icepool state machine.


def place(state, events, order, damage, toughness):
    """Independent statement of §8: events one at a time on the damaged model, else the next in order."""
    alive, current, taken = state
    alive = list(alive)
    for _ in range(events):
        if current < 0:
            current = next((g for g in order if alive[g] > 0), -1)
            if current < 0:
                break
        taken += min(damage, toughness[current] - taken)
        if taken >= toughness[current]:
            alive[current] -= 1
            current, taken = -1, 0
    return tuple(alive), current, taken


def next_model(state, order):
    alive, current, _ = state
    return current if current >= 0 else next((g for g in order if alive[g] > 0), -1)


def test_two_weapons_on_a_mixed_unit_carry_the_state_and_use_the_taking_models_defence():
    """§8–9: troopers (D5, 10 pts) go first, then the sergeant (D3, T2, 30 pts), then the hero
    (D4, T3, 5 pts, last while others live). The rifle rolls defence against whichever model
    takes its first wound; the Precise Deadly(2) gun picks the dearest model, the sergeant."""
    rifle = weapon("Rifle", attacks=2)
    gun = weapon("Gun", ap=1, rules_=["Precise", "Deadly(2)"])
    attacker = unit(model(count=2, q=3, weapons=[rifle]), model("Gunner", count=1, q=3, weapons=[gun]))
    defender = unit(
        model("Trooper", count=2, d=5, t=1),
        model("Sgt", count=1, d=3, t=2),
        model("Hero", count=1, d=4, t=3, rules_=["Hero"]),
    )
    costs = [10.0, 30.0, 5.0]
    toughness = [1, 2, 3]
    defender_order, precise = (0, 1, 2), (1, 0, 2)
    hit = die_from_faces([0, 0, 1, 1, 1, 1])
    fails_ap0 = {0: [1, 1, 1, 1, 0, 0], 1: [1, 1, 0, 0, 0, 0], 2: [1, 1, 1, 0, 0, 0]}
    fails_ap1 = {0: [1, 1, 1, 1, 1, 0], 1: [1, 1, 1, 0, 0, 0], 2: [1, 1, 1, 1, 0, 0]}

    def shoot(state_die, attacks, fails, order, damage):
        def after(state):
            target = next_model(state, order)
            if target < 0:
                return icepool.Die([state])
            events = attacks @ hit @ die_from_faces(fails[target])
            return events.map(lambda e: place(state, e, order, damage, toughness), star=False)

        return state_die.map(after, star=False)

    states = icepool.Die([((2, 1, 1), -1, 0)])
    states = shoot(states, 4, fails_ap0, defender_order, 1)
    states = shoot(states, 1, fails_ap1, precise, 2)
    kills = states.map(lambda s: 4 - sum(s[0]), star=False)
    points = states.map(
        lambda s: sum((n - a) * c for n, a, c in zip((2, 1, 1), s[0], costs, strict=True)), star=False
    )

    result = run(attacker, defender, costs=costs)
    assert_pmf_equal(np.array(result["kills_distribution"]), as_pmf(kills, length=5))
    assert result["expected_points_destroyed"] == pytest.approx(float(points.mean()), abs=1e-12)
    assert [w["name"] for w in result["weapons"]] == ["Rifle", "Gun"]


def test_a_weapon_that_meets_a_destroyed_unit_rolls_nothing():
    """Decision (combat.py): weapons after the defender is destroyed have no target."""
    attacker = unit(model(count=1, q=2, weapons=[weapon("Big", attacks=6, ap=4), weapon("Small", attacks=2)]))
    defender = unit(model(count=1, d=6, t=1))
    p_survive_big = (1 - (5 / 6) * (5 / 6)) ** 6  # each attack: hit 5/6, fail defence 5/6 (only a 6 saves)
    first_kills = 1 - p_survive_big
    result = run(attacker, defender)
    big, small = result["weapons"]
    assert big["expected"]["attacks"] == pytest.approx(6)
    assert big["expected"]["kills"] == pytest.approx(first_kills, abs=1e-12)
    assert small["expected"]["attacks"] == pytest.approx(2 * p_survive_big, abs=1e-12)
    assert result["expected"]["attacks"] == pytest.approx(6 + 2 * p_survive_big, abs=1e-12)


def test_no_weapon_in_range_means_no_damage():
    attacker = unit(model(weapons=[weapon(range=12)]))
    result = run(attacker, unit(model()), Situation(range_inches=18))
    assert result["weapons"] == []
    assert result["kills_distribution"][0] == 1.0
    assert result["expected"] == {"attacks": 0, "hits": 0, "wounds": 0.0, "kills": 0.0}


def test_cover_changes_the_exact_distribution_as_one_more_saving_face():
    attacker = unit(model(count=10, weapons=[weapon()]))
    defender = unit(model(count=10, d=5))
    in_cover = run(attacker, defender, Situation(defender_in_cover=True))
    kills = (10 @ die_from_faces([0, 0, 0, 1, 1, 1]) @ die_from_faces([1, 1, 1, 0, 0, 0])).map(
        lambda k: min(k, 10)
    )
    assert_pmf_equal(np.array(in_cover["kills_distribution"]), as_pmf(kills, length=11))


# Issue 16: the sparse allocation walk gives the dense machine's answer -----------------------


@settings(max_examples=200, deadline=None)
@given(attackers(), defenders(), situations())
def test_the_sparse_walk_equals_the_whole_machine(attacker, defender_and_costs, situation):
    """`start_distribution` takes the whole machine for small units and the sparse walk for
    large ones; forced either way, every distribution and expectation agrees to 1e-12."""
    defender, costs = defender_and_costs
    dense = combat_module.resolve_attack(attacker, defender, situation, costs)
    limit = combat_module.DENSE_CELLS_LIMIT
    try:
        combat_module.DENSE_CELLS_LIMIT = -1
        sparse = combat_module.resolve_attack(attacker, defender, situation, costs)
    finally:
        combat_module.DENSE_CELLS_LIMIT = limit
    assert type(sparse.dist).__name__ == "StateDistribution"
    assert abs(dense.kills - sparse.kills).max() < 1e-12
    assert abs(dense.wounds - sparse.wounds).max() < 1e-12
    assert abs(dense.p_destroyed - sparse.p_destroyed) < 1e-12
    assert abs(dense.expected_points_destroyed(costs) - sparse.expected_points_destroyed(costs)) < 1e-9
    for d, s in zip(dense.weapons, sparse.weapons, strict=True):
        assert abs(d.hits - s.hits) < 1e-9 and abs(d.wounds - s.wounds) < 1e-9
        assert abs(d.kills - s.kills) < 1e-9
