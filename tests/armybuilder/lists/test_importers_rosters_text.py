"""Rosters (BattleScribe .rosz, New Recruit JSON) and pasted text through the one import entry
point (issue 28): forces nest, a selection records only its own cost and totals sum every
depth; text is matched against a faction by name, with every line not understood reported."""

from __future__ import annotations

import json
from xml.etree import ElementTree

import pytest
from django.core.management import call_command

from armybuilder.lists.importers import ImportProblem, Source, importer_for
from armybuilder.lists.imports import import_source
from armybuilder.lists.services import army_list_add_unit, army_list_create, list_units_in_order
from armybuilder.models import ArmyList
from armybuilder.roster.battlescribe import roster_document
from armybuilder.roster.text import army_list_text
from rules.battlescribe.unit_roster import roster_rosz, roster_xml
from rules.models import BattleScribeSource, Faction, GameSystem
from tests.rules.battlescribe.files import FILES, GRIMDARK


@pytest.fixture
def marines(db, django_user_model):
    call_command("load_catalogue", verbosity=0)
    call_command("import_battlescribe", *[str(FILES / n) for n in GRIMDARK], system="wh40k9", verbosity=0)
    user = django_user_model.objects.create_user("player", password="a-long-test-password")
    faction = Faction.objects.get(slug="bs-cat-marines", owner=None)
    # As an import made before sources were kept: these importers match a roster's selections
    # to the unit format's options (lists of a faction with its source are the engine's).
    BattleScribeSource.objects.filter(faction=faction).delete()
    army_list = army_list_create(
        owner=user,
        system=GameSystem.objects.get(key="wh40k9"),
        faction=faction,
        name="Round trip",
        points_limit=1000,
    )
    units = {u.slug: u for u in faction.units.all()}
    army_list_add_unit(
        army_list=army_list,
        unit=units["bs-se-tactical"],
        options={"more-marine": 2, "opt-se-plasma": 1, "opt-se-sword": 1},
        expected_version=None,
    )
    army_list_add_unit(
        army_list=army_list, unit=units["bs-se-captain"], options={"opt-se-jump": 1}, expected_version=None
    )
    army_list.refresh_from_db()
    return user, army_list


def rosz_xml(army_list: ArmyList) -> bytes:
    return roster_xml(roster_document(army_list=army_list, units=list_units_in_order(army_list)))


def list_rosz(army_list: ArmyList) -> bytes:
    return roster_rosz(roster_document(army_list=army_list, units=list_units_in_order(army_list)))


def as_new_recruit(xml: bytes) -> dict:
    """BattleScribe's roster XML in New Recruit's JSON shape: attributes as keys, child lists as arrays."""

    def element(node: ElementTree.Element) -> dict:
        out: dict = dict(node.attrib)
        for child in node:
            tag = child.tag.rsplit("}", 1)[-1]
            if len(child) or tag in ("selections", "costs", "forces", "costLimits"):
                out[tag] = [element(grandchild) for grandchild in child]
        return out

    return {"roster": element(ElementTree.fromstring(xml))}


def test_rosz_imports_with_the_same_points(marines):
    user, army_list = marines
    source = Source(name="round-trip.rosz", data=list_rosz(army_list))
    assert importer_for(source).key == "battlescribe"
    outcome = import_source(user=user, source=source, system_key="wh40k9", dry_run=True)
    report = outcome.imported.report()
    ours = [u.points for u in list_units_in_order(army_list)]
    assert [u["source_points"] for u in report["units"]] == ours
    assert [u["formula_points"] for u in report["units"]] == ours
    assert report["source_total"] == sum(ours)


def test_new_recruit_json_with_nested_forces_sums_every_depth(marines):
    user, army_list = marines
    roster = as_new_recruit(rosz_xml(army_list))
    force = roster["roster"]["forces"][0]
    # the captain moves into a force nested in the first one (New Recruit nests allied forces)
    captain = force["selections"].pop()
    force["forces"] = [
        {"name": "Allies", "catalogueName": force.get("catalogueName", ""), "selections": [captain]}
    ]
    source = Source.of_text(json.dumps(roster), name="roster.json")
    assert importer_for(source).key == "new_recruit"
    outcome = import_source(user=user, source=source, system_key="wh40k9")
    report = outcome.imported.report()
    ours = [u.points for u in list_units_in_order(army_list)]
    assert [u["name"] for u in report["units"]] == [u.name for u in list_units_in_order(army_list)]
    assert [u["source_points"] for u in report["units"]] == ours
    assert report["source_total"] == sum(ours)
    imported = ArmyList.objects.filter(owner=user).exclude(pk=army_list.pk).get()
    assert [u.points for u in list_units_in_order(imported)] == ours


def test_a_stated_total_the_selections_do_not_make_is_the_source_total_and_reported(marines):
    """Issue 40: the roster's own total (480) against what its selections cost."""
    user, army_list = marines
    roster = as_new_recruit(rosz_xml(army_list))
    ours = [u.points for u in list_units_in_order(army_list)]
    points = next(c for c in roster["roster"]["costs"] if c["name"] == "pts")
    assert float(points["value"]) == sum(ours)
    points["value"] = "480.0"
    source = Source.of_text(json.dumps(roster), name="roster.json")
    report = import_source(user=user, source=source, system_key="wh40k9", dry_run=True).imported.report()
    assert report["source_total"] == 480
    assert report["left_out"] == [
        f"The roster states a total of 480 pts, but its selections cost {sum(ours)} pts; the list is "
        "priced from its selections."
    ]


def test_new_recruit_bad_cost_names_the_field(marines):
    user, army_list = marines
    roster = as_new_recruit(rosz_xml(army_list))
    roster["roster"]["forces"][0]["selections"][0]["costs"][0]["value"] = "lots"
    with pytest.raises(ImportProblem) as caught:
        import_source(
            user=user, source=Source.of_text(json.dumps(roster), name="r.json"), system_key="wh40k9"
        )
    assert caught.value.errors[0][1].startswith("r.json: roster.forces[0].selections[0].costs[0].value:")
    assert ArmyList.objects.count() == 1


@pytest.mark.parametrize("style", ["plain", "markdown", "secret"])
def test_our_own_text_exports_import_back(marines, style):
    user, army_list = marines
    units = list_units_in_order(army_list)
    text = army_list_text(army_list=army_list, units=units, style=style)
    outcome = import_source(user=user, source=Source.of_text(text), dry_run=True)
    report = outcome.imported.report()
    assert [(u["name"], u["source_points"], u["formula_points"]) for u in report["units"]] == [
        (u.name, u.points, u.points) for u in units
    ]
    assert report["left_out"] == []


@pytest.mark.parametrize("style", ["plain", "markdown"])
def test_a_unit_named_with_a_bracket_imports_back_from_our_text(marines, style):
    """BSData names units "Big Mek [Legends]", "[Reference] Warlord Traits", "[SE] Battalion: …":
    our text writes "Big Mek [Legends] [55 pts]: …", and the reader took it for a line of the unit
    before it (a real Orks list came back with 2 of its 4 units)."""
    user, army_list = marines
    captain = army_list.faction.units.get(slug="bs-se-captain")
    captain.pk, captain.slug, captain.name = None, "bs-se-captain-legends", "Captain [Legends]"
    captain.data = {**captain.data, "name": captain.name}
    captain.save()
    army_list_add_unit(army_list=army_list, unit=captain, options={}, expected_version=None)
    army_list.refresh_from_db()
    units = list_units_in_order(army_list)
    text = army_list_text(army_list=army_list, units=units, style=style)
    report = import_source(user=user, source=Source.of_text(text), dry_run=True).imported.report()
    assert [(u["name"], u["source_points"], u["formula_points"]) for u in report["units"]] == [
        (u.name, u.points, u.points) for u in units
    ]
    assert report["left_out"] == []


@pytest.mark.parametrize("style", ["plain", "markdown"])
def test_a_weapon_named_with_a_comma_is_not_reported_as_not_understood(marines, style):
    """BSData AoS names weapons "Ghal Maraz, the Hammer of Sigmar": our text lists a unit's
    weapons with commas between them, and the reader said each half was not understood."""
    user, army_list = marines
    captain = army_list.faction.units.get(slug="bs-se-captain")
    renamed = lambda weapon: {**weapon, "name": f"{weapon['name']}, the Oathkeeper"}  # noqa: E731
    models = [{**m, "weapons": [renamed(w) for w in m["weapons"]]} for m in captain.data["models"]]
    assert any(model["weapons"] for model in models)
    captain.data = {**captain.data, "models": models}
    captain.save()
    army_list_add_unit(army_list=army_list, unit=captain, options={}, expected_version=None)
    army_list.refresh_from_db()
    units = list_units_in_order(army_list)
    text = army_list_text(army_list=army_list, units=units, style=style)
    assert ", the Oathkeeper" in text
    report = import_source(user=user, source=Source.of_text(text), dry_run=True).imported.report()
    assert [u["name"] for u in report["units"]] == [u.name for u in units]
    assert report["left_out"] == []


def test_battlescribe_text_export(marines):
    user, army_list = marines
    units = list_units_in_order(army_list)
    tactical, captain = units
    text = (
        f"++ Patrol Detachment 0CP (Imperium - Test Marines) [{tactical.points + captain.points}pts] ++\n\n"
        "+ Troops +\n\n"
        f"Tactical Squad [7 PL, {tactical.points}pts]: Plasma gun, Power sword, Shoulder cannon\n\n+ HQ +\n\n"
        f"Captain [5 PL, {captain.points}pts]: Jump pack\n\nCreated with BattleScribe\n"
    )
    outcome = import_source(user=user, source=Source.of_text(text), system_key="wh40k9", dry_run=True)
    report = outcome.imported.report()
    assert [u["name"] for u in report["units"]] == ["Tactical Squad", "Captain"]
    assert [u["source_points"] for u in report["units"]] == [tactical.points, captain.points]
    assert report["left_out"] == [
        "line 5: Tactical Squad: “Shoulder cannon” not understood; left out",
        "line 11: “Created with BattleScribe” not understood; left out",
    ]


def test_army_forge_text_share(db, django_user_model):
    call_command("load_catalogue", verbosity=0)
    user = django_user_model.objects.create_user("p", password="a-long-test-password")
    text = (
        "++ Ridge Guard (Grimdark Future 3.2) [320pts] ++\n\n"
        "Concord Wardens [10] Q4+ D5+ | 120pts | Fearless\n"
        '9x Ash Rifle (24", A1), Cinder Pistol (12", A1), 10x Service Knife (A1)\n\n'
        "Mystery Beast [1] Q3+ D3+ | 200pts | Tough(6)\n"
    )
    outcome = import_source(user=user, source=Source.of_text(text), system_key="opr", dry_run=True)
    report = outcome.imported.report()
    assert [(u["name"], u["size"], u["source_points"]) for u in report["units"]] == [
        ("Concord Wardens", 10, 120)
    ]
    assert report["left_out"] == ["line 6: no unit “Mystery Beast” in the faction; left out"]
    assert outcome.army_list.faction is None or outcome.army_list.faction.slug == "ashen-concord"


def test_text_with_no_unit_line_says_what_one_looks_like(db, django_user_model):
    user = django_user_model.objects.create_user("p", password="a-long-test-password")
    with pytest.raises(ImportProblem) as caught:
        import_source(user=user, source=Source.of_text("just words\nmore words"), format="text")
    assert caught.value.errors[0][1].startswith("No line names a unit of the faction")


def test_a_hand_typed_list_says_line_by_line_what_it_read(db, django_user_model):
    """Issue 43, item 8: unit names typed by hand, no prices, were "not a list in any format we
    read"; each line is now read as a catalogue unit (at its catalogue price) or said not to be."""
    call_command("load_catalogue", verbosity=0)
    user = django_user_model.objects.create_user("p", password="a-long-test-password")
    text = "Warden-Captain\n10 Concord Wardens\n2x Dune Outriders\nDragon of Doom\n"
    source = Source.of_text(text)
    outcome = import_source(user=user, source=source, system_key="opr", dry_run=True)
    report = outcome.imported.report()
    assert [(u["name"], u["size"], u["source_points"], u["read_as"]) for u in report["units"]] == [
        ("Warden-Captain", 1, None, "line 1: read as Warden-Captain"),
        ("Concord Wardens", 10, None, "line 2: read as Concord Wardens"),
        ("Dune Outriders", 3, None, "line 3: read as Dune Outriders"),
        ("Dune Outriders", 3, None, "line 3: read as Dune Outriders"),
    ]
    assert report["left_out"] == ["line 4: no unit “Dragon of Doom” in the faction; left out"]
    assert outcome.imported.source_total is None
    data = outcome.imported.list_data
    assert data["name"] == "Imported list"
    templates = outcome.imported.templates
    assert data["points_limit"] == sum(templates[e["catalogue_unit"]].points for e in data["units"])


def test_a_text_naming_no_known_unit_says_so_for_each_line(db, django_user_model):
    call_command("load_catalogue", verbosity=0)
    user = django_user_model.objects.create_user("p", password="a-long-test-password")
    with pytest.raises(ImportProblem) as caught:
        import_source(user=user, source=Source.of_text("Big Dragon\n\n3 Goblins\n"), system_key="opr")
    assert [message for _field, message in caught.value.errors] == [
        "No line names a unit of the faction (a unit line looks like “Name [120 pts]”).",
        "line 1: no unit “Big Dragon” in the faction; left out",
        "line 3: no unit “Goblins” in the faction; left out",
    ]


def _name_units(army_list: ArmyList) -> list[tuple[str, str]]:
    """Give the list's units a player's name and notes (as the editor does); returns them."""
    from armybuilder.lists.services import army_list_unit_set_details

    words = [("Red squad", "Holds the left\nflank"), ("", "Warlord")]
    for unit, (name, notes) in zip(list_units_in_order(army_list), words, strict=True):
        army_list_unit_set_details(list_unit=unit, custom_name=name, notes=notes, group="",
                                   expected_version=None)
    return words


def test_a_rosz_export_carries_custom_names_and_notes_back_into_the_imported_list(marines):
    """A unit's name and notes are BattleScribe's `customName` and `<customNotes>` in the
    export, and both imports of a roster (the Import page, the roster upload) give them back."""
    from armybuilder.lists.battlescribe_rosters import roster_import
    from rules.battlescribe.xml_reader import SourceFile

    user, army_list = marines
    words = _name_units(army_list)
    xml = rosz_xml(army_list).decode()
    assert 'customName="Red squad"' in xml and "<customNotes>Holds the left\nflank</customNotes>" in xml
    outcome = import_source(user=user, source=Source(name="named.rosz", data=list_rosz(army_list)),
                            system_key="wh40k9")
    uploaded = roster_import(owner=user, system=army_list.system,
                             source=SourceFile("named.rosz", list_rosz(army_list)))
    ours = [u.points for u in list_units_in_order(army_list)]
    for imported in (outcome.army_list, uploaded.army_list):
        units = list_units_in_order(imported)
        assert [(u.custom_name, u.notes) for u in units] == words
        assert [u.points for u in units] == ours
    assert uploaded.differences == []


def test_a_rosters_custom_name_and_notes_are_cleaned_as_the_editor_cleans_them():
    """A file's words are the player's words: a name on one line, no NUL (JSON may hold one,
    Postgres refuses it), both cut to what a unit holds."""
    from armybuilder.lists.battlescribe_rosters import player_words
    from armybuilder.models import UNIT_NAME_MAX_LENGTH
    from rules.battlescribe.engine.roster_xml import FileSelection

    selection = FileSelection(id="s", name="Wolf", entry_id="se-wolf", custom_name=" Old\n\x00Grey ",
                              custom_notes="First\r\nsecond\x00 ")
    assert player_words(selection) == {"custom_name": "Old Grey", "notes": "First\nsecond"}
    selection.custom_name, selection.custom_notes = "x" * 500, "  "
    assert player_words(selection) == {"custom_name": "x" * UNIT_NAME_MAX_LENGTH}
