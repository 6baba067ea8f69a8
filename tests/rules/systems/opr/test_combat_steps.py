"""Each step of the OPR attack sequence on its own: which faces do what (docs/rules/opr-combat.md)."""

from __future__ import annotations

import pytest

from rules.systems.opr import combat
from rules.systems.opr.situation import Situation
from tests.factories.opr_combat_units import melee, model, unit, weapon

SHOOT = Situation()
FAR = Situation(range_inches=24)
CHARGE = Situation(mode="melee", charging=True)
FIGHT = Situation(mode="melee")
TARGET = unit(model())


def hit_faces(attacker_rules=(), weapon_rules=(), situation=SHOOT, defender=TARGET, q=4, melee_weapon=False):
    m = model(q=q, rules_=attacker_rules)
    w = melee(rules_=weapon_rules) if melee_weapon else weapon(range=36, rules_=weapon_rules)
    mode_melee = situation.melee
    test = combat.quality_test(
        combat.quality(m, w, mode_melee), combat.quality_modifier(m, w, defender, situation)
    )
    return test.success_faces


def defence_faces(defender_rules=(), weapon_rules=(), situation=SHOOT, d=4, ap=0):
    target = model(d=d, rules_=defender_rules)
    return combat.defence_test(target, weapon(ap=ap, rules_=weapon_rules), situation).success_faces


# §1 Attacks


def test_attacks_are_weapon_attacks_times_models_carrying_it():
    attacker = unit(model(count=5, weapons=[weapon(attacks=2), melee()]))
    (group,) = combat.attacks(attacker, TARGET, melee=False, range_inches=12)
    assert (group.attacks, group.models, group.melee) == (10, 5, False)


def test_shooting_uses_ranged_weapons_in_range_only():
    attacker = unit(model(weapons=[weapon("Pistol", range=12), weapon("Rifle", range=24), melee()]))
    names = [g.weapon.name for g in combat.attacks(attacker, TARGET, melee=False, range_inches=18)]
    assert names == ["Rifle"]


def test_melee_uses_melee_and_assault_weapons():
    attacker = unit(model(weapons=[weapon("Pistol", range=12, rules_=["Assault"]), weapon("Rifle"), melee()]))
    groups = combat.attacks(attacker, TARGET, melee=True, range_inches=0)
    assert [g.weapon.name for g in groups] == ["Pistol", "Blade"]
    assert all(g.melee for g in groups)


def test_the_same_weapon_on_models_with_the_same_profile_attacks_together():
    rifle = weapon()
    attacker = unit(model("A", count=4, weapons=[rifle]), model("B", count=1, weapons=[rifle]))
    (group,) = combat.attacks(attacker, TARGET, melee=False, range_inches=12)
    assert (group.attacks, group.models) == (5, 5)


def test_models_with_a_different_quality_attack_separately():
    rifle = weapon()
    attacker = unit(model("A", count=4, weapons=[rifle]), model("B", count=1, q=3, weapons=[rifle]))
    assert [g.attacks for g in combat.attacks(attacker, TARGET, melee=False, range_inches=12)] == [4, 1]


def test_aircraft_takes_12_inches_off_the_range_unless_lock_on():
    """Seed (Samolot): "Jednostki strzelające do niego mają -12" zasięgu"."""
    aircraft = unit(model(rules_=["Aircraft"]))
    assert not combat.in_range(weapon(range=24), aircraft, 18)
    assert combat.in_range(weapon(range=24), aircraft, 12)
    assert combat.in_range(weapon(range=24, rules_=["Lock-On"]), aircraft, 18)


# §2 Quality test


def test_natural_six_always_hits_and_natural_one_always_misses():
    assert hit_faces(q=6, defender=unit(model(rules_=["Stealth"])), situation=FAR) == {6}
    assert 1 not in hit_faces(weapon_rules=["Reliable"], attacker_rules=["Spearhead"])


def test_reliable_attacks_at_quality_two():
    assert hit_faces(q=5, weapon_rules=["Reliable"]) == {2, 3, 4, 5, 6}


def test_good_shot_and_bad_shot_set_quality_for_ranged_attacks_only():
    assert hit_faces(q=6, attacker_rules=["Good Shot"]) == {4, 5, 6}
    assert hit_faces(q=3, attacker_rules=["Bad Shot"]) == {5, 6}
    assert hit_faces(q=3, attacker_rules=["Bad Shot"], situation=FIGHT, melee_weapon=True) == {3, 4, 5, 6}


def test_lance_adds_one_to_hit_when_charging():
    assert hit_faces(weapon_rules=["Lance"], situation=CHARGE, melee_weapon=True) == {3, 4, 5, 6}
    assert hit_faces(weapon_rules=["Lance"], situation=FIGHT, melee_weapon=True) == {4, 5, 6}


def test_cautious_adds_one_when_no_enemy_is_within_12_inches():
    assert hit_faces(attacker_rules=["Cautious"], situation=FAR) == {3, 4, 5, 6}
    assert hit_faces(
        attacker_rules=["Cautious"], situation=Situation(range_inches=24, enemies_within_12=True)
    ) == {
        4,
        5,
        6,
    }
    assert hit_faces(attacker_rules=["Cautious"], situation=Situation(range_inches=10)) == {4, 5, 6}


def test_spearhead_adds_one_against_a_defender_that_has_not_activated():
    assert hit_faces(attacker_rules=["Spearhead"]) == {3, 4, 5, 6}
    assert hit_faces(attacker_rules=["Spearhead"], situation=Situation(defender_activated=True)) == {4, 5, 6}


def test_stealth_takes_one_off_beyond_6_inches():
    stealthy = unit(model(rules_=["Stealth"]))
    assert hit_faces(defender=stealthy, situation=Situation(range_inches=7)) == {5, 6}
    assert hit_faces(defender=stealthy, situation=Situation(range_inches=6)) == {4, 5, 6}


def test_stealth_counts_only_when_every_model_has_it():
    mixed = unit(model(rules_=["Stealth"]), model("Sergeant", count=1))
    assert hit_faces(defender=mixed) == {4, 5, 6}


def test_shooting_an_aircraft_takes_one_off():
    aircraft = unit(model(rules_=["Aircraft"]))
    assert hit_faces(defender=aircraft) == {5, 6}


def test_lock_on_ignores_negative_modifiers_but_keeps_positive_ones():
    hidden_aircraft = unit(model(rules_=["Aircraft", "Stealth"]))
    assert hit_faces(defender=hidden_aircraft, weapon_rules=["Lock-On"]) == {4, 5, 6}
    assert hit_faces(defender=hidden_aircraft, weapon_rules=["Lock-On"], attacker_rules=["Spearhead"]) == {
        3,
        4,
        5,
        6,
    }


# §3 Extra hits, §4 Blast


def test_extra_hits_on_a_six_stack():
    furious = model(rules_=["Furious", "Relentless"])
    rending_blade = melee(rules_=["Rending"])
    assert combat.extra_hits(furious, rending_blade, CHARGE, melee=True) == 2
    assert combat.extra_hits(furious, rending_blade, FIGHT, melee=True) == 1
    relentless_rifle = weapon(rules_=["Rending"])
    assert combat.extra_hits(furious, relentless_rifle, SHOOT, melee=False) == 2
    assert combat.extra_hits(furious, relentless_rifle, Situation(attacker_moved=True), melee=False) == 1


def test_hits_per_attack_gives_one_plus_extra_on_a_six():
    pmf = combat.hits_per_attack(combat.quality_test(4, 0), 2)
    assert pmf.tolist() == pytest.approx([3 / 6, 2 / 6, 0, 1 / 6])


def test_blast_is_capped_by_the_models_in_the_defender():
    blast = weapon(rules_=["Blast(3)"])
    assert combat.blast_factor(blast, 10) == 3
    assert combat.blast_factor(blast, 2) == 2
    assert combat.blast_factor(weapon(), 10) == 1
    assert combat.blast([0.5, 0.5], blast, 2).tolist() == [0.5, 0, 0.5]


# §5 Defence test


def test_defence_succeeds_on_d6_plus_modifiers_minus_ap():
    assert defence_faces(d=4) == {4, 5, 6}
    assert defence_faces(d=4, ap=2) == {6}
    assert defence_faces(d=2, ap=-1) == {2, 3, 4, 5, 6}


def test_cover_adds_one_and_entrenched_makes_it_two():
    in_cover = Situation(defender_in_cover=True)
    assert defence_faces(situation=in_cover) == {3, 4, 5, 6}
    assert defence_faces(defender_rules=["Entrenched"], situation=in_cover) == {2, 3, 4, 5, 6}
    assert defence_faces(defender_rules=["Entrenched"]) == {4, 5, 6}


def test_shield_is_always_in_cover():
    assert defence_faces(defender_rules=["Shield"]) == {3, 4, 5, 6}


def test_no_cover_and_lock_on_ignore_cover():
    in_cover = Situation(defender_in_cover=True)
    assert defence_faces(weapon_rules=["No Cover"], situation=in_cover) == {4, 5, 6}
    assert defence_faces(weapon_rules=["Lock-On"], defender_rules=["Shield"]) == {4, 5, 6}


def test_spearhead_defender_has_one_more_after_its_activation():
    assert defence_faces(defender_rules=["Spearhead"], situation=Situation(defender_activated=True)) == {
        3,
        4,
        5,
        6,
    }
    assert defence_faces(defender_rules=["Spearhead"]) == {4, 5, 6}


def test_lance_adds_one_ap_when_charging():
    target = model(d=4)
    assert combat.defence_test(target, melee(ap=1, rules_=["Lance"]), CHARGE).success_faces == {6}
    assert combat.defence_test(target, melee(ap=1, rules_=["Lance"]), FIGHT).success_faces == {5, 6}


def test_natural_one_fails_even_with_huge_bonuses():
    assert 1 not in defence_faces(
        d=2, defender_rules=["Entrenched"], situation=Situation(defender_in_cover=True)
    )


def test_corrosive_takes_away_the_automatic_six():
    assert defence_faces(d=4, ap=3) == {6}
    assert defence_faces(d=4, ap=3, weapon_rules=["Corrosive"]) == set()


def test_delicate_defender_has_no_automatic_six():
    assert defence_faces(d=4, ap=3, defender_rules=["Delicate"]) == set()


def test_resistant_makes_a_natural_five_succeed_but_not_against_corrosive():
    assert defence_faces(d=6, ap=2, defender_rules=["Resistant"]) == {5, 6}
    assert defence_faces(d=6, ap=2, defender_rules=["Resistant"], weapon_rules=["Corrosive"]) == set()


# §6 Wounds, §7 Regeneration


def test_a_failed_defence_die_is_one_wound_and_regeneration_cancels_on_a_six():
    test = combat.defence_test(model(d=4), weapon(), SHOOT)
    assert combat.wound_per_defence_die(test, False)[0].tolist() == pytest.approx([1 / 2, 1 / 2])
    pmf, low = combat.wound_per_defence_die(test, True)
    assert low == -1 and pmf.tolist() == pytest.approx([1 / 6, 2 / 6, 3 / 6])


def test_a_natural_six_that_fails_against_corrosive_wounds_and_cancels():
    test = combat.defence_test(model(d=4), weapon(ap=3, rules_=["Corrosive"]), SHOOT)
    pmf, low = combat.wound_per_defence_die(test, True)
    assert (low, pmf.tolist()) == (0, pytest.approx([1 / 6, 5 / 6]))


def test_brutal_ignores_regeneration():
    regenerating = model(rules_=["Regeneration"])
    assert combat.regeneration(regenerating, weapon())
    assert not combat.regeneration(regenerating, weapon(rules_=["Brutal"]))
    assert not combat.regeneration(model(), weapon())


def test_deadly_puts_x_wounds_on_one_model():
    assert combat.deadly(weapon(rules_=["Deadly(3)"])) == 3
    assert combat.deadly(weapon()) == 1


# §8 Allocation


def test_the_defender_allocates_to_the_cheapest_model_and_heroes_last():
    defender = unit(
        model("Hero", count=1, rules_=["Hero"]), model("Sergeant", count=1), model("Trooper", count=8)
    )
    assert combat.defender_order(defender, [5.0, 20.0, 10.0]) == (2, 1, 0)


def test_precise_lets_the_attacker_pick_the_most_expensive_first():
    defender = unit(model("Hero", count=1, rules_=["Hero"]), model("Sergeant", count=1), model("Trooper"))
    assert combat.precise_order(defender, [30.0, 20.0, 10.0]) == (0, 1, 2)
    placement = combat.allocate(weapon(rules_=["Precise", "Deadly(2)"]), defender, [30.0, 20.0, 10.0])
    assert (placement.order, placement.damage) == ((0, 1, 2), 2)


def test_situation_rejects_impossible_flags():
    with pytest.raises(ValueError):
        Situation(mode="shooting", charging=True)
    with pytest.raises(ValueError):
        Situation(mode="artillery")
    with pytest.raises(ValueError):
        Situation(range_inches=-1)
    with pytest.raises(ValueError):
        Situation.from_dict({"mode": "melee", "charge": True})
    with pytest.raises(ValueError):
        Situation.from_dict({"charging": "yes"})
    assert Situation.from_dict({"mode": "melee", "charging": True, "range_inches": 0}) == Situation(
        mode="melee", charging=True, range_inches=0.0
    )
