"""Monte-Carlo cross-checks: one per rule of docs/rules/opr-combat.md, the simulation (written
independently in `opr_simulation.py`, reading the units as plain unit-format dicts) against
the exact engine's whole distributions of kills and wounds, not only their means.

For each case and each distribution: every probability lands within 5 standard errors of the
exact one, and a chi-square goodness-of-fit statistic (bins with fewer than 5 expected trials
pooled) stays under z = 5 on the Wilson–Hilferty normal approximation. A wrong tail that
leaves the mean alone (say, a kill moved from k = 0 to k = 2 and another from 2 to 1) fails.
Each case puts its rule in play (the step tests check what the rule does face by face; here
the whole sequence around it is checked). The seed is fixed, so a pass is reproducible.
"""

from __future__ import annotations

import numpy as np
import pytest

from rules.systems.opr.combat import resolve_attack
from rules.systems.opr.situation import Situation
from rules.systems.opr.unit_format.writer import unit_to_dict
from tests.factories.opr_combat_units import melee, model, unit, weapon
from tests.rules.systems.opr.opr_simulation import simulate

TRIALS = 1_000_000
STANDARD_ERRORS = 4
#: Per-bin and chi-square bounds, in standard normal units (false alarm < 1e-5 per case).
BIN_Z = 5.0
CHI_SQUARE_Z = 5.0

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
def test_monte_carlo_matches_the_exact_distributions_and_means(case):
    attacker, defender, situation = CASES[case]
    costs = MIXED_COSTS if defender is MIXED else [10.0] * len(defender.models)
    exact = resolve_attack(attacker, defender, situation, costs)
    seed = sum(map(ord, case))
    simulated = simulate(unit_to_dict(attacker), unit_to_dict(defender), situation.as_dict(), costs, TRIALS,
                         np.random.default_rng(seed))

    problems = {name: distribution_problems(samples, np.asarray(pmf))
                for name, samples, pmf in (("kills", simulated.kills, exact.kills),
                                           ("wounds", simulated.wounds, exact.wounds))}
    assert problems == {"kills": [], "wounds": []}
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


def distribution_problems(samples: np.ndarray, exact: np.ndarray) -> list[str]:
    """How the sampled distribution of `samples` (integers 0..) differs from the exact PMF."""
    n = len(samples)
    observed = np.bincount(samples, minlength=len(exact)).astype(float)
    if len(observed) > len(exact):
        return [f"sampled values up to {len(observed) - 1}, exact support ends at {len(exact) - 1}"]
    problems = []
    for k, (seen, p) in enumerate(zip(observed / n, exact, strict=True)):
        bound = BIN_Z * np.sqrt(p * (1 - p) / n) + 1 / n
        if abs(seen - p) > bound:
            problems.append(f"P({k}) sampled {seen:.6f}, exact {p:.6f} (bound {bound:.6f})")
    expected = exact * n
    big = expected >= 5
    obs = np.append(observed[big], observed[~big].sum())
    exp = np.append(expected[big], expected[~big].sum())
    keep = exp > 0
    obs, exp = obs[keep], exp[keep]
    dof = len(exp) - 1
    if dof >= 1:
        chi2 = float(((obs - exp) ** 2 / exp).sum())
        z = ((chi2 / dof) ** (1 / 3) - (1 - 2 / (9 * dof))) / np.sqrt(2 / (9 * dof))
        if z > CHI_SQUARE_Z:
            problems.append(f"chi-square {chi2:.1f} on {dof} degrees of freedom (z = {z:.1f})")
    return problems


def test_the_distribution_check_catches_a_wrong_tail_with_the_right_mean():
    """The check itself: mass moved in a way that keeps the mean fails; the true PMF passes."""
    rng = np.random.default_rng(7)
    exact = np.array([0.2, 0.3, 0.3, 0.2])
    samples = rng.choice(4, size=TRIALS, p=exact)
    assert distribution_problems(samples, exact) == []
    same_mean = np.array([0.25, 0.25, 0.25, 0.25])  # mean 1.5, as the exact one; another shape
    assert distribution_problems(rng.choice(4, size=TRIALS, p=same_mean), exact) != []
    slightly_off = np.array([0.2, 0.302, 0.296, 0.202])  # mean 1.498: a 0.4 % shift of one bin
    assert distribution_problems(rng.choice(4, size=TRIALS, p=slightly_off), exact) != []
