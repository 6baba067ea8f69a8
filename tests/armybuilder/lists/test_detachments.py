"""40k 9th detachments: groups with a kind, declared by the system (`GameSystem.group_kinds`).

The core booklet has no detachments; the slot limits are [EXTERNAL] data (docs/rules/wh40k9.md
§7.5), switched by "detachments". Each check has a failing and a passing army; the
editor's group form, the roster, the text export, the JSON export and import, the API and the
example list carry the kinds. Systems without group kinds keep free groups (no kind menu).
"""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command
from django.urls import reverse
from rest_framework.test import APIClient

from armybuilder.lists import services
from armybuilder.lists.interchange import army_list_import, army_list_to_dict
from armybuilder.models import ArmyList
from points.wh40k9.detachments import DETACHMENT_SLOTS
from rules.models import Faction, UnitTemplate
from rules.systems.registry import all_systems, get_system
from tests.factories.army_lists import make_user

pytestmark = pytest.mark.django_db


def datasheet(name: str, role: str | None) -> dict:
    unit = {"format": 1, "system": "wh40k9", "name": name, "power_rating": 1,
            "models": [{"name": name, "count": 1, "points": 10, "rules": [], "m": 6, "ws": 3, "bs": 3,
                        "s": 4, "t": 4, "w": 1, "a": 1, "ld": 7, "sv": 3}]}
    return unit | ({"battlefield_role": role} if role else {})


def army(entries: list[tuple[str, str | None]], groups: dict[str, str], options: dict | None = None) -> dict:
    """entries: (role, group) pairs."""
    return {
        "format": 1, "system": "wh40k9", "name": "Test", "points_limit": 10_000,
        "options": {"warlord": False, "battle_size": False, **(options or {})},
        "groups": groups,
        "units": [{"unit": datasheet(f"{role}-{i}", role), "count": 1, **({"group": group} if group else {})}
                  for i, (role, group) in enumerate(entries)],
    }


def broken(army_dict: dict) -> list[str]:
    return [v.get("check") for v in get_system("wh40k9").validate(army_dict) if v["rule"] == "detachments"]


PATROL_OK = [("hq", "A"), ("troops", "A"), ("elites", "A")]


def test_only_40k_declares_group_kinds_and_the_slot_data_is_external():
    assert {s.key: dict(s.group_kinds) for s in all_systems() if s.group_kinds} == {
        "wh40k9": {"patrol": "Patrol Detachment", "battalion": "Battalion Detachment",
                   "brigade": "Brigade Detachment"},
    }
    assert get_system("wh40k9").structure_options["detachments"].startswith("[EXTERNAL]")
    assert DETACHMENT_SLOTS["battalion"]["troops"] == (3, 6)


def test_a_patrol_within_its_slots_passes_and_each_limit_fails_outside_it():
    assert broken(army(PATROL_OK, {"A": "patrol"})) == []
    assert broken(army([("troops", "A")], {"A": "patrol"})) == ["patrol_hq"]  # HQ 1-2
    assert broken(army([("hq", "A")] * 3 + [("troops", "A")], {"A": "patrol"})) == ["patrol_hq"]
    assert broken(army([("hq", "A")] * 2 + [("troops", "A")] * 2, {"A": "battalion"})) == ["battalion_troops"]
    assert broken(army([("hq", "A")] * 2 + [("troops", "A")] * 3, {"A": "battalion"})) == []
    [message] = [v["message"] for v in get_system("wh40k9").validate(army([("troops", "A")], {"A": "patrol"}))
                 if v["rule"] == "detachments"]
    assert message == "A (Patrol Detachment) has 0 HQ; it takes 1 to 2."


def test_once_there_is_a_detachment_every_unit_is_in_one_and_has_a_role():
    assert broken(army([*PATROL_OK, ("troops", None)], {"A": "patrol"})) == ["outside"]
    assert broken(army([*PATROL_OK, ("troops", "free group")], {"A": "patrol"})) == ["outside"]
    assert broken(army([*PATROL_OK, (None, "A")], {"A": "patrol"})) == ["no_role"]
    # No detachment at all: groups are free and nothing is checked (not Battle-forged).
    assert broken(army([("troops", "X"), ("troops", None)], {})) == []
    # Switched off: nothing is checked.
    assert broken(army([("troops", "A")], {"A": "patrol"}, {"detachments": False})) == []


def test_the_summary_shows_each_detachments_slots():
    rows = get_system("wh40k9").army_summary(army([*PATROL_OK, ("troops", "A")], {"A": "patrol"}))
    assert rows[1] == {"key": "detachment:A", "label": "A (Patrol Detachment)",
                       "value": "HQ 1/1–2 · Troops 2/1–3 · Elites 1/0–2", "over": False, "detail": True}


@pytest.fixture
def patrol_list() -> ArmyList:
    call_command("load_catalogue", stdout=io.StringIO())
    user = make_user()
    faction = Faction.objects.get(slug="ironbound-covenant")
    army_list = services.army_list_create(
        owner=user, system=faction.system, faction=faction, name="Patrol", points_limit=2000,
        structure_options={}, settings={"battle_size": "strike_force"},
    )
    for slug, options in (("forge-castellan", {"warlord": 1}), ("covenant-riflemen", {})):
        template = UnitTemplate.objects.get(faction=faction, slug=slug)
        services.army_list_add_unit(army_list=army_list, unit=template, options=options,
                                    expected_version=None)
    army_list.refresh_from_db()
    return army_list


def test_the_editor_form_sets_a_groups_kind_and_the_list_is_revalidated(client, patrol_list):
    client.force_login(patrol_list.owner)
    castellan, riflemen = patrol_list.units.order_by("position")
    page = client.get(reverse("lists:detail", args=[patrol_list.pk])).content.decode()
    assert f'id="unit-{castellan.pk}-group-kind"' in page and "Patrol Detachment" in page
    url = reverse("lists:unit_details", args=[patrol_list.pk, castellan.pk])
    response = client.post(url, {"version": patrol_list.version, "custom_name": "", "notes": "",
                                 "group": "Alpha", "group_kind": "battalion"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200, response.content.decode()
    assert "Alpha · Battalion Detachment" in response.content.decode()
    patrol_list.refresh_from_db()
    assert patrol_list.group_kinds == {"Alpha": "battalion"}
    checks = sorted(v["check"] for v in patrol_list.violations if v["rule"] == "detachments")
    assert checks == ["battalion_hq", "battalion_troops", "outside"]
    # The riflemen join with the empty menu of a free unit: the group keeps its kind.
    services.army_list_unit_set_details(list_unit=riflemen, custom_name="", notes="", group="Alpha",
                                        group_kind="", expected_version=None)
    patrol_list.refresh_from_db()
    assert patrol_list.group_kinds == {"Alpha": "battalion"}
    # The kind becomes a Patrol: valid.
    services.army_list_unit_set_details(list_unit=riflemen, custom_name="", notes="", group="Alpha",
                                        group_kind="patrol", expected_version=None)
    patrol_list.refresh_from_db()
    assert patrol_list.violations == [] and patrol_list.group_kinds == {"Alpha": "patrol"}
    # Set to none from a unit already in the group: the group is free again.
    services.army_list_unit_set_details(list_unit=riflemen, custom_name="", notes="", group="Alpha",
                                        group_kind="", expected_version=None)
    patrol_list.refresh_from_db()
    assert patrol_list.group_kinds == {}
    services.army_list_unit_set_details(list_unit=riflemen, custom_name="", notes="", group="Alpha",
                                        group_kind="patrol", expected_version=None)
    patrol_list.refresh_from_db()
    refused = client.post(url, {"version": patrol_list.version, "custom_name": "", "notes": "",
                                "group": "Alpha", "group_kind": "apocalypse"}, HTTP_HX_REQUEST="true")
    assert refused.status_code == 400
    assert "Must be one of: patrol, battalion, brigade." in refused.content.decode()
    # The roster, the text export and the JSON export head the group with its kind.
    roster = client.get(reverse("lists:roster", args=[patrol_list.pk])).content.decode()
    assert "Alpha (Patrol Detachment)" in roster
    text = client.get(reverse("lists:roster_text", args=[patrol_list.pk])).content.decode()
    assert "== Alpha (Patrol Detachment) ==" in text
    exported = army_list_to_dict(army_list=patrol_list)
    assert exported["groups"] == {"Alpha": "patrol"} and {u["group"] for u in exported["units"]} == {"Alpha"}
    copy = army_list_import(user=patrol_list.owner, data=json.loads(json.dumps(exported)))
    assert copy.group_kinds == {"Alpha": "patrol"} and copy.is_valid
    bad = {**exported, "groups": {"Alpha": "horde"}}
    with pytest.raises(services.ArmyListError) as error:
        army_list_import(user=patrol_list.owner, data=bad)
    assert ("groups.Alpha", "Must be one of: patrol, battalion, brigade.") in error.value.errors


def test_the_api_reads_and_changes_a_units_detachment(patrol_list):
    api = APIClient()
    api.force_authenticate(patrol_list.owner)
    castellan = patrol_list.units.order_by("position").first()
    body = api.get(f"/api/v1/lists/{patrol_list.pk}").json()
    changed = api.patch(f"/api/v1/lists/{patrol_list.pk}/units/{castellan.pk}",
                        {"group": "Alpha", "group_kind": "patrol"}, format="json",
                        HTTP_IF_MATCH=f'"{body["version"]}"')
    assert changed.status_code == 200, changed.content
    assert changed.json()["groups"] == {"Alpha": "patrol"}
    systems = api.get("/api/v1/systems").json()
    systems = systems["results"] if isinstance(systems, dict) else systems
    kinds = {s["key"]: s["group_kinds"] for s in systems}
    assert kinds["wh40k9"]["brigade"] == "Brigade Detachment" and kinds["opr"] == {}


def test_systems_without_kinds_keep_free_groups(client):
    call_command("load_catalogue", stdout=io.StringIO())
    call_command("load_example_lists", stdout=io.StringIO())
    opr = services.army_list_fork(
        army_list=ArmyList.objects.get(owner__username="examples", system__key="opr"), user=make_user()
    )
    client.force_login(opr.owner)
    page = client.get(reverse("lists:detail", args=[opr.pk])).content.decode()
    assert 'name="group_kind"' not in page and 'name="group"' in page
    example = ArmyList.objects.get(owner__username="examples", system__key="wh40k9")
    assert example.is_valid and example.group_kinds == {"Covenant patrol": "patrol"}
    roster = client.get(reverse("lists:roster", args=[example.pk])).content.decode()
    assert "Covenant patrol (Patrol Detachment)" in roster


def test_joining_a_detachment_updates_the_badge_of_every_unit_of_the_group(client, patrol_list):
    """The kind belongs to the group: the answer re-renders the other units' badges out of band."""
    client.force_login(patrol_list.owner)
    castellan, riflemen = patrol_list.units.order_by("position")
    services.army_list_unit_set_details(list_unit=riflemen, custom_name="", notes="", group="Alpha",
                                        group_kind="", expected_version=None)
    patrol_list.refresh_from_db()
    url = reverse("lists:unit_details", args=[patrol_list.pk, castellan.pk])
    response = client.post(url, {"version": patrol_list.version, "custom_name": "", "notes": "",
                                 "group": "Alpha", "group_kind": "patrol"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200, response.content.decode()
    html = response.content.decode()
    badge = f'<p class="unit-group" id="unit-{riflemen.pk}-group-badge" hx-swap-oob="true">'
    assert badge in html
    assert "Alpha · Patrol Detachment" in html.split(badge, 1)[1].split("</p>", 1)[0]
