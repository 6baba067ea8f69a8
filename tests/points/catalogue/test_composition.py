"""Every composition rule of the catalogue-priced systems: one failing and one passing army each.

Pure tests through the registry (`get_system(key).validate`), on small hand-built armies in
the unit format. Each case starts from a valid army of its system, so the failing army
breaks exactly the rule under test, and the passing army is that rule's edge that holds.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from points.whfb6.composition import slot_chart
from rules.systems.registry import get_system


def model(name: str, *, count: int = 1, points: float = 5, **fields: Any) -> dict:
    return {"name": name, "count": count, "points": points, **fields}


def fantasy_unit(system: str, name: str, slot: str, *models: dict, **fields: Any) -> dict:
    return {"format": 1, "system": system, "name": name, "slot": slot, "models": list(models), **fields}


def character(
    system: str, name: str, slot: str, *, ld: int, rules=(), items=(), points=100, **fields
) -> dict:
    return fantasy_unit(
        system,
        name,
        slot,
        model(name, points=points, character=True, ld=ld, rules=list(rules), items=list(items), **fields),
    )


def troops(system: str, name: str, slot: str, count: int = 10, *, points: float = 6, command=()) -> dict:
    models = [model("Trooper", count=count, points=points, ld=7)]
    models += [model(rule, points=points, ld=7, rules=[rule]) for rule in command]
    return fantasy_unit(system, name, slot, *models, min_models=10, max_models=40)


def army(system: str, units: list[dict], *, limit: int | None = None, settings=None, options=None) -> dict:
    limit = limit if limit is not None else DEFAULT_LIMITS.get(system, 2000)
    found = {
        "format": 1,
        "system": system,
        "name": "Test",
        "points_limit": limit,
        "options": dict(options or {}),
        "units": [{"unit": u, "count": 1} for u in units],
    }
    if settings is not None:
        found["settings"] = settings
    return found


#: A limit at which each system's base army below is valid (RU: the 8th-edition percentages).
DEFAULT_LIMITS = {"ru_whfb": 700}


def broken(system: str, army_dict: dict) -> list[str]:
    return [v["rule"] for v in get_system(system).validate(army_dict)]


# --- WHFB 6th ---------------------------------------------------------------------------


def whfb_units(system: str = "whfb6", bsb: str = "Battle Standard") -> list[dict]:
    return [
        character(
            system,
            "Lord",
            "lord",
            ld=9,
            rules=["General"],
            items=[{"name": "Sword", "kind": "weapon", "points": 30}],
        ),
        character(system, "Hero", "hero", ld=8, rules=[bsb], points=60),
        troops(system, "Spears A", "core", command=("Champion", "Standard Bearer", "Musician")),
        troops(system, "Spears B", "core"),
        troops(system, "Bows", "core"),
        troops(system, "Knights", "special", points=20),
        fantasy_unit(system, "Cannon", "rare", model("Cannon", points=100, t=7, w=3)),
    ]


def with_unit(units: list[dict], unit: dict) -> list[dict]:
    return [*copy.deepcopy(units), unit]


def changed(units: list[dict], index: int, change: Callable[[dict], None]) -> list[dict]:
    units = copy.deepcopy(units)
    change(units[index])
    return units


def give_items(*items: dict) -> Callable[[dict], None]:
    def change(unit: dict) -> None:
        unit["models"][0]["items"] = list(items)

    return change


def items_for_own_points(*items: dict) -> Callable[[dict], None]:
    """Give the first model `items` and drop its own points: the items' inline points are part
    of the unit's price (`points.catalogue.pricing`), so the army's total hardly moves."""
    give = give_items(*items)

    def change(unit: dict) -> None:
        give(unit)
        unit["models"][0]["points"] = 0

    return change


def blade(points: int) -> dict:
    return {"name": "Blade", "kind": "weapon", "points": points}


WHFB = whfb_units()
WAR_BANNER = {"name": "War Banner", "kind": "banner", "points": 25, "requires_rule": "Battle Standard"}
WHFB_CASES = {
    "points_limit": (army("whfb6", WHFB, limit=600), army("whfb6", WHFB, limit=2000)),
    # §11.5: a Battle Standard Bearer's item on the General, then on the bearer
    "item_restrictions": (
        army("whfb6", changed(WHFB, 0, give_items(WAR_BANNER))),
        army("whfb6", changed(WHFB, 1, give_items(WAR_BANNER))),
    ),
    "general": (
        army("whfb6", changed(WHFB, 0, lambda u: u["models"][0].update(rules=[]))),
        army("whfb6", WHFB),
    ),
    "battle_standard": (
        army("whfb6", changed(WHFB, 0, lambda u: u["models"][0]["rules"].append("Battle Standard"))),
        army("whfb6", WHFB),
    ),
    "magic_items": (
        army(
            "whfb6",
            changed(WHFB, 1, give_items({"name": "A", "kind": "weapon"}, {"name": "B", "kind": "weapon"})),
        ),
        # mundane kit is not a magic item: a shield and armour are two items of one "type" but fine
        army(
            "whfb6",
            changed(
                WHFB,
                1,
                give_items({"name": "Shield", "kind": "mundane"}, {"name": "Armour", "kind": "mundane"}),
            ),
        ),
    ),
    "magic_item_points": (
        army(
            "whfb6",
            changed(
                WHFB,
                1,
                give_items(
                    {"name": "Blade", "kind": "weapon", "points": 30},
                    {"name": "Talisman", "kind": "talisman", "points": 25},
                ),
            ),
        ),
        army(
            "whfb6",
            changed(
                WHFB,
                1,
                give_items(
                    {"name": "Blade", "kind": "weapon", "points": 25},
                    {"name": "Talisman", "kind": "talisman", "points": 25},
                ),
            ),
        ),
    ),
    "slot_chart": (
        army("whfb6", WHFB, limit=1999),  # under 2000 the chart allows no Lord
        army("whfb6", WHFB, limit=2000),
    ),
    "unit_size": (
        army("whfb6", changed(WHFB, 3, lambda u: u["models"][0].update(count=9))),
        army("whfb6", changed(WHFB, 3, lambda u: u["models"][0].update(count=40))),
    ),
    "command": (
        army(
            "whfb6",
            changed(
                WHFB,
                3,
                lambda u: u["models"].extend(
                    [model("C1", rules=["Champion"]), model("C2", rules=["Champion"])]
                ),
            ),
        ),
        army("whfb6", changed(WHFB, 3, lambda u: u["models"].append(model("C1", rules=["Champion"])))),
    ),
}


# --- Russian rules --------------------------------------------------------------------------

RU = whfb_units("ru_whfb", bsb="Army Battle Standard")
SPIDER_BANNER = {"name": "Spider Banner (Goblin BSB only)", "kind": "banner"}
RU_CASES = {
    "points_limit": (army("ru_whfb", RU, limit=600), army("ru_whfb", RU)),
    # docs/rules/ru_whfb.md #44: an imported "(… BSB only)" banner is the Army Battle Standard's
    "item_restrictions": (
        army("ru_whfb", changed(RU, 0, give_items(SPIDER_BANNER))),
        army("ru_whfb", changed(RU, 1, give_items(SPIDER_BANNER))),
    ),
    "general": (
        army("ru_whfb", changed(RU, 1, lambda u: u["models"][0]["rules"].append("General"))),
        army("ru_whfb", RU),
    ),
    "army_standard": (
        army("ru_whfb", changed(RU, 0, lambda u: u["models"][0]["rules"].append("Army Battle Standard"))),
        army("ru_whfb", RU),
    ),
    # 8th-edition chart [EXTERNAL]: at 700 pts Lords 100 <= 175, Core 198 >= 175; at 399 the Lord is over 25%.
    "percentages": (
        army("ru_whfb", RU, limit=399),
        army("ru_whfb", RU),
    ),
    "magic_item_points": (
        army("ru_whfb", changed(RU, 0, items_for_own_points(blade(101)))),
        army("ru_whfb", changed(RU, 0, items_for_own_points(blade(100)))),
    ),
    "unit_size": (
        army(
            "ru_whfb", changed(RU, 2, lambda u: u["models"][0].update(count=6))
        ),  # 6 + 3 command models = 9 < 10
        army("ru_whfb", changed(RU, 2, lambda u: u["models"][0].update(count=7))),  # 10: the minimum
    ),
    "command": (
        army("ru_whfb", changed(RU, 0, lambda u: u["models"][0]["rules"].append("Musician"))),
        army("ru_whfb", RU),
    ),
}


# --- 40k 9th ------------------------------------------------------------------------------


def datasheet(name: str, power: int, count: int, *, low: int, high: int, warlord: bool = False) -> dict:
    profile = {"m": 6, "ws": 3, "bs": 3, "s": 4, "t": 4, "w": 2, "a": 2, "ld": 7, "sv": 3}
    rules = ["Warlord"] if warlord else []
    return {
        "format": 1,
        "system": "wh40k9",
        "name": name,
        "power_rating": power,
        "models": [
            model(name, count=count, points=20, min_count=low, max_count=high, rules=rules, **profile)
        ],
    }


W40K = [datasheet("Captain", 5, 1, low=1, high=1, warlord=True), datasheet("Squad", 10, 10, low=5, high=10)]
W40K_CASES = {
    "points_limit": (army("wh40k9", W40K, limit=219), army("wh40k9", W40K, limit=220)),
    # §7.3: an imported relic "(Warlord only)" on a squad, then on the Warlord
    "item_restrictions": (
        army("wh40k9", changed(W40K, 1, give_items({"name": "Relic Blade (Warlord only)", "kind": "relic"}))),
        army("wh40k9", changed(W40K, 0, give_items({"name": "Relic Blade (Warlord only)", "kind": "relic"}))),
    ),
    # [EXTERNAL] detachments (tests/armybuilder/lists/test_detachments.py has every slot): a Patrol
    # with no unit in it, the army's units outside it; without a detachment nothing is checked.
    "detachments": (army("wh40k9", W40K) | {"groups": {"A": "patrol"}}, army("wh40k9", W40K)),
    "battle_size": (
        army("wh40k9", W40K, settings={"battle_size": "combat_patrol"})
        | {"units": [{"unit": W40K[1], "count": 3}]},
        army("wh40k9", W40K, settings={"battle_size": "combat_patrol"}),  # 15 of 25 PL
    ),
    "unit_size": (
        army("wh40k9", changed(W40K, 1, lambda u: u["models"][0].update(count=11))),
        army("wh40k9", changed(W40K, 1, lambda u: u["models"][0].update(count=5))),
    ),
    "warlord": (
        army("wh40k9", changed(W40K, 0, lambda u: u["models"][0].update(rules=[]))),
        army("wh40k9", W40K),
    ),
}


# --- AoS 1st --------------------------------------------------------------------------------


def warscroll(name: str, count: int, *, rules=(), **fields) -> dict:
    return {
        "format": 1,
        "system": "aos1",
        "name": name,
        "models": [model(name, count=count, points=0, move=5, wounds=1, bravery=6, rules=list(rules))],
        **fields,
    }


AOS = [warscroll("Lord", 1, rules=["General"]), warscroll("Warriors", 20)]
BATTALION = warscroll("Shield-wall battalion", 1, battalion={"requires": [{"unit": "Warriors", "min": 2}]})
#: AoS has no points (docs/rules/aos1.md §3, `points_sized=False`): no points-limit case.
AOS_CASES = {
    "model_limit": (
        army("aos1", AOS, settings={"model_limit": 20}),
        army("aos1", AOS, settings={"model_limit": 21}),
    ),
    "general": (army("aos1", with_unit(AOS, warscroll("Hero", 1, rules=["General"]))), army("aos1", AOS)),
    "battalions": (
        army("aos1", with_unit(AOS, BATTALION)),
        army("aos1", with_unit(with_unit(AOS, warscroll("Warriors", 10)), BATTALION)),
    ),
}

CASES = {"whfb6": WHFB_CASES, "ru_whfb": RU_CASES, "wh40k9": W40K_CASES, "aos1": AOS_CASES}
PARAMS = [(system, rule) for system, cases in CASES.items() for rule in cases]


def test_every_switchable_rule_of_every_catalogue_system_has_a_case():
    for system, cases in CASES.items():
        always = {"points_limit"} if get_system(system).points_sized else set()
        assert set(get_system(system).structure_options) | always == set(cases), system


def test_aos_has_no_points_limit_even_when_a_homebrew_warscroll_carries_points():
    costly = [warscroll("Costly", 1) | {"models": [model("C", points=11, move=5, wounds=1, bravery=6)]}]
    assert get_system("aos1").points_sized is False
    assert broken("aos1", army("aos1", costly, limit=10)) == []


@pytest.mark.parametrize(("system", "rule"), PARAMS)
def test_the_failing_army_breaks_the_rule_and_the_passing_one_does_not(system: str, rule: str):
    failing, passing = CASES[system][rule]
    assert rule in broken(system, failing)
    assert broken(system, passing) == []


@pytest.mark.parametrize(("system", "rule"), [p for p in PARAMS if p[1] != "points_limit"])
def test_a_rule_switched_off_is_not_checked(system: str, rule: str):
    failing, _passing = CASES[system][rule]
    switched_off = {**failing, "options": {**failing.get("options", {}), rule: False}}
    assert rule not in broken(system, switched_off)


def test_the_6th_edition_slot_chart_rows():
    """[EXTERNAL] docs/rules/whfb6.md §13: <2000, 2000-2999, 3000-3999, then +1000 each."""
    assert slot_chart(1999) == {"characters": 3, "lord": 0, "core": 2, "special": 3, "rare": 1}
    assert slot_chart(2000) == {"characters": 4, "lord": 1, "core": 3, "special": 4, "rare": 2}
    assert slot_chart(3000) == {"characters": 6, "lord": 2, "core": 4, "special": 5, "rare": 3}
    assert slot_chart(4000) == {"characters": 8, "lord": 3, "core": 5, "special": 6, "rare": 4}


def test_messages_round_points_the_way_players_read_them():
    items = give_items(
        {"name": "A", "kind": "weapon", "points": 30.25}, {"name": "B", "kind": "talisman", "points": 32.5}
    )
    violations = get_system("whfb6").validate(army("whfb6", changed(WHFB, 1, items)))
    [message] = [v["message"] for v in violations if v["rule"] == "magic_item_points"]
    assert message == "Hero carries 62.8 pts of magic items; a hero may carry 50 pts."


def test_40k_and_aos_summaries_report_power_level_and_models():
    assert get_system("wh40k9").army_summary(army("wh40k9", W40K, settings={"battle_size": "incursion"})) == [
        {"key": "power_level", "label": "Power Level", "value": 15, "limit": 50}
    ]
    assert get_system("aos1").army_summary(army("aos1", AOS, settings={"model_limit": 30})) == [
        {"key": "models", "label": "Models", "value": 21, "limit": 30},
        {"key": "wounds", "label": "Wounds", "value": 21},
    ]
