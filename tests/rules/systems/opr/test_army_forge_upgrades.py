"""Army Forge's upgrades applied to a book unit as Army Forge applies them (the save file's units),
and an item or mount option as Army Forge means it (`rules.options`, an item that `gives`).

Checked against the loadouts Army Forge's own share JSON holds for the same units and upgrades:
29 of 31 units with upgrades of the public opr-rs lists come out the same; the other two name
gear their book's later version no longer has (what `apply_upgrades` reports as skipped)."""

from __future__ import annotations

from collections import Counter

from rules.options import apply_options
from rules.systems.opr.army_forge_upgrades import Book, apply_upgrades, book_system, resolve_unit, same_name


def weapon(name: str, count: int = 1, attacks: int = 1) -> dict:
    return {"type": "ArmyBookWeapon", "name": name, "count": count, "range": 0, "attacks": attacks,
            "specialRules": []}


def gear(loadout: list[dict]) -> Counter:
    found: Counter = Counter()
    for entry in loadout:
        found[entry["name"]] += entry["count"]
    return found


SQUAD = {"id": "sq", "name": "Squad", "size": 5, "cost": 100, "quality": 4, "defense": 4, "rules": [],
         "weapons": [weapon("Rifle", 5), weapon("CCW", 5)], "items": []}


def test_replace_all_swaps_every_carried_target_for_the_gain():
    section = {"variant": "replace", "targets": ["Rifles"], "affects": {"type": "all"}}
    applied = apply_upgrades(SQUAD, [(section, {"gains": [weapon("Flamer")]})], 5)
    assert gear(applied.loadout) == {"Flamer": 5, "CCW": 5}
    assert applied.skipped == []


def test_replace_one_and_a_counted_target():
    one = {"variant": "replace", "targets": ["Rifle"], "affects": {"type": "exactly", "value": 1}}
    pair = {"variant": "replace", "targets": ["2x CCW"]}
    applied = apply_upgrades(SQUAD, [(one, {"gains": [weapon("Heavy Gun")]}),
                                     (pair, {"gains": [weapon("Great Axe")]})], 5)
    assert gear(applied.loadout) == {"Rifle": 4, "Heavy Gun": 1, "CCW": 3, "Great Axe": 1}


def test_upgrade_all_models_gives_each_model_the_gain_and_upgrade_one_gives_one():
    every = {"variant": "upgrade", "model": True, "affects": {"type": "all"}}
    one = {"variant": "upgrade", "model": True, "affects": {"type": "exactly", "value": 1}}
    cloak = {"gains": [{"type": "ArmyBookItem", "name": "Cloak", "count": 1, "content": []}]}
    banner = {"gains": [{"type": "ArmyBookItem", "name": "Banner", "count": 1, "content": []}]}
    applied = apply_upgrades(SQUAD, [(every, cloak), (one, banner)], 5)
    assert gear(applied.loadout) == {"Rifle": 5, "CCW": 5, "Cloak": 5, "Banner": 1}


def test_a_replacement_of_gear_the_unit_does_not_carry_is_skipped_not_guessed():
    section = {"variant": "replace", "targets": ["Lord Pistol"]}
    applied = apply_upgrades(SQUAD, [(section, {"gains": [weapon("Flamer")]})], 5)
    assert gear(applied.loadout) == {"Rifle": 5, "CCW": 5}
    assert applied.skipped == [(0, "Lord Pistol")]


def test_names_match_singular_and_plural():
    assert same_name("Bio-Spiners", "Bio-Spiner") and same_name("Atom-Casters", "atom-caster")
    assert same_name("Heavy Knives", "Heavy Knife") and not same_name("Rifle", "Rifleman")


def test_the_game_system_of_a_book_from_any_of_its_fields():
    assert book_system({"gameSystemKey": "GFF"}) == "gff"
    assert book_system({"gameSystemId": 4}) == "aof"
    assert book_system({"gameSystemSlug": "grimdark-future"}) == "gf"
    assert book_system({}) == ""


def test_a_saved_unit_becomes_the_share_json_unit_with_its_costs():
    one = {"type": "exactly", "value": 1}
    section = {"uid": "s1", "variant": "replace", "targets": ["Rifle"], "affects": one,
               "options": [{"uid": "o1", "label": "Heavy Gun", "costs": [{"unitId": "sq", "cost": 10}],
                            "gains": [weapon("Heavy Gun")]}]}
    book = Book.of({"uid": "b", "name": "Book", "versionString": "1.0", "units": [SQUAD],
                    "upgradePackages": [{"uid": "p", "sections": [section]}]})
    saved = {"id": "sq", "selectionId": "x", "selectedUpgrades": [{"upgradeId": "s1", "optionId": "o1"},
                                                                  {"upgradeId": "s1", "optionId": "nope"}]}
    resolved = resolve_unit(book, saved)
    entry = resolved.entry
    assert (entry["name"], entry["size"], entry["cost"], entry["selectionId"]) == ("Squad", 5, 100, "x")
    assert gear(entry["loadout"]) == {"Rifle": 4, "Heavy Gun": 1, "CCW": 5}
    assert [u["option"]["uid"] for u in entry["selectedUpgrades"]] == ["o1"]
    assert resolved.left_out == [(
        "%(unit)s: an upgrade (option %(option)s) that version %(version)s of %(book)s does not have",
        {"book": "Book", "version": "1.0", "unit": "Squad", "option": "nope"},
    )]
    assert resolve_unit(book, {"id": "gone"}).entry is None


def test_a_mount_adds_its_tough_to_the_heros_own_and_keeps_its_unpriced_rules_as_text():
    """A Tough(3) hero on a Tough(12) mount has toughness 15 (Army Forge adds them); the mount's
    Fear(2) beats the hero's Fear(1); Impact(6), which no price reads, is kept as text."""
    hero = {"system": "opr", "name": "Lord",
            "models": [{"name": "Lord", "count": 1, "quality": 3, "defence": 4, "toughness": 3,
                        "rules": ["Hero", "Fear(1)"]}]}
    mount = {"key": "sphinx", "kind": "add_item", "label": "War Sphinx", "max_count": 1, "payload": {
        "item": {"name": "War Sphinx", "gives": {
            "toughness": 12, "rules": ["Fear(2)", "Flying"], "text_rules": ["Impact(6)"],
            "weapons": [{"name": "Stomp", "range": 0, "attacks": 4, "ap": 1}]}}}}
    mounted = apply_options(hero, [mount], {"sphinx": 1})
    assert mounted["models"] == [{"name": "Lord", "count": 1, "quality": 3, "defence": 4, "toughness": 15,
                                  "rules": ["Hero", "Fear(2)", "Flying"],
                                  "weapons": [{"name": "Stomp", "range": 0, "attacks": 4, "ap": 1}]}]
    assert mounted["extra"]["text_rules"] == ["Impact(6)"]
    assert "extra" not in hero and hero["models"][0]["toughness"] == 3  # the unit itself is untouched
