"""Each Russian house rule (`docs/rules/ru_whfb.md` §4) as one switch on the WHFB 6th engine: switched on
alone, it changes exactly what its rule says and nothing else."""

from __future__ import annotations

from dataclasses import fields, replace
from fractions import Fraction

import pytest

from rules.systems.fantasy_combat.estimate import attack
from rules.systems.fantasy_combat.variants import RU_WHFB, WHFB6
from tests.factories.fantasy_units import unit

H = Fraction
F = Fraction




def only(switch, value=True):
    return replace(WHFB6, **{switch: value})


def wounds(attacker, defender, situation, variants):
    return attack(attacker, defender, situation, variants=variants)["weapons"][0]["expected"]["wounds"]


MELEE = {"mode": "melee"}
BLOCK = {"a": 0}  # the defender does not strike back
#: Ten-model units in one rank each: all ten in base contact (§6.2 who fights).
ONE_RANK = {"attacker_width": 10, "defender_width": 10}


def test_every_switch_is_on_for_ru_and_off_for_whfb():
    switches = [f.name for f in fields(WHFB6) if f.name != "key"]
    assert [s for s in switches if getattr(RU_WHFB, s) == getattr(WHFB6, s)] == []


def test_poison_ignores_armour():
    """RU #18: the natural-6 poisoned hit takes no armour save; other hits are saved as before.
    4+ to hit, 4+ to wound, 4+ save: WHFB (1/6 + 2/6·1/2)·1/2, RU 1/6 + 2/6·1/2·1/2."""
    a = unit("Poisoners", 1, rules=["Poisoned Attacks"])
    d = unit("Target", 5, save=4, **BLOCK)
    assert wounds(a, d, MELEE, WHFB6) == pytest.approx(
        float((H(1, 6) + H(2, 6) * H(1, 2)) * H(1, 2)), abs=1e-15
    )
    assert wounds(a, d, MELEE, only("poison_ignores_armour")) == pytest.approx(
        float(H(1, 6) + H(2, 6) * H(1, 2) * H(1, 2)), abs=1e-15
    )
    plain = unit("Plain", 1)
    assert wounds(plain, d, MELEE, only("poison_ignores_armour")) == wounds(plain, d, MELEE, WHFB6)


def test_killing_blow_against_any_wounds():
    """RU #20 "even a dragon": a 6 to wound slays an Ogre (W3, not man-sized) outright."""
    a = unit("Executioner", 1, rules=["Killing Blow"])
    ogre = unit("Ogre", 1, t=4, w=3, troop_type="monstrous", **BLOCK)
    whfb = attack(a, ogre, MELEE, variants=WHFB6)["kills_distribution"]
    ru = attack(a, ogre, MELEE, variants=only("killing_blow_any_target"))["kills_distribution"]
    assert whfb[1] == 0
    assert ru[1] == pytest.approx(float(H(1, 2) * H(1, 6)), abs=1e-15)


def test_killing_blow_allows_only_the_ward_save():
    """RU #20: only the magic (ward) save stops a Killing Blow; WHFB §8.2: nothing does."""
    a = unit("Executioner", 1, rules=["Killing Blow"])
    d = unit("Guard", 1, save=2, ward=4, **BLOCK)
    slay = H(1, 2) * H(1, 6)
    normal = (
        H(1, 2) * (H(1, 2) - H(1, 6)) * H(1, 6) * H(1, 2)
    )  # 4+ wound but not 6, 2+ save fails, ward fails
    whfb = attack(a, d, MELEE, variants=WHFB6)["kills_distribution"][1]
    ru = attack(a, d, MELEE, variants=only("killing_blow_ward_save"))["kills_distribution"][1]
    assert whfb == pytest.approx(float(slay + normal), abs=1e-15)
    assert ru == pytest.approx(float(slay * H(1, 2) + normal), abs=1e-15)


def test_flaming_attacks_allow_no_armour_save():
    """RU #11: a = 0 for flaming attacks (WHFB §8.4 keeps the save)."""
    a = unit("Burner", 1, weapons=[{"name": "Torch", "range": 0, "flaming": True}])
    d = unit("Target", 3, save=4, **BLOCK)
    assert wounds(a, d, MELEE, WHFB6) == pytest.approx(float(H(1, 2) * H(1, 2) * H(1, 2)), abs=1e-15)
    assert wounds(a, d, MELEE, only("flaming_ignores_armour")) == pytest.approx(float(H(1, 4)), abs=1e-15)


def test_regeneration_is_one_roll_per_attack():
    """RU §1.2: regeneration is a third save per unsaved attack; WHFB §7.3 rolls per wound lost.
    One automatic-wound D3 hit on a W3 troll with regeneration 4+."""
    a = unit(
        "Bolt",
        1,
        bs=5,
        weapons=[
            {"name": "Bolt", "range": 48, "strength": 10, "multiple_wounds": "D3", "no_armour_save": True}
        ],
    )
    troll = unit("Troll", 1, t=4, w=3, regeneration=4, troop_type="monstrous")
    shot = {"mode": "shooting", "range_inches": 10}
    p = H(5, 6) * H(5, 6)  # BS5 hits on 2+, S10 vs T4 wounds on 2+
    whfb = attack(a, troll, shot, variants=WHFB6)["wounds_distribution"]
    ru = attack(a, troll, shot, variants=only("regeneration_per_attack"))["wounds_distribution"]
    per_wound = [
        sum(H(1, 3) * H(__import__("math").comb(x, j), 2**x) for x in (1, 2, 3) if j <= x) for j in range(4)
    ]
    assert whfb[1:] == pytest.approx([float(p * q) for q in per_wound[1:]], abs=1e-15)
    assert ru[1:] == pytest.approx([float(p * H(1, 2) * H(1, 3))] * 3, abs=1e-15)


def test_always_strikes_first_counts_only_from_round_two():
    """RU #2: from round 2 only. In round 1 the I1 ASF attackers strike after the I5 enemy,
    whose blows then all land first (10 full attacks)."""
    slow = unit("Slow", 10, i=1, save=6, rules=["Always Strikes First"])
    fast = unit("Fast", 10, i=5, save=6)
    line = {**MELEE, **ONE_RANK}
    whfb = attack(slow, fast, line, variants=WHFB6)["defender_weapons"][0]["expected"]["attacks"]
    ru = attack(slow, fast, line, variants=only("strike_order_rules_from_round", 2))["defender_weapons"][0]
    assert whfb < 10
    assert ru["expected"]["attacks"] == pytest.approx(10, abs=1e-12)
    later = attack(
        slow, fast, {**line, "round": 2}, variants=only("strike_order_rules_from_round", 2)
    )
    assert later["defender_weapons"][0]["expected"]["attacks"] == pytest.approx(whfb, abs=1e-12)


def test_always_strikes_first_with_higher_initiative_rerolls_misses():
    """RU #2: ASF and a higher I re-roll failed to-hit rolls: 4+ becomes 3/4."""
    elf = unit("Elf", 1, i=5, rules=["Always Strikes First"])
    d = unit("Target", 5, i=3, **BLOCK)
    later = {"mode": "melee", "round": 2}
    base = attack(elf, d, later, variants=WHFB6)["weapons"][0]["expected"]["hits"]
    ru = attack(elf, d, later, variants=only("asf_rerolls_with_higher_initiative"))["weapons"][0]["expected"][
        "hits"
    ]
    assert (base, ru) == pytest.approx((0.5, 0.75), abs=1e-15)


def test_devastating_charge_adds_one_strength_on_the_charge():
    """RU #5: +1 S in the round it charges: S4 vs T3 wounds on 3+ and the 5+ save drops to 6+."""
    a = unit("Boar", 1, rules=["Devastating Charge"])
    d = unit("Target", 5, save=5, **BLOCK)
    charge = {"mode": "melee", "charging": True}
    assert wounds(a, d, charge, WHFB6) == pytest.approx(float(H(1, 2) * H(1, 2) * H(2, 3)), abs=1e-15)
    assert wounds(a, d, charge, only("devastating_charge")) == pytest.approx(
        float(H(1, 2) * H(2, 3) * H(5, 6)), abs=1e-15
    )
    assert wounds(a, d, MELEE, only("devastating_charge")) == wounds(a, d, MELEE, WHFB6)


def test_breath_weapon_in_close_combat_is_two_d6_automatic_hits():
    """RU #1: 2D6 automatic hits at the breath's S (7 expected); WHFB §8.5: not in combat."""
    dragon = unit("Dragon", 1, ws=6, s=6, t=6, w=6, a=0, troop_type="monster", rules=["Breath Weapon(4)"])
    d = unit("Target", 20, **BLOCK)
    ru = attack(dragon, d, {"mode": "melee", "breath_weapon": True}, variants=RU_WHFB)
    breath = next(w for w in ru["weapons"] if w["name"] == "Breath weapon")
    assert breath["expected"]["hits"] == pytest.approx(7.0, abs=1e-12)
    assert breath["expected"]["wounds"] == pytest.approx(7 * 4 / 6, abs=1e-12)
    assert attack(dragon, d, MELEE, variants=WHFB6)["expected"]["hits"] == 0
    with pytest.raises(ValueError, match="breath_weapon: unknown field"):
        attack(dragon, d, {"mode": "melee", "breath_weapon": True}, variants=WHFB6)


def test_magic_resistance_negates_a_spell_on_a_d20():
    """RU #16: Magic Resistance (2) negates an undispelled spell on 1–10 of a D20 (half)."""
    wizard = unit(
        "Wizard", 1, weapons=[{"name": "Fireball", "range": 24, "strength": 4, "kind": "spell", "hits": "D6"}]
    )
    dwarfs = unit("Dwarfs", 20, t=4, rules=["Magic Resistance(2)"])
    shot = {"mode": "shooting", "range_inches": 12}
    base = wounds(wizard, dwarfs, shot, WHFB6)
    assert base == pytest.approx(3.5 * 0.5, abs=1e-12)
    assert wounds(wizard, dwarfs, shot, only("magic_resistance_d20")) == pytest.approx(base / 2, abs=1e-12)


def test_great_weapons_strike_last_only_from_round_two():
    """RU #3: great weapons are "Always Strikes Last", so in round 1 they strike in I order
    (I4 before the I2 enemy); WHFB §6.2: last unless charging."""
    brutes = unit("Brutes", 10, i=4, weapons=[{"name": "Great weapon", "range": 0, "kind": "great_weapon"}])
    militia = unit("Militia", 10, i=2, save=6)
    from_round_two = only("strike_order_rules_from_round", 2)
    line = {**MELEE, **ONE_RANK}
    whfb = attack(brutes, militia, line, variants=from_round_two)
    ru = attack(brutes, militia, line, variants=replace(from_round_two, great_weapon_is_asl=True))
    assert whfb["defender_weapons"][0]["expected"]["attacks"] == pytest.approx(10, abs=1e-12)
    assert ru["defender_weapons"][0]["expected"]["attacks"] < 10
    assert ru["weapons"][0]["expected"]["attacks"] == pytest.approx(10, abs=1e-12)


def test_ethereal_models_are_hurt_only_by_magical_attacks_and_their_own_attacks_ignore_armour():
    """RU #6: non-magical attacks do no harm to Ethereal models (flaming and magic weapons do);
    an Ethereal attacker allows no armour save."""
    ghosts = unit("Ghosts", 5, save=None, rules=["Ethereal"], **BLOCK)
    sword = unit("Sword", 1)
    magic = unit("Rune", 1, weapons=[{"name": "Rune blade", "range": 0, "magic": True}])
    assert wounds(sword, ghosts, MELEE, WHFB6) == pytest.approx(0.25, abs=1e-15)
    assert wounds(sword, ghosts, MELEE, only("ethereal")) == 0
    assert wounds(magic, ghosts, MELEE, only("ethereal")) == pytest.approx(0.25, abs=1e-15)
    spectre = unit("Spectre", 1, rules=["Ethereal"])
    armoured = unit("Knight", 5, save=3, **BLOCK)
    assert wounds(spectre, armoured, MELEE, WHFB6) == pytest.approx(0.25 * float(F(1, 3)), abs=1e-15)
    assert wounds(spectre, armoured, MELEE, only("ethereal")) == pytest.approx(0.25, abs=1e-15)


def test_a_failed_fear_test_sets_ws_to_one():
    """RU #8: WS becomes 1 for the combat (own blows: WS1 vs WS3 needs 5+; the fear-causer's:
    WS3 vs WS1 needs 3+); WHFB §10.3: 6s to hit in the first round, nothing in round 2."""
    men = unit("Men", 10)
    ghouls = unit("Ghouls", 10, rules=["Fear"], **BLOCK)
    afraid = {"mode": "melee", "attacker_failed_fear": True, **ONE_RANK}
    later = {**afraid, "round": 2}

    def hits(defender, situation, variants):
        return attack(men, defender, situation, variants=variants)["weapons"][0]["expected"]["hits"]

    assert hits(ghouls, afraid, WHFB6) == pytest.approx(10 / 6, abs=1e-12)
    assert hits(ghouls, later, WHFB6) == pytest.approx(5, abs=1e-12)
    assert hits(ghouls, later, only("fear_sets_ws_one")) == pytest.approx(10 / 3, abs=1e-12)
    assert hits(unit("Men", 10, **BLOCK), later, only("fear_sets_ws_one")) == pytest.approx(5, abs=1e-12)
    striking = attack(men, unit("Ghouls", 10, rules=["Fear"]), later, variants=only("fear_sets_ws_one"))
    back = striking["defender_weapons"][0]["expected"]
    assert back["hits"] / back["attacks"] == pytest.approx(2 / 3, abs=1e-12)
