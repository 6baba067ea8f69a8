"""Upgrade options applied to a unit (`rules.options`): what each kind does and every limit.

Pure tests: option dicts with the fields of `UpgradeOption`, units in the unit format.
"""

from __future__ import annotations

import copy

import pytest

from rules.options import OptionError, apply_options, next_price, option_point_deltas, price_taken
from rules.systems.registry import get_system

RIFLE = {"name": "Rifle", "range": 24, "attacks": 1, "ap": 0}
KNIFE = {"name": "Knife", "range": 0, "attacks": 1, "ap": 0}
PLASMA = {"name": "Plasma Gun", "range": 18, "attacks": 1, "ap": 2, "rules": ["Overcharge"]}


def squad() -> dict:
    """The spec's Infantry example (docs/rules/opr-points.md §9): 10 × Q4 D5 T1, Rifle and Knife; 143 pts."""
    return {
        "format": 1,
        "system": "opr",
        "name": "Infantry",
        "models": [
            {
                "name": "Trooper",
                "count": 9,
                "quality": 4,
                "defence": 5,
                "toughness": 1,
                "weapons": [dict(RIFLE), dict(KNIFE)],
            },
            {
                "name": "Sergeant",
                "count": 1,
                "quality": 4,
                "defence": 5,
                "toughness": 1,
                "weapons": [dict(RIFLE), dict(KNIFE)],
            },
        ],
    }


def option(
    key: str,
    kind: str,
    payload: dict,
    *,
    applies_to: str = "",
    group: str = "",
    low: int = 0,
    high: int = 1,
    cost: int | None = None,
) -> dict:
    return {
        "key": key,
        "label": key.replace("-", " "),
        "group": group,
        "kind": kind,
        "applies_to": applies_to,
        "payload": payload,
        "min_count": low,
        "max_count": high,
        "cost": cost,
    }


def test_replacing_a_weapon_on_two_models_splits_them_into_their_own_profile():
    unit = squad()
    plasma = option(
        "plasma", "replace_weapon", {"replace": "Rifle", "with": PLASMA}, applies_to="Trooper", high=2
    )
    result = apply_options(unit, [plasma], {"plasma": 2})
    assert [(m["name"], m["count"]) for m in result["models"]] == [
        ("Trooper", 7),
        ("Trooper (Plasma Gun)", 2),
        ("Sergeant", 1),
    ]
    assert [w["name"] for w in result["models"][1]["weapons"]] == ["Plasma Gun", "Knife"]
    assert [w["name"] for w in result["models"][0]["weapons"]] == ["Rifle", "Knife"]
    assert unit == squad(), "the input unit is never changed"


def test_replacing_on_every_model_of_the_profile_keeps_one_profile():
    unit = squad()
    carbines = option(
        "carbines",
        "replace_weapon",
        {"replace": "Rifle", "with": [PLASMA, KNIFE], "all": True},
        applies_to="Trooper",
    )
    result = apply_options(unit, [carbines], {"carbines": 1})
    assert [(m["name"], m["count"]) for m in result["models"]] == [("Trooper", 9), ("Sergeant", 1)]
    assert [w["name"] for w in result["models"][0]["weapons"]] == ["Plasma Gun", "Knife", "Knife"]


def test_a_replace_target_that_does_not_exist_names_the_option_and_the_weapon():
    option_ = option("lance", "replace_weapon", {"replace": "Lance", "with": PLASMA}, applies_to="Sergeant")
    with pytest.raises(OptionError) as caught:
        apply_options(squad(), [option_], {"lance": 1})
    [(path, message)] = caught.value.errors
    assert path == "options.lance"
    assert "Lance" in message and "Sergeant" in message


def test_an_option_for_a_missing_model_profile_is_an_error():
    option_ = option("x", "add_weapon", {"weapon": PLASMA}, applies_to="Champion")
    with pytest.raises(OptionError, match="Champion"):
        apply_options(squad(), [option_], {"x": 1})


def test_adding_a_weapon_to_one_model_and_a_rule_to_the_whole_unit():
    options = [
        option("plasma", "add_weapon", {"weapon": PLASMA}, applies_to="Sergeant"),
        option("fearless", "add_rule", {"rule": "Fearless"}),
    ]
    result = apply_options(squad(), options, {"plasma": 1, "fearless": 1})
    sergeant = result["models"][1]
    assert [w["name"] for w in sergeant["weapons"]] == ["Rifle", "Knife", "Plasma Gun"]
    assert all(m["rules"] == ["Fearless"] for m in result["models"])


def test_adding_a_rule_to_a_named_weapon():
    rending = option("rending", "add_rule", {"rule": "Rending", "weapon": "Knife"})
    result = apply_options(squad(), [rending], {"rending": 1})
    assert all(m["weapons"][1]["rules"] == ["Rending"] for m in result["models"])
    assert "rules" not in result["models"][0]["weapons"][0]


def test_adding_models_to_a_profile_or_a_new_profile():
    more = option("more", "add_models", {"count": 5}, applies_to="Trooper")
    team = option(
        "team",
        "add_models",
        {"model": {"name": "Gunner", "count": 1, "quality": 4, "defence": 5, "weapons": [PLASMA]}},
        high=2,
    )
    result = apply_options(squad(), [more, team], {"more": 1, "team": 2})
    assert [(m["name"], m["count"]) for m in result["models"]] == [
        ("Trooper", 14),
        ("Sergeant", 1),
        ("Gunner", 2),
    ]


def test_counts_outside_min_and_max_are_reported_with_the_limits():
    required = option("banner", "add_rule", {"rule": "Fearless"}, low=1, high=1)
    capped = option(
        "plasma", "replace_weapon", {"replace": "Rifle", "with": PLASMA}, applies_to="Trooper", high=2
    )
    with pytest.raises(OptionError) as caught:
        apply_options(squad(), [required, capped], {"plasma": 3})
    messages = dict(caught.value.errors)
    assert set(messages) == {"options.banner", "options.plasma"}
    assert "between 1 and 1" in messages["options.banner"]
    assert "between 0 and 2" in messages["options.plasma"] and "3" in messages["options.plasma"]


def test_a_group_shares_its_limit_between_its_options():
    plasma = option(
        "plasma",
        "replace_weapon",
        {"replace": "Rifle", "with": PLASMA},
        applies_to="Trooper",
        group="Special weapons",
        high=2,
    )
    flamer = option(
        "flamer",
        "replace_weapon",
        {"replace": "Rifle", "with": dict(PLASMA, name="Flamer")},
        applies_to="Trooper",
        group="Special weapons",
        high=2,
    )
    result = apply_options(squad(), [plasma, flamer], {"plasma": 1, "flamer": 1})
    assert [m["name"] for m in result["models"]] == [
        "Trooper",
        "Trooper (Plasma Gun)",
        "Trooper (Flamer)",
        "Sergeant",
    ]
    with pytest.raises(OptionError) as caught:
        apply_options(squad(), [plasma, flamer], {"plasma": 2, "flamer": 1})
    assert caught.value.errors == [
        ("groups.Special weapons", "At most 2 of “Special weapons” can be taken (chosen: 3).")
    ]


def test_unknown_option_keys_and_non_integer_counts_are_errors():
    with pytest.raises(OptionError) as caught:
        apply_options(squad(), [], {"nothing": 1})
    assert caught.value.errors[0][0] == "options.nothing"
    with pytest.raises(OptionError):
        apply_options(squad(), [option("f", "add_rule", {"rule": "Fearless"})], {"f": "1"})


def test_catalogue_costs_are_recorded_as_upgrades_and_items_go_to_the_model():
    sword = option(
        "sword",
        "add_item",
        {"item": {"name": "Sword of Might", "kind": "weapon"}},
        applies_to="Sergeant",
        cost=20,
    )
    result = apply_options(squad(), [sword], {"sword": 1})
    assert result["upgrades"] == [{"key": "sword", "label": "sword", "count": 1, "cost": 20}]
    # The item names the upgrade that priced it, so its own points are not counted again.
    assert result["models"][1]["items"] == [
        {"name": "Sword of Might", "kind": "weapon", "priced_by": "sword"}
    ]


def test_point_deltas_are_the_engines_price_differences():
    """docs/rules/opr-points.md §9: the Infantry squad costs 143; each delta is the engine's difference."""
    options = [
        option(
            "plasma", "replace_weapon", {"replace": "Rifle", "with": PLASMA}, applies_to="Trooper", high=2
        ),
        option("fearless", "add_rule", {"rule": "Fearless"}),
        option("more", "add_models", {"count": 5}, applies_to="Trooper"),
    ]
    opr = get_system("opr")
    base = opr.price(squad())["points"]
    assert base == 143
    deltas = option_point_deltas("opr", squad(), options)
    for key in ("plasma", "fearless", "more"):
        taken = apply_options(copy.deepcopy(squad()), options, {key: 1})
        assert deltas[key] == opr.price(taken)["points"] - base
    assert deltas["more"] > 0 and deltas["fearless"] > 0


def test_an_option_priced_by_count_costs_each_counts_own_price():
    """AoS 1st Bestigors: 10 more cost 140, 20 more 220 (a unit of 30 is cheaper per model). Taken
    twice the option is its usual record (2 x 140) and an adjustment of -60, so the records still
    read count x cost and add up to the price of two takes."""
    more = option(
        "more", "add_models", {"count": 10, "costs": [140, 220]}, applies_to="Trooper", high=2, cost=140
    )
    once = apply_options(squad(), [more], {"more": 1})
    assert once["upgrades"] == [{"key": "more", "label": "more", "count": 1, "cost": 140}]
    twice = apply_options(squad(), [more], {"more": 2})
    assert twice["models"][0]["count"] == 29
    assert twice["upgrades"] == [
        {"key": "more", "label": "more", "count": 2, "cost": 140},
        {"key": "more.size-price", "label": "more ×2", "count": 1, "cost": -60},
    ]
    assert sum(u["count"] * u["cost"] for u in twice["upgrades"]) == 220


def test_the_next_take_of_an_option_priced_by_count_costs_the_tables_next_step():
    """10 more Bestigors cost 140, 20 more 220: from none the next ten cost 140, from ten they
    cost 80; past the table each take costs the option's cost again. An option priced
    count x cost has no such step (None: its price per take does not move)."""
    more = option(
        "more", "add_models", {"count": 10, "costs": [140, 220]}, applies_to="Trooper", high=3, cost=140
    )
    assert [price_taken(more, n) for n in range(4)] == [0, 140, 220, 420]
    assert [next_price(more, n) for n in range(3)] == [140, 80, 200]
    plain = option("plain", "add_models", {"count": 1}, applies_to="Trooper", high=5, cost=12)
    assert next_price(plain, 2) is None
