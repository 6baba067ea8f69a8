"""Army Forge files as players have them import whole (issue 41): a v3.5.3 army book with rules
the formula does not price, a list with a hero whose Tough comes from a mount and Counter on a
weapon. The unpriced rules stay on the units as text, are counted in the report and named
beside the formula's price, on the faction's rule list and in the points audit."""

from __future__ import annotations

import collections
import io
import json
import zipfile
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse

from armybuilder.lists.importers import ImportProblem, Source
from armybuilder.lists.imports import import_report_rows, import_source
from armybuilder.lists.services import list_units_in_order
from points.opr import price
from rules.models import Faction
from rules.systems.opr.unit_format import parse_unit
from tests.factories.army_lists import token_client
from tests.factories.list_imports import page_result

FIXTURES = Path(__file__).parent / "imports"


def fixture(name: str) -> Source:
    return Source(name=name, data=(FIXTURES / name).read_bytes())


def formula(unit: dict) -> int:
    return price(parse_unit(unit)).points


@pytest.fixture
def player(db, client, django_user_model):
    call_command("load_catalogue", verbosity=0)
    user = django_user_model.objects.create_user("player", password="a-long-test-password")
    client.force_login(user)
    return user


def test_a_v353_army_book_with_rules_we_do_not_price_becomes_a_faction(player):
    """Strider is our Agile (points/opr/OLD_OPR.md); Melee Evasion, Wild Veil and Bane are
    priced by no row of docs/rules/opr-points.md, so they are kept as text and named, not refused."""
    outcome = import_source(user=player, source=fixture("army_forge_book_v353.json"))
    faction = Faction.objects.get(owner=player)
    units = {u.name: u for u in faction.units.all()}
    ancient = units["Grove Guardian Ancient"].data
    assert ancient["models"] == [
        {"name": "Grove Guardian Ancient", "count": 1, "quality": 3, "defence": 3, "toughness": 9,
         "rules": ["Fear(2)", "Hero", "Agile"],
         "weapons": [{"name": "Great Hammer", "range": 0, "attacks": 3, "ap": 2, "rules": ["Blast(3)"]}]},
    ]
    assert ancient["extra"]["text_rules"] == ["Melee Evasion", "Wild Veil"]
    wardens = units["Thorn Spear Wardens"].data
    # Counter, written on the spear by Army Forge, is a rule of the models carrying it
    assert wardens["models"] == [
        {"name": "Thorn Spear Wardens", "count": 10, "quality": 4, "defence": 5,
         "rules": ["Agile", "Counter"], "weapons": [{"name": "Thorn Spear", "range": 0, "attacks": 1}]},
    ]
    assert wardens["extra"]["text_rules"] == ["Wild Veil", "Bane"]
    report = import_report_rows(outcome)
    assert [(u["name"], u["source_points"], u["formula_points"], u["unpriced"]) for u in report["units"]] == [
        ("Grove Guardian Ancient", 260, formula(ancient), ["Melee Evasion", "Wild Veil"]),
        ("Thorn Spear Wardens", 150, formula(wardens), ["Wild Veil", "Bane"]),
    ]
    assert report["unpriced_rules"] == ["Melee Evasion", "Wild Veil", "Bane"]
    assert report["left_out"] == []
    options = list(units["Thorn Spear Wardens"].options.values_list("label", "kind"))
    assert options == [
        ('Longbow (24", A1)', "replace_weapon"), ("Great Stag (Impact(2), Tough(3))", "add_item"),
    ]
    # the faction's rule list: each unpriced rule with the book's text
    assert faction.rules == [
        {"name": "Melee Evasion",
         "text": "Enemies get -1 to hit in melee when attacking units where all models have this rule."},
        {"name": "Wild Veil", "text": "When this unit is shot from over 9\" away, it counts as in cover."},
        {"name": "Bane",
         "text": "Ignores Regeneration, and the target must re-roll unmodified defense results of 6."},
    ]


def test_a_mount_of_the_book_is_an_option_the_formula_prices(player):
    """Army Forge's Great Stag (Impact(2), Tough(3)) taken by a Warden: the model gains Tough(3)
    (it had none, so toughness 3), the formula prices that, and Impact(2), which no price
    reads, is kept on the unit as text and named as unpriced."""
    from armybuilder.lists.services import army_list_add_unit, army_list_create
    from rules.models import GameSystem

    import_source(user=player, source=fixture("army_forge_book_v353.json"))
    faction = Faction.objects.get(owner=player)
    wardens = faction.units.get(name="Thorn Spear Wardens")
    stag = wardens.options.get(kind="add_item")
    assert stag.payload == {"item": {"name": "Great Stag (Impact(2), Tough(3))",
                                     "gives": {"toughness": 3, "text_rules": ["Impact(2)"]}}}
    army_list = army_list_create(owner=player, system=GameSystem.objects.get(key="opr"), faction=faction,
                                 name="Grove", points_limit=1000)
    unit = army_list_add_unit(army_list=army_list, unit=wardens, options={stag.key: 1},
                              expected_version=army_list.version)
    mounted = [m for m in unit.data["models"] if m.get("toughness")]
    assert [(m["count"], m["toughness"]) for m in mounted] == [(1, 3)]
    assert unit.data["extra"]["text_rules"] == ["Wild Veil", "Bane", "Impact(2)"]
    assert unit.points == formula(unit.data) > formula(wardens.data)


def test_the_faction_page_lists_the_army_rules_and_the_audit_names_them(client, player):
    import_source(user=player, source=fixture("army_forge_book_v353.json"))
    faction = Faction.objects.get(owner=player)
    response = client.get(reverse("rules:faction", args=["opr", faction.slug]))
    page = response.content.decode()
    veil = "When this unit is shot from over 9&quot; away, it counts as in cover."
    assert f"<dt>Wild Veil</dt><dd>{veil}</dd>" in page
    rows = {row.name: row for row in response.context["audit"]}
    assert rows["Thorn Spear Wardens"].unpriced == ("Wild Veil", "Bane")
    assert "formula price without: Wild Veil, Bane" in page
    # each unit's card shows the rules it keeps as text
    assert ('<span class="unit-rules-label">Not priced by the formula:</span> Wild Veil, Bane</p>'
            in page)


def test_a_list_with_a_mounted_hero_and_counter_on_a_weapon_imports(client, player):
    """The AoF list the issue names was refused for `Tough(12) contradicts toughness 3` and
    `Counter is a model rule`: the hero's Tough(3) and the War Sphinx's Tough(12) make 15."""
    outcome = import_source(user=player, source=fixture("army_forge_list_mounted.json"))
    lord, skeletons = list_units_in_order(outcome.army_list)
    assert lord.data["models"] == [
        {"name": "Vampire Lord", "count": 1, "quality": 3, "defence": 4, "toughness": 15,
         "rules": ["Hero", "Fear(2)", "Counter"],
         "weapons": [{"name": "Lance Spear", "range": 0, "attacks": 3, "ap": 1},
                     {"name": "Stomp", "range": 0, "attacks": 4, "ap": 1}]},
    ]
    assert lord.points == 250  # worked in tests/rules/systems/opr/test_army_forge.py
    assert skeletons.data["models"][0]["rules"] == ["Shield"]  # Shield Wall is our Shield
    assert (lord.group, skeletons.group) == ("Skeleton Warriors", "Skeleton Warriors")
    report = import_report_rows(outcome)
    assert [(u["name"], u["source_points"], u["formula_points"], u["unpriced"]) for u in report["units"]] == [
        ("Vampire Lord", 280, 250, ["Armor(2)"]),
        ("Skeleton Warriors", 160, skeletons.points, ["Undead"]),
    ]
    assert report["unpriced_rules"] == ["Armor", "Undead"]
    assert (report["source_total"], report["formula_total"]) == (440, 250 + skeletons.points)
    # the points audit of the list names them per unit and for the list
    audit = client.get(reverse("lists:audit", args=[outcome.army_list.pk]))
    assert [(r.name, r.unpriced) for r in audit.context["rows"]] == [
        ("Vampire Lord", ("Armor(2)",)), ("Skeleton Warriors", ("Undead",)),
    ]
    assert audit.context["unpriced"] == ["Armor", "Undead"]
    text = audit.content.decode()
    assert "2 rules not priced by the formula: Armor, Undead" in text
    assert "formula price without: Armor(2)" in text
    unit_page = client.get(reverse("lists:audit_unit", args=[outcome.army_list.pk, lord.pk])).content.decode()
    assert "formula price without: Armor(2)" in unit_page
    # the roster (page, print, PDF) shows them on the unit's card
    roster = client.get(reverse("lists:roster", args=[outcome.army_list.pk])).content.decode()
    assert "<li>Not priced by the formula: Armor(2)</li>" in roster
    assert "<li>Not priced by the formula: Undead</li>" in roster


def test_the_audit_api_names_the_unpriced_rules_per_unit(player):
    outcome = import_source(user=player, source=fixture("army_forge_list_mounted.json"))
    lord, skeletons = list_units_in_order(outcome.army_list)
    api = token_client(player)
    answer = api.get(f"/api/v1/lists/{outcome.army_list.pk}/audit")
    assert answer.status_code == 200
    assert answer.json() == {
        "units": [
            {"id": lord.pk, "name": "Vampire Lord", "models": 1, "book": 280.0, "formula": 250, "gap": -30.0,
             "unpriced": ["Armor(2)"]},
            {"id": skeletons.pk, "name": "Skeleton Warriors", "models": 10, "book": 160.0,
             "formula": skeletons.points, "gap": float(skeletons.points - 160), "unpriced": ["Undead"]},
        ],
        "total": {"book": 440.0, "formula": 250 + skeletons.points,
                  "gap": float(250 + skeletons.points - 440), "audited": 2, "units": 2},
        "unpriced_rules": ["Armor", "Undead"],
    }
    other = django_user_model_other(player)
    assert token_client(other).get(f"/api/v1/lists/{outcome.army_list.pk}/audit").status_code == 404
    # a system without a published formula has no audit, as on the page
    from armybuilder.lists.services import army_list_create
    from rules.models import GameSystem

    old_world = army_list_create(owner=player, system=GameSystem.objects.get(key="whfb6"), faction=None,
                                 name="Old world", points_limit=2000)
    assert api.get(f"/api/v1/lists/{old_world.pk}/audit").json()["code"] == "not_found"


def django_user_model_other(player):
    return type(player).objects.create_user("stranger", password="a-long-test-password")


def test_the_import_report_page_counts_the_unpriced_rules(client, player, inline_pdf_renders):
    text = (FIXTURES / "army_forge_list_mounted.json").read_text()
    response = page_result(client, client.post(reverse("lists:import"), {"text": text, "action": "check"}))
    page = response.content.decode()
    assert "2 rules not priced by the formula: Armor, Undead" in page
    assert "formula price without: Armor(2)" in page


def test_the_command_prints_what_the_formula_price_is_without(player):
    out = io.StringIO()
    call_command("import_list", str(FIXTURES / "army_forge_list_mounted.json"), "--dry-run", stdout=out)
    lines = out.getvalue().splitlines()
    assert "  Vampire Lord [1]: source 280, ours 250 (without Armor(2))" in lines
    assert "  2 rules not priced by the formula: Armor, Undead" in lines


def _zipped(*names: str) -> Source:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in names:
            archive.writestr(name, (FIXTURES / name).read_bytes())
    return Source(name="vanguard.zip", data=buffer.getvalue())


def _units(outcome) -> list[tuple]:
    return [(u.name, u.group, u.points, u.data["models"], u.data["extra"].get("text_rules"))
            for u in list_units_in_order(outcome.army_list)]


def test_a_save_file_without_its_book_names_the_book_and_how_to_bring_it(player):
    with pytest.raises(ImportProblem) as caught:
        import_source(user=player, source=fixture("army_forge_save.json"))
    assert caught.value.errors == [(
        "army_forge_save.json",
        "This Army Forge save file lists its units by their ids in the army book “Ember Pact” "
        "(emberPact0001), version 3.5.1, which is not in your catalogue. Import that army book first "
        "(paste https://army-forge.onepagerules.com/api/army-books/emberPact0001?gameSystem=2 on the "
        "Import page, or upload its JSON), or upload a .zip holding the save file and the book; then "
        "import the save file again.",
    )]


def test_a_save_file_reads_its_units_against_the_book_in_the_catalogue(player):
    """The save file names units and upgrades by id only: the book imported before gives the
    profiles, the gear after each upgrade (a pistol replaced, one rifle of five replaced, all
    rifles of the combined twin replaced) and the costs; the hero's drake adds Tough(3) to his
    own, Flying and its claws, and Impact stays as text."""
    import_source(user=player, source=fixture("army_forge_save_book.json"))
    outcome = import_source(user=player, source=fixture("army_forge_save.json"))
    assert outcome.saved and outcome.imported.format == "army_forge_save"
    captain, guard = list_units_in_order(outcome.army_list)
    assert captain.data["models"] == [
        {"name": "Ember Captain", "count": 1, "quality": 3, "defence": 4, "toughness": 6,
         "rules": ["Hero", "Flying"],
         "weapons": [{"name": "CCW", "range": 0, "attacks": 2},
                     {"name": "Plasma Pistol", "range": 12, "attacks": 1, "ap": 4},
                     {"name": "Drake Claws", "range": 0, "attacks": 3, "ap": 1}]},
    ]
    assert captain.data["extra"]["text_rules"] == ["Impact(3)"]
    assert sum(m["count"] for m in guard.data["models"]) == 10  # the combined twin merged into its unit
    carried = collections.Counter(
        w["name"] for m in guard.data["models"] for w in m.get("weapons", []) for _ in range(m["count"]))
    assert carried == {"Rifle": 4, "Heavy Gun": 1, "Flamer": 5, "CCW": 10}
    assert sum(m["count"] for m in guard.data["models"] if "Fearless" in m.get("rules", [])) == 1
    assert (captain.group, guard.group) == ("Ember Guard", "Ember Guard")
    report = import_report_rows(outcome)
    assert [(u["name"], u["size"], u["source_points"], u["unpriced"]) for u in report["units"]] == [
        ("Ember Captain", 1, 135, ["Impact(3)"]),
        ("Ember Guard", 10, 230, []),
    ]
    assert report["source_total"] == 365  # the save file's own listPoints
    assert report["formula_total"] == captain.points + guard.points
    assert report["left_out"] == []
    assert outcome.army_list.name == "Ember vanguard" and outcome.army_list.points_limit == 500


def test_a_save_file_uploaded_with_its_book_in_a_zip_imports_alike(player):
    import_source(user=player, source=fixture("army_forge_save_book.json"))
    from_catalogue = _units(import_source(user=player, source=fixture("army_forge_save.json")))
    other = type(player).objects.create_user("newcomer", password="a-long-test-password")
    outcome = import_source(user=other, source=_zipped("army_forge_save.json", "army_forge_save_book.json"))
    assert outcome.imported.format == "army_forge_save"
    assert _units(outcome) == from_catalogue
    assert not Faction.objects.filter(owner=other).exists()  # the book is read, not imported


def test_a_save_file_of_another_version_leaves_out_what_the_book_no_longer_has(player):
    """A unit or an upgrade the kept version of the book does not have is named, not guessed."""
    import_source(user=player, source=fixture("army_forge_save_book.json"))
    save = json.loads((FIXTURES / "army_forge_save.json").read_text())
    save["armyVersions"][0]["version"] = "3.4.0"
    save["list"]["units"].append({"id": "gone01", "armyId": "emberPact0001", "selectionId": "s9",
                                  "selectedUpgrades": []})
    save["list"]["units"][0]["selectedUpgrades"].append({"upgradeId": "sX", "optionId": "oX"})
    outcome = import_source(user=player, source=Source(name="old.json", data=json.dumps(save).encode()),
                            dry_run=True)
    assert outcome.imported.left_out == [
        "Ember Captain: an upgrade (option oX) that version 3.5.1 of Ember Pact does not have",
        "a unit (id gone01) that version 3.5.1 of Ember Pact does not have",
    ]
    assert [u.name for u in outcome.imported.units] == ["Ember Captain", "Ember Guard"]


def test_a_save_file_finds_the_book_of_its_own_game_system(player):
    """The same book differs per game system (Firefight's units are single models): a Grimdark
    Future save file is not read against the Firefight book."""
    book = json.loads((FIXTURES / "army_forge_save_book.json").read_text())
    book.update(gameSystemKey="GFF", gameSystemId=3, gameSystemSlug="grimdark-future-firefight")
    import_source(user=player, source=Source(name="gff.json", data=json.dumps(book).encode()))
    assert Faction.objects.get(owner=player).slug == "af-emberpact0001-gff"
    with pytest.raises(ImportProblem):
        import_source(user=player, source=fixture("army_forge_save.json"), dry_run=True)
    import_source(user=player, source=fixture("army_forge_save_book.json"))
    assert import_source(user=player, source=fixture("army_forge_save.json"), dry_run=True).imported.units
