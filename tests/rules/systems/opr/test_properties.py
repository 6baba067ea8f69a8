"""Properties of the exact OPR engine over generated units (hypothesis)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from points.opr.unit import Model, Rule, Unit, Weapon
from rules.systems.opr.combat import resolve_attack
from rules.systems.opr.situation import Situation

WEAPON_RULES = [
    "Rending",
    "Lance",
    "Reliable",
    "Lock-On",
    "No Cover",
    "Corrosive",
    "Brutal",
    "Precise",
    "Assault",
]
ATTACKER_RULES = ["Furious", "Relentless", "Good Shot", "Bad Shot", "Cautious", "Spearhead"]
DEFENDER_RULES = [
    "Stealth",
    "Aircraft",
    "Shield",
    "Entrenched",
    "Delicate",
    "Resistant",
    "Regeneration",
    "Spearhead",
    "Hero",
]


@st.composite
def weapons(draw) -> Weapon:
    rules = [Rule(name) for name in draw(st.lists(st.sampled_from(WEAPON_RULES), unique=True, max_size=3))]
    for name in ("Blast", "Deadly"):
        if draw(st.booleans()):
            rules.append(Rule(name, draw(st.integers(2, 6))))
    return Weapon(
        "W",
        range=draw(st.sampled_from([0, 12, 24, 36])),
        attacks=draw(st.integers(1, 4)),
        ap=draw(st.integers(-1, 4)),
        rules=tuple(rules),
    )


@st.composite
def attackers(draw) -> Unit:
    rules = tuple(Rule(n) for n in draw(st.lists(st.sampled_from(ATTACKER_RULES), unique=True, max_size=2)))
    weapon = draw(weapons())
    return Unit("A", (Model("a", draw(st.integers(1, 5)), draw(st.integers(2, 6)), 4, 1, rules, (weapon,)),))


@st.composite
def defenders(draw) -> tuple[Unit, list[float]]:
    models = []
    for i in range(draw(st.integers(1, 2))):
        rules = tuple(
            Rule(n) for n in draw(st.lists(st.sampled_from(DEFENDER_RULES), unique=True, max_size=2))
        )
        models.append(
            Model(
                f"d{i}",
                draw(st.integers(1, 6)),
                4,
                draw(st.integers(2, 6)),
                draw(st.integers(1, 4)),
                rules,
            )
        )
    costs = [draw(st.floats(1, 100)) for _ in models]
    return Unit("D", tuple(models)), costs


@st.composite
def situations(draw) -> Situation:
    melee = draw(st.booleans())
    return Situation(
        mode="melee" if melee else "shooting",
        charging=melee and draw(st.booleans()),
        attacker_moved=draw(st.booleans()),
        defender_in_cover=draw(st.booleans()),
        range_inches=0 if melee else draw(st.sampled_from([4, 8, 12, 18, 24, 30])),
        defender_activated=draw(st.booleans()),
        enemies_within_12=draw(st.booleans()),
    )


def expected_kills(attacker, defender, situation, costs) -> float:
    outcome = resolve_attack(attacker, defender, situation, costs)
    return float(np.arange(len(outcome.kills)) @ outcome.kills)


def with_attacks(attacker: Unit, extra: int) -> Unit:
    model = attacker.models[0]
    weapon = model.weapons[0]
    return replace(
        attacker, models=(replace(model, weapons=(replace(weapon, attacks=weapon.attacks + extra),)),)
    )


@settings(max_examples=150, deadline=None)
@given(attackers(), defenders(), situations())
def test_distributions_are_proper_and_consistent(attacker, defender_and_costs, situation):
    defender, costs = defender_and_costs
    outcome = resolve_attack(attacker, defender, situation, costs)
    for pmf in (outcome.kills, outcome.wounds, outcome.states):
        assert abs(pmf.sum() - 1) < 1e-9
        assert pmf.min() >= -1e-15
    assert abs(outcome.p_destroyed - outcome.kills[-1]) < 1e-12
    points = outcome.expected_points_destroyed(costs)
    assert -1e-9 <= points <= sum(c * m.count for c, m in zip(costs, defender.models, strict=True)) + 1e-9


@settings(max_examples=150, deadline=None)
@given(attackers(), defenders(), situations(), st.integers(1, 3))
def test_more_attacks_never_lower_expected_kills(attacker, defender_and_costs, situation, extra):
    """One weapon: each extra attack adds hits, each hit adds a wound or (Regeneration) at most
    cancels one with chance ≤ 1/6 ≤ P(natural 1 fails), so kills cannot drop on average."""
    defender, costs = defender_and_costs
    fewer = expected_kills(attacker, defender, situation, costs)
    more = expected_kills(with_attacks(attacker, extra), defender, situation, costs)
    assert more >= fewer - 1e-9


@settings(max_examples=100, deadline=None)
@given(attackers(), defenders(), situations())
def test_cover_never_raises_expected_kills(attacker, defender_and_costs, situation):
    defender, costs = defender_and_costs
    exposed = expected_kills(attacker, defender, replace(situation, defender_in_cover=False), costs)
    covered = expected_kills(attacker, defender, replace(situation, defender_in_cover=True), costs)
    assert covered <= exposed + 1e-9
