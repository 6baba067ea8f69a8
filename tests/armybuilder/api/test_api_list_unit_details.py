"""A unit's own name, notes and group over the API (issue 15): read with the list, set by PATCH."""

from __future__ import annotations

from typing import Any

from armybuilder.models import ArmyList
from tests.armybuilder.api.conftest import if_match


def test_a_unit_gets_its_name_notes_and_group_by_patch(owner_client: Any, private_list: ArmyList) -> None:
    veterans = private_list.units.get(position=0)
    url = f"/api/v1/lists/{private_list.pk}/units/{veterans.pk}"
    change = {"custom_name": "Red Squad", "notes": "Holds the ridge", "group": "Vanguard"}

    response = owner_client.patch(url, change, format="json", **if_match(private_list))

    assert response.status_code == 200, response.json()
    first = response.json()["units"][0]
    assert (first["name"], first["custom_name"], first["notes"], first["group"]) == (
        "Veterans",
        "Red Squad",
        "Holds the ridge",
        "Vanguard",
    )
    assert response.json()["units"][1]["custom_name"] == ""
    assert response.json()["version"] == private_list.version + 1


def test_a_too_long_name_is_a_400_on_custom_name(owner_client: Any, private_list: ArmyList) -> None:
    veterans = private_list.units.get(position=0)
    url = f"/api/v1/lists/{private_list.pk}/units/{veterans.pk}"

    response = owner_client.patch(url, {"custom_name": "x" * 121}, format="json", **if_match(private_list))

    assert response.status_code == 400
    assert "custom_name" in str(response.json())
    veterans.refresh_from_db()
    assert veterans.custom_name == ""
