"""Safe defaults (issue 17, item 8): no CSRF cookie for token clients, no bidi controls in
names, estimates readable only by who could read their sources."""

from __future__ import annotations

from typing import Any

from rest_framework.test import APIClient

from armybuilder.models import ArmyList


def test_token_requests_get_no_csrf_cookie(owner_client: APIClient, private_list: ArmyList,
                                          inline_pdf_renders: None) -> None:
    responses = [owner_client.get("/api/v1/lists"), owner_client.get(f"/api/v1/lists/{private_list.pk}"),
                 owner_client.get(f"/api/v1/lists/{private_list.pk}/export/pdf"),
                 owner_client.get("/api/v1/docs/"),
                 owner_client.post("/api/v1/lists", {"name": "X", "system": "opr", "points_limit": 100},
                                   format="json"),
                 APIClient().post("/api/v1/auth/token", {"username": "owner", "password": "wrong"},
                                  format="json")]

    for response in responses:
        assert "csrftoken" not in response.cookies, response.request["PATH_INFO"]
        assert "sessionid" not in response.cookies


def test_names_with_text_direction_controls_are_refused_everywhere(owner_client: APIClient,
                                                                   private_list: ArmyList, client: Any,
                                                                   owner: Any,
                                                                   inline_pdf_renders: None) -> None:
    from tests.armybuilder.api.conftest import if_match

    evil = "Patrol\u202egnp.exe"
    created = owner_client.post("/api/v1/lists", {"name": evil, "system": "opr", "points_limit": 100},
                                format="json")
    renamed = owner_client.patch(f"/api/v1/lists/{private_list.pk}", {"name": "A\u2067B"}, format="json",
                                 **if_match(private_list))
    # The import's body is checked in the request (issue 38): a 400, not a job that fails.
    imported = owner_client.post("/api/v1/lists/import", {"format": 1, "system": "opr", "name": evil,
                                                          "points_limit": 100, "units": []}, format="json")

    for response in (created, renamed, imported):
        assert response.status_code == 400, response.content
        assert response.json()["details"]["name"] == [
            "A name cannot contain text-direction control characters."]
    assert ArmyList.objects.filter(name__contains="\u202e").count() == 0


def test_a_players_estimate_is_readable_by_that_player_only(owner_client: APIClient, other_client: APIClient,
                                                           db: None) -> None:
    from tests.factories.opr_documents import opr_unit

    body = {"kind": "unit_vs_unit", "attacker": opr_unit("Secret Weapon Team"), "defender": opr_unit("Them")}
    asked = owner_client.post("/api/v1/estimates", body, format="json")
    job = asked.json()["url"]

    assert asked.status_code == 202
    assert owner_client.get(job).status_code == 200
    assert other_client.get(job).status_code == 404
    assert APIClient().get(job).status_code == 404
    # The other player asking the same question gets a job of their own.
    assert other_client.post("/api/v1/estimates", body, format="json").json()["id"] != asked.json()["id"]
