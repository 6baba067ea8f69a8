"""Who fights and how the break test is taken in the fantasy engine (`docs/rules/whfb6.md` §6.2,
§9.2, §10.8, §12.3; `docs/rules/ru_whfb.md` §2.6): the derived models in base contact against plane
geometry written from the spec, and the break test's Ld reported in the result."""

from __future__ import annotations

import itertools

import pytest

from rules.systems.fantasy_combat.estimate import attack
from rules.systems.fantasy_combat.frontage import contact
from rules.systems.fantasy_combat.units import read_unit
from rules.systems.fantasy_combat.variants import RU_WHFB, WHFB6
from tests.factories.fantasy_units import unit
from tests.rules.systems.fantasy_combat import fantasy_simulation as sim


def outcome(result, key):
    return next(o for o in result["outcomes"] if o["key"] == key)


def test_models_in_contact_match_plane_geometry_for_every_formation():
    """§6.2: a model fights when its base touches an enemy base, corner to corner included.
    The engine's interval count against the oracle's rectangles, model by model, for infantry,
    cavalry (25 × 50, §3.1) and ogre (40 × 40) bases, in front, flank and rear."""
    sizes, widths = (1, 3, 5, 7, 12), (1, 3, 4, 5, 6)
    types = ("infantry", "cavalry", "monstrous")
    for na, nd, wa, wd, ta, td, facing in itertools.product(
        sizes, (1, 4, 9, 20), widths, (1, 4, 5, 7), types, types, ("front", "flank", "rear")
    ):
        a, d = unit("A", na, troop_type=ta), unit("D", nd, troop_type=td)
        got = contact(read_unit(a), read_unit(d), attacker_width=wa, defender_width=wd, facing=facing)
        expected = sim.contact(a, d, wa, wd, facing)
        assert (got.attacker, got.defender) == expected, (na, nd, wa, wd, ta, td, facing)


def test_twenty_against_twenty_five_wide_fight_with_five_each_way():
    """§6.2: ranks of five against ranks of five: five models strike each way (not twenty),
    and the return blows follow the same rule; an explicit number stays an override."""
    a, d = unit("A", 20, i=4), unit("D", 20)
    result = attack(a, d, {"mode": "melee", "round": 2}, variants=WHFB6)
    assert result["weapons"][0]["expected"]["attacks"] == 5
    assert outcome(result, "attacker_fighting")["value"] == 5
    assert outcome(result, "defender_fighting")["value"] == 5
    explicit = attack(a, d, {"mode": "melee", "round": 2, "fighting_models": 20}, variants=WHFB6)
    assert explicit["weapons"][0]["expected"]["attacks"] == 20


def test_the_charge_brings_the_most_models_into_contact():
    """§6.2 ("corner to corner is enough") and the charge bringing "as many models into contact
    as possible": 8 men (160 mm) charging 3 men (60 mm) line up on a base edge, three face to
    face and one more at each end corner to corner — 5 fight, not the 4 that centring the two
    fronts gives; 5 attacks of A1 go in, and all 3 defenders strike back."""
    eight, three = unit("Eight", 8), unit("Three", 3)
    got = contact(read_unit(eight), read_unit(three), attacker_width=8, defender_width=3, facing="front")
    assert (got.attacker, got.defender) == (5, 3)
    result = attack(eight, three, {"mode": "melee", "round": 2, "attacker_width": 8, "defender_width": 3},
                    variants=WHFB6)
    assert result["weapons"][0]["expected"]["attacks"] == 5
    assert outcome(result, "attacker_fighting")["value"] == 5
    assert outcome(result, "defender_fighting")["value"] == 3


def test_the_flank_charge_slides_along_the_side_too():
    """§6.2: 5 knights (25 mm each, 125 mm) on the side of 3 ranks of men (3 × 20 mm = 60 mm):
    lined up on an edge, the side's three men and four knights touch (two face to face, two at
    the corners: 4 × 25 = 100 mm cannot all reach a 60 mm side plus its two corners)."""
    knights = read_unit(unit("Knights", 5, troop_type="cavalry"))
    men = read_unit(unit("Men", 15))
    got = contact(knights, men, attacker_width=5, defender_width=5, facing="flank")
    assert (got.attacker, got.defender) == (4, 3)


def test_cavalry_against_infantry_touches_with_the_corners():
    """§6.2 corner to corner counts, §3.1 cavalry bases 25 mm wide: 5 knights (125 mm) on
    4 infantry (80 mm): lined up on an edge, three overlap and the outer two touch the ends, so
    all 5 fight; 2 men (40 mm) on 4 (80 mm) line up on the middle two and touch the outer two
    at a corner, so all 4 fight."""
    knights = unit("Knights", 5, troop_type="cavalry")
    men = read_unit(unit("Men", 12))
    got = contact(read_unit(knights), men, attacker_width=5, defender_width=4, facing="front")
    assert (got.attacker, got.defender) == (5, 4)
    pair = contact(read_unit(unit("Pair", 2)), men, attacker_width=2, defender_width=4, facing="front")
    assert (pair.attacker, pair.defender) == (2, 4)


def test_a_base_given_in_the_unit_overrides_the_troop_type():
    """§6.2 uses the real bases: a model's `base` (mm) replaces the table's; a bad one is named.
    Five 40 mm bases against five 20 mm (100 mm): lined up on an edge, three overlap the front
    and a fourth touches its end at a corner — 4 fight, all 5 defenders."""
    wide = unit("Wide", 5, base="40x40")
    men = read_unit(unit("Men", 10))
    got = contact(read_unit(wide), men, attacker_width=5, defender_width=5, facing="front")
    assert (got.attacker, got.defender) == (4, 5)
    with pytest.raises(ValueError, match=r"models\[0\]: base: 'big' is not a base size"):
        read_unit(unit("Bad", 5, base="big"))


def test_defending_spears_add_a_rank_only_to_the_front():
    """§12.3: spears fight in two ranks only against enemies to the front; charged in the
    flank, only the models in contact strike back (one per rank of the side)."""
    swords = unit("Swords", 10, i=1, save=1)
    spears = unit("Spears", 20, i=5, weapons=[{"name": "Spear", "range": 0, "kind": "spear"}])
    front = attack(swords, spears, {"mode": "melee", "round": 2}, variants=WHFB6)
    flank = attack(swords, spears, {"mode": "melee", "round": 2, "flank": "flank"}, variants=WHFB6)
    assert front["defender_weapons"][0]["expected"]["attacks"] == 10
    assert flank["defender_weapons"][0]["expected"]["attacks"] == 4


@pytest.mark.parametrize(
    ("rules", "general", "key", "label", "ld"),
    [
        (
            [],
            0,
            "defender_break_ld_own_modified",
            "Defender's break test: its own Ld, minus the combat result",
            7,
        ),
        (
            [],
            9,
            "defender_break_ld_general_modified",
            "Defender's break test: the General's Ld, minus the combat result",
            9,
        ),
        (
            ["Stubborn"],
            0,
            "defender_break_ld_own_unmodified",
            "Defender's break test: its own Ld, unmodified (Stubborn)",
            7,
        ),
        (
            ["Stubborn"],
            9,
            "defender_break_ld_general_unmodified",
            "Defender's break test: the General's Ld, unmodified (Stubborn)",
            9,
        ),
    ],
)
def test_the_result_says_which_leadership_the_break_test_used(rules, general, key, label, ld):
    """§9.2 the General's Ld within 12", §10.8 Stubborn tests on unmodified Ld; the Decision in
    `resolution`: a Stubborn unit using the General's Ld tests it unmodified, and says so."""
    situation = {"mode": "melee", "round": 2, "defender_general_ld": general}
    result = attack(unit("A", 10), unit("D", 10, rules=rules), situation, variants=WHFB6)
    reported = outcome(result, key)
    assert (reported["label"], reported["value"]) == (label, ld)
    assert reported["matrix"] is False  # explains this matchup; not a heat-map figure


def test_a_russian_swarm_reports_wounds_instead_of_a_test():
    """RU §2.6, #39: no break test for a Swarm, so no Ld is reported; its extra wounds are."""
    result = attack(unit("A", 10), unit("Rats", 10, rules=["Swarm"]), {"mode": "melee"}, variants=RU_WHFB)
    keys = {o["key"] for o in result["outcomes"]}
    assert "defender_swarm_wounds" in keys
    assert not [key for key in keys if key.startswith("defender_break_ld")]
    # 10 men against 10 rats: no test, so no break short of the wounds destroying the Swarm
    assert result["p_destroyed"] <= outcome(result, "p_defender_breaks")["value"] < 0.1


def test_the_unit_format_takes_a_base_and_names_a_bad_one():
    """A base in the unit format (frontage × depth in mm) passes the profile schema; a bad one
    is refused naming its field (never a server error)."""
    from points.shared_format import UnitFormatError
    from rules.systems.registry import get_system

    whfb = get_system("whfb6")
    whfb.price({**unit("Ogres", 3, base="40x40", points=35), "system": "whfb6"})
    with pytest.raises(UnitFormatError) as refused:
        whfb.price({**unit("Ogres", 3, base="huge", points=35), "system": "whfb6"})
    assert "models[0].base" in str(refused.value)


@pytest.mark.parametrize("variants", [WHFB6, RU_WHFB], ids=["whfb6", "ru_whfb"])
def test_the_battle_standards_own_unit_re_rolls_its_failed_break_test(variants):
    """§9.2 "units within 12" may re-roll a failed break test" (RU #44: "если отряд находится в
    12” от знаменосца армии можно еще раз попытаться пройти проваленный тест на Разгром"): the
    bearer's own unit is within 12" of him. No blows either way, so by hand: 20 attackers five
    wide score ranks +3 and outnumber +1; the 5 defenders carry the battle standard, +1. They
    lose by 3 and test Ld 7 − 3 = 4: 2D6 > 4 fails 30/36 = 5/6, and with the re-roll
    (5/6)² = 25/36 — without the "near the battle standard" switch."""
    attackers, defenders = unit("Block", 20, a=0), unit("Bearer's unit", 5, a=0, ld=7)
    situation = {"mode": "melee", "round": 2, "defender_army_standard": True}
    result = attack(attackers, defenders, situation, variants=variants)
    assert outcome(result, "p_defender_breaks")["value"] == pytest.approx(25 / 36, abs=1e-12)
    near = attack(attackers, defenders, {**situation, "defender_battle_standard": True}, variants=variants)
    assert outcome(near, "p_defender_breaks")["value"] == pytest.approx(25 / 36, abs=1e-12)
