"""JSON export and import in the interchange format (`docs/unit-format.md`).

Export writes each unit in full; import checks everything, reports every problem with its
field path, and creates nothing unless the whole document is valid.
"""

from __future__ import annotations

import copy
import json

import pytest
from django.core.management import call_command
from django.urls import reverse

from armybuilder.lists.errors import ArmyListError
from armybuilder.lists.forms import ImportForm
from armybuilder.lists.interchange import army_list_import, army_list_to_dict
from armybuilder.models import ArmyList, ListUnit
from rules.list_settings import settings_defaults
from rules.models import UnitTemplate
from rules.systems.registry import get_system
from tests.factories.army_lists import (
    BRUTES,
    BRUTES_POINTS,
    INFANTRY,
    INFANTRY_POINTS,
    make_faction,
    make_list,
    make_unit,
    make_user,
    opr_system,
)
from tests.factories.list_imports import page_result

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def opr_row():
    """The catalogue row of the OPR system (the registry has the rules, the row the lists)."""
    return opr_system()


def document(*units: dict, **envelope) -> dict:
    return {
        "format": 1,
        "system": "opr",
        "name": "Imported",
        "points_limit": 1000,
        "options": {"unit_balance": False},
        "units": [{"unit": u, "count": 1} for u in units],
        **envelope,
    }


@pytest.fixture
def bundled_catalogue():
    call_command("load_catalogue", verbosity=0)
    templates = list(
        UnitTemplate.objects.select_related("faction__system").filter(faction__owner__isnull=True)
    )
    assert templates, "the bundled catalogue has units"
    return templates


def test_export_writes_the_list_with_every_unit_in_full():
    owner = make_user()
    faction = make_faction()
    army_list = make_list(owner=owner, faction=faction, units=[make_unit(faction=faction)])
    exported = army_list_to_dict(army_list=army_list)
    assert exported == {
        "format": 1,
        "system": "opr",
        "name": "Patrol",
        "points_limit": 1000,
        "options": {},
        "faction": faction.slug,
        "units": [{"unit": INFANTRY, "count": 1, "catalogue_unit": army_list.units.get().catalogue_ref,
                   "options": []}],
    }


def test_import_then_export_is_lossless_for_every_bundled_unit(bundled_catalogue):
    """Every unit the product ships survives import → export unchanged (and a second round)."""
    user = make_user()
    for template in bundled_catalogue:
        system = template.faction.system.key
        data = {
            "format": 1,
            "system": system,
            "name": f"Round trip {template.slug}",
            "points_limit": 100000,
            "options": {},
            "units": [{"unit": copy.deepcopy(template.data), "count": 1}],
        }
        imported = army_list_import(user=user, data=copy.deepcopy(data))
        exported = army_list_to_dict(army_list=imported)
        defaults = settings_defaults(get_system(system).list_settings_schema)
        # the export names the system's own list parameters, at their defaults when not given
        assert exported == {**data, **({"settings": defaults} if defaults else {})}, template.slug
        again = army_list_to_dict(army_list=army_list_import(user=user, data=copy.deepcopy(exported)))
        assert again == exported, template.slug
        assert imported.total_points == template.points, template.slug


def test_list_settings_survive_export_and_import_and_bad_ones_are_refused_by_name(bundled_catalogue):
    user = make_user()
    data = {
        "format": 1,
        "system": "wh40k9",
        "name": "Patrol",
        "points_limit": 500,
        "settings": {"battle_size": "combat_patrol"},
        "units": [],
    }
    imported = army_list_import(user=user, data=copy.deepcopy(data))
    assert imported.settings == {"battle_size": "combat_patrol"}
    assert army_list_to_dict(army_list=imported)["settings"] == {"battle_size": "combat_patrol"}
    with pytest.raises(ArmyListError) as caught:
        army_list_import(user=user, data={**data, "settings": {"battle_size": "huge", "allegiance": "x"}})
    paths = dict(caught.value.errors)
    assert set(paths) == {"settings.battle_size", "settings.allegiance"}
    assert paths["settings.battle_size"].startswith("Must be one of: combat_patrol, incursion")


def test_catalogue_references_with_options_import_as_editable_units(bundled_catalogue):
    template = next(t for t in bundled_catalogue if t.faction.system.key == "opr" and t.options.exists())
    option = template.options.order_by("position").first()
    user = make_user()
    data = {
        "format": 1,
        "system": "opr",
        "name": "By reference",
        "points_limit": 2000,
        "units": [
            {
                "catalogue_unit": f"{template.faction.slug}/{template.slug}",
                "options": [option.key],
                "count": 2,
            }
        ],
    }
    army_list = army_list_import(user=user, data=data)
    units = list(ListUnit.objects.filter(army_list=army_list).order_by("position"))
    assert len(units) == 2
    assert all(u.template_id == template.pk and u.chosen_options == {option.key: 1} for u in units)
    exported = army_list_to_dict(army_list=army_list)
    assert [entry["unit"] for entry in exported["units"]] == [units[0].data, units[1].data]
    # the export names the catalogue unit and its options beside the unit in full
    assert [(e["catalogue_unit"], e["options"]) for e in exported["units"]] == [
        (f"{template.faction.slug}/{template.slug}", [option.key])
    ] * 2


def test_a_reference_that_no_longer_builds_the_unit_written_leaves_the_unit_in_full(bundled_catalogue):
    """Our export writes the unit in full and the reference it came from: where the catalogue
    unit is not visible, or builds another unit now, the unit as written is imported, without
    options to edit, at its own price."""
    template = next(t for t in bundled_catalogue if t.faction.system.key == "opr" and t.options.exists())
    user = make_user()
    army_list = army_list_import(user=user, data={
        "format": 1, "system": "opr", "name": "By reference", "points_limit": 2000,
        "units": [{"catalogue_unit": f"{template.faction.slug}/{template.slug}", "options": []}],
    })
    written = army_list_to_dict(army_list=army_list)
    changed = copy.deepcopy(written)
    changed["units"][0]["unit"]["models"][0]["quality"] = 2  # not what the catalogue builds
    missing = copy.deepcopy(written)
    missing["units"][0]["catalogue_unit"] = f"{template.faction.slug}/no-such-unit"
    for data, kept in ((written, True), (changed, False), (missing, False)):
        unit = ListUnit.objects.get(army_list=army_list_import(user=user, data=data))
        assert unit.data == data["units"][0]["unit"]
        assert (unit.template_id == template.pk, bool(unit.available_options)) == (kept, kept)
        assert unit.points == get_system("opr").price(unit.data)["points"]


def test_import_reports_every_problem_with_its_path_and_creates_nothing():
    user = make_user()
    bad_infantry = copy.deepcopy(INFANTRY)
    bad_infantry["models"][0]["quality"] = 9
    bad_infantry["models"][0]["weapons"][0]["ap"] = 7
    data = document(bad_infantry, BRUTES, name="x" * 101, points_limit=0)
    data["units"].append({"catalogue_unit": "nowhere/nothing"})
    data["units"].append({"unit": BRUTES, "count": 0})
    data["colour"] = "red"
    with pytest.raises(ArmyListError) as caught:
        army_list_import(user=user, data=data)
    paths = {path for path, _message in caught.value.errors}
    assert {
        "name",
        "points_limit",
        "colour",
        "units[0].unit.models[0].quality",
        "units[0].unit.models[0].weapons[0].ap",
        "units[2].catalogue_unit",
        "units[3].count",
    } <= paths
    assert not any(path.startswith("units[1]") for path in paths)
    assert ArmyList.objects.count() == 0 and ListUnit.objects.count() == 0


@pytest.mark.parametrize(
    ("data", "path"),
    [
        ([], ""),
        ("a list", ""),
        ({"system": "opr"}, "name"),
        ({**document(), "system": "chess"}, "system"),
        ({**document(), "format": 2}, "format"),
        ({**document(), "units": {"a": 1}}, "units"),
        ({**document(), "options": {"bogus": True}}, "options.bogus"),
        ({**document(), "units": [{"unit": INFANTRY, "catalogue_unit": 7}]}, "units[0].catalogue_unit"),
        ({**document(), "units": [{"unit": INFANTRY, "catalogue_unit": "a/b", "options": "x"}]},
         "units[0].options"),
        ({**document(), "units": [{"catalogue_unit": "a/b"}]}, "units[0].catalogue_unit"),
        ({**document(), "units": [{"count": 1}]}, "units[0]"),
        ({**document(), "units": ["infantry"]}, "units[0]"),
        ({**document(), "name": "nul\x00name"}, "name"),
        ({**document(), "configuration": {"entry": "a"}}, "configuration"),
        ({**document(), "configuration": [{"number": 1}]}, "configuration[0]"),
        ({**document(), "configuration": [{"entry": "a"}] * 201}, "configuration"),
    ],
)
def test_malformed_documents_are_errors_not_crashes(data, path):
    with pytest.raises(ArmyListError) as caught:
        army_list_import(user=make_user(), data=data)
    assert path in {p for p, _m in caught.value.errors}


def test_more_than_200_units_cannot_be_imported():
    data = document()
    data["units"] = [{"unit": INFANTRY, "count": 100}, {"unit": INFANTRY, "count": 100}, {"unit": BRUTES}]
    with pytest.raises(ArmyListError) as caught:
        army_list_import(user=make_user(), data=data)
    assert ("units", "A list has at most 200 units.") in caught.value.errors


def test_import_page_shows_every_error_and_json_export_downloads(client, inline_pdf_renders):
    user = make_user()
    client.force_login(user)
    bad = document(BRUTES)
    bad["units"][0]["unit"] = {**BRUTES, "models": []}
    response = page_result(client, client.post(reverse("lists:import"), {"text": json.dumps(bad)}))
    assert "units[0].unit.models" in response.content.decode()
    response = page_result(client, client.post(reverse("lists:import"), {"text": "{not json"}))
    assert "Not valid JSON" in response.content.decode()
    assert not ArmyList.objects.exists()

    response = page_result(client, client.post(reverse("lists:import"),
                                               {"text": json.dumps(document(INFANTRY, BRUTES))}))
    army_list = ArmyList.objects.get(owner=user)
    assert response.status_code == 302
    assert response["Location"] == reverse("lists:detail", args=[army_list.pk])
    assert army_list.total_points == INFANTRY_POINTS + BRUTES_POINTS
    download = client.get(reverse("lists:export_json", args=[army_list.pk]))
    assert download["Content-Disposition"] == 'attachment; filename="imported.json"'
    assert json.loads(download.content) == document(INFANTRY, BRUTES)


def test_import_page_can_attach_a_faction_of_the_same_system(client, inline_pdf_renders):
    user = make_user()
    faction = make_faction()
    client.force_login(user)
    data = {"text": json.dumps(document(INFANTRY)), "faction": faction.pk}
    response = page_result(client, client.post(reverse("lists:import"), data))
    assert response.status_code == 302
    assert ArmyList.objects.get(owner=user).faction == faction


@pytest.mark.parametrize("depth", [500, 200_000])
def test_absurdly_nested_json_fails_the_job_in_words_not_a_crash(client, depth, inline_pdf_renders):
    client.force_login(make_user())
    for text in ("[" * depth + "]" * depth, '{"a":' * depth + "1" + "}" * depth):
        posted = client.post(reverse("lists:import"), {"text": text})
        if len(text) > ImportForm.MAX_BYTES:  # refused by the request itself, nothing queued
            assert posted.status_code == 400 and posted.context["form"].errors["text"]
            continue
        response = page_result(client, posted)
        assert response.status_code == 200
        assert response.context["import_errors"][0][1].startswith("Not a list")
    assert not ArmyList.objects.exists()
