"""The shortcuts a list job's cell takes (issue 42) give the numbers of the general way, on a
spread of matchups: strike order by Initiative, charges and roll-offs, RU's ASF re-roll against
a lower Initiative (from round 2), Hatred, multiple wounds and Killing Blow on multi-wound
models, armour, ward and regeneration saves, fear, Swarms, flank charges and musicians.

- a cell's throws (kept dice and die laws, the first strike written into a fresh table) equal
  the tallying throws of a full result, to the bit;
- the combat resolution binned from the sides' kept keys (`resolution._plain`) equals the
  cell-by-cell one;
- a blow's odds on unreduced integer pairs equal the same arithmetic on `Fraction`s.
"""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest

from rules.systems.fantasy_combat.blows import (
    SIXTH,
    Blow,
    Hit,
    _Target,
    armour_save,
    automatic_hit,
    flammable_damage,
    killing_blow_applies,
    melee_hit,
    poison_applies,
    reroll_misses,
    resolve_blow,
    shooting_hit,
    sixes_only,
    wound_chance,
)
from rules.systems.fantasy_combat.combat import fight_round
from rules.systems.fantasy_combat.estimate import _sides, prepare_situation, prepare_unit
from rules.systems.fantasy_combat.resolution import _plain, resolve, resolve_cell_by_cell
from rules.systems.fantasy_combat.tables import fixed_save_chance
from rules.systems.fantasy_combat.variants import RU_WHFB, WHFB6, Variants
from tests.factories.fantasy_units import unit

RULES = [
    "Always Strikes First",
    "Always Strikes Last",
    "Hatred",
    "Killing Blow",
    "Poisoned Attacks",
    "Fear",
    "Terror",
    "Frenzy",
    "Stubborn",
    "Unbreakable",
    "Swarm",
    "Flaming Attacks",
    "Flammable",
    "Devastating Charge",
    "Extra Attack",
]
KINDS = ["hand_weapon", "great_weapon", "spear", "halberd", "flail", "lance"]


def _unit(rng: random.Random, index: int, system: str) -> dict:
    profile = {
        "ws": rng.randint(2, 6),
        "s": rng.randint(3, 5),
        "t": rng.randint(3, 5),
        "w": rng.choice([1, 1, 2, 3]),
        "i": rng.randint(1, 6),
        "a": rng.randint(1, 3),
        "save": rng.choice([3, 4, 5, 6, None]),
        "rules": rng.sample(RULES, rng.choice([0, 1, 1, 2, 3])),
    }
    if rng.random() < 0.3:
        profile["ward"] = rng.choice([4, 5, 6])
    if rng.random() < 0.2:
        profile["regeneration"] = 4
    if rng.random() < 0.4:
        weapon = {"name": "Weapon", "range": 0, "kind": rng.choice(KINDS)}
        if rng.random() < 0.3:
            weapon["multiple_wounds"] = rng.choice(["D3", 2])
        profile["weapons"] = [weapon]
    if rng.random() < 0.15:
        profile["troop_type"] = "cavalry"
        profile["mount"] = {"name": "Horse", "ws": 3, "s": 3, "i": rng.randint(2, 5), "a": 1}
    out = unit(f"U{index}", rng.randint(1, 25), **profile)
    out["system"] = system
    return out


def _situation(rng: random.Random, variants: Variants) -> dict:
    second = rng.random() < 0.4  # RU: ASF and its re-roll count from round 2
    situation = {
        "mode": "melee",
        "round": 2 if second else 1,
        "charging": not second and rng.random() < 0.7,
        "attacker_width": rng.choice([4, 5]),
        "defender_width": rng.choice([4, 5]),
        "attacker_standard": rng.random() < 0.6,
        "defender_standard": rng.random() < 0.4,
        "attacker_battle_standard": rng.random() < 0.2,
        "attacker_musician": rng.random() < 0.2,
        "defender_musician": rng.random() < 0.2,
        "flank": rng.choice(["front", "front", "front", "flank", "rear"]),
        "attacker_failed_fear": rng.random() < 0.2,
        "defender_failed_fear": rng.random() < 0.2,
    }
    if variants is RU_WHFB:  # an RU table's option (WHFB: always)
        situation["fear_auto_break"] = rng.random() < 0.5
    if rng.random() < 0.5:
        situation.update(fighting_models=5, defender_fighting_models=rng.choice([3, 5]))
    return situation


def _matchups(variants: Variants, seed: int, count: int = 60):
    """(attacker, defender, situation): unit dicts, the situation read as a job reads it."""
    system = "ru_whfb" if variants is RU_WHFB else "whfb6"
    rng = random.Random(seed)
    units = [_unit(rng, i, system) for i in range(12)]
    # RU #2: two enemies alike but for Initiative, against an ASF unit
    units += [
        unit("Elves", 10, i=5, rules=["Always Strikes First"]),
        unit("Slow", 10, i=2, w=2),
        unit("Quick", 10, i=6, ward=5),
    ]
    for _ in range(count):
        a, d = rng.sample(units, 2)
        situation = _situation(rng, variants)
        sit = prepare_situation(situation, variants=variants)
        yield a, d, sit


def _sides_of(attacker: dict, defender: dict, sit):
    """Both sides of the matchup, the units read anew (nothing kept from another call)."""
    return _sides(prepare_unit(attacker), prepare_unit(defender), sit)[2]


@pytest.mark.parametrize("variants", [WHFB6, RU_WHFB], ids=["whfb6", "ru_whfb"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_cells_throws_equal_a_full_results_throws_to_the_bit(variants, seed):
    """The table a list job's cell throws (kept dice, die laws, the first strike written out)
    is the table the full result's tallying throws build, bit for bit."""
    compared = 0
    for attacker, defender, sit in _matchups(variants, seed):
        try:
            cell = fight_round(_sides_of(attacker, defender, sit), sit, variants, tally=False)[0]
        except ValueError:  # too large for an exact estimate: refused both ways
            with pytest.raises(ValueError):
                fight_round(_sides_of(attacker, defender, sit), sit, variants, tally=True)
            continue
        full = fight_round(_sides_of(attacker, defender, sit), sit, variants, tally=True)[0]
        assert np.array_equal(cell, full)
        compared += 1
    assert compared >= 40


@pytest.mark.parametrize("variants", [WHFB6, RU_WHFB], ids=["whfb6", "ru_whfb"])
@pytest.mark.parametrize("seed", [4, 5, 6])
def test_the_binned_resolution_equals_the_cell_by_cell_one(variants, seed):
    """Where `_plain` applies (a front combat, no tie-break, no Swarm), its result is the
    general one: the combat result's distribution and every chance within 1e-12."""
    shortcut = 0
    for attacker, defender, sit in _matchups(variants, seed, count=80):
        sides = _sides_of(attacker, defender, sit)
        try:
            dist = fight_round(sides, sit, variants, tally=False)[0]
        except ValueError:
            continue
        units, tracks = (sides[0].unit, sides[1].unit), (sides[0].track, sides[1].track)
        general = resolve_cell_by_cell(dist, *units, tracks, sit, variants)
        found = resolve(dist, *units, tracks, sit, variants)
        shortcut += _plain(dist, *units, tracks, sit, variants) is not None
        assert found.offset == general.offset
        assert np.allclose(found.difference, general.difference, rtol=0, atol=1e-12)
        for name in (
            "p_attacker_wins",
            "p_draw",
            "p_defender_wins",
            "p_defender_breaks",
            "p_attacker_breaks",
            "p_defender_destroyed",
            "p_attacker_destroyed",
        ):
            assert getattr(found, name) == pytest.approx(getattr(general, name), abs=1e-12), name
        assert (found.attacker_test, found.defender_test) == (general.attacker_test, general.defender_test)
    assert shortcut >= 20  # the shortcut was taken, fear auto-breaks among them


def _fraction_blow(
    hit: Hit,
    target: _Target,
    strength: int,
    armour_piercing: int,
    damage: tuple[float, ...],
    melee: bool,
    hand_weapon_and_shield: bool,
    no_armour_save: bool,
    flaming: bool,
    poisoned: bool,
    killing_blow: bool,
    variants: Variants,
    magical: bool,
    ethereal_attacker: bool,
) -> Blow:
    """`resolve_blow` as it was written before issue 42: the same steps on `Fraction`s."""
    if variants.ethereal and target.ethereal and not (magical or flaming or ethereal_attacker):
        return Blow(p_hit=float(hit.p), p_slay=0.0, p_unsaved=0.0, damage=damage, regeneration_fails=1.0)
    no_armour_save = no_armour_save or (variants.ethereal and ethereal_attacker)
    p_wound = wound_chance(strength, target.t)
    poison = poisoned and poison_applies(target)
    auto_wounds = hit.p_six if poison else Fraction(0)
    rolled_hits = hit.p - auto_wounds
    kills_outright = (
        rolled_hits * SIXTH
        if killing_blow and p_wound > 0 and killing_blow_applies(target, variants)
        else Fraction(0)
    )
    normal_wounds = rolled_hits * p_wound - kills_outright
    armour = (
        Fraction(0)
        if no_armour_save or (flaming and variants.flaming_ignores_armour)
        else armour_save(
            target,
            strength=strength,
            armour_piercing=armour_piercing,
            melee=melee,
            hand_weapon_and_shield=hand_weapon_and_shield,
        )
    )
    poison_armour = Fraction(0) if variants.poison_ignores_armour else armour
    ward_fails = 1 - fixed_save_chance(target.ward)
    regeneration = Fraction(0) if flaming else fixed_save_chance(target.regeneration)
    unsaved = (auto_wounds * (1 - poison_armour) + normal_wounds * (1 - armour)) * ward_fails
    slay = kills_outright * (ward_fails if variants.killing_blow_ward_save else 1)
    if variants.regeneration_per_attack:
        unsaved *= 1 - regeneration
        regeneration_fails = Fraction(1)
    else:
        regeneration_fails = 1 - regeneration
    if flaming and target.flammable:
        damage = flammable_damage(damage)
    return Blow(
        p_hit=float(hit.p),
        p_slay=float(slay),
        p_unsaved=float(unsaved),
        damage=damage,
        regeneration_fails=float(regeneration_fails),
    )


@pytest.mark.parametrize("variants", [WHFB6, RU_WHFB], ids=["whfb6", "ru_whfb"])
def test_a_blows_odds_on_integer_pairs_equal_the_fraction_arithmetic(variants):
    """Every hit the engine makes (close combat, re-rolled, sixes only, shots up to 9+,
    automatic) on random targets and weapons: the same floats, to the bit."""
    rng = random.Random(7)
    hits = [automatic_hit(), *(shooting_hit(bs) for bs in range(-3, 8))]
    for ws, enemy in ((3, 3), (4, 3), (2, 5), (5, 0)):
        hit = melee_hit(ws, enemy, rng.choice([0, 1]))
        hits += [hit, reroll_misses(hit), sixes_only(hit), reroll_misses(sixes_only(hit))]
    for _ in range(3000):
        target = _Target(
            t=rng.randint(1, 10),
            save=rng.choice([None, 1, 2, 3, 4, 5, 6]),
            save_given=rng.random() < 0.5,
            ward=rng.choice([None, 2, 4, 5, 6]),
            regeneration=rng.choice([None, 4, 5]),
            troop_type=rng.choice(["infantry", "cavalry", "monster", "war_machine"]),
            man_sized=rng.random() < 0.7,
            ethereal=rng.random() < 0.1,
            flammable=rng.random() < 0.2,
        )
        args = (
            rng.choice(hits),
            target,
            rng.randint(1, 10),
            rng.choice([0, 0, 1, 2]),
            rng.choice([(0.0, 1.0), (0.0, 1 / 3, 1 / 3, 1 / 3), (0.0, 0.0, 1.0)]),
            rng.random() < 0.8,
            rng.random() < 0.3,
            rng.random() < 0.1,
            rng.random() < 0.2,
            rng.random() < 0.2,
            rng.random() < 0.2,
            variants,
            rng.random() < 0.2,
            rng.random() < 0.1,
        )
        assert resolve_blow.__wrapped__(*args) == _fraction_blow(*args)
