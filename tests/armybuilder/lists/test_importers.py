"""One import entry point for lists from other tools (issue 28): Army Forge lists and army
books, BattleScribe and New Recruit rosters, text; each with a report of source against our
points, every problem naming its line or field, nothing half-saved."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from armybuilder.lists.importers import ImportProblem, Source, importer_for
from armybuilder.lists.imports import import_source
from armybuilder.models import ArmyList
from points.opr import price
from rules.models import Faction
from rules.systems.opr.unit_format import parse_unit

FIXTURES = Path(__file__).parent / "imports"


def fixture(name: str) -> Source:
    return Source(name=name, data=(FIXTURES / name).read_bytes())


@pytest.fixture
def player(db, django_user_model):
    call_command("load_catalogue", verbosity=0)
    return django_user_model.objects.create_user("player", password="a-long-test-password")


def formula(unit: dict) -> int:
    return price(parse_unit(unit)).points


@pytest.mark.parametrize(
    ("name", "key"),
    [("army_forge_list.json", "army_forge_list"), ("army_forge_book.json", "army_forge_book")],
)
def test_detect_picks_the_format(name, key):
    assert importer_for(fixture(name)).key == key


def test_detect_refuses_what_no_importer_reads():
    with pytest.raises(ImportProblem) as caught:
        importer_for(Source.of_text('{"hello": "there", "nothing": "here"}'))
    assert caught.value.errors[0][0] == "text"


def test_plain_text_goes_to_the_text_reader_which_answers_line_by_line():
    """Issue 43, item 8: a hand-typed list is read (or refused) line by line by the text
    reader, not refused whole as "not a list in any format we read"."""
    assert importer_for(Source.of_text("Warden-Captain\n10 Concord Wardens")).key == "text"


def test_army_forge_list_imports_with_its_report(player):
    outcome = import_source(user=player, source=fixture("army_forge_list.json"))
    report = outcome.imported.report()
    # the combined unit is merged into its twin: three entries, ten Wardens in one unit
    assert [(u["name"], u["size"], u["source_points"]) for u in report["units"]] == [
        ("Ember Wardens", 10, 215),
        ("Captain Vell", 1, 90),
        ("Cinder Walker", 1, 215),
    ]
    assert report["source_total"] == 520
    saved = ArmyList.objects.get(owner=player)
    units = list(saved.units.order_by("position"))
    assert [u.points for u in units] == [u["formula_points"] for u in report["units"]]
    assert [u.points for u in units] == [formula(u.data) for u in units]
    wardens = units[0].data
    # 4 Rifles + 1 Plasma Gun over 5 models, then the combined 5 riflemen
    assert [(m["count"], [w["name"] for w in m["weapons"]]) for m in wardens["models"]] == [
        (4, ["Rifle", "CCW"]),
        (1, ["Plasma Gun", "CCW"]),
        (5, ["Rifle", "CCW"]),
    ]
    assert wardens["models"][1]["weapons"][0]["ap"] == 4
    assert wardens["extra"]["text_rules"] == ["Ember Oath"]
    captain = units[1]
    assert captain.group == "Ember Wardens" and units[0].group == "Ember Wardens"
    assert captain.data["models"][0]["rules"] == ["Hero", "Furious"]
    assert captain.data["models"][0]["toughness"] == 3
    # rules the formula does not price stay on the unit as text and are named, not left out
    assert captain.data["extra"]["text_rules"] == ["Banner of Cinders"]
    assert [u["unpriced"] for u in report["units"]] == [["Ember Oath"], ["Banner of Cinders"], []]
    assert report["unpriced_rules"] == ["Ember Oath", "Banner of Cinders"]
    assert report["left_out"] == []


def test_army_forge_list_errors_name_the_field_and_save_nothing(player):
    data = json.loads((FIXTURES / "army_forge_list.json").read_text())
    data["units"][3]["quality"] = 9
    data["units"][0]["loadout"][0]["attacks"] = "many"
    with pytest.raises(ImportProblem) as caught:
        import_source(user=player, source=Source.of_text(json.dumps(data)))
    assert dict(caught.value.errors) == {
        "units[3].quality": "Must be a whole number from 2 to 6.",
        "units[0].loadout[0].attacks": "Must be a whole number from 0 to 100.",
    }
    assert not ArmyList.objects.exists()


def test_army_forge_book_becomes_a_private_faction(player):
    outcome = import_source(user=player, source=fixture("army_forge_book.json"))
    faction = Faction.objects.get(owner=player)
    assert (faction.name, faction.slug, faction.system.key) == ("Ember Legion", "af-fixturebook01", "opr")
    units = {u.name: u for u in faction.units.all()}
    assert sorted(units) == ["Ember Captain", "Ember Wardens"]
    assert units["Ember Captain"].data["extra"]["source_points"] == 70
    report = outcome.as_dict()["report"]
    assert [(u["name"], u["source_points"], u["formula_points"]) for u in report["units"]] == [
        ("Ember Wardens", 100, formula(units["Ember Wardens"].data)),
        ("Ember Captain", 70, formula(units["Ember Captain"].data)),
    ]
    assert report["left_out"] == []
    assert [u["unpriced"] for u in report["units"]] == [[], ["Ember Oath"]]
    assert report["unpriced_rules"] == ["Ember Oath"]
    assert units["Ember Captain"].data["extra"]["text_rules"] == ["Ember Oath"]
    options = {o.label: o for o in units["Ember Wardens"].options.all()}
    assert sorted(options) == ["Banner of Cinders", "Furious", 'Plasma Gun (24", A1, AP(4))']
    # an item of a rule no price reads: carried as Army Forge means it, the rule kept as text
    banner = options["Banner of Cinders"]
    gives = {"text_rules": ["Banner of Cinders"]}
    assert (banner.kind, banner.max_count, banner.payload) == (
        "add_item", 1, {"item": {"name": "Banner of Cinders", "gives": gives}})
    plasma = options['Plasma Gun (24", A1, AP(4))']
    assert (plasma.kind, plasma.max_count, plasma.payload["replace"]) == ("replace_weapon", 1, "Rifle")
    assert plasma.payload["with"] == [{"name": "Plasma Gun", "range": 24, "attacks": 1, "ap": 4}]
    assert (options["Furious"].kind, options["Furious"].payload) == ("add_rule", {"rule": "Furious"})


def test_dry_run_saves_nothing(player):
    outcome = import_source(user=player, source=fixture("army_forge_book.json"), dry_run=True)
    assert outcome.as_dict()["faction"]["name"] == "Ember Legion"
    assert not Faction.objects.filter(owner=player).exists()


def test_command_prints_list_and_report(player):
    out = io.StringIO()
    call_command("import_list", str(FIXTURES / "army_forge_list.json"), "--json", "--dry-run", stdout=out)
    printed = json.loads(out.getvalue())
    assert printed["list"]["name"] == "Ember Patrol"
    assert printed["report"]["source_total"] == 520
    assert [u["size"] for u in printed["report"]["units"]] == [10, 1, 1]
    assert not ArmyList.objects.exists()


def test_command_bad_input_exits_2_naming_the_field(player, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"name": "x", "units": [{"name": "A", "quality": 1, "defense": 4}]}))
    err = io.StringIO()
    with pytest.raises(CommandError) as caught:
        call_command("import_list", str(bad), "--format", "army_forge_list", "--dry-run", stderr=err)
    assert caught.value.returncode == 2
    assert json.loads(err.getvalue())["errors"] == [
        {"where": "units[0].quality", "message": "Must be a whole number from 2 to 6."}
    ]


def test_too_many_units_is_refused_before_reading_them(player):
    data = json.loads((FIXTURES / "army_forge_list.json").read_text())
    data["units"] = data["units"][3:] * 301
    with pytest.raises(ImportProblem) as caught:
        import_source(user=player, source=Source.of_text(json.dumps(data)))
    assert caught.value.errors == [("units", "At most 300 units can be imported at once.")]


def test_command_reads_text_against_a_system(player, tmp_path):
    text = tmp_path / "list.txt"
    text.write_text("Concord Wardens [10] Q4+ D5+ | 120pts | Fearless\nSomething odd\n")
    out = io.StringIO()
    call_command(
        "import_list", str(text), "--format", "text", "--system", "opr", "--dry-run", "--json", stdout=out
    )
    printed = json.loads(out.getvalue())
    assert printed["report"]["format"] == "text"
    assert [(u["name"], u["size"], u["source_points"]) for u in printed["report"]["units"]] == [
        ("Concord Wardens", 10, 120)
    ]
    assert printed["report"]["units"][0]["formula_points"] == formula(printed["list"]["units"][0]["unit"])
    assert printed["report"]["left_out"] == [
        "line 2: Concord Wardens: “Something odd” not understood; left out"
    ]


def test_our_json_file_reports_each_copy_and_keeps_its_errors(player):
    unit = {
        "format": 1,
        "system": "opr",
        "name": "Scouts",
        "extra": {"source_points": 40},
        "models": [
            {
                "name": "Scout",
                "count": 3,
                "quality": 4,
                "defence": 5,
                "weapons": [{"name": "Rifle", "range": 24, "attacks": 1}],
            }
        ],
    }
    data = {
        "format": 1,
        "system": "opr",
        "name": "Mine",
        "points_limit": 500,
        "units": [{"unit": unit, "count": 2}],
    }
    outcome = import_source(user=player, source=Source.of_text(json.dumps(data)), dry_run=True)
    assert outcome.imported.format == "json"
    assert [(u.name, u.size, u.source_points, u.formula_points) for u in outcome.imported.units] == [
        ("Scouts", 3, 40, formula(unit)),
        ("Scouts", 3, 40, formula(unit)),
    ]
    data["units"][0]["count"] = 0
    with pytest.raises(ImportProblem) as caught:
        import_source(user=player, source=Source.of_text(json.dumps(data)))
    assert caught.value.errors == [("units[0].count", "Must be a whole number from 1 to 100.")]


def test_the_older_share_shape_reads_the_same(player):
    """Army Forge's older share JSON (as in published samples): `specialRules` with `key` and an
    empty `rating`, `equipment` beside `loadout`, ratings as strings."""
    unit = {
        "armyId": "a1",
        "id": "u1",
        "selectionId": "s1",
        "name": "Raider",
        "combined": False,
        "joinToUnit": None,
        "cost": 60,
        "quality": 4,
        "defense": 3,
        "size": 1,
        "selectedUpgrades": [],
        "upgrades": ["C1"],
        "specialRules": [
            {"key": "fearless", "name": "Fearless", "rating": ""},
            {"key": "tough", "name": "Tough", "rating": "3"},
        ],
        "equipment": [
            {
                "type": "ArmyBookWeapon",
                "name": "CCW",
                "count": 1,
                "range": 0,
                "attacks": 2,
                "specialRules": [],
            }
        ],
        "loadout": [
            {
                "type": "ArmyBookWeapon",
                "name": "Master Pistol",
                "count": 1,
                "range": 12,
                "attacks": 2,
                "specialRules": [{"key": "ap", "modify": False, "name": "AP", "rating": "1"}],
            }
        ],
    }
    payload = {"gameSystem": "gf", "name": "Old shape", "points": 60, "pointsLimit": 200, "units": [unit]}
    outcome = import_source(user=player, source=Source.of_text(json.dumps(payload)), dry_run=True)
    (read,) = outcome.units
    assert read.data["models"] == [
        {
            "name": "Raider",
            "count": 1,
            "quality": 4,
            "defence": 3,
            "toughness": 3,
            "rules": ["Fearless"],
            "weapons": [{"name": "Master Pistol", "range": 12, "attacks": 2, "ap": 1}],
        }
    ]
    assert outcome.imported.report()["source_total"] == 60
