"""Army structure, docs/rules/opr-points.md §7 (seed "Zasady Opcjonalne": Struktura armii, Balans
jednostek, Znaczniki
zdolności; Bohater), each rule switchable per list, the points limit always on."""

from fractions import Fraction

import pytest

from points.opr import DEFAULT_OPTIONS, OPTION_KEYS, price, price_army, validate
from points.opr import army_structure as structure
from points.opr.army_structure import enabled_rules, heroes_allowed, units_allowed
from points.opr.unit import Aura
from tests.factories.opr_units import army, infantry, melee, model, unit, weapon

ALL_OFF = dict.fromkeys(OPTION_KEYS, False)


def rules_of(violations):
    return [(v.rule, v.check) for v in violations]


def balanced(name="Squad", count=5, hero=False):
    """A unit that breaks no optional rule: 5 × Q4 D5 with a Rifle (weapons 1.5 × base)."""
    names = ["Hero"] if hero else []
    return unit(model(name, count, 4, 5, 1, rule_names=names, weapons=[weapon("Rifle", 24)]), name=name)


def test_option_keys_one_per_rule():
    """§7: each optional rule has its own switch; all are on by default."""
    assert set(OPTION_KEYS) == {
        "max_units_per_200",
        "unit_cost_bounds",
        "hero_limits",
        "unit_balance",
        "ability_markers",
    }
    assert all(DEFAULT_OPTIONS.values())


def test_army_structure_key_switches_rules_one_and_two():
    """docs/unit-format.md's `army_structure` key is the seed's "Struktura armii": rules 1 and 2 together;
    a one-rule key given alongside it wins."""
    off = enabled_rules({"army_structure": False})
    assert not off["max_units_per_200"] and not off["unit_cost_bounds"] and off["unit_balance"]
    mixed = enabled_rules({"army_structure": False, "unit_cost_bounds": True})
    assert mixed["unit_cost_bounds"] and not mixed["max_units_per_200"]


def test_valid_list_has_no_violations():
    """A list inside every rule validates clean."""
    assert validate(army(balanced("A"), balanced("B"), limit=1000)) == []


# --- rule 6: the points limit -----------------------------------------------------------


def test_points_limit_is_always_on():
    """§7.6: army total ≤ points limit, even with every optional rule switched off."""
    big = army(infantry(), infantry(), limit=200, options=ALL_OFF, name="Patrol")
    [v] = validate(big)
    assert (v.rule, v.value, v.limit, v.unit) == ("points_limit", 286, 200, None)
    assert v.message == "Patrol totals 286 pts, over its points limit of 200"


def test_army_total_is_the_sum_of_rounded_unit_totals():
    """§1: an army total is the sum of rounded unit totals (count copies included)."""
    priced = price_army(army((infantry(), 2), balanced(), limit=2000))
    assert priced.total == 2 * 143 + price(balanced()).points


# --- rule 1: units per 200 points ----------------------------------------------------------


def test_at_most_one_unit_per_full_200_points():
    """§7.1: 1000 points allow 5 units; a sixth (an entry taken twice counts twice) is a violation."""
    assert units_allowed(1000) == 5 and units_allowed(999) == 4
    ok = army((balanced(), 5), limit=1000)
    assert "too_many_units" not in [v.check for v in validate(ok)]
    [v] = [v for v in validate(army((balanced(), 6), limit=1000)) if v.check == "too_many_units"]
    assert (v.value, v.limit) == (6, 5)
    assert v.message == "List has 6 units, over 1 per full 200 pts of 1000 (5)"


# --- rule 2: unit cost and size --------------------------------------------------------------


def test_unit_over_35_percent_of_the_limit():
    """§7.2 and the spec's own example message: "Heavy Tank costs 812 pts, over 35% of 2000 (700)"."""
    cannon = weapon("Battle Cannon", 36, 4, 4, "Blast(6)")
    tank = model(
        "Heavy Tank",
        1,
        3,
        2,
        12,
        rule_names=["Transport(6)"],
        weapons=[cannon, weapon("Heavy Gun", 36, 4, 1)],
    )
    heavy = unit(tank, name="Heavy Tank")
    assert price(heavy).points == 812
    [v] = [v for v in validate(army(heavy, limit=2000)) if v.check == "over_max_share"]
    assert (v.rule, v.unit, v.value, v.limit) == ("unit_cost_bounds", "Heavy Tank", 812, 700)
    assert v.message == "Heavy Tank costs 812 pts, over 35% of 2000 (700)"


def test_35_percent_of_a_limit_that_is_not_a_multiple_of_20():
    """§7.2: 35% of 750 is 262.5 — compared exactly, shown with its decimal."""
    heavy = unit(model("Ogre", 3, 3, 3, 6, weapons=[melee("Club", 4, 2)]), name="Ogres")
    [v] = [v for v in validate(army(heavy, limit=750)) if v.check == "over_max_share"]
    assert v.limit == Fraction("262.5") and "(262.5)" in v.message


def test_unit_under_50_points():
    """§7.2: no unit costs less than 50 points."""
    small = unit(model("Scout", 2, weapons=[weapon("Rifle", 24)]), name="Scouts")
    [v] = [v for v in validate(army(small, limit=1000)) if v.check == "under_min_points"]
    assert v.message == f"Scouts costs {price(small).points} pts, under the minimum of 50"


def test_unit_over_21_models():
    """§7.2: no unit has more than 21 models."""
    horde = unit(model("Grot", 22, 6, 6, weapons=[weapon("Gun", 12)]), name="Horde")
    [v] = [v for v in validate(army(horde, limit=5000)) if v.check == "too_many_models"]
    assert (v.value, v.limit) == (22, 21)
    assert v.message == "Horde has 22 models, over the maximum of 21"


# --- rule 3: heroes --------------------------------------------------------------------------


def test_at_most_one_hero_per_500_points():
    """§7.3 (seed: "maksymalnie 1 na 500pkt"): 1000 points allow 2 heroes."""
    assert heroes_allowed(1000) == 2 and heroes_allowed(999) == 1
    heroes = [balanced(f"Hero {i}", 1, hero=True) for i in range(3)]
    found = [v for v in validate(army(*heroes, limit=1000)) if v.check == "heroes_per_points"]
    assert [(v.value, v.limit) for v in found] == [(3, 2)]
    assert found[0].message == "List has 3 heroes, over 1 per full 500 pts of 1000 (2)"


def test_at_most_one_hero_per_unit():
    """§7.3 (seed: "i 1 na oddział"): two Hero models in one unit is a violation."""
    [v] = [
        v
        for v in validate(army(balanced("Council", 2, hero=True), limit=2000))
        if v.check == "heroes_per_unit"
    ]
    assert v.message == "Council has 2 heroes, over 1 per unit"


# --- rule 4: unit balance ----------------------------------------------------------------------


def test_weapons_under_base_cost():
    """§7.4: a model's weapons cost (before halving) at least 1× its base cost."""
    u = unit(model("Soldier", 5, 4, 2, 3, weapons=[melee("Knife")]), name="Guards")
    m = price(u).models[0]
    [v] = [v for v in validate(army(u, limit=2000)) if v.rule == "unit_balance"]
    assert (v.check, v.model, v.value, v.limit) == (
        "weapons_under_base",
        "Soldier",
        m.weapon_cost_before_halving,
        m.base_cost,
    )
    assert v.message == ("Guards: Soldier carries too little weaponry for what it is: its weapons are worth "
                         "3.6 pts, and the rules ask for at least 1× the model's own cost (35 pts)")


def test_weapons_over_five_times_base_cost():
    """§7.4: a model's weapons cost at most 5× its base cost."""
    u = unit(model("Gunner", 5, 2, 6, 1, weapons=[weapon("Cannon", 36, 3, 4, "Blast(3)")]), name="Gunners")
    [v] = [v for v in validate(army(u, limit=5000)) if v.rule == "unit_balance"]
    assert v.check == "weapons_over_base" and "at most 5× the model's own cost (24 pts)" in v.message


def test_balance_uses_cost_before_halving():
    """§7.4: "before the warrior/shooter halving" — Infantry's Rifle + Knife = 11.1 ≥ 5, fine."""
    assert [v for v in validate(army(infantry())) if v.rule == "unit_balance"] == []


# --- rule 5: ability markers ---------------------------------------------------------------------


def test_at_most_one_active_ability_per_unit():
    """§7.5: a unit has at most one active ability (Caster, Relay, Mending, an order)."""
    u = unit(
        model("Mage", 1, rule_names=["Caster(2)"], weapons=[weapon()]),
        model("Medic", 1, rule_names=["Mending"], weapons=[weapon()]),
        name="Cabal",
    )
    [v] = [v for v in validate(army(u)) if v.rule == "ability_markers"]
    assert v.message == "Cabal has 2 active abilities (Caster, Mending), over 1 per unit"


def test_same_active_ability_on_several_models_is_one_ability():
    """§7.5 with the seed's Mag(X): casters in a unit share tokens — one kind of active ability."""
    u = unit(model("Mage", 2, rule_names=["Caster(1)"], weapons=[weapon()]), name="Coven")
    assert [v for v in validate(army(u)) if v.check == "active_per_unit"] == []


def test_model_with_active_ability_and_aura():
    """§7.5: a model has an active ability or an aura, not both."""
    boss = model("Boss", 1, rule_names=["Caster(1)"], weapons=[weapon()], auras=[Aura("Fast")])
    [v] = [v for v in validate(army(unit(boss, name="Boss"))) if v.check == "active_and_aura"]
    assert v.model == "Boss"
    assert (
        v.message == "Boss: Boss has an active ability (Caster) and an aura (Aura: Fast); "
        "a model may have one or the other"
    )


def test_order_counts_as_active_and_radio_as_aura():
    """§7.5: the seed lists Rozkaz under active abilities and Radio under auras."""
    officer = model("Officer", 1, rule_names=["Radio"], weapons=[weapon()], orders=[Aura("Fast", range=12)])
    [v] = [v for v in validate(army(unit(officer, name="HQ"))) if v.check == "active_and_aura"]
    assert "Order: Fast" in v.message and "Radio" in v.message


# --- switches ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("key", sorted(OPTION_KEYS))
def test_each_rule_can_be_switched_off(key):
    """§7: each rule can be switched on or off per list."""
    boss = model(
        "Boss",
        2,
        2,
        6,
        1,
        rule_names=["Hero", "Caster(1)", "Mending"],
        auras=[Aura("Fast")],
        weapons=[weapon("Cannon", 36, 6, 4, "Blast(6)")],
    )
    bad = army((unit(boss, name="Boss"), 3), limit=400)
    on = {v.rule for v in validate(bad)}
    assert key in on
    off = {v.rule for v in validate(army((unit(boss, name="Boss"), 3), limit=400, options={key: False}))}
    assert key not in off
    assert "points_limit" in off


def test_translation_hook_is_used(monkeypatch):
    """Messages go through a replaceable `_` (Django's gettext in the web layer); the core stays
    Django-free."""
    monkeypatch.setattr(structure, "_", lambda message: message.replace("costs", "kosztuje"))
    small = unit(model("Scout", 2, weapons=[weapon("Rifle", 24)]), name="Scouts")
    [v] = [v for v in validate(army(small, limit=1000)) if v.check == "under_min_points"]
    assert v.message.startswith("Scouts kosztuje")


def test_violation_to_dict():
    """Violations are JSON-ready: rule key, unit name or None, message, and the numbers as exact strings."""
    [v] = validate(army(infantry(), infantry(), limit=200, options=ALL_OFF))
    assert v.to_dict() == {
        "rule": "points_limit",
        "check": "over_points_limit",
        "unit": None,
        "model": None,
        "message": "List totals 286 pts, over its points limit of 200",
        "value": "286",
        "limit": "200",
    }
