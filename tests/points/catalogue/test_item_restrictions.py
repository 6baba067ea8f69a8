"""Items one kind of model only may carry, enforced as violations naming item and model, in
WHFB 6th (§11.5: the Battle Standard Bearer), the Russian rules (docs/rules/ru_whfb.md §3, #44: the Army
Battle Standard Bearer) and 40k (§7.3: the Warlord); for bundled data (the structured
`requires_rule`) and imported data (the wordings BattleScribe catalogues use)."""

from __future__ import annotations

import pytest

from points.catalogue.item_restrictions import text_requirement
from rules.catalogue_files import read_catalogue
from rules.systems.registry import get_system


def army(system: str, *models: dict, options: dict | None = None) -> dict:
    unit = {"format": 1, "system": system, "name": "Command", "models": list(models)}
    return {"format": 1, "system": system, "name": "Test", "points_limit": 5000, "options": options or {},
            "units": [{"unit": unit, "count": 1}]}


def restrictions(system: str, *models: dict) -> list[dict]:
    return [v for v in get_system(system).validate(army(system, *models)) if v["rule"] == "item_restrictions"]


def hero(name: str, rules: list[str], items: list[dict]) -> dict:
    return {"name": name, "count": 1, "points": 50, "character": True, "ld": 8, "rules": rules,
            "items": items}


def test_whfb_a_battle_standard_item_needs_the_battle_standard_bearer():
    """§11.5: the bundled War Banner is "Battle Standard Bearer only" (`requires_rule`)."""
    banner = {"name": "War Banner", "kind": "banner", "requires_rule": "Battle Standard"}
    broken = restrictions("whfb6", hero("Captain", ["General"], [banner]))
    assert [(v["model"], v["message"]) for v in broken] == [
        ("Captain", "Captain carries War Banner, which only a model with “Battle Standard” may carry.")
    ]
    assert restrictions("whfb6", hero("Bearer", ["Battle Standard"], [banner])) == []
    switched_off = army("whfb6", hero("Captain", ["General"], [banner]), options={"item_restrictions": False})
    assert not [v for v in get_system("whfb6").validate(switched_off) if v["rule"] == "item_restrictions"]


def test_russian_rules_read_an_imported_bsb_only_banner_as_the_army_battle_standard():
    """docs/rules/ru_whfb.md #44: the Army Battle Standard Bearer; an imported name "(… BSB only)"."""
    imported = {"name": "AB - Spider Banner (Goblin BSB only)", "kind": "mundane"}
    broken = restrictions("ru_whfb", hero("Boss", ["General"], [imported]))
    assert [v["model"] for v in broken] == ["Boss"]
    assert "“Army Battle Standard”" in broken[0]["message"] and "Spider Banner" in broken[0]["message"]
    assert restrictions("ru_whfb", hero("Boss", ["Army Battle Standard"], [imported])) == []


def test_40k_a_warlord_only_relic_on_another_model():
    """docs/rules/wh40k9.md §7.3: the Warlord; an imported relic whose name says "Warlord only"."""
    relic = {"name": "Blade of Triumph (Warlord only)", "kind": "relic"}
    sergeant = {"name": "Sergeant", "count": 1, "points": 0, "m": 6, "ws": 3, "bs": 3, "s": 4, "t": 4, "w": 2,
                "a": 3, "ld": 8, "sv": 3, "rules": [], "items": [relic]}
    broken = restrictions("wh40k9", sergeant)
    assert [(v["unit"], v["model"]) for v in broken] == [("Command", "Sergeant")]
    assert restrictions("wh40k9", {**sergeant, "rules": ["Warlord"]}) == []


@pytest.mark.parametrize(
    ("text", "requirement"),
    [
        ("AB - The Bad Moon Banner (Night Goblin BSB only)", "battle_standard"),
        ("Banner of the North Wind (Army Battle Standard only)", "army_battle_standard"),
        ("War Banner (Battle Standard Bearer only)", "battle_standard"),
        ("May only be given to the army General. When sounding an ambush", "general"),
        ("Relic (Warlord only)", "warlord"),
        ("This Relic can only be given to your Warlord.", "warlord"),
        ("Sword of Might", None),
        ("Only one per army", None),
    ],
)
def test_the_wordings_of_imported_data(text, requirement):
    assert text_requirement(text) == requirement


def test_bundled_catalogue_items_carry_their_restriction_into_the_option():
    """The bundled War Banner and Banner of the North Wind state `requires_rule`, and taking
    them as an option puts it on the model's item (so the check sees it)."""
    plan = read_catalogue()
    payloads = {
        option.values["payload"]["item"]["name"]: option.values["payload"]["item"]
        for faction in plan.factions
        for unit in faction.units
        for option in unit.options
        if option.values.get("kind") == "add_item"
    }
    assert payloads["War Banner"]["requires_rule"] == "Battle Standard"
    assert payloads["Banner of the North Wind"]["requires_rule"] == "Army Battle Standard"


@pytest.mark.parametrize(
    ("system", "rule"), [("whfb6", "Battle Standard"), ("ru_whfb", "Army Battle Standard")]
)
def test_a_magic_banner_on_a_hero_who_bears_no_standard_is_reported_by_its_kind(system, rule):
    """docs/rules/whfb6.md §14 "Magic banners: only standard bearers whom the army list allows a magic
    standard" (RU: the same core rule): a banner-kind item whose name says nothing of who may
    carry it, on a hero without the battle standard, is reported; the bearer may carry it, and
    so may a unit's own standard bearer (not a character)."""
    banner = {"name": "Banner of Swiftness", "kind": "banner", "points": 15}
    broken = restrictions(system, hero("Captain", ["General"], [banner]))
    assert [(v["model"], v["message"]) for v in broken] == [
        ("Captain", f"Captain carries Banner of Swiftness, which only a model with “{rule}” may carry.")
    ]
    assert restrictions(system, hero("Bearer", [rule], [banner])) == []
    standard_bearer = {"name": "Standard Bearer", "count": 1, "points": 6, "rules": ["Standard Bearer"],
                       "items": [banner]}
    assert restrictions(system, standard_bearer) == []
    assert restrictions(system, hero("Captain", ["General"], [{**banner, "kind": "talisman"}])) == []
