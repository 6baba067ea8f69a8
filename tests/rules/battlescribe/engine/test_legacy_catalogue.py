"""A BattleScribe 1.x catalogue read as BattleScribe 2 converts it (`engine.legacy_catalogue`):
BSData/whfb's nine 8thBRB army books still in 1.15 ("Wood Elves - 8thBRB_6thAB.cat"…). The
expected shapes are BattleScribe 2.03's own migration of the Dark Elves book of the same
repository (constraint ids, `<entry>-<category>` link ids, repeats, conditions). Data: invented,
the dicts below and `oldforce_legacy.cat` (1.15 shape) under `oldforce.gst` (1.15)."""

from __future__ import annotations

from rules.battlescribe.engine.constraints import validate
from rules.battlescribe.engine.info import collect
from rules.battlescribe.engine.legacy_catalogue import convert_catalogue, upgraded_catalogue
from rules.battlescribe.engine.model import GameData
from rules.battlescribe.engine.roster import Roster
from rules.battlescribe.engine.xmlform import load_files
from tests.rules.battlescribe.files import source

LIMITS = {
    "minSelections": "0",
    "maxSelections": "-1",
    "minInForce": "0",
    "maxInForce": "-1",
    "minInRoster": "0",
    "maxInRoster": "-1",
    "minPoints": "0.0",
    "maxPoints": "-1.0",
}


def entry(entry_id: str, points: str = "0.0", **attrs) -> dict:
    """A 1.x entry in the dict shape (`xmlform.element_to_dict`), no limits unless given."""
    return {
        "id": entry_id,
        "name": entry_id.title(),
        "points": points,
        "categoryId": "(No Category)",
        "type": "upgrade",
        **LIMITS,
        "collective": "false",
        "hidden": "false",
        "page": "0",
        **{k: v for k, v in attrs.items() if not isinstance(v, list)},
        **{k: v for k, v in attrs.items() if isinstance(v, list)},
    }


def group(group_id: str, **attrs) -> dict:
    return {"id": group_id, "name": group_id.title(), **LIMITS, "collective": "false", **attrs}


def modifier(kind: str, field: str, value: str, **attrs) -> dict:
    return {
        "type": kind,
        "field": field,
        "value": value,
        "repeat": "false",
        "numRepeats": "1",
        "incrementParentId": "roster",
        "incrementChildId": "no child",
        "incrementField": "selections",
        "incrementValue": "1.0",
        "conditions": [],
        "conditionGroups": [],
        **attrs,
    }


def condition(parent: str, child: str, kind: str = "equal to", value: str = "1.0") -> dict:
    return {"parentId": parent, "childId": child, "field": "selections", "type": kind, "value": value}


def catalogue(**lists) -> dict:
    return {
        "id": "cat-1x-test",
        "name": "Old Book",
        "battleScribeVersion": "1.15",
        "gameSystemId": "g",
        **lists,
    }


def converted(**lists):
    return convert_catalogue(catalogue(**lists), {"pt-model": "Model"})


def constraints(raw: dict) -> list[tuple]:
    return [
        (c["id"], c["type"], c["field"], c["scope"], c["value"], c["shared"], c["includeChildSelections"])
        for c in raw["constraints"]
    ]


def test_an_entry_is_a_selection_entry_priced_in_points_and_linked_to_its_category():
    result = converted(entries=[entry("knight", "24.0", type="model", categoryId="cat-core", book="AB")])
    (knight,) = result.catalogue["selectionEntries"]
    assert (knight["id"], knight["name"], knight["type"]) == ("knight", "Knight", "model")
    assert knight["costs"] == [{"name": "pts", "typeId": "points", "value": "24.0"}]
    assert knight["categoryLinks"] == [
        {"id": "knight-cat-core", "hidden": "false", "targetId": "cat-core", "primary": "true"}
    ]
    # the book is a publication of the catalogue
    assert result.catalogue["publications"] == [{"id": "cat-1x-t--pub1", "name": "AB"}]
    assert knight["publicationId"] == "cat-1x-t--pub1"
    # "(No Category)" is none, and no limit is written where the file has none
    (plain,) = converted(entries=[entry("plain")]).catalogue["selectionEntries"]
    assert plain["categoryLinks"] == []
    assert plain["constraints"] == []
    assert plain["costs"] == [{"name": "pts", "typeId": "points", "value": "0.0"}]


def test_each_limit_attribute_is_the_constraint_of_its_name():
    limits = {
        "minSelections": "1",
        "maxSelections": "3",
        "minInForce": "1",
        "maxInForce": "2",
        "minInRoster": "1",
        "maxInRoster": "4",
        "minPoints": "5.0",
        "maxPoints": "50.0",
    }
    (unit,) = converted(entries=[entry("unit", **limits)]).catalogue["selectionEntries"]
    assert constraints(unit) == [
        ("minSelections", "min", "selections", "parent", "1.0", "false", "false"),
        ("maxSelections", "max", "selections", "parent", "3.0", "false", "false"),
        ("minInForce", "min", "selections", "force", "1.0", "false", "true"),
        ("maxInForce", "max", "selections", "force", "2.0", "false", "true"),
        ("minInRoster", "min", "selections", "roster", "1.0", "false", "true"),
        ("maxInRoster", "max", "selections", "roster", "4.0", "false", "true"),
        ("minPoints", "min", "points", "parent", "5.0", "false", "true"),
        ("maxPoints", "max", "points", "parent", "50.0", "false", "true"),
    ]
    # a maximum of 0 is a limit (nothing allowed), -1 none
    (banned,) = converted(entries=[entry("banned", maxSelections="0")]).catalogue["selectionEntries"]
    assert constraints(banned) == [("maxSelections", "max", "selections", "parent", "0.0", "false", "false")]


def test_shared_entries_count_every_link_in_force_and_roster_and_shared_groups_write_every_limit():
    item = entry("rune", "25.0", maxSelections="1", maxInRoster="1")
    result = converted(
        sharedEntryGroups=[group("items", maxSelections="1", entries=[item], entryGroups=[], links=[])],
        sharedEntries=[entry("banner", maxInRoster="1")],
    )
    (items,) = result.catalogue["sharedSelectionEntryGroups"]
    assert [c[:5] for c in constraints(items)] == [
        ("minSelections", "min", "selections", "parent", "0.0"),
        ("maxSelections", "max", "selections", "parent", "1.0"),
        ("minInForce", "min", "selections", "force", "0.0"),
        ("maxInForce", "max", "selections", "force", "-1.0"),
        ("minInRoster", "min", "selections", "roster", "0.0"),
        ("maxInRoster", "max", "selections", "roster", "-1.0"),
        ("minPoints", "min", "points", "parent", "0.0"),
        ("maxPoints", "max", "points", "parent", "-1.0"),
    ]
    assert constraints(items["selectionEntries"][0])[1] == (
        "maxInRoster",
        "max",
        "selections",
        "roster",
        "1.0",
        "true",
        "true",
    )
    assert constraints(result.catalogue["sharedSelectionEntries"][0])[0][5] == "true"
    # outside the shared entries a roster limit counts this entry only
    (root,) = converted(entries=[entry("lord", maxInRoster="1")]).catalogue["selectionEntries"]
    assert constraints(root)[0][5] == "false"


def test_a_group_keeps_its_default_and_a_modified_limit_is_written_even_when_it_is_none():
    size = group(
        "size",
        defaultEntryId="normal",
        minSelections="1",
        maxSelections="1",
        entries=[entry("normal"), entry("grand")],
        entryGroups=[],
        links=[],
        modifiers=[modifier("increment", "maxInRoster", "3.0")],
    )
    (converted_size,) = converted(entries=[entry("army", entryGroups=[size])]).catalogue["selectionEntries"][
        0
    ]["selectionEntryGroups"]
    assert converted_size["defaultSelectionEntryId"] == "normal"
    assert [c["id"] for c in converted_size["selectionEntries"]] == ["normal", "grand"]
    # the modifier changes maxInRoster, unlimited (-1) in the file: written, and counted from -1
    assert [(c["id"], c["value"]) for c in converted_size["constraints"]] == [
        ("minSelections", "1.0"),
        ("maxSelections", "1.0"),
        ("maxInRoster", "-1.0"),
    ]
    result = converted(entries=[entry("army", entryGroups=[size])])
    assert result.from_unlimited == ["entry group 'Size' (size): maxInRoster"]


def test_links_are_info_links_and_entry_links_by_their_type():
    links = [
        {"id": "l1", "targetId": "r", "linkType": "rule", "modifiers": []},
        {"id": "l2", "targetId": "p", "linkType": "profile", "modifiers": []},
        {"id": "l3", "targetId": "e", "linkType": "entry", "modifiers": [modifier("set", "points", "0.0")]},
        {"id": "l4", "targetId": "g", "linkType": "entry group", "modifiers": []},
    ]
    (unit,) = converted(entries=[entry("unit", links=links)]).catalogue["selectionEntries"]
    assert [(i["id"], i["targetId"], i["type"]) for i in unit["infoLinks"]] == [
        ("l1", "r", "rule"),
        ("l2", "p", "profile"),
    ]
    assert [(i["id"], i["targetId"], i["type"]) for i in unit["entryLinks"]] == [
        ("l3", "e", "selectionEntry"),
        ("l4", "g", "selectionEntryGroup"),
    ]
    assert unit["entryLinks"][0]["modifiers"] == [
        {
            "type": "set",
            "field": "points",
            "value": "0.0",
            "repeats": [],
            "conditions": [],
            "conditionGroups": [],
        }
    ]


def test_a_link_modifier_of_a_limit_makes_its_target_write_that_limit():
    link = {"id": "l", "targetId": "weapons", "linkType": "entry group"}
    link["modifiers"] = [modifier("decrement", "minSelections", "1.0")]
    result = converted(
        entries=[entry("unit", links=[link])],
        sharedEntryGroups=[],
    )
    assert (
        result.catalogue["selectionEntries"][0]["entryLinks"][0]["modifiers"][0]["field"] == "minSelections"
    )
    result = converted(
        entries=[entry("unit", links=[link]), entry("x", entryGroups=[group("weapons", entries=[])])],
    )
    weapons = result.catalogue["selectionEntries"][1]["selectionEntryGroups"][0]
    assert [(c["id"], c["value"]) for c in weapons["constraints"]] == [("minSelections", "0.0")]


def test_a_repeating_modifier_is_one_repeat_of_its_increment_attributes():
    repeating = modifier(
        "increment",
        "points",
        "1.0",
        repeat="true",
        incrementParentId="unit",
        incrementChildId="warrior",
        incrementValue="5.0",
    )
    by_roster = modifier(
        "increment", "maxInRoster", "1.0", repeat="true", incrementChildId="dragon", incrementValue="2.0"
    )
    (unit,) = converted(entries=[entry("unit", modifiers=[repeating, by_roster])]).catalogue[
        "selectionEntries"
    ]
    assert unit["modifiers"][0]["repeats"] == [
        {
            "field": "selections",
            "scope": "unit",
            "value": "5.0",
            "percentValue": "false",
            "shared": "true",
            "includeChildSelections": "false",
            "includeChildForces": "false",
            "childId": "warrior",
            "repeats": "1",
            "roundUp": "false",
        }
    ]
    assert (
        unit["modifiers"][1]["repeats"][0]["scope"],
        unit["modifiers"][1]["repeats"][0]["includeChildSelections"],
    ) == (
        "roster",
        "true",
    )
    # a modifier that does not repeat drops its increment attributes
    (plain,) = converted(entries=[entry("p", modifiers=[modifier("set", "maxSelections", "2")])]).catalogue[
        "selectionEntries"
    ]
    assert plain["modifiers"][0]["repeats"] == []


def test_conditions_get_their_2_x_types_and_scopes():
    mod = modifier(
        "set",
        "maxSelections",
        "1",
        conditions=[condition("roster", "grand"), condition("unit", "champion", "less than", "2.0")],
        conditionGroups=[
            {
                "type": "or",
                "conditions": [condition("category", "mark", "not equal to", "0.0")],
                "conditionGroups": [],
            }
        ],
    )
    (unit,) = converted(entries=[entry("unit", modifiers=[mod])]).catalogue["selectionEntries"]
    (converted_mod,) = unit["modifiers"]
    assert [
        (c["type"], c["scope"], c["childId"], c["value"], c["shared"], c["includeChildSelections"])
        for c in converted_mod["conditions"]
    ] == [
        ("equalTo", "roster", "grand", "1.0", "true", "true"),
        ("lessThan", "unit", "champion", "2.0", "true", "false"),
    ]
    (group_or,) = converted_mod["conditionGroups"]
    # 1.x's "category" (the selection's category) counts in the roster, as BattleScribe 2 reads it
    assert group_or["type"] == "or"
    assert [(c["type"], c["scope"]) for c in group_or["conditions"]] == [("notEqualTo", "roster")]


def test_hide_is_setting_hidden():
    link = {
        "id": "l",
        "targetId": "r",
        "linkType": "rule",
        "modifiers": [modifier("hide", "name", "", conditions=[condition("roster", "x")])],
    }
    (unit,) = converted(entries=[entry("unit", links=[link])]).catalogue["selectionEntries"]
    mod = unit["infoLinks"][0]["modifiers"][0]
    assert (mod["type"], mod["field"], mod["value"]) == ("set", "hidden", "true")


def test_profiles_and_rules_read_as_2_x():
    profile = {
        "id": "p",
        "typeId": "pt-model",
        "name": "Knight",
        "hidden": "false",
        "book": "AB",
        "page": "12",
        "characteristics": [{"characteristicId": "c-ws", "name": "WS", "value": "4"}],
        "modifiers": [],
    }
    rule = {
        "id": "r",
        "name": "Lance",
        "hidden": "false",
        "page": "3",
        "description": "+2 S",
        "modifiers": [],
    }
    result = converted(sharedProfiles=[profile], sharedRules=[rule])
    assert result.catalogue["sharedProfiles"] == [
        {
            "id": "p",
            "name": "Knight",
            "hidden": "false",
            "typeId": "pt-model",
            "typeName": "Model",
            "page": "12",
            "publicationId": "cat-1x-t--pub1",
            "characteristics": [{"name": "WS", "typeId": "c-ws", "value": "4"}],
            "modifiers": [],
        }
    ]
    assert result.catalogue["sharedRules"] == [
        {"id": "r", "name": "Lance", "hidden": "false", "page": "3", "description": "+2 S", "modifiers": []}
    ]


def test_what_cannot_be_mapped_is_left_out_with_a_warning():
    mods = [
        modifier("multiply", "points", "2"),
        modifier("set", "collective", "true"),
        modifier("set", "points", "0", conditions=[condition("roster", "x", "between")]),
        modifier("increment", "points", "1", repeat="true"),
        modifier("set", "points", "5"),
    ]
    links = [{"id": "l", "targetId": "t", "linkType": "category", "modifiers": []}]
    result = converted(entries=[entry("knight", modifiers=mods, links=links, armourSave="4+")])
    (knight,) = result.catalogue["selectionEntries"]
    # only the one modifier that maps is kept: the others would change the price unasked
    assert [(m["type"], m["field"], m["value"]) for m in knight["modifiers"]] == [("set", "points", "5")]
    assert knight["entryLinks"] == knight["infoLinks"] == []
    assert result.unmapped == {
        "modifier:type multiply": 1,
        "modifier:field collective": 1,
        "modifier:condition type": 1,
        "modifier:repeat no child": 1,
        "link:category": 1,
        "entry@armourSave": 1,
    }
    assert len(result.warnings) == 6
    assert all(w.startswith("Old Book: entry 'Knight' (knight)") for w in result.warnings)
    assert (
        "a modifier (multiply points 2) is left out: its type 'multiply' has no 2.x counterpart"
        in result.warnings[1]
    )


def test_a_2_x_catalogue_is_read_as_it_is():
    raw = {"id": "c", "battleScribeVersion": "2.03", "selectionEntries": [{"id": "e"}]}
    assert upgraded_catalogue(raw) == (raw, [])
    # a 1.x number but already in the 2.x shape (converted once) is not converted again
    once = convert_catalogue(catalogue(entries=[entry("e")])).catalogue
    assert upgraded_catalogue(once)[0] is once


def test_game_data_keeps_the_warnings_of_a_1_x_catalogue():
    system = {"id": "g", "battleScribeVersion": "1.15", "forceTypes": []}
    data = GameData(
        system, [catalogue(entries=[entry("e", modifiers=[modifier("multiply", "points", "2")])])]
    )
    assert data.warnings == [
        "Old Book: entry 'E' (e): a modifier (multiply points 2) is left out: its type 'multiply' has no 2.x "
        "counterpart"
    ]


# -- a roster on a 1.x game system and a 1.x army book ----------------------------------------


def old_book():
    return load_files(source("oldforce.gst"), [source("oldforce_legacy.cat")])


def test_the_army_book_offers_its_root_entries_with_costs_categories_and_limits():
    data = old_book()
    assert data.warnings == []
    assert [
        (o.key, o.costs, [c.target_id for c in o.category_links], [(c.id, c.value) for c in o.constraints])
        for o in data.root_options("ol-cat-hold")
    ] == [
        ("ol-size", {"points": 0.0}, [], [("minInRoster", 1.0), ("maxInRoster", 1.0)]),
        ("ol-lord", {"points": 110.0}, ["of-lords"], [("maxInRoster", 1.0)]),
        ("ol-warriors", {"points": 0.0}, ["of-core"], []),
        ("ol-cannon", {"points": 120.0}, ["of-rare"], [("maxInRoster", -1.0)]),
    ]
    assert data.category_name("of-core") == "Core"


def roster() -> tuple[Roster, object]:
    built = Roster(old_book())
    built.set_cost_limit("points", 2000)
    return built, built.add_force("of-standard", "ol-cat-hold")


def child(built: Roster, parent, key_part: str):
    (option,) = [o for o in parent.option.selectable() if key_part in o.key]
    return built.select_child(parent, option.key)


def test_a_roster_of_the_army_book_prices_as_its_points_say():
    built, force = roster()
    # the army size is taken with the force, its group's default with it
    (size,) = force.selections
    assert [(s.name, s.number) for s in size.descendants()] == [("Army (0-2999 points)", 1)]
    warriors = built.select_entry(force, "ol-warriors")
    assert [(s.name, s.number) for s in warriors.descendants()] == [("Hold Warrior", 10)]
    assert warriors.cost("points") == 80.0  # 10 warriors at 8
    child(built, warriors, "ol-gromril")
    assert warriors.cost("points") == 90.0  # and 1 pt a warrior for their armour
    lord = built.select_entry(force, "ol-lord")
    assert child(built, lord, "ol-great-weapon").cost("points") == 4.0  # 6, set to 4 by its link
    assert child(built, lord, "ol-rune-axe").cost("points") == 25.0
    assert lord.cost("points") == 139.0
    assert built.costs() == {"points": 229.0}
    rules, profiles = collect(lord)
    assert [r["name"] for r in rules] == ["Ancient Oath"]
    assert [(p["typeName"], [(c["name"], c["value"]) for c in p["characteristics"]]) for p in profiles] == [
        ("Model", [("M", "3"), ("WS", "7"), ("LD", "10")])
    ]


def errors(built: Roster) -> list[tuple]:
    return sorted((e.source, e.field, e.limit, e.actual) for e in validate(built))


def test_the_army_books_limits_and_their_modifiers_hold_in_the_roster():
    built, force = roster()
    warriors = built.select_entry(force, "ol-warriors")
    for _ in range(3):
        built.select_entry(force, "ol-cannon")
    # Command: at most 2, 1 less under 15 warriors; cannons at most 2 in an army under 3000 pts
    child(built, warriors, "ol-veteran")
    child(built, warriors, "ol-bearer")
    assert errors(built) == [
        ("of-standard-of-core/minPercentage", "points", 500.0, 100.0),
        ("ol-cannon/maxInRoster", "selections", 2.0, 3.0),
        ("ol-command/maxSelections", "selections", 1.0, 2.0),
    ]
    # a Grand Army with a lord in it has no cannon limit (the file's maxInRoster is -1, none)
    size = force.selections[0]  # the army size, taken with the force
    built.deselect(size.children[0])
    child(built, size, "ol-size-grand")
    assert ("ol-cannon/maxInRoster", "selections", 2.0, 3.0) in errors(built)  # no lord yet
    built.select_entry(force, "ol-lord")
    assert [e for e in errors(built) if e[0].startswith("ol-cannon")] == []


def test_a_profile_modifier_changes_a_characteristic_by_its_id():
    """BSData/whfb's Wood Elves (1.x, 2014): a shield lowers the armour save characteristic."""
    profile = {
        "id": "p",
        "typeId": "pt-model",
        "name": "Guard",
        "hidden": "false",
        "characteristics": [{"characteristicId": "c-save", "name": "Save", "value": "6"}],
        "modifiers": [modifier("decrement", "c-save", "1", conditions=[condition("unit", "shield")])],
    }
    link = {"id": "l", "targetId": "p", "linkType": "profile"}
    link["modifiers"] = [modifier("set", "c-save", "4"), modifier("set", "c-other", "1")]
    result = converted(sharedProfiles=[profile], entries=[entry("unit", links=[link])])
    (shared,) = result.catalogue["sharedProfiles"]
    assert [(m["type"], m["field"], m["value"]) for m in shared["modifiers"]] == [
        ("decrement", "c-save", "1")
    ]
    # through a link to the profile as well; a characteristic the profile lacks is not a field
    (unit,) = result.catalogue["selectionEntries"]
    assert [m["field"] for m in unit["infoLinks"][0]["modifiers"]] == ["c-save"]
    assert result.unmapped == {"modifier:field c-other": 1}
