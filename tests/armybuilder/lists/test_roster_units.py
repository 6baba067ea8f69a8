"""Lists of a faction imported with its BattleScribe source are built by the roster engine:
adding a unit, ticking an option and changing a count go through it, the options offered are
the ones it shows, and points, Power and errors are its own (hand-written test catalogue)."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from armybuilder.lists import services
from armybuilder.lists.errors import ArmyListError
from armybuilder.lists.evaluation import army_list_evaluate, army_summary
from rules.battlescribe_import import import_files
from rules.models import BattleScribeSource, UnitTemplate
from tests.factories.army_lists import make_list, make_user
from tests.rules.battlescribe.files import sources

SLOTS = ("slots.gst", "slots_warband.cat")

pytestmark = pytest.mark.django_db


@pytest.fixture
def warband():
    call_command("load_catalogue", verbosity=0)
    owner = make_user()
    result = import_files(system_key="wh40k9", files=sources(*SLOTS), owner=owner)
    faction = result.factions[0]
    return owner, faction


def unit(faction, slug):
    return UnitTemplate.objects.get(faction=faction, slug=slug)


def add(army_list, template):
    army_list.refresh_from_db()
    return services.army_list_add_unit(
        army_list=army_list, unit=template, options={}, expected_version=army_list.version
    )


def option(list_unit, label):
    return next(o for o in list_unit.available_options if o["label"] == label)


def set_options(army_list, list_unit, counts):
    army_list.refresh_from_db()
    list_unit.army_list = army_list
    chosen = {o["key"]: list_unit.chosen_options.get(o["key"], 0) for o in list_unit.available_options}
    chosen.update(counts)
    return services.army_list_unit_set_options(
        list_unit=list_unit, options=chosen, expected_version=army_list.version
    )


def messages(army_list):
    """The engine's errors (the system's own rules follow them, `rule` other than "catalogue")."""
    return [v["message"] for v in army_list.violations if v["rule"] == "catalogue"]


def test_import_keeps_the_source_for_the_engine(warband):
    _owner, faction = warband
    source = BattleScribeSource.objects.get(faction=faction)
    assert source.catalogue_id == "cat-warband"
    assert source.game_system["id"] == "sys-slots"
    assert [c["id"] for c in source.catalogues] == ["cat-warband"]


def test_units_options_points_power_and_errors_come_from_the_engine(warband):
    owner, faction = warband
    army_list = make_list(owner=owner, faction=faction, points_limit=200)
    lord = add(army_list, unit(faction, "bs-se-lord"))
    assert lord.points == 60 and lord.selection["entry"] == "se-lord"
    # the banner is hidden until the axe is taken
    assert [o["label"] for o in lord.available_options] == ["Master-crafted axe"]
    # the detachment's Troops slot is empty: the engine's error, in a player's words
    assert messages(army_list) == ["Patrol Detachment: at least 1 Troops unit needed (now 0)."]
    # the system's own rules still apply (40k: a Warlord is chosen)
    assert any(v["rule"] != "catalogue" for v in army_list.violations)

    set_options(army_list, lord, {option(lord, "Master-crafted axe")["key"]: 1})
    lord.refresh_from_db()
    assert lord.points == 65
    banner = option(lord, "Banner of Rage")  # shown now that the axe is taken
    assert banner["cost"] == 15 and lord.option_points[banner["key"]] == 15
    set_options(army_list, lord, {banner["key"]: 1})
    lord.refresh_from_db()
    assert lord.points == 80 and lord.data["power_rating"] == 4

    pack = add(army_list, unit(faction, "bs-se-pack"))
    warriors = option(pack, "Warrior")
    assert (warriors["min_count"], warriors["max_count"], pack.chosen_options[warriors["key"]]) == (5, 10, 5)
    assert pack.points == 40 and pack.data["power_rating"] == 3
    set_options(army_list, pack, {warriors["key"]: 6})
    pack.refresh_from_db()
    assert pack.points == 48 and pack.data["power_rating"] == 6  # Power steps up past five models
    assert [m["count"] for m in pack.data["models"]] == [6]  # the unit format follows the roster
    army_list.refresh_from_db()
    assert army_list.total_points == 128 and messages(army_list) == []
    power = next(row for row in army_summary(army_list=army_list, units=list(army_list.units.all()))
                 if row["key"] == "power_level")
    assert power["value"] == 10


def test_rule_of_three_and_zero_to_one_are_errors(warband):
    owner, faction = warband
    army_list = make_list(owner=owner, faction=faction, points_limit=1000)
    for _ in range(4):
        add(army_list, unit(faction, "bs-se-pack"))
    add(army_list, unit(faction, "bs-se-lord"))
    add(army_list, unit(faction, "bs-se-lord"))
    army_list.refresh_from_db()
    found = messages(army_list)
    assert "Warpack: at most 3 allowed in the army (now 4)." in found
    assert "Warlord: at most 1 allowed in the army (now 2)." in found
    assert "Patrol Detachment: at most 3 Troops units allowed (now 4)." in found
    assert army_list.total_points == 4 * 40 + 2 * 60
    # a fresh evaluation (the API's) agrees with what the services cached
    assert army_list_evaluate(army_list=army_list).violations == army_list.violations


def test_unknown_option_is_refused_in_words(warband):
    owner, faction = warband
    army_list = make_list(owner=owner, faction=faction)
    lord = add(army_list, unit(faction, "bs-se-lord"))
    army_list.refresh_from_db()
    lord.army_list = army_list
    with pytest.raises(ArmyListError) as refused:
        services.army_list_unit_set_options(
            list_unit=lord, options={"nope": 1}, expected_version=army_list.version
        )
    assert refused.value.errors == [("options", "This unit has no such option.")]


def test_clear_options_and_duplicate_keep_the_roster(warband):
    owner, faction = warband
    army_list = make_list(owner=owner, faction=faction)
    pack = add(army_list, unit(faction, "bs-se-pack"))
    set_options(army_list, pack, {option(pack, "Warrior")["key"]: 8})
    pack.refresh_from_db()
    army_list.refresh_from_db()
    pack.army_list = army_list
    copy = services.army_list_unit_duplicate(list_unit=pack, expected_version=army_list.version)
    assert copy.selection == pack.selection and copy.points == 64
    services.army_list_unit_clear_options(list_unit=pack, expected_version=army_list.version)
    pack.refresh_from_db()
    assert pack.points == 40
    army_list.refresh_from_db()
    assert army_list.total_points == 40 + 64


def test_rosz_round_trip_rebuilds_the_same_roster(warband, client):
    import io
    import zipfile

    from django.urls import reverse
    from lxml import etree

    from armybuilder.lists.battlescribe_rosters import roster_import
    from rules.battlescribe.xml_reader import SourceFile
    from tests.rules.battlescribe.files import FILES

    owner, faction = warband
    army_list = make_list(owner=owner, faction=faction, name="Round trip")
    lord = add(army_list, unit(faction, "bs-se-lord"))
    set_options(army_list, lord, {option(lord, "Master-crafted axe")["key"]: 1})
    lord.refresh_from_db()
    set_options(army_list, lord, {option(lord, "Banner of Rage")["key"]: 1})
    pack = add(army_list, unit(faction, "bs-se-pack"))
    set_options(army_list, pack, {option(pack, "Warrior")["key"]: 7})
    add(army_list, unit(faction, "bs-se-lord"))  # a second 0-1 leader: an error both sides
    army_list.refresh_from_db()

    client.force_login(owner)
    exported = client.get(reverse("lists:export_rosz", args=[army_list.pk])).content
    with zipfile.ZipFile(io.BytesIO(exported)) as archive:
        xml = archive.read(archive.namelist()[0])
    schema = etree.XMLSchema(etree.parse(str(FILES / "roster.xsd")))
    document = etree.fromstring(xml)
    schema.assertValid(document)  # what BattleScribe reads
    ns = {"bs": "http://www.battlescribe.net/schema/rosterSchema"}
    force = document.find("bs:forces/bs:force", ns)
    assert (force.get("entryId"), force.get("catalogueId"), document.get("gameSystemId")) == (
        "force-patrol", "cat-warband", "sys-slots"
    )
    totals = {c.get("name"): c.get("value") for c in document.findall("bs:costs/bs:cost", ns)}
    assert totals == {"pts": "196.0", " PL": "13.0"}  # 80 + 56 + 60 points; 4 + 6 + 3 Power

    result = roster_import(owner=owner, system=faction.system, source=SourceFile("round.rosz", exported))
    back = result.army_list
    assert result.differences == []
    before = list(army_list.units.order_by("position"))
    after = list(back.units.order_by("position"))
    assert [u.selection for u in after] == [u.selection for u in before]
    assert [u.points for u in after] == [u.points for u in before] == [80, 56, 60]
    assert [u["points"] for u in result.units] == [u["roster_points"] for u in result.units]
    assert back.total_points == army_list.total_points
    assert messages(back) == messages(army_list) == ["Warlord: at most 1 allowed in the army (now 2)."]


def test_unit_format_option_keys_of_imported_units_still_work(warband):
    owner, faction = warband
    army_list = make_list(owner=owner, faction=faction)
    army_list.refresh_from_db()
    pack = services.army_list_add_unit(
        army_list=army_list, unit=unit(faction, "bs-se-pack"), options={"more-warrior": 3},
        expected_version=army_list.version,
    )
    assert pack.points == 64 and [m["count"] for m in pack.data["models"]] == [8]
