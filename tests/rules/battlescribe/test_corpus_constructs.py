"""Bug classes found by importing whole community corpora (issue 27: BSData/wh40k-9e, Ergofarg's
WHFB 6th edition, BSData/whfb, BSData's Age of Sigmar at tag v1.50.9), each reproduced in small
hand-written files of the same XML shape (invented data; no community file is committed):

- `hold.gst` + `hold_dwarfs.cat` (Ergofarg WHFB shape): a rune taken up to 3 times on one Lord,
  "Arcane Items" at most 0 unless the priest is a wizard (a limit raised by a modifier);
- `mortal.gst` + `mortal_beasts.cat` (AoS, BattleScribe 2.01 attributes): Move "*" read from the
  damage table, a random Move "2D6\"", a warscroll with no profile imported as one without;
- `chapter.cat` (40k chapter shape): a catalogue link without `importRootEntries`.
Expected values are worked out by hand from the files, the way BattleScribe shows them.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rules.battlescribe.engine.model import Definition, GameData, Option
from rules.battlescribe.mapping import BattleScribeMapping, random_average
from rules.battlescribe.units.data import Node
from rules.battlescribe_import import checked_faction, parse_import
from rules.options import OptionError, apply_options
from rules.systems.registry import all_systems, get_system
from tests.rules.battlescribe.files import sources

ROOT = Path(__file__).resolve().parents[3]


def units_of(result) -> dict:
    return {u.values["name"]: u for plan in result.plans for u in plan.units}


@pytest.fixture(scope="module")
def hold():
    result = parse_import(system_key="whfb6", files=sources("hold.gst", "hold_dwarfs.cat"))
    return result, units_of(result)


@pytest.fixture(scope="module")
def mortal():
    result = parse_import(system_key="aos1", files=sources("mortal.gst", "mortal_beasts.cat"))
    return result, units_of(result)


# ------------------------------------------------------------------ identity (the RecursionError)


def test_selection_nodes_compare_by_identity():
    """Nodes compared by value walk parent and children: a probe node removed with `list.remove`
    was a RecursionError on 32 of 52 wh40k-9e catalogues."""
    definition = Definition(kind="selectionEntry", id="e", name="E")
    entry = Option(GameData({}, []), definition, None, (), None, None)
    parent = Node(entry, 1)
    first, second = Node(entry, 1, parent), Node(entry, 1, parent)
    parent.children += [first, second]
    assert first != second
    parent.children.remove(second)
    assert parent.children == [first] and parent.children[0] is first


# ------------------------------------------------------------------ stacking and raised limits


def test_a_rune_taken_three_times_on_one_lord_stacks(hold):
    """Ergofarg Dwarfs were refused whole: “RUNE OF CLEAVING is taken 3 times but the Lord has
    only 1 models”. 140 + 3 × 25 = 215 points with three runes."""
    _result, units = hold
    lord = units["Hold Lord"]
    [rune] = [o.values for o in lord.options]
    assert (rune["label"], rune["kind"], rune["max_count"], rune["cost"]) == (
        "Rune of Cleaving",
        "add_item",
        3,
        25,
    )
    assert rune["payload"]["stacks"] is True
    changed = apply_options(lord.values["data"], [{"key": "rune", **rune}], {"rune": 3})
    assert [m["count"] for m in changed["models"]] == [1]
    assert [i["name"] for i in changed["models"][0]["items"]] == ["Rune of Cleaving"] * 3
    assert get_system("whfb6").price(changed)["points"] == 215


def test_a_stacking_option_still_respects_its_maximum(hold):
    _result, units = hold
    [rune] = [o.values for o in units["Hold Lord"].options]
    with pytest.raises(OptionError):
        apply_options(units["Hold Lord"].values["data"], [{"key": "rune", **rune}], {"rune": 4})


def test_a_group_at_most_0_that_a_wizard_level_raises_is_offered_up_to_the_raised_limit(hold):
    """Ergofarg Skaven were refused whole: “At most 0 of Arcane Items”."""
    result, units = hold
    options = {o.values["label"]: o.values for o in units["Rune Priest"].options}
    assert (options["Dispel Scroll"]["group"], options["Dispel Scroll"]["payload"]["group_max"]) == (
        "Arcane Items",
        1,
    )
    assert (
        "Arcane Items: at most 0, up to 1 with the selections that raise it"
        in (units["Rune Priest"].values["data"]["notes"])
    )
    assert any(
        "Arcane Items']: at most 0 at the smallest selection and up to 1" in w for w in result.warnings
    )


def test_a_cost_type_the_system_does_not_map_is_reported(hold):
    result, _units = hold
    assert "hold.gst: cost type ' Casting Dice' is not imported" in result.warnings


# ------------------------------------------------------------------ AoS 1st era (BattleScribe 2.01)


def test_warscroll_profiles_in_2_01_attributes_import(mortal):
    """AoS v1.50.9 imported 0 of 63 catalogues: “models[0].bravery: is required”."""
    _result, units = mortal
    hound = units["Rift Hound"].values["data"]["models"][0]
    assert {k: hound[k] for k in ("wounds", "bravery", "save", "points")} == {
        "wounds": 2,
        "bravery": 5,
        "save": None,
        "points": 60,
    }
    assert hound["weapons"] == [
        {
            "name": "Rift Bite",
            "type": "missile",
            "range": 6,
            "attacks": 2,
            "to_hit": 4,
            "to_wound": 4,
            "damage": 1,
        }
    ]


def test_move_written_star_reads_the_first_row_of_the_damage_table(mortal):
    """docs/rules/aos1.md §1.1: a monster's characteristics marked * are on its damage table; the
    unwounded row (0-3 wounds suffered) gives Move 10"."""
    _result, units = mortal
    wyrm = units["Cave Wyrm"].values["data"]
    assert (wyrm["models"][0]["move"], wyrm["models"][0]["wounds"]) == (10, 12)
    assert "Cave Wyrm: Move: * (damage table; 10 unwounded)" in wyrm["notes"]


def test_a_random_move_uses_its_average_and_keeps_the_dice_as_text(mortal):
    _result, units = mortal
    hound = units["Rift Hound"].values["data"]
    assert hound["models"][0]["move"] == 7
    assert 'Rift Hound: Move: 2D6" (the average, 7, used)' in hound["notes"]


def test_a_warscroll_without_a_profile_imports_marked_as_having_none(mortal):
    """AoS v1.50.9: 57 units (war machines, Allegiance, some heroes) have no warscroll profile;
    they import with their points and rules, marked so no estimate takes them."""
    result, units = mortal
    assert sorted(units) == ["Cave Wyrm", "Nameless Ghost", "Rift Hound"]
    ghost = units["Nameless Ghost"].values["data"]
    assert ghost["profile_in_source"] is False
    assert ghost["models"] == [{"name": "Nameless Ghost", "count": 1, "points": 20, "weapons": []}]
    assert "profile_in_source" not in units["Rift Hound"].values["data"]
    assert (
        "mortal_beasts.cat: catalogue/selectionEntry[@name='Nameless Ghost']: no complete profile in the "
        "data; imported, but it cannot be estimated"
    ) in result.warnings


@pytest.mark.parametrize(
    ("text", "average"), [('2D6"', 7), ("D6", 3), ("D3+1", 3), ("3D6", 10), ("6", None), ("*", None)]
)
def test_random_average(text, average):
    assert random_average(text) == average


# ------------------------------------------------------------------ catalogue links


def test_a_chapter_offers_its_own_roots_and_borrows_the_linked_catalogues_entries():
    """wh40k-9e Space Marines chapters gave 0 units; a link without importRootEntries lends its
    shared entries only, and the linked catalogue is not a faction of its own."""
    files = sources("grimdark.gst", "armoury.cat", "marines.cat", "chapter.cat")
    result = parse_import(system_key="wh40k9", files=files)
    assert result.summary()["factions"] == [
        {
            "id": None,
            "name": "Test Chapter",
            "slug": "bs-cat-chapter",
            "units": [{"name": "Tactical Squad", "points": 77, "power": 5, "models": 5}],
        }
    ]


# ------------------------------------------------------------------ one bad unit


def test_a_unit_the_catalogue_check_refuses_is_left_out_with_its_name_and_the_reason():
    good = {
        "name": "Fine",
        "slug": "fine",
        "role": "other",
        "models": [
            {
                "name": "Fine",
                "count": 1,
                "m": 4,
                "ws": 3,
                "bs": 3,
                "s": 3,
                "t": 3,
                "w": 1,
                "i": 3,
                "a": 1,
                "ld": 7,
                "points": 5,
            }
        ],
    }
    bad = {
        **good,
        "name": "Broken",
        "slug": "broken",
        "models": [{**good["models"][0], "name": "Broken", "ws": "lots"}],
    }
    faction = {
        "faction": {"slug": "bs-x", "name": "X", "version": "rev 1", "description": "d"},
        "units": [good, bad],
    }
    warnings: list[str] = []
    plan = checked_faction("whfb6", faction, "x.cat", set(), warnings)
    assert [u.values["name"] for u in plan.units] == ["Fine"]
    assert len(warnings) == 1 and warnings[0].startswith(
        "x.cat: Broken: left out: the catalogue check refuses it ("
    )


# ------------------------------------------------------------------ the seam


def test_every_battlescribe_system_declares_its_mapping_in_its_own_package():
    mapped = {s.key: s.battlescribe for s in all_systems() if s.maps_battlescribe}
    assert sorted(mapped) == ["aos1", "ru_whfb", "wh40k9", "whfb6"]
    assert all(isinstance(m, BattleScribeMapping) for m in mapped.values())
    assert mapped["wh40k9"].unit_cost(" PL").field == "power_rating"
    assert mapped["aos1"].is_model_type("Unit") and mapped["whfb6"].is_model_type("Profile")


def test_the_importer_names_no_system_and_no_system_field():
    """Issue 27 §4 / issue 23: the importer asks the system's mapping."""
    names = {s.key for s in all_systems()}
    fields = {"power_rating", "power_rating_rules", "slot", "bravery", "wounds", "ws", "sv"}
    found = []
    for path in sorted((ROOT / "rules" / "battlescribe").glob("*.py")):
        text = path.read_text(encoding="utf-8")
        for word in names | fields:
            if re.search(rf"[\"']{re.escape(word)}[\"']", text):
                found.append(f"{path.name}: {word}")
    assert found == []


# ------------------------------------------------------------------ abilities for the estimates


@pytest.mark.parametrize(
    ("text", "fields", "found"),
    [
        ("This model has a 4+ invulnerable save.", {"invuln": 4}, []),
        (
            "Each time a model in this unit would lose a wound, roll one D6: "
            "on a 5+, that wound is not lost.",
            {},
            [{"type": "feel_no_pain", "target": 5, "name": "X"}],
        ),
        (
            "Each time this model makes a melee attack, re-roll a hit roll of 1.",
            {},
            [{"type": "reroll", "roll": "hit", "which": "ones", "name": "X", "when": "melee"}],
        ),
        (
            "Each time this model makes an attack, add 1 to that attack's wound roll.",
            {},
            [{"type": "modifier", "roll": "wound", "value": 1, "name": "X"}],
        ),
        # auras and mortal-wound-only saves are about other units or other damage: text only
        ('While a friendly unit is within 6" of this model, it has a 5+ invulnerable save.', {}, []),
        (
            "Each time this model would lose a wound as the result of a mortal wound, roll one D6: "
            "on a 5+, that wound is not lost.",
            {},
            [],
        ),
        (
            "Each time this model makes an attack, if the target is a VEHICLE, re-roll a hit roll of 1.",
            {},
            [],
        ),
    ],
)
def test_40k_ability_wordings_read_for_the_estimates(text, fields, found):
    """docs/rules/wh40k9.md §12.1 (abilities as data): the common BSData/wh40k-9e wordings."""
    from rules.systems.wh40k9.battlescribe import read_ability

    assert read_ability("X", text) == (fields, found)


def test_a_battlescribe_1_catalogue_imports_as_battlescribe_2_converts_it():
    """BSData/whfb keeps nine 8th-edition army books in the 1.x format (battleScribeVersion 1.15):
    the import reads them through the engine's model (`engine.legacy_catalogue`), priced by
    their `points` attributes. `oldforce_legacy.cat` (invented, 1.15 shape): 10 Hold Warriors at
    8 pts (their armour, 1 pt a model, is an option); the Lord at 110."""
    result = parse_import(system_key="ru_whfb", files=sources("oldforce.gst", "oldforce_legacy.cat"))
    [faction] = result.summary()["factions"]
    points = {u["name"]: u["points"] for u in faction["units"]}
    assert faction["name"] == "Test Hold (1.x)"
    assert {k: points.get(k) for k in ("Hold Lord", "Hold Warriors", "Hold Cannon")} == {
        "Hold Lord": 110, "Hold Warriors": 80, "Hold Cannon": 120}
    # the converted file's limits that bound nothing (max -1, min 0) are no "kept as text" notes
    assert not [w for w in result.warnings if " -1 " in w or "min 0 " in w]
    assert any("limit max 1 per roster is kept as text" in w for w in result.warnings)


def test_a_battlescribe_1_catalogue_with_a_price_that_is_no_number_is_refused():
    from rules.battlescribe.xml_reader import BattleScribeError, SourceFile

    old = (
        b'<?xml version="1.0" encoding="UTF-8"?><catalogue xmlns="http://www.battlescribe.net/schema/'
        b'catalogueSchema" id="old-cat" revision="1" gameSystemId="sys-oldforce" battleScribeVersion="1.15" '
        b'name="Old Book"><entries><entry id="e1" name="Archers" points="ten" type="unit"/></entries>'
        b"</catalogue>"
    )
    with pytest.raises(BattleScribeError) as caught:
        parse_import(system_key="ru_whfb", files=[*sources("oldforce.gst"), SourceFile("old.cat", old)])
    assert caught.value.errors == [
        "old.cat: catalogue/entry[@name='Archers']@points: 'ten' is not a number"
    ]


def test_a_battlescribe_1_game_system_prices_its_2_x_catalogues_in_points():
    """BSData/whfb's "Warhammer Fantasy 8th ed.gst" is a 1.15 file (points built in, no
    <costTypes>; categories inside its force types) under every 8thBRB army book, which
    BattleScribe 2.03 wrote with its costs as the type "points" named "pts" and its units linked
    to those categories. Every unit of them imported at 0 points and with no army slot;
    BattleScribe shows them at their price (Orc Boyz 6 points a model) in their slot."""
    from rules.battlescribe.xml_reader import SourceFile

    system = (
        b'<?xml version="1.0" encoding="UTF-8"?><gameSystem xmlns="http://www.battlescribe.net/schema/'
        b'gameSystemSchema" id="be4eb679-97dc-4876-b582-19ff87fae0fd" revision="9" '
        b'battleScribeVersion="1.15" name="Warhammer Fantasy 8th ed"><forceTypes><forceType id="std" '
        b'name="Standard" minSelections="0" maxSelections="-1"><categories><category id="core" name="Core" '
        b'minSelections="0" maxSelections="-1"/></categories></forceType></forceTypes></gameSystem>'
    )
    book = (
        b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><catalogue id="og" name="Orcs" '
        b'revision="1" battleScribeVersion="2.03" library="false" '
        b'gameSystemId="be4eb679-97dc-4876-b582-19ff87fae0fd" gameSystemRevision="1" '
        b'xmlns="http://www.battlescribe.net/schema/catalogueSchema"><selectionEntries>'
        b'<selectionEntry id="boyz" name="Orc Boyz" hidden="false" collective="false" type="unit">'
        b'<categoryLinks><categoryLink id="boyz-core" name="Core" hidden="false" targetId="core" '
        b'primary="true"/></categoryLinks>'
        b'<selectionEntries><selectionEntry id="boy" name="Orc Boy" hidden="false" collective="false" '
        b'type="model"><constraints><constraint field="selections" scope="parent" value="10.0" '
        b'id="boy-min" type="min"/></constraints><costs><cost name="pts" typeId="points" value="6.0"/>'
        b"</costs></selectionEntry></selectionEntries>"
        b'<costs><cost name="pts" typeId="points" value="0.0"/></costs></selectionEntry>'
        b"</selectionEntries></catalogue>"
    )
    result = parse_import(system_key="ru_whfb",
                          files=[SourceFile("System.gst", system), SourceFile("Orcs.cat", book)])
    (boyz,) = [u for f in result.summary()["factions"] for u in f["units"] if u["name"] == "Orc Boyz"]
    assert (boyz["points"], boyz["models"]) == (60, 10)
    # its categories are declared in its force types: a unit linked to "Core" takes that slot
    (data,) = [u.values["data"] for plan in result.plans for u in plan.units
               if u.values["name"] == "Orc Boyz"]
    assert data.get("slot") == "core"


def test_a_random_value_in_a_damage_table_reads_as_its_average():
    """AoS Gigantic Chaos Spawn: Move "*" and "3D6\"" in the table's first row."""
    from rules.battlescribe.units import UnitMapper

    move = get_system("aos1").profile_schema["properties"]["move"]
    table = (["Wounds Suffered", "Move"], ["0-3", '3D6"'])
    assert UnitMapper.from_table(table, "Move", 0, move, random=True) == 10
    assert UnitMapper.from_table(table, "Move", 0, move) is None


def test_a_catalogues_own_variant_of_the_model_profile_type_is_read_as_the_model():
    """wh40k-9e Titan Legions writes its Titans in "Unit (Titan)": the 40k Unit profile plus
    Void Shields. W 120 (a Warlord Titan) fits the 40k profile."""
    from rules.battlescribe.xml_reader import SourceFile

    chars = ("M", "WS", "BS", "S", "T", "W", "A", "Ld", "Save")
    gst = (
        '<gameSystem xmlns="http://www.battlescribe.net/schema/gameSystemSchema" id="sys-t" name="T" '
        'revision="1" battleScribeVersion="2.03"><costTypes><costType id="pts" name="pts"/>'
        '<costType id="pl" name=" PL"/></costTypes><profileTypes><profileType id="unit" name="Unit">'
        "<characteristicTypes>"
        + "".join(f'<characteristicType id="u{c}" name="{c}"/>' for c in chars)
        + "</characteristicTypes></profileType></profileTypes></gameSystem>"
    )
    values = ('12"', "4+", "3+", "9", "9", "120", "4", "10", "2+", "12")
    cat = (
        '<catalogue xmlns="http://www.battlescribe.net/schema/catalogueSchema" id="cat-t" name="Titans" '
        'revision="1" battleScribeVersion="2.03" gameSystemId="sys-t"><profileTypes>'
        '<profileType id="titan" name="Unit (Titan)"><characteristicTypes>'
        + "".join(f'<characteristicType id="t{c}" name="{c}"/>' for c in (*chars, "Void Shields"))
        + '</characteristicTypes></profileType></profileTypes><selectionEntries><selectionEntry id="se-w" '
        'name="Warlord" type="model"><profiles><profile id="p-w" name="Warlord" typeId="titan" '
        'typeName="Unit (Titan)"><characteristics>'
        + "".join(
            f'<characteristic name="{c}" typeId="t{c}">{v}</characteristic>'
            for c, v in zip((*chars, "Void Shields"), values, strict=True)
        )
        + '</characteristics></profile></profiles><costs><cost name="pts" typeId="pts" value="5500"/>'
        '<cost name=" PL" typeId="pl" value="275"/></costs></selectionEntry></selectionEntries></catalogue>'
    )
    result = parse_import(
        system_key="wh40k9", files=[SourceFile("t.gst", gst.encode()), SourceFile("t.cat", cat.encode())]
    )
    [unit] = [u.values["data"] for plan in result.plans for u in plan.units]
    model = unit["models"][0]
    assert {k: model[k] for k in ("m", "w", "sv", "points")} == {"m": 12, "w": 120, "sv": 2, "points": 5500}
    assert unit["power_rating"] == 275


# ------------------------------------------------------------------ AoS 1st: the 75 left out


@pytest.fixture(scope="module")
def host():
    result = parse_import(system_key="aos1", files=sources("mortal.gst", "mortal_host.cat"))
    return result, units_of(result)


def test_a_war_machine_reads_move_and_attacks_from_the_crew_table_with_the_most_crew(host):
    """AoS v1.50.9 war machines (Greatcannon, Field Trebuchet) were left out: Move "*" is in a
    "Crew Table" whose first row names the columns and whose healthiest row is "3 models", not
    "No models"; the Bolt's Attacks "*" is the table's "Bolt" column."""
    _result, units = host
    engine = units["Bolt Engine"].values["data"]["models"][0]
    assert (engine["move"], engine["bravery"], engine["wounds"]) == (4, None, 5)
    assert engine["weapons"][0]["attacks"] == 2
    data = units["Bolt Engine"].values["data"]
    assert "abilities" not in data  # the table's rows are notes, not abilities
    assert 'Crew Table Crew1: Variable1: 3 models; Variable2: 4"; Variable3: 2' in data["notes"]


def test_a_wound_table_whose_last_row_moves_a_dice_value_is_no_header(host):
    """Dread Maw and Gigantic Chaos Spawn: a last row 'D6"' was taken for a header row, so Move
    came from the wrong column and the unit was left out."""
    _result, units = host
    gorger = units["Gorger"].values["data"]["models"][0]
    assert gorger["move"] == 10
    assert gorger["weapons"][0]["rend"] == -2


def test_a_unit_sized_by_a_numbered_upgrade_counts_its_models_and_grows_by_that_many(host):
    """'Bloodhorns' takes 1 to 3 of '10 Bloodhorns' at 100 points each: 10 models at 10 points,
    an option adding 10 at a time (up to 30), priced as BattleScribe prices 20."""
    _result, units = host
    horns = units["Bloodhorns"]
    data = horns.values["data"]
    assert [(m["name"], m["count"], m["points"]) for m in data["models"]] == [("Bloodhorns", 10, 10)]
    assert "items" not in data["models"][0]  # the size selection is no equipment
    [grow] = [o.values for o in horns.options if o.values["kind"] == "add_models"]
    label_parts = {"model": "Bloodhorns", "per": 10, "up_to": 30}  # the label, shown translated
    assert (grow["payload"], grow["max_count"]) == ({"count": 10, "label_parts": label_parts}, 2)
    bigger = apply_options(data, [{"key": "grow", **grow}], {"grow": 1})
    assert bigger["models"][0]["count"] == 20
    assert get_system("aos1").price(bigger)["points"] == 200
    assert data["battlescribe_per_selection"] == {"Bloodhorns": 10}


def test_a_size_step_of_no_whole_points_per_model_prices_the_option_itself(host):
    """K'daai Fireborn: 3 models for 160 points a selection. The models cost 0, the unit's
    fixed part 160, and each 3 more cost 160 through the option: 320 for 6, as BattleScribe."""
    _result, units = host
    fire = units["Fireborn"]
    data = fire.values["data"]
    assert [(m["name"], m["count"], m["points"]) for m in data["models"]] == [("Fireborn", 3, 0)]
    [grow] = [o.values for o in fire.options if o.values["kind"] == "add_models"]
    label_parts = {"model": "Fireborn", "per": 3, "up_to": 9}
    assert (grow["payload"], grow["cost"]) == ({"count": 3, "label_parts": label_parts}, 160)
    assert get_system("aos1").price(data)["points"] == 160
    bigger = apply_options(data, [{"key": "grow", **grow}], {"grow": 1})
    assert (bigger["models"][0]["count"], get_system("aos1").price(bigger)["points"]) == (6, 320)


def test_a_unit_sized_by_a_numbered_model_entry_without_a_profile(host):
    """Gutter Runners: the model entry '5 Gutter Runners' taken 1 to 4 times, no warscroll."""
    _result, units = host
    data = units["Skulkers"].values["data"]
    assert [(m["name"], m["count"], m["points"]) for m in data["models"]] == [("Skulkers", 5, 12)]
    assert data["profile_in_source"] is False


def test_ability_texts_in_common_wordings_become_structured_abilities_and_the_rest_stays_text(host):
    _result, units = host
    data = units["Bloodhorns"].values["data"]
    assert data["models"][0]["abilities"] == [
        {"type": "reroll", "roll": "hit", "which": "ones", "name": "Blood Frenzy"},
        {"type": "modifier", "roll": "wound", "value": 1, "name": "Gore Fury", "weapon": "Gore Axes"},
    ]
    assert {a["name"]: a.get("read", False) for a in data["abilities"]} == {
        "Blood Frenzy": True,
        "Gore Fury": True,
        "Trampling Charge": False,
    }
    warden = units["Warden"].values["data"]["models"][0]
    assert warden["abilities"] == [{"type": "ward", "target": 5, "name": "Warding Sigil"}]


def test_a_roster_of_a_unit_sized_by_name_writes_selections_not_models():
    """20 Bloodhorns are 2 selections of '10 Bloodhorns' in the BattleScribe roster."""
    from rules.battlescribe.unit_roster import RosterDocument, RosterUnit, roster_xml

    unit = RosterUnit(
        name="Bloodhorns",
        entry_id="mo-horns",
        points=200,
        power=None,
        models=[{"name": "Bloodhorns", "count": 20}],
        model_ids={"Bloodhorns": "mo-horns-10"},
        per_selection={"Bloodhorns": 10},
    )
    doc = RosterDocument(
        name="List",
        system_id="sys-mortal",
        system_name="Mortal",
        catalogue_id="mo-cat-host",
        catalogue_name="Mortal Host",
        points_limit=None,
        units=[unit],
    )
    xml = roster_xml(doc).decode()
    [model] = re.findall(r"<selection [^>]*entryId=\"mo-horns-10\"[^>]*>", xml)
    assert 'number="2"' in model


def test_the_report_says_which_units_have_no_profile_and_which_sizes_were_derived(host):
    """What a player reads after the import: the units without a profile by name, the sizes
    read from numbered selections among the choices made; abilities read are not 'kept as text'."""
    result, _units = host
    report = {group["kind"]: group for group in result.summary()["report"]}
    assert report["no_profile"]["names"] == ["Skulkers"]
    assert report["no_profile"]["text"].startswith("1 unit has no profile in its catalogue")
    assert {"Bloodhorns", "Skulkers", "Fireborn"} <= set(report["guessed"]["names"])
    assert "quiet" not in report
    assert "Blood Frenzy" not in str(report.get("other", ""))


@pytest.mark.parametrize(
    ("name", "prices"),
    [
        # Bestigors' shape: 140 per selection on the unit, 60 off at 3 selections
        ("Tuskguard", {10: 140, 20: 280, 30: 360}),
        # Plague Monks' shape: 70 per model entry, 10 off each when 4 are taken
        ("Plague Brothers", {10: 70, 20: 140, 30: 210, 40: 240}),
        # Tuskgor Chariots' shape: a model entry at 0, the unit 60 a model, here 20 off at 3
        ("Gore Chariots", {1: 60, 2: 120, 3: 160}),
    ],
)
def test_a_unit_cheaper_at_its_largest_size_is_priced_as_battlescribe_prices_every_size(host, name, prices):
    """AoS 1st data prices the largest unit below the per-step price (Bestigors 30 are 360, not
    420): the add-models option carries each size's price, so every size costs what it does in
    BattleScribe, and the import no longer says that only some sizes are exact."""
    result, units = host
    unit = units[name]
    data = unit.values["data"]
    [grow] = [{"key": o.key, **o.values} for o in unit.options if o.values["kind"] == "add_models"]
    smallest = data["models"][0]["count"]
    for size, points in prices.items():
        taken = (size - smallest) // grow["payload"]["count"]
        bigger = apply_options(data, [grow], {grow["key"]: taken})
        assert bigger["models"][0]["count"] == size
        assert get_system("aos1").price(bigger)["points"] == points, size
    assert not [w for w in result.warnings if f"'{name}'" in w and "exact" in w]
