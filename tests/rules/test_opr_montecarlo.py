"""Monte-Carlo cross-checks: one per rule of opr-combat.md, the simulation (written
independently in `opr_simulation.py`) landing within 4 standard errors of the exact mean.

Each case puts its rule in play (the step tests check what the rule does face by face; here
the whole sequence around it is checked). The seed is fixed, so a pass is reproducible.
"""

from __future__ import annotations

import numpy as np
import pytest

from rules.systems.opr.combat import resolve_attack
from rules.systems.opr.situation import Situation
from tests.rules.factories import melee, model, unit, weapon
from tests.rules.opr_simulation import simulate

TRIALS = 1_000_000
STANDARD_ERRORS = 4

SHOOT = Situation()
FAR = Situation(range_inches=24)
CHARGE = Situation(mode="melee", charging=True)
FIGHT = Situation(mode="melee")
COVER = Situation(defender_in_cover=True)

TROOPS = unit(model("Trooper", count=10, d=4, t=1))
MIXED = unit(
    model("Trooper", count=6, d=5, t=1),
    model("Sergeant", count=1, d=3, t=2),
    model("Hero", count=1, d=4, t=3, rules_=["Hero"]),
)
MIXED_COSTS = [10.0, 25.0, 15.0]


def shooters(*weapon_rules: str, q: int = 4, model_rules=(), attacks: int = 2, ap: int = 0, count: int = 5):
    return unit(
        model(
            count=count,
            q=q,
            rules_=model_rules,
            weapons=[weapon(attacks=attacks, ap=ap, rules_=weapon_rules)],
        )
    )


def fighters(*weapon_rules: str, q: int = 4, model_rules=(), attacks: int = 2, ap: int = 0, count: int = 5):
    return unit(
        model(
            count=count, q=q, rules_=model_rules, weapons=[melee(attacks=attacks, ap=ap, rules_=weapon_rules)]
        )
    )


def troops(*rules: str, d: int = 4, t: int = 1, count: int = 10):
    return unit(model("Target", count=count, d=d, t=t, rules_=rules))


CASES = {
    "spec: 10 attacks Q4 vs D4": (unit(model(count=10, weapons=[weapon()])), TROOPS, SHOOT),
    "Reliable": (shooters("Reliable", q=6), TROOPS, SHOOT),
    "Good Shot": (shooters(q=6, model_rules=["Good Shot"]), TROOPS, SHOOT),
    "Bad Shot": (shooters(q=3, model_rules=["Bad Shot"]), TROOPS, SHOOT),
    "Lance": (fighters("Lance", ap=1), troops(d=3), CHARGE),
    "Cautious": (shooters(model_rules=["Cautious"]), TROOPS, FAR),
    "Spearhead (attacker)": (shooters(model_rules=["Spearhead"]), TROOPS, SHOOT),
    "Spearhead (defender)": (shooters(), troops("Spearhead"), Situation(defender_activated=True)),
    "Stealth": (shooters(), troops("Stealth"), SHOOT),
    "Aircraft": (shooters(), troops("Aircraft"), Situation(range_inches=10)),
    "Lock-On": (
        shooters("Lock-On"),
        troops("Aircraft", "Stealth"),
        Situation(range_inches=18, defender_in_cover=True),
    ),
    "Rending": (shooters("Rending", attacks=3), TROOPS, SHOOT),
    "Furious": (fighters(model_rules=["Furious"], attacks=3), TROOPS, CHARGE),
    "Relentless": (shooters(model_rules=["Relentless"], attacks=3), TROOPS, SHOOT),
    "extra hits stack": (fighters("Rending", model_rules=["Furious"], attacks=3), TROOPS, CHARGE),
    "Blast": (shooters("Blast(3)", count=3), troops(count=2, t=2), SHOOT),
    "cover": (shooters(), troops(d=5), COVER),
    "Shield": (shooters(), troops("Shield", d=5), SHOOT),
    "Entrenched": (shooters(), troops("Entrenched", d=5), COVER),
    "No Cover": (shooters("No Cover"), troops("Shield", "Entrenched", d=4), COVER),
    "AP": (shooters(ap=2), troops(d=3), SHOOT),
    "Corrosive": (shooters("Corrosive", q=2, ap=3), troops(d=4, t=2), SHOOT),
    "Delicate": (shooters(q=2, ap=3), troops("Delicate", d=4, t=2), SHOOT),
    "Resistant": (shooters(q=2, ap=2), troops("Resistant", d=5, t=2), SHOOT),
    "Deadly": (shooters("Deadly(3)", q=3, ap=1, count=3), troops(d=4, t=2, count=4), SHOOT),
    "Regeneration": (shooters(q=3, attacks=3), troops("Regeneration", d=5, t=2, count=6), SHOOT),
    "Brutal": (shooters("Brutal", q=3, attacks=3), troops("Regeneration", d=5, t=2, count=6), SHOOT),
    "Precise (against a mixed unit)": (shooters("Precise", "Deadly(2)", q=3, ap=1), MIXED, SHOOT),
    "allocation: cheapest first, hero last": (shooters(q=3, attacks=3, ap=1), MIXED, SHOOT),
    "Assault (in melee)": (
        unit(model(count=5, weapons=[weapon("Pistol", range=12, rules_=["Assault", "Rending"]), melee()])),
        TROOPS,
        FIGHT,
    ),
    "several weapons carry the state": (
        unit(
            model(
                count=4,
                q=3,
                weapons=[weapon("Rifle", attacks=2), weapon("Launcher", rules_=["Blast(3)", "Deadly(2)"])],
            ),
            model("Sniper", count=1, q=3, weapons=[weapon("Long rifle", ap=2, rules_=["Precise"])]),
        ),
        MIXED,
        SHOOT,
    ),
}


@pytest.mark.montecarlo
@pytest.mark.parametrize("case", list(CASES), ids=list(CASES))
def test_monte_carlo_lands_within_four_standard_errors_of_the_exact_mean(case):
    attacker, defender, situation = CASES[case]
    costs = MIXED_COSTS if defender is MIXED else [10.0] * len(defender.models)
    exact = resolve_attack(attacker, defender, situation, costs)
    seed = sum(map(ord, case))
    simulated = simulate(attacker, defender, situation, costs, TRIALS, np.random.default_rng(seed))

    for name, samples, distribution in (
        ("kills", simulated.kills, exact.kills),
        ("wounds", simulated.wounds, exact.wounds),
    ):
        exact_mean = float(np.arange(len(distribution)) @ distribution)
        error = samples.std(ddof=1) / np.sqrt(TRIALS)
        assert abs(samples.mean() - exact_mean) <= STANDARD_ERRORS * max(error, 1e-12), (
            f"{case}: {name} simulated {samples.mean():.5f} ± {error:.5f}, exact {exact_mean:.5f}"
        )
    assert simulated.points.mean() == pytest.approx(
        exact.expected_points_destroyed(costs), rel=0.05, abs=0.05
    )
    for simulated_hits, outcome in zip(simulated.weapon_hits, exact.weapons, strict=True):
        assert simulated_hits == pytest.approx(outcome.hits, rel=0.02, abs=0.01)
