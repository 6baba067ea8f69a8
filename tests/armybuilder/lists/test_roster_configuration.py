"""A roster's configuration selections (Game Type, Detachment Command Cost, Battle Size, Dynasty
Choice: `tests/armybuilder/every_list/files/nine*.{gst,cat}`, in the shape of BSData/wh40k-9e)
are the roster's, not units: the export, the counts and the estimates leave them out; and the
battle size has one source, the roster's "Battle Size", which the list's setting follows."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command
from django.urls import reverse

from armybuilder.lists import services
from armybuilder.lists.backends import engine_units as roster_units
from armybuilder.lists.errors import ArmyListError
from armybuilder.lists.forms import SETTING_PREFIX, ArmyListSettingsForm
from armybuilder.lists.interchange import army_list_to_dict
from armybuilder.roster.text import army_list_text
from rules.battlescribe.xml_reader import SourceFile
from rules.battlescribe_import import import_files
from rules.models import UnitTemplate
from tests.armybuilder.every_list.kinds import FILES
from tests.factories.army_lists import make_list, make_user

pytestmark = pytest.mark.django_db

CONFIGURATION = ["Game Type", "Detachment Command Cost", "Battle Size", "Dynasty Choice"]


@pytest.fixture
def patrol():
    """A list of the 40k-shaped faction holding an Overlord: the force brings its configuration."""
    call_command("load_catalogue", verbosity=0)
    owner = make_user()
    files = [SourceFile(n, (FILES / n).read_bytes()) for n in ("nine.gst", "nine_dynasty.cat")]
    factions = import_files(system_key="wh40k9", files=files, owner=owner).factions
    faction = next(f for f in factions if f.name == "Test Dynasties")
    army_list = make_list(owner=owner, faction=faction, points_limit=1000)
    overlord = UnitTemplate.objects.get(faction=faction, name="Overlord")
    services.army_list_add_unit(
        army_list=army_list, unit=overlord, options={}, expected_version=army_list.version
    )
    army_list.refresh_from_db()
    return owner, army_list


def choose(army_list, row_name, label):
    army_list.refresh_from_db()
    row = army_list.units.get(name=row_name)
    row.army_list = army_list
    key = next(o["key"] for o in row.available_options if o["label"].startswith(label))
    group = {o["key"]: 0 for o in row.available_options}
    return services.army_list_unit_set_options(
        list_unit=row, options={**group, key: 1}, expected_version=army_list.version
    )


def test_the_configuration_rows_are_the_rosters_and_not_units(patrol, client):
    owner, army_list = patrol
    units = list(army_list.units.order_by("position"))
    assert [u.name for u in units] == [*CONFIGURATION, "Overlord"]
    assert [u.name for u in roster_units.configuration(units)] == CONFIGURATION
    assert army_list.unit_count == 1 and army_list.total_points == 85
    # the export holds the one unit; the roster's configuration is written by the .rosz only
    assert [e["unit"]["name"] for e in army_list_to_dict(army_list=army_list)["units"]] == ["Overlord"]
    text = army_list_text(army_list=army_list, units=units)
    lines = text.splitlines()
    assert lines[1].startswith(
        "(Configuration: Game Type (3. Matched Play), Detachment Command Cost, Battle Size (3. Strike Force"
    )
    assert "Total: 85/1000 pts, 1 unit" in lines
    client.force_login(owner)
    for name in ("lists:export_json", "lists:roster", "lists:card"):
        assert client.get(reverse(name, args=[army_list.pk])).status_code == 200
    page = client.get(reverse("estimates:new"), {"list": army_list.pk})
    assert page.status_code == 200


def test_the_battle_size_has_one_source_the_rosters(patrol):
    _owner, army_list = patrol
    assert army_list.settings["battle_size"] == "strike_force"
    choose(army_list, "Battle Size", "2. Incursion")
    army_list.refresh_from_db()
    # the list's setting follows the roster; the export and the system's rules read the same
    assert army_list.settings["battle_size"] == "incursion"
    assert army_list_to_dict(army_list=army_list)["settings"] == {"battle_size": "incursion"}
    # the form shows it as the roster's: a changed value posted is not taken
    posted = {"name": "Patrol", "points_limit": 1000, SETTING_PREFIX + "battle_size": "onslaught"}
    form = ArmyListSettingsForm(posted, army_list=army_list)
    assert form.fields[SETTING_PREFIX + "battle_size"].disabled
    assert form.is_valid(), form.errors
    assert form.list_settings() == {"battle_size": "incursion"}


def test_the_import_command_reads_a_roster_with_configuration(patrol, tmp_path):
    """`manage.py import_list ROSTER.ros --dry-run --json` on a roster carrying configuration
    selections (it printed a traceback: the export zipped the units with the rows)."""
    owner, army_list = patrol
    xml = roster_units.roster_file(army_list, list(army_list.units.order_by("position")))
    path = tmp_path / "patrol.ros"
    path.write_bytes(xml)
    out = io.StringIO()
    call_command("import_list", str(path), "--user", owner.username, "--dry-run", "--json", stdout=out)
    printed = json.loads(out.getvalue())
    assert [e["unit"]["name"] for e in printed["list"]["units"]] == ["Overlord"]
    assert printed["list"]["settings"] == {"battle_size": "strike_force"}
    assert [(u["name"], u["formula_points"], u["source_points"]) for u in printed["report"]["units"]] == [
        ("Overlord", 85, 85)
    ]


def test_a_setting_the_roster_decides_is_refused_elsewhere(patrol):
    """The API and the services refuse another battle size than the roster's, naming the field."""
    _owner, army_list = patrol
    with pytest.raises(ArmyListError) as refused:
        services.army_list_update(
            army_list=army_list, expected_version=army_list.version, settings={"battle_size": "onslaught"}
        )
    assert refused.value.errors == [
        ("settings.battle_size", "Chosen in the roster's configuration, above the units.")
    ]
    # the same value is no change of it, and is accepted
    services.army_list_update(
        army_list=army_list, expected_version=army_list.version, settings={"battle_size": "strike_force"}
    )


def test_a_unit_whose_models_have_no_profile_is_a_unit_not_configuration(patrol):
    """Crypt Stalkers field model selections the catalogue gives no profile (points only, as
    BSData's "Lieutenants"): a unit, counted and exported, unlike the Battle Size."""
    _owner, army_list = patrol
    stalkers = UnitTemplate.objects.get(faction=army_list.faction, name="Crypt Stalkers")
    services.army_list_add_unit(
        army_list=army_list, unit=stalkers, options={}, expected_version=army_list.version
    )
    army_list.refresh_from_db()
    units = list(army_list.units.order_by("position"))
    assert [u.name for u in roster_units.fielded(units)] == ["Overlord", "Crypt Stalkers"]
    assert (army_list.unit_count, army_list.total_points) == (2, 85 + 30)
    assert [e["unit"]["name"] for e in army_list_to_dict(army_list=army_list)["units"]] == [
        "Overlord",
        "Crypt Stalkers",
    ]


def test_the_roster_upload_reports_configuration_apart_from_the_units(patrol):
    """The roster upload (page and `POST /battlescribe/rosters`) lists the units beside the
    roster's prices, and the configuration selections on their own: "5 units" for one Overlord
    was the defect (issue 36.4)."""
    from armybuilder.lists.battlescribe_rosters import roster_import
    from rules.battlescribe.xml_reader import SourceFile as Upload

    owner, army_list = patrol
    xml = roster_units.roster_file(army_list, list(army_list.units.order_by("position")))
    result = roster_import(owner=owner, system=army_list.system, source=Upload("patrol.ros", xml))
    assert [(u["name"], u["points"], u["roster_points"]) for u in result.units] == [("Overlord", 85, 85.0)]
    assert sorted(row["name"] for row in result.configuration) == sorted(CONFIGURATION)
    assert roster_units.fielded(list(result.army_list.units.all())) == [
        u for u in result.army_list.units.all() if u.name == "Overlord"]


def rows_and_costs(army_list) -> tuple[list[tuple[str, list[str], int]], int, dict[str, float]]:
    """(name, chosen options' labels, points) of every row, the list's total and the roster's
    other costs (CP, PL), as the engine rebuilds them from the stored trees."""
    units = list(army_list.units.order_by("position"))
    rows = [
        (u.name, sorted(o["label"] for o in u.available_options if u.chosen_options.get(o["key"])), u.points)
        for u in units
    ]
    roster = roster_units.roster_of(army_list, units)
    costs: dict[str, float] = {}
    for index in range(len(units)):
        for cost_type, value in roster.costs(index).items():
            costs[cost_type] = costs.get(cost_type, 0.0) + value
    return rows, army_list.total_points, costs


@pytest.mark.parametrize("style", ["plain", "markdown", "secret"])
def test_the_text_round_trip_keeps_the_configuration_and_its_costs(patrol, style):
    """The configuration rows (a dynasty costing 15 pts, the detachment's 2 CP, the battle size's
    -12 CP) come back from our text export as the player chose them: the same rows, points and
    costs; before, the text import rebuilt the units alone, 15 pts and every CP cheaper."""
    from armybuilder.lists.importers import Source
    from armybuilder.lists.imports import import_source

    owner, army_list = patrol
    choose(army_list, "Dynasty Choice", "Dynasty: Starbound")
    army_list.refresh_from_db()
    before = rows_and_costs(army_list)
    assert before[1] == 100 and ("Dynasty Choice", ["Dynasty: Starbound"], 15) in before[0]
    text = army_list_text(army_list=army_list, units=list(army_list.units.order_by("position")), style=style)
    outcome = import_source(user=owner, source=Source.of_text(text), faction=army_list.faction)
    assert outcome.imported.left_out == []
    assert outcome.imported.configuration == CONFIGURATION
    assert rows_and_costs(outcome.army_list) == before
    assert outcome.imported.source_total == 100  # the text's total, the configuration's points in it
