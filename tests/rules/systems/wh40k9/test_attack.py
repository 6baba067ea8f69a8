"""The 40k attack sequence (docs/rules/wh40k9.md §3–§5, §8.7): each step exact against icepool
(1e-12), whole small attacks exact against a literal enumeration on icepool's fractions,
and every rule against literal games with random dice (Monte-Carlo)."""

from __future__ import annotations

import math
from typing import Any

import icepool
import numpy as np
import pytest

from rules.systems.registry import get_system
from rules.systems.wh40k9.attacks import blast_shots, melee_batches, shooting_batches
from rules.systems.wh40k9.dice_values import dice_pmf
from rules.systems.wh40k9.estimate import attack
from rules.systems.wh40k9.morale import models_fled, models_lost, p_morale_failed
from rules.systems.wh40k9.rolls import roll
from rules.systems.wh40k9.saves import p_unsaved
from rules.systems.wh40k9.situation import complete
from rules.systems.wh40k9.wound_roll import wound_target
from tests.factories.wh40k_units import wh40k_gun as gun
from tests.factories.wh40k_units import wh40k_model as model
from tests.factories.wh40k_units import wh40k_unit as unit
from tests.rules.dice.icepool_oracle import TOLERANCE, as_pmf, assert_pmf_equal
from tests.rules.systems.wh40k9.wh40k9_oracle import Scenario, exact_kills, p_save, rolled_die, simulate

# ------------------------------------------------------------------ units for the engine


def defenders(groups: list[tuple]) -> dict[str, Any]:
    """(count, W, Sv, Inv, FNP, reduction[, T]) per group, allocated in this order."""
    models = []
    for i, (count, w, sv, inv, fnp, red, *t) in enumerate(groups):
        abilities = ([{"type": "feel_no_pain", "target": fnp}] if fnp else []) + (
            [{"type": "damage_reduction", "value": red}] if red else []
        )
        models.append(
            model(
                f"D{i}",
                count=count,
                w=w,
                sv=sv,
                invuln=inv,
                abilities=abilities,
                t=t[0] if t else 4,
                points=i,
            )
        )
    return unit(*models, name="Target")


def scenario_models(groups: list[tuple]) -> tuple:
    return tuple((w, sv, inv, fnp, red) for count, w, sv, inv, fnp, red, *_t in groups for _ in range(count))


# ------------------------------------------------------------------ step 1–2: one die


@pytest.mark.parametrize("target", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("modifier", [-3, -1, 0, 1, 2])
@pytest.mark.parametrize("reroll", [None, "ones", "failed"])
def test_one_roll_matches_icepool_with_modifiers_capped_and_rerolls(target, modifier, reroll):
    """§5 Steps 1–2, §6.4: natural 1 fails, 6 succeeds, modifiers capped at ±1, re-rolls once."""
    die = rolled_die(target, modifier, reroll)
    capped = max(-1, min(1, modifier))
    success = die.map(lambda f: f != 1 and (f == 6 or f + capped >= target))
    six = die.map(lambda f: f == 6)
    outcome = roll(target, modifier, reroll, 6, 1)
    assert outcome.p_success == pytest.approx(float(success.probability(True)), abs=TOLERANCE)
    assert outcome.trigger == pytest.approx(float(six.probability(True)), abs=TOLERANCE)
    assert outcome.low == pytest.approx(float(die.probability(1)), abs=TOLERANCE)


def test_the_spec_hit_tables_and_rerolls():
    """§6.1 table and §6.4 examples: 3+ → 4/6, re-roll 1s 7/9, re-roll failures 8/9."""
    assert roll(3).p_success == pytest.approx(4 / 6)
    assert roll(3, 0, "ones").p_success == pytest.approx(7 / 9)
    assert roll(3, 0, "failed").p_success == pytest.approx(8 / 9)
    assert roll(6, -1).p_success == pytest.approx(1 / 6) and roll(2, 1).p_success == pytest.approx(5 / 6)


@pytest.mark.parametrize(
    ("s", "t", "target"),
    [(8, 4, 2), (5, 4, 3), (4, 4, 4), (3, 4, 5), (2, 4, 6), (4, 8, 6), (7, 4, 3), (3, 5, 5), (12, 6, 2)],
)
def test_strength_against_toughness(s, t, target):
    """§5 Step 2's chart (half or less tested before lower)."""
    assert wound_target(s, t) == target


@pytest.mark.parametrize("sv", [2, 3, 4, 5, 6, None])
@pytest.mark.parametrize("inv", [None, 3, 4, 5])
@pytest.mark.parametrize("ap", [0, -1, -2, -3, -4])
def test_saves_match_icepool_and_take_the_better_one(sv, inv, ap):
    """§5 Step 4 and invulnerable saves: AP modifies armour only; natural 1 fails; the better."""
    assert p_unsaved(save=sv, invuln=inv, ap=ap) == pytest.approx(
        float(1 - p_save(sv, inv, ap)), abs=TOLERANCE
    )


def test_save_examples_of_the_spec():
    """§6.1: Sv3+ vs AP −1 saves on 4+, vs AP −3 on 6+, vs AP −4 never."""
    assert p_unsaved(save=3, invuln=None, ap=-1) == pytest.approx(1 / 2)
    assert p_unsaved(save=3, invuln=None, ap=-3) == pytest.approx(5 / 6)
    assert p_unsaved(save=3, invuln=None, ap=-4) == pytest.approx(1.0)


# ------------------------------------------------------------------ attack counts (§3, §6.3)


def _batches(attacker: dict, situation: dict | None = None, defender_models: int = 5):
    s = complete(situation or {})
    context = {
        "charged": s["charged"],
        "moved": s["moved"],
        "melee": s["mode"] == "melee",
        "half_range": False,
        "target_keywords": frozenset(),
    }
    if s["mode"] == "melee":
        return melee_batches(unit=attacker, situation=s, context=context)
    return shooting_batches(unit=attacker, situation=s, defender_models=defender_models)


@pytest.mark.parametrize(
    ("shots", "size", "die"),
    [
        ("D6", 5, icepool.d6),
        ("D6", 6, icepool.d6.map(lambda x: max(3, x))),
        ("D6", 11, icepool.Die([6])),
        ("D3", 8, icepool.Die([3])),
        ("2D6", 10, (2 @ icepool.d6).map(lambda x: max(3, x))),
        ("2D6", 12, icepool.Die([12])),
    ],
)
def test_blast_attack_counts_match_icepool(shots, size, die):
    """§3 Blast: at least 3 against 6–10 models, the maximum against 11+ (§6.3: 4.0, 7.028)."""
    assert_pmf_equal(blast_shots(dice_pmf(shots), size), as_pmf(die))


def test_rapid_fire_doubles_within_half_range_only():
    """§3 Rapid Fire; §6.5: 3 Outriders at 15″ with twin bolt rifles fire 12 shots."""
    outriders = unit(model(count=3, weapons=[gun(kind="Rapid Fire 2", rng=30)]))
    assert [b.attacks.argmax() for b in _batches(outriders, {"range_inches": 15})] == [12]
    assert [b.attacks.argmax() for b in _batches(outriders, {"range_inches": 16})] == [6]
    assert _batches(outriders, {"range_inches": 31}) == []


def test_weapon_types_pick_who_fires():
    """§3: Advancing leaves Assault weapons; engaged units fire Pistols; a Pistol or the other
    weapons; one model throws a grenade instead of its other weapons (when asked)."""
    trooper = model(
        count=5,
        keywords=["INFANTRY"],
        weapons=[
            gun(name="Pistol", kind="Pistol 1", rng=12),
            gun(name="Rifle", kind="Rapid Fire 1", rng=24),
            gun(name="Flamer", kind="Assault D6", rng=8),
            gun(name="Frag", kind="Grenade D6", rng=6, rules=["Blast"]),
        ],
    )
    names = lambda bs: sorted((b.name, b.models) for b in bs)  # noqa: E731
    assert names(_batches(unit(trooper), {"range_inches": 6})) == [("Flamer", 5), ("Rifle", 5)]
    assert names(_batches(unit(trooper), {"range_inches": 6, "advanced": True})) == [("Flamer", 5)]
    assert names(_batches(unit(trooper), {"range_inches": 6, "engaged": True})) == [("Pistol", 5)]
    assert names(_batches(unit(trooper), {"range_inches": 20})) == [("Rifle", 5)]
    assert names(_batches(unit(trooper), {"range_inches": 6, "throw_grenade": True})) == [
        ("Flamer", 4),
        ("Frag", 1),
        ("Rifle", 4),
    ]


def test_heavy_after_moving_is_minus_one_for_infantry_only():
    """§3 Heavy: −1 to hit for INFANTRY that moved (3+ becomes 4+: 1/2 of the shots hit)."""
    for keywords, expected in ((["INFANTRY"], 0.5), (["VEHICLE"], 4 / 6)):
        shooter = unit(model(count=1, keywords=keywords, weapons=[gun(kind="Heavy 6", d=1)]))
        result = attack(shooter, defenders([(20, 1, None, None, None, 0)]), {"moved": True})
        assert result["expected"]["hits"] == pytest.approx(6 * expected)


def test_assault_intercessors_make_31_attacks_and_devastating_charge_adds_two():
    """§6.5: 9 × (2 + 1) + (3 + 1) = 31 chainsword attacks; Outriders +2 A on the charge."""
    booklet = get_system("wh40k9")
    chainsword = gun(
        name="Astartes chainsword",
        kind="Melee",
        rng=0,
        s="User",
        ap=-1,
        abilities=["text", {"type": "extra_attacks", "value": 1}],
    )
    squad = unit(model(count=9, a=2, weapons=[chainsword]), model("Sergeant", a=3, weapons=[chainsword]))
    meq = booklet.reference_targets["meq-5"]
    big_meq = {**meq, "models": [{**meq["models"][0], "count": 20}]}
    result = attack(squad, big_meq, {"mode": "melee"})
    assert result["expected"]["attacks"] == 31
    assert result["expected"]["hits"] == pytest.approx(31 * 4 / 6)
    assert result["expected"]["damage"] == pytest.approx(31 * 4 / 6 * 1 / 2 * 1 / 2)  # §6.5: 5.17
    charge = [{"type": "attacks_modifier", "value": 2, "when": "charged"}]
    riders = unit(model(count=3, a=2, abilities=charge, weapons=[chainsword]))
    assert attack(riders, big_meq, {"mode": "melee"})["expected"]["attacks"] == 9
    assert attack(riders, big_meq, {"mode": "melee", "charged": True})["expected"]["attacks"] == 15


def test_weapon_strength_user_plus_and_times():
    """§1.4: a power fist (x2) in the hands of S4 wounds T4 on 2+."""
    fist = gun(name="Fist", kind="Melee", rng=0, s="x2", ap=-3, d=2)
    result = attack(
        unit(model(a=3, weapons=[fist])), defenders([(5, 3, 3, None, None, 0)]), {"mode": "melee"}
    )
    assert result["expected"]["wounds"] == pytest.approx(3 * 4 / 6 * 5 / 6)


def test_multi_profile_weapons_use_the_situation_or_their_own_choice():
    """§1.2 plasma pistol: Standard or Supercharge; Supercharge's 1s destroy the bearer."""
    plasma = {
        "name": "Plasma pistol",
        "range": 12,
        "type": "Pistol 1",
        "s": 7,
        "ap": -3,
        "d": 1,
        "profiles": [
            {"name": "Standard", "range": 12, "type": "Pistol 1", "s": 7, "ap": -3, "d": 1},
            {
                "name": "Supercharge",
                "range": 12,
                "type": "Pistol 1",
                "s": 8,
                "ap": -3,
                "d": 2,
                "abilities": ["text", {"type": "self_destruct", "on": 1}],
            },
        ],
    }
    target = defenders([(10, 2, 3, None, None, 0)])
    standard = attack(unit(model(weapons=[plasma])), target, {})
    supercharge = attack(unit(model(weapons=[plasma])), target, {"weapon_profile": "last"})
    assert standard["weapons"][0]["name"] == "Plasma pistol (Standard)"
    assert supercharge["expected"]["damage"] == pytest.approx(4 / 6 * 5 / 6 * 5 / 6 * 2)  # §6.5: 0.926
    lost = {o["key"]: o["value"] for o in supercharge["outcomes"]}["attackers_self_destroyed"]
    assert lost == pytest.approx(1 / 6)
    fixed = attack(unit(model(weapons=[{**plasma, "profile": "Supercharge"}])), target, {})
    assert fixed["expected"] == supercharge["expected"]


# ------------------------------------------------------------------ whole attacks, exact


def _case(
    *,
    shots: str = "2",
    bs: int = 3,
    s: int = 4,
    ap: int = 0,
    d: Any = 1,
    t: int = 4,
    abilities: list | None = None,
    groups: list[tuple],
    hit_modifier: int = 0,
) -> tuple:
    shooter = unit(model(bs=bs, weapons=[gun(kind=f"Assault {shots}", s=s, ap=ap, d=d, abilities=abilities)]))
    target = defenders([(*g, t) for g in groups])
    kw: dict[str, Any] = {}
    for a in abilities or ():
        if a["type"] == "reroll":
            kw[f"{a['roll']}_reroll"] = a["which"]
        elif a["type"] == "modifier":
            kw[f"{a['roll']}_mod"] = a["value"]
        elif a["type"] == "extra_hits":
            kw.update(explode_on=a.get("on", 6), explode_hits=a.get("hits", 1))
        elif a["type"] == "extra_ap":
            kw.update(six_on=a.get("on", 6), six_ap=a["ap"])
        elif a["type"] == "mortal_wounds":
            kw.update(
                six_on=a.get("on", 6),
                six_mortal=_die(a.get("amount", 1)),
                six_ends=bool(a.get("ends_attack")),
            )
    kw["hit_mod"] = kw.get("hit_mod", 0) + hit_modifier
    sc = Scenario(
        attacks=_die(shots),
        skill=bs,
        strength=s,
        toughness=t,
        ap=ap,
        damage=_die(d),
        models=scenario_models([(*g, t) for g in groups]),
        **kw,
    )
    return shooter, target, sc


def _die(value: Any) -> icepool.Die:
    text = str(value)
    if "D" in text:
        n, sides = text.split("D")
        return int(n or 1) @ icepool.Die(range(1, int(sides) + 1))
    return icepool.Die([int(text)])


CASES = {
    "plain W1": dict(shots="3", groups=[(3, 1, 4, None, None, 0)]),
    "D3 damage on W2, overkill lost": dict(shots="2", d="D3", ap=-1, groups=[(3, 2, 3, None, None, 0)]),
    "dice shots and D2 on W3": dict(shots="D3", d=2, groups=[(2, 3, 4, None, None, 0)]),
    "re-roll 1s to hit, re-roll failed wounds": dict(
        shots="2",
        abilities=[
            {"type": "reroll", "roll": "hit", "which": "ones"},
            {"type": "reroll", "roll": "wound", "which": "failed"},
        ],
        groups=[(3, 1, 5, None, None, 0)],
    ),
    "±1 capped": dict(
        shots="2",
        hit_modifier=-2,
        abilities=[{"type": "modifier", "roll": "wound", "value": 1}],
        groups=[(3, 1, 4, None, None, 0)],
    ),
    "exploding 6s": dict(
        shots="2", abilities=[{"type": "extra_hits", "on": 6, "hits": 1}], groups=[(4, 1, 5, None, None, 0)]
    ),
    "6s to wound: extra AP": dict(
        shots="2",
        ap=0,
        d=2,
        abilities=[{"type": "extra_ap", "on": 6, "ap": -3}],
        groups=[(2, 2, 3, None, None, 0)],
    ),
    "6s to wound: a mortal wound besides": dict(
        shots="2",
        abilities=[{"type": "mortal_wounds", "roll": "wound", "on": 6, "amount": 1}],
        groups=[(3, 1, 3, None, None, 0)],
    ),
    "6s to wound: D3 mortal wounds instead, spilling": dict(
        shots="2",
        abilities=[{"type": "mortal_wounds", "roll": "wound", "on": 6, "amount": "D3", "ends_attack": True}],
        groups=[(4, 1, 2, None, None, 0)],
    ),
    "Feel No Pain on D3": dict(shots="2", d="D3", ap=-2, groups=[(2, 2, 4, None, 5, 0)]),
    "−1 damage": dict(shots="2", d=2, ap=-1, groups=[(2, 2, 3, None, None, 1)]),
    "invulnerable better than armour": dict(shots="2", ap=-3, d=1, groups=[(3, 1, 2, 4, None, 0)]),
    "two profiles: cheap first": dict(shots="3", d=2, groups=[(2, 1, 5, None, None, 0), (1, 3, 3, 5, 6, 0)]),
}


@pytest.mark.parametrize("name", list(CASES))
def test_small_attacks_are_exact_against_the_icepool_enumeration(name):
    shooter, target, sc = _case(**CASES[name])
    result = attack(shooter, target, {"range_inches": 12, "hit_modifier": CASES[name].get("hit_modifier", 0)})
    expected = np.array([float(p) for p in exact_kills(sc)])
    assert_pmf_equal(np.array(result["kills_distribution"]), expected)


MC_TRIALS = 12_000


@pytest.mark.parametrize("name", list(CASES))
def test_every_rule_agrees_with_literal_games_with_random_dice(name):
    """Monte-Carlo: the exact mean and P(destroyed) lie within 4.5 standard errors of the games'."""
    params = {
        **CASES[name],
        "shots": str(int(CASES[name]["shots"]) * 3) if CASES[name]["shots"].isdigit() else "2D6",
    }
    shooter, target, sc = _case(**params)
    result = attack(shooter, target, {"hit_modifier": params.get("hit_modifier", 0)})
    games = simulate(sc, MC_TRIALS, seed=len(name))
    kills = np.arange(len(games))
    mean, games_mean = result["expected"]["kills"], float(kills @ games)
    sd = math.sqrt(max(1e-12, float((kills - mean) ** 2 @ np.array(result["kills_distribution"]))))
    assert abs(mean - games_mean) <= 4.5 * sd / math.sqrt(MC_TRIALS) + 1e-9, (mean, games_mean)
    p = result["p_destroyed"]
    assert abs(p - games[-1]) <= 4.5 * math.sqrt(max(p * (1 - p), 1e-6) / MC_TRIALS) + 1e-9


# ------------------------------------------------------------------ morale (§8.7)


@pytest.mark.parametrize(("killed", "ld"), [(1, 7), (2, 7), (4, 7), (3, 8), (6, 8), (9, 6)])
def test_morale_test_matches_icepool(killed, ld):
    """§6.6 table: P(fail) = P(D6 + killed > Ld, the die not a 1)."""
    fail = icepool.d6.map(lambda f: f != 1 and f + killed > ld)
    assert p_morale_failed(killed, ld) == pytest.approx(float(fail.probability(True)), abs=TOLERANCE)


def test_models_fled_matches_icepool_for_the_skitarii_example():
    """§8.7: 10 models, 5 lost, Ld 7: a failed test (P 5/6 … here exactly P(D6+5>7, not 1)),
    one flees, the 4 left roll with −1 (below half): each flees on 1–2."""
    kills = np.zeros(11)
    kills[5] = 1.0
    fled = models_fled(kills, models=10, leadership=7)
    p_fail = icepool.d6.map(lambda f: f != 1 and f + 5 > 7).probability(True)
    attrition = 4 @ icepool.d6.map(lambda f: 1 if f <= 2 else 0)
    expected = np.zeros(11)
    expected[0] = float(1 - p_fail)
    expected[1:6] += float(p_fail) * as_pmf(attrition, length=5)
    assert_pmf_equal(fled, expected)


# ------------------------------------------------------------------ limits


def _heavy_attack(count: int) -> dict:
    weapons = [
        gun(
            name=f"W{i}",
            kind="Heavy 2D6",
            d="D6",
            ap=-2,
            abilities=[
                {"type": "reroll", "roll": "hit", "which": "failed"},
                {"type": "extra_hits", "on": 6, "hits": 2},
                {"type": "mortal_wounds", "roll": "wound", "on": 6, "amount": "D3"},
            ],
        )
        for i in range(6)
    ]
    return unit(model(count=count, bs=2, weapons=weapons))


def test_the_biggest_accepted_input_is_computed_to_a_whole_distribution():
    """Limits (`estimate.MAX_COST`): close to the bound, a 400-wound defender with FNP, −1
    damage and invulnerable saves against six weapons with re-rolls, exploding 6s and mortal
    wounds is accepted and answered. Its CPU time is `bench/bench_compute_cost.py`'s."""
    target = defenders([(40, 5, 3, 5, 5, 1), (40, 5, 4, None, None, 0)])
    result = attack(_heavy_attack(10), target, {"range_inches": 20})
    assert sum(result["kills_distribution"]) == pytest.approx(1.0)


def test_too_big_an_attack_is_refused_before_computing(monkeypatch):
    """Refused on the cost estimate alone: not one batch of attacks is applied."""
    from rules.systems.wh40k9 import estimate

    applied = []
    real = estimate.apply_attacks
    monkeypatch.setattr(estimate, "apply_attacks", lambda *a, **k: applied.append(1) or real(*a, **k))
    target = defenders([(4, 100, 3, 4, 5, 1)])
    with pytest.raises(ValueError, match="too big to estimate exactly"):
        attack(_heavy_attack(5), target, {"range_inches": 20})
    assert applied == []
    attack(_heavy_attack(1), defenders([(4, 5, 3, 4, 5, 1)]), {"range_inches": 20})
    assert applied  # the spy sees the batches of an accepted attack, so its silence above means something


def test_the_cost_is_known_before_computing():
    from rules.systems.wh40k9.estimate import attack_cost

    cost, limit = attack_cost(
        _heavy_attack(10), defenders([(40, 5, 3, 5, 5, 1), (40, 5, 4, None, None, 0)]), {"range_inches": 20}
    )
    assert 0.5 * limit < cost <= limit
    assert attack_cost(_heavy_attack(5), defenders([(4, 100, 3, 4, 5, 1)]), {"range_inches": 20})[0] > limit


def test_too_big_a_defender_is_refused_with_the_limit():
    with pytest.raises(ValueError, match="at most 1000000"):
        attack(unit(model(weapons=[gun()])), defenders([(1_000_001, 1, 4, None, None, 0)]), {})


def test_a_horde_past_the_old_limit_is_priced_and_computed():
    """Issue 42: 401 wounds were refused though they compute in a millisecond; now the cost
    model judges a big unit by what it costs (its per-model lists and the morale table of kill
    counts × models), and 20,000 one-wound models shot by one gun are within it and exact:
    the kills are the same as against 20 models (the gun cannot reach more)."""
    from rules.systems.wh40k9.estimate import estimate_cost

    shooter = unit(model(weapons=[gun()]))
    seconds, size = estimate_cost(shooter, defenders([(20_000, 1, 4, None, None, 0)]), {})
    assert seconds < 2 and size < 300 * 2**20
    horde = attack(shooter, defenders([(20_000, 1, 4, None, None, 0)]), {})
    few = attack(shooter, defenders([(20, 1, 4, None, None, 0)]), {})
    assert horde["expected"]["kills"] == pytest.approx(few["expected"]["kills"], abs=1e-12)
    assert len(horde["kills_distribution"]) == 20_001


def test_a_horde_of_attackers_past_the_old_cap_is_priced_and_computed():
    """Issue 42: a batch of more than 1,200 attacks was refused whatever it cost; 3,000 models
    shooting once each at 20 one-wound models compute in milliseconds. The cost model and
    `MAX_COST` judge it now, and it is exact: each shot hits, wounds and gets through the 3+
    save independently (2/3 · 1/2 · 1/3 = 1/9), so the kills are a binomial of 3,000 shots at 1/9
    capped at the 20 models."""
    from math import comb

    from rules.systems.wh40k9.estimate import estimate_cost

    shooters = unit(model(count=3000, weapons=[gun()]))
    targets = defenders([(20, 1, 3, None, None, 0)])
    seconds, size = estimate_cost(shooters, targets, {})
    assert seconds < 2 and size < 300 * 2**20
    kills = attack(shooters, targets, {})["kills_distribution"]
    p = 1 / 9
    below = [comb(3000, k) * p**k * (1 - p) ** (3000 - k) for k in range(20)]
    assert kills[:20] == pytest.approx(below, abs=1e-12)
    assert kills[20] == pytest.approx(1 - sum(below), abs=1e-12)


def test_morale_and_attrition_agree_with_literal_games():
    """Monte-Carlo of §8.7: after k kills, D6 + k against Ld (a 1 passes), one flees, then
    each remaining model flees on a 1 (1–2 below Half-strength)."""
    import random

    rng = random.Random(5)
    models, leadership, trials = 10, 7, 20_000
    kills = np.array([0.1, 0.1, 0.2, 0.2, 0.2, 0.1, 0.1, 0, 0, 0, 0])
    fled = models_fled(kills, models=models, leadership=leadership)
    counts = np.zeros(models + 1)
    for _ in range(trials):
        killed = rng.choices(range(models + 1), weights=kills)[0]
        face, lost = rng.randint(1, 6), 0
        if killed and face != 1 and face + killed > leadership:
            left = models - killed - 1
            lost = 1 + sum(1 for _ in range(left) if rng.randint(1, 6) - (2 * left < models) <= 1)
        counts[lost] += 1
    games = counts / trials
    sd = math.sqrt(float((np.arange(models + 1) - fled @ np.arange(models + 1)) ** 2 @ fled))
    assert abs(fled @ np.arange(models + 1) - games @ np.arange(models + 1)) <= 4.5 * sd / math.sqrt(trials)
    assert np.max(np.abs(fled - games)) < 0.02


def test_models_lost_matches_icepool_over_a_kills_distribution():
    """§8.7 over a spread of kills: lost = killed + (one fled + Combat Attrition) when the
    test fails; each kill count k its own D6 + k test and its own attrition (−1 below
    Half-strength), against icepool per k."""
    models, leadership = 8, 6
    kills = np.array([0.05, 0.1, 0.15, 0.2, 0.2, 0.1, 0.1, 0.05, 0.05])
    expected_lost, expected_fled = np.zeros(models + 1), np.zeros(models + 1)
    for killed, p_killed in enumerate(kills):
        fail = float(icepool.d6.map(lambda f, k=killed: f != 1 and f + k > leadership).probability(True))
        if killed == 0 or killed == models:
            fail = 0.0
        expected_lost[killed] += p_killed * (1 - fail)
        expected_fled[0] += p_killed * (1 - fail)
        if fail:
            left = models - killed - 1
            flees_on = 2 if 2 * left < models else 1
            flees = icepool.d6.map(lambda f, n=flees_on: 1 if f <= n else 0)
            attrition = as_pmf(left @ flees, length=left + 1)
            expected_lost[killed + 1 : killed + 2 + left] += p_killed * fail * attrition
            expected_fled[1 : 2 + left] += p_killed * fail * attrition
    assert_pmf_equal(models_lost(kills, models=models, leadership=leadership), expected_lost)
    assert_pmf_equal(models_fled(kills, models=models, leadership=leadership), expected_fled)


_PATH_CASES = {
    "plain bolters on marines": (
        unit(model(count=5, weapons=[gun(kind="Rapid Fire 1")])), [(10, 2, 3, None, None, 0)],
    ),
    "exploding and mortal 6s, FNP, two profiles": (
        unit(model(count=3, weapons=[gun(kind="Heavy D6", d="D3", ap=-1, abilities=[
            {"type": "extra_hits", "on": 6, "hits": 1},
            {"type": "mortal_wounds", "roll": "wound", "on": 6, "amount": "D3"}])])),
        [(4, 2, 3, None, 5, 0), (2, 3, 4, 5, None, 1)],
    ),
    "extra AP and hit mortals that end the attack": (
        unit(model(count=4, weapons=[gun(kind="Assault 3", d=2, abilities=[
            {"type": "extra_ap", "on": 6, "ap": -2},
            {"type": "mortal_wounds", "roll": "hit", "on": 6, "amount": 1, "ends_attack": True},
            {"type": "reroll", "roll": "hit", "which": "ones"}])])),
        [(6, 3, 3, None, None, 0)],
    ),
    "a wipe: small unit, many shots": (
        unit(model(count=10, weapons=[gun(kind="Assault 2", d="D3", ap=-2)])), [(3, 2, 4, None, 6, 0)],
    ),
    "a big unit past the dense limit": (
        unit(model(count=10, weapons=[gun(kind="Heavy 3", s=8, ap=-3, d="D6")])),
        [(30, 10, 3, None, None, 0)],
    ),
}


@pytest.mark.parametrize("name", list(_PATH_CASES))
def test_every_path_of_the_chain_gives_the_same_answer(name, monkeypatch):
    """The engine's shortcuts are exact, so each must give what the plain chain gives
    (1e-12): states cut at what the attacks can reach (`estimate.reach`) against the whole
    unit, the dense one-attack matrix and its powers against band passes per attack."""
    from rules.systems.wh40k9 import damage, estimate

    attacker, groups = _PATH_CASES[name]
    target = defenders(groups)
    fast = attack(attacker, target, {"range_inches": 12})
    monkeypatch.setattr(estimate, "reach", lambda batches: damage.MAX_DEFENDER_WOUNDS)
    whole = attack(attacker, target, {"range_inches": 12})
    monkeypatch.setattr(damage, "SQUARING_STATES", 0)
    no_powers = attack(attacker, target, {"range_inches": 12})
    monkeypatch.setattr(damage, "DENSE_STATES", 0)
    bands = attack(attacker, target, {"range_inches": 12})
    for other in (whole, no_powers, bands):
        for key in ("wounds_distribution", "kills_distribution", "kills_at_least"):
            assert_pmf_equal(np.array(fast[key]), np.array(other[key]))
        for key in ("damage", "kills", "attacks", "hits", "wounds"):
            assert fast["expected"][key] == pytest.approx(other["expected"][key], abs=TOLERANCE)
        points = other["expected_points_destroyed"]
        assert fast["expected_points_destroyed"] == pytest.approx(points, abs=TOLERANCE)
        for mine, theirs in zip(fast["outcomes"], other["outcomes"], strict=True):
            assert np.allclose(mine["value"], theirs["value"], rtol=0, atol=TOLERANCE)
    assert sum(fast["kills_distribution"]) == pytest.approx(1.0)
    if name.startswith("a wipe"):
        assert fast["p_destroyed"] > 0.1  # the dead state is reached: no cut here


def test_a_batchs_most_attacks_is_the_last_count_of_its_attacks_pmf():
    """The cost check reads `most_attacks` without computing the PMF: they must agree."""
    shooter = {"format": 1, "system": "wh40k9", "name": "S", "models": [
        {"name": "A", "count": 7, "bs": 3, "s": 4, "t": 4, "w": 1, "a": 2, "ld": 7, "sv": 3, "weapons": [
            {"name": "Heavy", "range": 36, "type": "Heavy D6", "s": 8, "ap": -2, "d": "D3"},
            {"name": "Rapid", "range": 24, "type": "Rapid Fire 2", "s": 4, "ap": 0, "d": 1},
            {"name": "Blast", "range": 24, "type": "Assault D3", "s": 5, "ap": 0, "d": 1,
             "rules": ["Blast"]}]},
        {"name": "B", "count": 1, "bs": 4, "s": 4, "t": 4, "w": 2, "a": 1, "ld": 8, "sv": 3, "weapons": [
            {"name": "Pistol", "range": 12, "type": "Pistol 1", "s": 4, "ap": 0, "d": 1}]}]}
    batches = _batches(shooter, {"range_inches": 10}, defender_models=8)
    assert len(batches) == 4
    for batch in batches:
        assert batch.most_attacks == len(batch.attacks) - 1 == int(np.nonzero(batch.attacks)[0][-1])


# ------------------------------------------------------------------ the situation's modifiers (issue 24)

#: (situation fields, the unit's own abilities, defender groups, what the literal game rolls).
SITUATION_CASES = {
    "re-roll 1s to hit from the situation": (
        {"reroll_hits": "ones"}, [], [(3, 1, 4, None, None, 0)], {"hit_reroll": "ones"}),
    "the situation's 1s and the unit's failed: failed counts": (
        {"reroll_hits": "ones"}, [{"type": "reroll", "roll": "hit", "which": "failed"}],
        [(3, 1, 4, None, None, 0)], {"hit_reroll": "failed"}),
    "re-roll failed wounds from the situation": (
        {"reroll_wounds": "failed"}, [], [(3, 1, 5, None, None, 0)], {"wound_reroll": "failed"}),
    "+1 to wound on top of the unit's +1: capped at +1": (
        {"wound_modifier": 1}, [{"type": "modifier", "roll": "wound", "value": 1}],
        [(3, 1, 4, None, None, 0)], {"wound_mod": 2}),
    "−1 to wound from the situation": (
        {"wound_modifier": -1}, [], [(3, 1, 4, None, None, 0)], {"wound_mod": -1}),
    "the defender's Feel No Pain 5+ beats its own 6+": (
        {"defender_feel_no_pain": 5}, [], [(2, 2, 4, None, 6, 0)], {"models": ((2, 4, None, 5, 0),) * 2}),
    "cover: +1 to the armour save, not to the invulnerable": (
        {"cover": True}, [], [(2, 1, 4, 5, None, 0)], {"models": ((1, 3, 5, None, 0),) * 2}),
}


@pytest.mark.parametrize("name", list(SITUATION_CASES))
def test_situation_modifiers_add_to_the_units_abilities_exactly(name):
    """§6.4 re-rolls (a die at most once; the better re-roll of situation and unit), §5 Step 2
    ±1 to wound capped with the unit's own, §5 "Ignoring wounds" one Feel No Pain per wound
    (the better), and light cover (+1 armour save, shooting): against the icepool enumeration."""
    fields, abilities, groups, rolled = SITUATION_CASES[name]
    shooter, target, sc = _case(shots="2", d=1 if "Feel" not in name else 2, ap=-1, abilities=abilities,
                                groups=groups)
    literal = Scenario(**{**{f: getattr(sc, f) for f in sc.__dataclass_fields__ if f != "extra"}, **rolled})
    result = attack(shooter, target, {"range_inches": 12, **fields})
    expected = np.array([float(p) for p in exact_kills(literal)])
    assert_pmf_equal(np.array(result["kills_distribution"]), expected)
    plain = attack(shooter, target, {"range_inches": 12})
    # where the unit's own ability already gives as much, the situation adds nothing (no stacking)
    same = name.startswith(("the situation's 1s", "+1 to wound on top"))
    assert (result["kills_distribution"] == plain["kills_distribution"]) is same


def test_situation_fields_are_checked_and_described():
    """The schema drives the checks: Feel No Pain 1+ and cover in melee are refused by name."""
    from rules.systems.wh40k9.situation import SITUATION_SCHEMA, situation_errors

    assert {"reroll_hits", "reroll_wounds", "wound_modifier", "defender_feel_no_pain", "cover"} <= set(
        SITUATION_SCHEMA["properties"]
    )
    errors = situation_errors({"mode": "melee", "cover": True, "defender_feel_no_pain": 1})
    assert set(errors) == {"cover", "defender_feel_no_pain"}


def test_reference_targets_cost_our_stated_points():
    """Points efficiency against a reference target means something: the targets carry this
    project's own points, stated in their names (the booklet prints none, docs/rules/wh40k9.md §0)."""
    targets = get_system("wh40k9").reference_targets
    points = {key: sum(m["points"] * m["count"] for m in t["models"]) for key, t in targets.items()}
    assert points == {"geq-10": 60, "meq-5": 100, "teq-5": 200, "vehicle": 140, "monster": 200}
    assert all("our " in t["name"] for t in targets.values())
    shooter = unit(model(count=5, points=20, weapons=[gun(kind="Rapid Fire 1", rng=24, s=4, ap=-1)]))
    result = attack(shooter, targets["geq-10"], {"range_inches": 12})
    assert result["defender_points"] == 60
    assert result["expected_points_destroyed"] == pytest.approx(6 * result["expected"]["kills"], abs=1e-12)
    efficiency = 100 * 6 * result["expected"]["kills"] / 100  # per 100 points of the 100-point shooters
    assert result["points_efficiency"] == pytest.approx(efficiency, abs=1e-12)
