"""A list of a faction imported with its BattleScribe source, over the API: adding a unit and
changing its options go through the roster engine, as in the editor."""

from __future__ import annotations

from typing import Any

from django.core.management import call_command

from armybuilder.lists.services import army_list_create
from rules.battlescribe_import import import_files
from rules.models import UnitTemplate
from tests.armybuilder.api.conftest import if_match
from tests.rules.battlescribe.files import sources


def test_units_and_options_of_an_imported_faction_follow_the_engine(owner_client: Any, owner: Any) -> None:
    call_command("load_catalogue", verbosity=0)
    files = sources("slots.gst", "slots_warband.cat")
    faction = import_files(system_key="wh40k9", files=files, owner=owner).factions[0]
    army_list = army_list_create(
        owner=owner, system=faction.system, faction=faction, name="API", points_limit=500
    )
    lord = UnitTemplate.objects.get(faction=faction, slug="bs-se-lord")

    added = owner_client.post(f"/api/v1/lists/{army_list.pk}/units", {"unit": lord.pk}, format="json",
                              **if_match(army_list))
    assert added.status_code == 201, added.json()
    unit = added.json()["units"][-1]
    assert (unit["name"], unit["points"]) == ("Warlord", 60)
    assert [o["label"] for o in unit["available_options"]] == ["Master-crafted axe"]
    axe = unit["available_options"][0]["key"]

    changed = owner_client.patch(f"/api/v1/lists/{army_list.pk}/units/{unit['id']}", {"options": {axe: 1}},
                                 format="json", **if_match(army_list))
    assert changed.status_code == 200, changed.json()
    unit = changed.json()["units"][-1]
    assert unit["points"] == 65 and unit["options"] == {axe: 1}
    assert [o["label"] for o in unit["available_options"]] == ["Master-crafted axe", "Banner of Rage"]
    messages = [v["message"] for v in changed.json()["violations"] if v["rule"] == "catalogue"]
    assert messages == ["Patrol Detachment: at least 1 Troops unit needed (now 0)."]

    refused = owner_client.patch(f"/api/v1/lists/{army_list.pk}/units/{unit['id']}",
                                 {"options": {"bsnope": 1}}, format="json", **if_match(army_list))
    assert refused.status_code == 400 and "This unit has no such option." in str(refused.json())


def test_the_force_of_an_imported_faction_list_is_chosen_over_the_api(owner_client: Any, owner: Any) -> None:
    """The list names the catalogue's forces and the one it is built in; another force rebuilds
    its units in it (the Patrol's troops minimum is gone in a Vanguard); a force the catalogue
    does not have is refused naming the field, and nothing changes."""
    call_command("load_catalogue", verbosity=0)
    faction = import_files(system_key="wh40k9", files=sources("slots.gst", "slots_warband.cat"),
                           owner=owner).factions[0]
    army_list = army_list_create(owner=owner, system=faction.system, faction=faction, name="API",
                                 points_limit=500)
    lord = UnitTemplate.objects.get(faction=faction, slug="bs-se-lord")
    added = owner_client.post(f"/api/v1/lists/{army_list.pk}/units", {"unit": lord.pk}, format="json",
                              **if_match(army_list))
    assert added.status_code == 201, added.json()
    shown = added.json()
    assert shown["roster_forces"] == [{"id": "force-patrol", "name": "Patrol Detachment"},
                                      {"id": "force-vanguard", "name": "Vanguard Detachment"}]
    assert shown["roster_force"] == "force-patrol"
    troops = "Patrol Detachment: at least 1 Troops unit needed (now 0)."
    assert troops in [v["message"] for v in shown["violations"]]

    refused = owner_client.patch(f"/api/v1/lists/{army_list.pk}", {"roster_force": "force-nope"},
                                 format="json", **if_match(army_list))
    assert refused.status_code == 400, refused.json()
    assert "roster_force" in str(refused.json()) and "Choose one of the forces" in str(refused.json())

    army_list.refresh_from_db()
    changed = owner_client.patch(f"/api/v1/lists/{army_list.pk}", {"roster_force": "force-vanguard"},
                                 format="json", **if_match(army_list))
    assert changed.status_code == 200, changed.json()
    body = changed.json()
    assert body["roster_force"] == "force-vanguard"
    assert troops not in [v["message"] for v in body["violations"]]
    assert [u["points"] for u in body["units"]][-1] == 60
    army_list.refresh_from_db()
    assert army_list.roster_force == "force-vanguard"
