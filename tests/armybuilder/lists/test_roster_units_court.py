"""Lists of an imported faction built by the roster engine, as a 40k player meets them
(hand-written test catalogue `slots_court.cat`): the Warlord the engine selects is the one the
system's "exactly one Warlord" rule counts, points-only rows (a battle size) offer no damage
estimate, and a `.ros` imported through the generic list import is rebuilt by the engine."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.urls import reverse

from armybuilder.estimates.gauntlet_live import gauntlet_inputs
from armybuilder.estimates.templatetags.estimate_links import list_unit_estimable
from armybuilder.lists import services
from armybuilder.lists.backends import engine_units as roster_units
from armybuilder.lists.importers import Source
from armybuilder.lists.imports import import_source
from armybuilder.lists.services import list_units_in_order
from rules.battlescribe_import import import_files
from rules.models import UnitTemplate
from tests.factories.army_lists import make_list, make_user
from tests.factories.list_imports import page_result
from tests.rules.battlescribe.files import sources

COURT = ("slots.gst", "slots_court.cat")

pytestmark = pytest.mark.django_db


@pytest.fixture
def court():
    call_command("load_catalogue", verbosity=0)
    owner = make_user()
    result = import_files(system_key="wh40k9", files=sources(*COURT), owner=owner)
    return owner, result.factions[0]


def add(army_list, slug):
    army_list.refresh_from_db()
    template = UnitTemplate.objects.get(faction=army_list.faction, slug=slug)
    return services.army_list_add_unit(
        army_list=army_list, unit=template, options={}, expected_version=army_list.version
    )


def take(army_list, list_unit, label, count=1):
    army_list.refresh_from_db()
    list_unit.refresh_from_db()
    list_unit.army_list = army_list
    key = next(o["key"] for o in list_unit.available_options if o["label"] == label)
    chosen = {**list_unit.chosen_options, key: count}
    return services.army_list_unit_set_options(
        list_unit=list_unit, options=chosen, expected_version=army_list.version
    )


def warlord_messages(army_list):
    army_list.refresh_from_db()
    return [v["message"] for v in army_list.violations if v["rule"] == "warlord"]


def test_the_warlord_the_engine_selects_is_the_armys_warlord(court):
    owner, faction = court
    army_list = make_list(owner=owner, faction=faction, points_limit=1000)
    lord = add(army_list, "bs-se-court-lord")
    add(army_list, "bs-se-court-squad")
    # no Warlord yet: the system's own rule says so
    assert warlord_messages(army_list) == ["The army has no Warlord: give the rule “Warlord” to one model."]

    lord = take(army_list, lord, "Warlord")
    assert [m["rules"] for m in lord.data["models"] if m["name"] == "Court Lord"] == [["Warlord"]]
    assert warlord_messages(army_list) == []

    # the seer's "Chosen Leader" is in the category "Warlord": a second Warlord
    seer = add(army_list, "bs-se-court-seer")
    take(army_list, seer, "Chosen Leader")
    assert warlord_messages(army_list) == ["The army has 2 Warlords; it must have exactly one."]

    # a fresh evaluation (the API's) reads the same from the engine
    from armybuilder.lists.evaluation import army_list_evaluate

    fresh = army_list_evaluate(army_list=army_list).violations
    fresh = [v["message"] for v in fresh if v["rule"] == "warlord"]
    assert fresh == ["The army has 2 Warlords; it must have exactly one."]

    lord = take(army_list, lord, "Warlord", 0)
    assert "Warlord" not in str(lord.data["models"])
    assert warlord_messages(army_list) == []  # the seer alone is the Warlord now


def test_a_points_only_row_offers_no_estimate(court):
    owner, faction = court
    army_list = make_list(owner=owner, faction=faction)
    add(army_list, "bs-se-court-lord")
    units = list_units_in_order(army_list)
    # the force requires a battle size: the engine selects it as a row of its own
    assert [u.name for u in units] == ["Battle Size", "Court Lord"]
    assert [list_unit_estimable(u) for u in units] == [False, True]
    # nor is it measured against the gauntlet (its row has no slot for figures)
    inputs = gauntlet_inputs(army_list)
    assert [u.name for u in inputs.units] == ["Court Lord"] and inputs.unit_ids == [units[1].pk]


def test_the_editor_row_of_a_points_only_selection_has_no_estimate(court, client):
    owner, faction = court
    army_list = make_list(owner=owner, faction=faction)
    add(army_list, "bs-se-court-lord")
    size, lord = list_units_in_order(army_list)
    client.force_login(owner)
    html = client.get(reverse("lists:detail", args=[army_list.pk])).content.decode()
    size_row = html[html.index(f'id="unit-{size.pk}"'):html.index(f'id="unit-{lord.pk}"')]
    lord_row = html[html.index(f'id="unit-{lord.pk}"'):]
    # the battle size is the roster's configuration, shown as such and never as a unit
    assert "Roster configuration: part of the force, not a unit of the army." in size_row
    assert "is-configuration" in size_row and "estimate-link" not in size_row
    assert "model" not in size_row.split('class="unit-summary')[1].split("</p>")[0]
    assert f'id="gauntlet-unit-{size.pk}"' not in size_row
    assert "estimate-link" in lord_row and f'id="gauntlet-unit-{lord.pk}"' in lord_row


def test_the_generic_import_of_a_ros_rebuilds_it_in_the_engine(court):
    owner, faction = court
    army_list = make_list(owner=owner, faction=faction, name="Court", points_limit=500)
    army_list = services.army_list_update(
        army_list=army_list, expected_version=army_list.version, roster_force="force-vanguard"
    )
    lord = add(army_list, "bs-se-court-lord")
    take(army_list, lord, "Warlord")
    squad = add(army_list, "bs-se-court-squad")
    take(army_list, squad, "Guard", 7)
    army_list.refresh_from_db()
    before = list_units_in_order(army_list)
    xml = roster_units.roster_file(army_list, before)
    # a roster saved with an older price of the lord: the report says where the costs differ
    price = b'name="pts" typeId="ct-pts" value="%s"'
    edited = xml.replace(price % b"80.0", price % b"75.0", 1)
    assert edited != xml

    outcome = import_source(user=owner, source=Source(name="court.ros", data=edited), system_key="wh40k9")
    back = outcome.army_list
    after = list_units_in_order(back)
    # the engine's rebuild: the same selections in the roster's own force, nothing matched
    assert back.roster_force == "force-vanguard" and back.faction_id == faction.pk
    assert [u.selection for u in after] == [u.selection for u in before]
    assert [u.points for u in after] == [u.points for u in before] == [0, 80, 91]
    report = outcome.imported.report()
    # the roster's Battle Size is its configuration, reported as such and never as a unit
    assert [(u["name"], u["source_points"], u["formula_points"]) for u in report["units"]] == [
        ("Court Lord", 75, 80), ("Court Guard", 91, 91)
    ]
    assert report["configuration"] == ["Battle Size"]
    # the file still states the total of before the edit (issue 40: said, never taken)
    assert report["left_out"] == [
        "The roster states a total of 171 pts, but its selections cost 166 pts; the list is priced "
        "from its selections."
    ]
    assert back.total_points == army_list.total_points == 171
    # the Warlord the roster selected counts for the system's rule after the import too
    assert [v for v in back.violations if v["rule"] == "warlord"] == []


def test_the_import_page_rebuilds_a_rosz_in_the_engine(court, client, inline_pdf_renders):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from armybuilder.models import ArmyList

    owner, faction = court
    army_list = make_list(owner=owner, faction=faction, name="Court", points_limit=500)
    army_list = services.army_list_update(
        army_list=army_list, expected_version=army_list.version, roster_force="force-vanguard"
    )
    lord = add(army_list, "bs-se-court-lord")
    take(army_list, lord, "Warlord")
    army_list.refresh_from_db()
    before = list_units_in_order(army_list)
    client.force_login(owner)
    rosz = client.get(reverse("lists:export_rosz", args=[army_list.pk])).content
    upload = SimpleUploadedFile("court.rosz", rosz, content_type="application/zip")
    page = page_result(client, client.post(reverse("lists:import"),
                                           {"file": upload, "system": "wh40k9", "action": "import"}))
    assert page.status_code == 200
    back = ArmyList.objects.filter(owner=owner).exclude(pk=army_list.pk).get()
    assert back.roster_force == "force-vanguard"
    assert [u.selection for u in list_units_in_order(back)] == [u.selection for u in before]
    assert back.total_points == 80
