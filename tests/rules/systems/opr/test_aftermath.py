"""OPR's second stage (`rules/systems/opr/aftermath.py`): the counter-attack and the seed's
regroup test ("Przegrupowanie", seed 002, `docs/rules/opr-combat.md`), exact.

Checked three ways: each counting rule of the seed on its own; a small charge worked out by
hand with fractions; and Monte-Carlo runs of an independent simulation
(`opr_simulation.simulate_second_stage`) against the whole exact distributions.
"""

from __future__ import annotations

from fractions import Fraction as F
from math import comb

import numpy as np
import pytest

from rules.systems.opr import aftermath
from rules.systems.opr.combat import resolve_attack
from rules.systems.opr.estimate import attack
from rules.systems.opr.situation import Situation
from rules.systems.opr.unit_format.writer import unit_to_dict
from tests.factories.opr_combat_units import melee, model, unit, weapon
from tests.rules.systems.opr.opr_simulation import simulate_second_stage
from tests.rules.systems.opr.test_montecarlo import distribution_problems

CHARGE = Situation(mode="melee", charging=True)


@pytest.mark.parametrize(
    ("took", "won", "half", "in_melee", "fearless", "tests"),
    [
        (False, False, True, True, False, 0),  # no wounds taken: no test
        (True, True, True, True, False, 0),  # won the melee: no test at all
        (True, False, False, False, False, 1),  # took wounds: one quality test
        (True, False, True, False, False, 2),  # at half strength or below: one more
        (True, False, False, True, False, 2),  # fought in melee: one more
        (True, False, True, True, False, 3),
        (True, False, True, True, True, 2),  # Fearless: one fewer
        (True, False, False, False, True, 0),
    ],
)
def test_regroup_test_count_follows_the_seed(took, won, half, in_melee, fearless, tests):
    assert aftermath.regroup_tests(took_wounds=took, won_melee=won, half_strength=half, melee=in_melee,
                                   fearless=fearless) == tests


@pytest.mark.parametrize(("quality", "p"), [(2, F(5, 6)), (3, F(4, 6)), (4, F(3, 6)), (6, F(1, 6))])
def test_regroup_is_a_quality_test_with_natural_six_and_one(quality, p):
    assert aftermath.quality_pass(quality) == pytest.approx(float(p), abs=1e-15)


def test_failed_tests_are_binomial():
    got = aftermath.failed_tests(3, 0.5)
    assert got.tolist() == pytest.approx([comb(3, k) / 8 for k in range(4)], abs=1e-15)


def test_half_strength_counts_models_or_a_single_models_toughness():
    squad = unit(model(count=4))
    assert aftermath.half_strength(squad, np.array([[3], [2]]), np.array([1, 2])).tolist() == [False, True]
    monster = unit(model(count=1, t=6))
    assert aftermath.half_strength(monster, np.array([[1], [1]]), np.array([2, 3])).tolist() == [False, True]


# A charge worked out by hand: 1 model (Q4 D4 T3, Blade A2) charges 2 models (Q4 D4 T1, Blade A1).
CHARGER = unit(model("Champion", count=1, q=4, d=4, t=3, weapons=[melee(attacks=2)]))
PAIR = unit(model("Guard", count=2, q=4, d=4, t=1, weapons=[melee(attacks=1)]))


def _binomial(n: int, p: F) -> list[F]:
    return [comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)]


def _padded(pmf: list[F]) -> list[F]:
    return pmf + [F(0)] * (4 - len(pmf))


def test_small_charge_matches_a_hand_computation():
    """Each attack wounds with 1/2 × 1/2 = 1/4. The charger deals k ~ Bin(2, 1/4):
    k = 0 (9/16): two Guards strike back, j ~ Bin(2, 1/4) wounds on the Champion, who lost if
      j > 0: 1 test + 1 melee (+ 1 at half strength, T3 with 2 wounds) → Bin(2 or 3, 1/2);
    k = 1 (6/16): one Guard (half strength) strikes back, j ~ Bin(1, 1/4); the Guards lost
      when j = 0 (3/4): 3 tests → Bin(3, 1/2) failures; when j = 1 it is a draw, both "won";
    k = 2 (1/16): the Guards are destroyed.
    P(charger wins) = 9/16 × 9/16 + 6/16 + 1/16 = 193/256; P(Guards win) = 9/16 + 6/16 × 1/4 = 21/32.
    """
    quarter, half = F(1, 4), F(1, 2)
    first = resolve_attack(CHARGER, PAIR, CHARGE, [10.0])
    stage = aftermath.second_stage(first, attacker=CHARGER, defender=PAIR, situation=CHARGE,
                                   attacker_costs=[30.0])
    assert stage.p_attacker_wins == pytest.approx(float(F(193, 256)), abs=1e-12)
    assert stage.p_defender_wins == pytest.approx(float(F(21, 32)), abs=1e-12)
    guards = [F(10, 16) + F(6, 16) * quarter, 0, 0, 0]
    guards = [g + F(6, 16) * (1 - quarter) * b for g, b in zip(guards, _binomial(3, half), strict=True)]
    assert stage.defender_failed.tolist() == pytest.approx([float(x) for x in guards], abs=1e-12)
    j = _binomial(2, quarter)
    champion = [F(9, 16) * j[0] + F(7, 16), 0, 0, 0]
    for wounds, tests in ((1, 2), (2, 3)):
        champion = [c + F(9, 16) * j[wounds] * b for c, b in zip(champion, _padded(_binomial(tests, half)),
                                                                   strict=True)]
    assert stage.attacker_failed.tolist() == pytest.approx([float(x) for x in champion], abs=1e-12)
    assert stage.counter_wounds.tolist() == pytest.approx(
        [float(F(9, 16) * j[0] + F(6, 16) * (1 - quarter) + F(1, 16)),
         float(F(9, 16) * j[1] + F(6, 16) * quarter), float(F(9, 16) * j[2]), 0.0], abs=1e-12)


def test_a_defender_that_counter_attacks_is_then_exhausted():
    """Seed "Szarża": the defenders "counter-attack, but they are then exhausted". By hand, as
    above: the Guards strike back unless both fell (k = 2, 1/16), so P(exhausted) = 15/16; a
    defender without a melee weapon does not counter-attack; shooting has no counter-attack."""
    first = resolve_attack(CHARGER, PAIR, CHARGE, [10.0])
    stage = aftermath.second_stage(first, attacker=CHARGER, defender=PAIR, situation=CHARGE,
                                   attacker_costs=[30.0])
    assert stage.p_defender_counter_exhausted == pytest.approx(float(F(15, 16)), abs=1e-12)
    result = attack(unit_to_dict(CHARGER), unit_to_dict(PAIR), {"mode": "melee", "charging": True})
    by_key = {o["key"]: o for o in result["outcomes"]}
    assert by_key["p_defender_counter_exhausted"]["value"] == pytest.approx(15 / 16, abs=1e-12)
    assert by_key["p_defender_counter_exhausted"]["label"] == "Defender counter-attacked, so it is exhausted"
    unarmed = unit(model("Guard", count=2, q=4, d=4, t=1, weapons=[weapon(attacks=1)]))
    first = resolve_attack(CHARGER, unarmed, CHARGE, [10.0])
    assert aftermath.second_stage(first, attacker=CHARGER, defender=unarmed, situation=CHARGE,
                                  attacker_costs=[30.0]).p_defender_counter_exhausted == 0
    shot = attack(unit_to_dict(CHARGER), unit_to_dict(PAIR), {"mode": "shooting"})
    assert "p_defender_counter_exhausted" not in {o["key"] for o in shot["outcomes"]}


def test_the_estimate_reports_the_second_stage_as_outcomes_and_can_switch_it_off():
    charger, pair = unit_to_dict(CHARGER), unit_to_dict(PAIR)
    result = attack(charger, pair, {"mode": "melee", "charging": True})
    by_key = {o["key"]: o for o in result["outcomes"]}
    assert by_key["p_attacker_wins_melee"]["value"] == pytest.approx(193 / 256, abs=1e-12)
    assert by_key["p_defender_wins_melee"]["kind"] == "probability"
    assert sum(by_key["defender_failed_regroup"]["value"]) == pytest.approx(1, abs=1e-12)
    shot = attack(charger, pair, {"mode": "shooting"})
    assert "p_attacker_wins_melee" not in {o["key"] for o in shot["outcomes"]}
    assert "outcomes" not in attack(charger, pair, {"mode": "melee", "second_stage": False})


def test_a_reckless_unit_is_never_shaken_or_routed_by_regroup():
    reckless = unit(model("Guard", count=2, q=4, d=4, t=1, rules_=["Reckless"], weapons=[melee()]))
    result = attack(unit_to_dict(CHARGER), unit_to_dict(reckless), {"mode": "melee", "charging": True})
    by_key = {o["key"]: o["value"] for o in result["outcomes"]}
    assert by_key["p_defender_shaken"] == by_key["p_defender_routed"] == 0
    assert by_key["defender_failed_regroup"][1] > 0  # the failures themselves are reported


CASES = {
    "charge: squad against squad": (
        unit(model(count=5, q=4, d=4, t=1, weapons=[melee(attacks=2, ap=1)])),
        unit(model("Target", count=6, q=5, d=5, t=1, weapons=[melee(attacks=1)])),
        CHARGE),
    "charge: Fearless brutes against a hero-led unit": (
        unit(model(count=3, q=3, d=4, t=3, rules_=["Fearless", "Furious"], weapons=[melee(attacks=3, ap=2)])),
        unit(model("Trooper", count=5, q=4, d=4, t=1, weapons=[melee(attacks=1)]),
             model("Hero", count=1, q=3, d=3, t=3, rules_=["Hero"], weapons=[melee(attacks=3, ap=1)])),
        CHARGE),
    "charge: Fear(2) monster against a squad": (
        unit(model("Monster", count=1, q=4, d=4, t=6, rules_=["Fear(2)"], weapons=[melee(attacks=3, ap=1)])),
        unit(model("Target", count=5, q=4, d=4, t=1, weapons=[melee(attacks=1)])),
        CHARGE),
    "charge: a squad against Fear(1) defenders": (
        unit(model(count=5, q=4, d=4, t=1, weapons=[melee(attacks=2)])),
        unit(model("Ghoul", count=4, q=5, d=5, t=1, rules_=["Fear(1)"], weapons=[melee(attacks=1)])),
        CHARGE),
    "shooting: regroup only": (
        unit(model(count=10, weapons=[weapon(attacks=2)])),
        unit(model("Target", count=6, q=4, d=4, t=1)),
        Situation(range_inches=12)),
}


@pytest.mark.montecarlo
@pytest.mark.parametrize("case", list(CASES), ids=list(CASES))
def test_monte_carlo_second_stage_matches_the_exact_distributions(case):
    attacker, defender, situation = CASES[case]
    attacker_costs, defender_costs = [10.0] * len(attacker.models), [10.0] * len(defender.models)
    if len(defender.models) == 2:
        defender_costs = [10.0, 40.0]
    first = resolve_attack(attacker, defender, situation, defender_costs)
    exact = aftermath.second_stage(first, attacker=attacker, defender=defender, situation=situation,
                                   attacker_costs=attacker_costs)
    trials = 400_000
    rng = np.random.default_rng(sum(map(ord, case)))
    sim = simulate_second_stage(unit_to_dict(attacker), unit_to_dict(defender), situation.as_dict(),
                                attacker_costs, defender_costs, trials, rng)
    assert distribution_problems(sim.defender_failed, exact.defender_failed) == []
    assert distribution_problems(sim.attacker_failed, exact.attacker_failed) == []
    if situation.melee:
        assert distribution_problems(sim.dealt_by_defender, exact.counter_wounds) == []
        p = exact.p_defender_counter_exhausted
        assert abs(sim.counter_attacked.mean() - p) <= 5 * np.sqrt(p * (1 - p) / trials) + 1e-9
        for simulated, p in ((sim.attacker_won, exact.p_attacker_wins),
                             (sim.defender_won, exact.p_defender_wins)):
            assert abs(simulated.mean() - p) <= 5 * np.sqrt(p * (1 - p) / trials) + 1e-9


def test_a_batch_shares_counter_attacks_and_gives_exactly_the_same_second_stage():
    """Inside `sharing()` the counter-attack of equal survivors on the same charger is computed
    once: two look-alike defender units (5 and 6 Guards) leave the same survivors, and every
    figure of both second stages is bit for bit what each gives alone."""
    from rules.dice.shared_results import sharing

    charger = unit(model("Champion", count=3, q=4, d=4, t=3, weapons=[melee(attacks=3)]))
    defenders = [unit(model("Guard", count=count, q=4, d=5, t=1, weapons=[melee(attacks=1)]))
                 for count in (5, 6)]

    def stages() -> list[aftermath.SecondStage]:
        return [aftermath.second_stage(resolve_attack(charger, d, CHARGE, [10.0]), attacker=charger,
                                       defender=d, situation=CHARGE, attacker_costs=[30.0])
                for d in defenders]

    alone = stages()
    with sharing() as cache:
        together = stages()
    assert cache.hits > 0  # the 6-Guard unit's survivors met the 5-Guard unit's
    for one, other in zip(alone, together, strict=True):
        for name in ("p_attacker_wins", "p_defender_wins", "p_defender_counter_exhausted"):
            assert getattr(one, name) == getattr(other, name)
        for name in ("counter_wounds", "counter_kills", "defender_failed", "attacker_failed"):
            assert getattr(one, name).tolist() == getattr(other, name).tolist()


def test_fear_counts_as_wounds_dealt_when_checking_who_won_the_melee():
    """Seed, "Strach(X)": "this model counts as having dealt +X wounds when checking who won the
    melee". The small charge above with Fear(1) on the Champion, by hand: the charger deals
    k ~ Bin(2, 1/4) (9/16, 6/16, 1/16) and the 2 − k Guards left strike back j ~ Bin(2 − k, 1/4).
    The attacker wins when j ≤ k + 1: for k = 0 unless both Guards wound (1 − 1/16), always for
    k ≥ 1 — 9/16 · 15/16 + 7/16 = 247/256 (193/256 without Fear). The defender wins when
    j ≥ k + 1: only k = 0, j ≥ 1 — 9/16 · 7/16 = 63/256. Fear changes nothing when shooting."""
    feared = unit(model("Champion", count=1, q=4, d=4, t=3, rules_=["Fear(1)"], weapons=[melee(attacks=2)]))
    result = attack(unit_to_dict(feared), unit_to_dict(PAIR), {"mode": "melee", "charging": True})
    by_key = {o["key"]: o["value"] for o in result["outcomes"]}
    assert by_key["p_attacker_wins_melee"] == pytest.approx(247 / 256, abs=1e-12)
    assert by_key["p_defender_wins_melee"] == pytest.approx(63 / 256, abs=1e-12)
    plain = attack(unit_to_dict(CHARGER), unit_to_dict(PAIR), {"mode": "shooting"})
    shot = attack(unit_to_dict(feared), unit_to_dict(PAIR), {"mode": "shooting"})
    assert [o["value"] for o in shot["outcomes"]] == [o["value"] for o in plain["outcomes"]]


def test_fear_counts_for_each_model_that_fought():
    """Decision (docs/rules/opr.md): X for each model with Fear(X) that fought — all the
    charger's models, and the defender's models that survived the charge."""
    ghouls = unit(model("Ghoul", count=3, rules_=["Fear(2)"]), model("Boss", count=1, rules_=["Hero"]))
    assert aftermath.fear_bonus(ghouls) == 6
    assert aftermath.fear_bonus(ghouls, (1, 1)) == 2
    assert aftermath.fear_bonus(ghouls, (0, 1)) == 0


#: Defenders whose states cover every class of the shooting regroup: many models, one model of
#: even and odd toughness, mixed profiles (a hero last), and Deadly's skipped states.
SHOT_DEFENDERS = {
    "squad": unit(model("Guard", count=5, d=5, t=1)),
    "tough squad": unit(model("Ogre", count=3, d=4, t=3)),
    "monster t4": unit(model("Beast", count=1, d=4, t=4)),
    "monster t5": unit(model("Beast", count=1, d=4, t=5)),
    "monster t2": unit(model("Scout", count=1, d=5, t=2)),
    "mixed": unit(model("Guard", count=3, d=5, t=1), model("Boss", count=1, d=4, t=3, rules_=["Hero"])),
}
SHOT_WEAPONS = {"rifles": weapon(attacks=2), "deadly": weapon(attacks=1, ap=1, rules_=["Deadly(2)"])}


@pytest.mark.parametrize("fearless", [False, True])
@pytest.mark.parametrize("shooter", sorted(SHOT_WEAPONS))
@pytest.mark.parametrize("target", sorted(SHOT_DEFENDERS))
def test_shooting_regroup_equals_a_state_by_state_count(fearless, shooter, target):
    """The shooting second stage adds the defender's states up by class, read off the kills and
    wounds distributions (issue 42); state by state, a destroyed defender takes no test, a
    standing one no test without wounds, else 1 (+1 at half strength, −1 Fearless)."""
    defender = SHOT_DEFENDERS[target]
    if fearless:
        defender = unit(*(model(m.name, count=m.count, d=m.defence, t=m.toughness,
                                rules_=[*map(str, m.rules), "Fearless"]) for m in defender.models))
    attacker = unit(model("Shooter", count=4, q=3, weapons=[SHOT_WEAPONS[shooter]]))
    shooting = Situation()
    first = resolve_attack(attacker, defender, shooting, [10.0] * len(defender.models))
    stage = aftermath.second_stage(first, attacker=attacker, defender=defender, situation=shooting,
                                   attacker_costs=[10.0])
    space, p_pass = first.dist, aftermath.quality_pass(4)
    half = aftermath.half_strength(defender, space.alive, space.wounds)
    expected = np.zeros(4)
    for p, down, wounds, at_half in zip(space.probs, space.destroyed, space.wounds, half, strict=True):
        if down:
            expected[0] += p
            continue
        tests = max(0, 1 + int(at_half) - int(fearless)) if wounds > 0 else 0
        expected += p * aftermath.failed_tests(tests, p_pass)
    assert np.allclose(stage.defender_failed, expected, rtol=0, atol=1e-12)
    assert stage.p_attacker_wins == pytest.approx(1.0, abs=1e-12)
    assert stage.attacker_failed.tolist() == pytest.approx([1.0, 0.0, 0.0, 0.0], abs=1e-12)
    assert stage.counter_wounds[0] == pytest.approx(1.0, abs=1e-12) == stage.counter_kills[0]


def test_shooting_classes_of_a_unit_of_no_models_is_destroyed():
    assert aftermath.shooting_classes(np.array([1.0]), np.array([1.0]), 1) == (1.0, 0.0, 0.0, 0.0)
